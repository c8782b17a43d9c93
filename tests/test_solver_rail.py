"""Double Rail in the solver: the waste-lock test (an exact dead-end rule) and the complete
search over tableau multisets, checked against its definition, against random play and
against the plain engine search on small positions (docs/solver.md, "### Double Rail")."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest
from test_solver import brute_force, build, replays_to_win

from solitaire import STOCK, WASTE, Move, Position
from solitaire.cards import RANKS, SUITS
from solitaire.rules import GAMES
from solitaire.solver import UNKNOWN, UNWINNABLE, WINNABLE, core, solve
from solitaire.solver.core import DEAL, Result
from solitaire.solver.rail import abstract_search, complete_search, lock
from solitaire.solver.rail.beams import BEAM_WEIGHTS, abstract_beam, abstract_beams
from solitaire.solver.rail.lock import (
    LOCK_START,
    RailAbstract,
    _after,
    _counts_with,
    _fewest_runs,
    _heights_fit,
)

Counts = list[int]


def min_runs(need: Counts, most: Counts) -> int:
    """The fewest descending runs of any multiset with between need[r] and most[r] cards
    of each rank r: every choice, by dynamic programming over the ranks (no greedy)."""
    best = {0: 0}  # cards of the rank above -> fewest runs so far
    for r in range(12, -1, -1):
        nxt: dict[int, int] = {}
        for above, runs in best.items():
            for v in range(need[r], most[r] + 1):
                cost = runs + max(0, v - above)
                if cost < nxt.get(v, 1 << 30):
                    nxt[v] = cost
        best = nxt
    return min(best.values())


def need_of(forced: Counts) -> Counts:
    return [sum(forced[s * 13 + r] for s in range(4)) for r in range(13)]


def ahead_sets(fam: RailAbstract, st: tuple, i: int, left: int) -> tuple[Counts, Counts]:
    """From the definitions: when the waste card at i leaves with ``left`` cards still in
    the stock (its first ``left``), the copies of each face that must be in the tableau, and
    the most cards of each rank it can hold."""
    fnd = st[1]
    out = out_of_reach(fam, st, i, left)
    forced = [0] * 52
    for f in range(52):
        s, r = divmod(f, 13)
        cap = min(2 - out.count(s * 13 + k) for k in range(r + 1))
        forced[f] = max(0, 2 - out.count(f) - cap)
    most = [8 - sum(h > r for h in fnd) - sum(1 for c in out if c % 13 == r) for r in range(13)]
    return forced, most


def out_of_reach(fam: RailAbstract, st: tuple, i: int, left: int) -> list[int]:
    """The cards that are neither up nor in the tableau when the waste card at i leaves
    with ``left`` cards in the stock: the cards under it and the stock's first ``left``."""
    return list(st[2][:i]) + list(fam.stock[:left])


def heights_fit(fam: RailAbstract, st: tuple, i: int, left: int) -> bool:
    """From the definitions: some heights of the foundation piles, each at least its
    height now, leave the tableau then (every card neither out of reach nor up) in at most
    five runs. ``_heights_fit`` (checked against all heights below) is given the copies
    that can be up and the cards per rank, counted here from the cards out of reach."""
    out = out_of_reach(fam, st, i, left)
    caps = bytes(
        min(2 - out.count(s * 13 + k) for k in range(r + 1)) for s in range(4) for r in range(13)
    )
    avail = [8 - sum(1 for c in out if c % 13 == r) for r in range(13)]
    return _heights_fit(caps, avail, st[1], 5)


def fits_then(fam: RailAbstract, st: tuple, i: int, left: int) -> bool:
    """The waste card at i can leave with ``left`` cards in the stock: the forced cards fit
    some counts per rank (a quick bound), and some foundation heights fit."""
    forced, most = ahead_sets(fam, st, i, left)
    return min_runs(need_of(forced), most) <= 5 and heights_fit(fam, st, i, left)


def slow_locked_ahead(fam: RailAbstract, st: tuple) -> bool:
    """From the definition: the waste card at height i leaves with some number s_i of cards
    still in the stock at which the tableau can fit the piles, and a card leaves before
    the cards under it, so s_1 <= s_2 <= ... <= the stock count now; lost if no such
    choice exists (the smallest fitting s_i at or above s_(i-1), height by height)."""
    _, _, waste, sn = st
    low = 0
    for i in range(1, len(waste)):
        fits = [left for left in range(low, sn + 1) if fits_then(fam, st, i, left)]
        if not fits:
            return True
        low = fits[0]
    return False


def each_card_locked(fam: RailAbstract, st: tuple) -> bool:
    """The test without the leaving order: some waste card fits at no stock size."""
    _, _, waste, sn = st
    return any(
        not any(fits_then(fam, st, i, left) for left in range(sn + 1)) for i in range(len(waste))
    )


def counts_locked(fam: RailAbstract, st: tuple) -> bool:
    """The test before the foundations' heights: each rank's count chosen on its own."""
    _, _, waste, sn = st
    low = 0
    for i in range(1, len(waste)):
        fits = [
            left
            for left, (forced, most) in (
                (left, ahead_sets(fam, st, i, left)) for left in range(low, sn + 1)
            )
            if min_runs(need_of(forced), most) <= 5
        ]
        if not fits:
            return True
        low = fits[0]
    return False


def random_step(fam: RailAbstract, st: tuple, rnd: random.Random) -> tuple | None:
    """The position after one random move (dealing one chance in four of any other move),
    with its auto-moves; None when no move is left."""
    ms = fam.moves(st)
    if not ms:
        return None
    weights = [1 if m[0] == DEAL else 4 for m in ms]
    return fam.autoplay(fam.apply(st, rnd.choices(ms, weights)[0]))[0]


@pytest.mark.slow  # 40-130 s: make test runs it, make check does not
def test_lock_ahead_matches_its_definition_and_random_play() -> None:
    """``locked_ahead`` (the waste-lock test): against its definition on positions of random
    games of deals 1-8 and 33 (some locked only by the order the cards leave in, many only
    by the foundations' heights); and each time a waste card leaves (with some number of
    cards left in the stock), the tableau holds the cards an earlier position said would be
    forced then, and no more of a rank than said possible."""
    checked = nontrivial = locked = by_order = by_heights = 0
    for deal in (*range(1, 9), 33):
        fam = RailAbstract(GAMES["double-rail"])
        st, _ = fam.autoplay(fam.start(Position.deal_of("double-rail", deal)))
        rnd = random.Random(100 + deal)
        pending: list[tuple[tuple, int]] = []  # (earlier state, waste position)
        for step in range(300):
            if step % 10 == 0:
                slow = slow_locked_ahead(fam, st)
                assert fam.locked_ahead(st) == slow
                locked += slow
                by_order += slow and not each_card_locked(fam, st)
                by_heights += slow and not counts_locked(fam, st)
                pending += [(st, i) for i in range(len(st[2]))]
            nxt = random_step(fam, st, rnd)
            if nxt is None:
                break
            st = nxt
            cnt, waste, sn = st[0], st[2], st[3]
            ranks = fam.ranks(cnt)
            keep = []
            for old, i in pending:
                if len(waste) > i:
                    keep.append((old, i))
                    continue
                if waste != old[2][:i]:
                    continue  # autoplay took cards from under it in the same step
                forced, most = ahead_sets(fam, old, i, sn)
                assert all(cnt[f] >= forced[f] for f in range(52))
                assert all(ranks[r] <= most[r] for r in range(13))
                checked += 1
                nontrivial += sum(forced) > 0
            pending = keep
    assert checked > 100  # 121 when written
    assert nontrivial > 100  # 121
    assert locked > 60  # 99 of 270 when written (52 of 240 before the heights)
    assert by_order > 0  # 2 when written: locked by the leaving order, no card alone
    assert by_heights > 20  # 45 when written: locked only by the foundations' heights


def test_lock_memo_answers_as_a_fresh_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """The waste-lock test keeps answers per waste bottom between positions: along random
    games it answers as a fresh family would, also when its memo is emptied every few
    entries."""
    monkeypatch.setattr(lock, "LOCK_MEMO", 7)
    shared = RailAbstract(GAMES["double-rail"])
    seen = locked = 0
    for deal in (3, 9):
        position = Position.deal_of("double-rail", deal)
        st, _ = shared.autoplay(shared.start(position))
        rnd = random.Random(deal)
        for _ in range(250):
            fresh = RailAbstract(GAMES["double-rail"])
            fresh.start(position)
            answer = shared.locked_ahead(st)
            assert answer == fresh.locked_ahead(st)
            seen += 1
            locked += answer
            nxt = random_step(shared, st, rnd)
            if nxt is None:
                break
            st = nxt
    assert seen > 200
    assert locked > 10


def test_lock_memo_is_kept_for_the_same_stock_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The beams of a deal share one family (and its waste-lock memo): started again on the
    same deal it keeps its answers, on another deal it empties them; either way it answers
    as a fresh family, also with the memo emptied every few entries."""
    monkeypatch.setattr(lock, "LOCK_MEMO", 11)
    shared = RailAbstract(GAMES["double-rail"])
    asked = 0
    memo = None
    for deal, kept in ((3, False), (3, True), (9, False), (3, False)):
        position = Position.deal_of("double-rail", deal)
        st, _ = shared.autoplay(shared.start(position))
        assert (shared.leave_answers is memo) == kept
        memo = shared.leave_answers
        rnd = random.Random(deal + asked)
        for _ in range(150):
            fresh = RailAbstract(GAMES["double-rail"])
            fresh.start(position)
            assert shared.lock_margin(st) == fresh.lock_margin(st)
            asked += 1
            nxt = random_step(shared, st, rnd)
            if nxt is None:
                break
            st = nxt
    assert asked > 300


@pytest.mark.slow  # 40-130 s: make test runs it, make check does not
def test_lock_margin_counts_the_deals_left_before_the_waste_locks() -> None:
    """``lock_margin``: with the same waste and m fewer cards in the stock the position is
    not locked, with m + 1 fewer it is (by the slow definition), m the margin; -1 exactly
    when ``locked_ahead`` says locked."""
    fam = RailAbstract(GAMES["double-rail"])
    tight = locked = 0
    for deal in (3, 9, 17):
        st, _ = fam.autoplay(fam.start(Position.deal_of("double-rail", deal)))
        rnd = random.Random(deal)
        for _ in range(200):
            margin = fam.lock_margin(st)
            assert (margin < 0) == fam.locked_ahead(st) == slow_locked_ahead(fam, st)
            locked += margin < 0
            cnt, fnd, waste, sn = st
            if 0 <= margin < sn and len(waste) > 1:
                assert not slow_locked_ahead(fam, (cnt, fnd, waste, sn - margin))
                assert slow_locked_ahead(fam, (cnt, fnd, waste, sn - margin - 1))
                tight += 1
            nxt = random_step(fam, st, rnd)
            if nxt is None:
                break
            st = nxt
    assert tight > 40  # 89 when written
    assert locked > 100  # 264 of 600


def test_min_runs_greedy_is_exact() -> None:
    """``locked_ahead`` takes, from the King down, as many cards of each rank as the rank above
    (within the bounds): the exact minimum, checked against the dynamic programme."""
    rnd = random.Random(5)
    for _ in range(2000):
        need = [rnd.choice((0, 0, 0, 1, 2, 3)) for _ in range(13)]
        most = [n + rnd.choice((0, 0, 1, 2, 4)) for n in need]
        runs = above = 0
        for r in range(12, -1, -1):
            lo, hi = need[r], most[r]
            v = lo if above <= lo else (above if above <= hi else hi)
            runs += max(0, v - above)
            above = v
        assert runs == min_runs(need, most)


def test_counts_built_at_once_are_the_counts_built_card_by_card() -> None:
    """``_counts_with`` (the lock test's jump to a stock size far down) gives what
    ``_after`` gives one card at a time: copies out of reach, copies that can be up,
    forced copies, forced cards per rank and the fewest runs, on random card sequences
    (each face at most twice)."""
    rnd = random.Random(5)
    for _ in range(200):
        deck = list(range(52)) * 2
        rnd.shuffle(deck)
        cards = deck[: rnd.randint(0, 104)]
        split = rnd.randint(0, len(cards))
        counts = LOCK_START
        for c in cards[:split]:
            counts = _after(counts, c)
        v, caps, forced, need, fewest = _counts_with(counts[0], bytes(cards[split:]))
        for c in cards[split:]:
            counts = _after(counts, c)
        assert (bytes(v), bytes(caps), bytes(forced), bytes(need), fewest) == counts[:5]


def test_fewest_runs_is_the_minimum_and_stops_only_past_its_limit() -> None:
    """``_fewest_runs`` (greedy from the King down) against every choice of counts
    (``min_runs``); with a limit it may stop early, but only once the count is over it, so
    "at most ``limit`` runs" is answered exactly and a count within the limit is exact."""
    rnd = random.Random(11)
    for _ in range(400):
        need = [rnd.choice((0, 0, 0, 1, 1, 2, 3)) for _ in range(13)]
        most = [n + rnd.choice((0, 0, 1, 2, 4)) for n in need]
        fewest = min_runs(need, most)
        assert _fewest_runs(bytes([*need, 0]), most) == fewest
        for limit in range(12):
            counted = _fewest_runs(bytes([*need, 0]), most, limit)
            assert (counted <= limit) == (fewest <= limit)
            assert counted == fewest if fewest <= limit else counted > limit


def test_heights_fit_is_the_fewest_runs_over_all_heights() -> None:
    """``_heights_fit`` (a matching of pile tops to ranks) against every choice of heights
    of the eight foundation piles allowed by the copies out of reach and the heights now,
    the tableau's runs counted from its cards (``min_runs``), for every number of piles."""
    rnd = random.Random(8)
    checked = two_ways = 0
    fewest_seen = set()
    while checked < 300:
        out = [rnd.choice((0, 0, 0, 0, 1, 1, 2)) for _ in range(52)]  # copies out of reach
        can = [2 - x for x in out]
        caps = bytes(min(can[s * 13 : s * 13 + r + 1]) for s in range(4) for r in range(13))
        avail = [sum(can[s * 13 + r] for s in range(4)) for r in range(13)]
        fnd: list[int] = []
        pairs = []
        either = 0  # suits whose piles may each be the higher one, with different ranges
        for s in range(4):
            m1 = next((r for r in range(13) if can[s * 13 + r] == 0), 13)
            m2 = next((r for r in range(13) if can[s * 13 + r] <= 1), 13)
            c1 = rnd.randint(max(0, m1 - 4), m1)
            c2 = rnd.randint(max(0, min(c1, m2) - 4), min(c1, m2))
            fnd += [c1, c2]
            either += c1 <= m2 < m1 and c1 != c2
            pairs.append(
                [
                    (a, b)
                    for a in range(c1, 14)
                    for b in range(c2, 14)
                    if all((a > r) + (b > r) <= can[s * 13 + r] for r in range(13))
                ]
            )
        if any(not p for p in pairs):
            raise AssertionError("the heights now are always allowed")
        if len(pairs[0]) * len(pairs[1]) * len(pairs[2]) * len(pairs[3]) > 3000:
            continue
        fewest = 99
        for combo in itertools.product(*pairs):
            heights = [h for pair in combo for h in pair]
            tableau = [avail[r] - sum(h > r for h in heights) for r in range(13)]
            fewest = min(fewest, min_runs(tableau, tableau))
        for piles in range(25):
            assert _heights_fit(caps, avail, tuple(fnd), piles) == (fewest <= piles)
        checked += 1
        two_ways += either > 0
        fewest_seen.add(fewest)
    assert two_ways > 30  # 40 of 300 when written
    assert len(fewest_seen) > 4


# --------------------------------------------------------------------------- hand-built


def six_kings(kings: int) -> Position:
    """Spades, hearts and diamonds at the Jack; their six Queens at the bottom of the
    waste under ``kings`` Kings; clubs complete. Each King can leave the waste only for an
    empty pile (its Queen is under it), so six Kings need six piles."""
    queens = ["QS", "QS", "QH", "QH", "QD", "QD"]
    all_kings = ["KS", "KS", "KH", "KH", "KD", "KD"]
    stock = all_kings[kings:]
    return build("double-rail", [([], [])] * 5, stock=stock, waste=queens + all_kings[:kings])


def test_six_kings_over_their_queens_are_locked() -> None:
    lost = six_kings(6)
    fam = RailAbstract(lost.rules)
    root, _ = fam.autoplay(fam.start(lost))
    assert fam.locked_ahead(root)
    assert abstract_search(lost, 10, None).result == UNWINNABLE
    assert solve(lost, budget=10).result == UNWINNABLE
    assert brute_force(lost) is False


def test_five_kings_over_their_queens_are_not_locked() -> None:
    """Five Kings on the waste, the sixth in the stock: the five go to the five piles, the
    Queens to the foundations, and the game is won; the test does not fire. Dealing the
    sixth King first locks the waste (six Kings over their Queens), and the test sees it."""
    position = six_kings(5)
    fam = RailAbstract(position.rules)
    root, _ = fam.autoplay(fam.start(position))
    assert not fam.locked_ahead(root)
    dealt, _ = fam.autoplay(fam.apply(root, (DEAL,)))
    assert fam.locked_ahead(dealt)
    result = abstract_search(position, 10, None)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert brute_force(position) is True
    assert brute_force(position.play(Move(STOCK, WASTE))) is False


def kings_without_their_queens(free_piles: int) -> Position:
    """Clubs and diamonds at the Jack, their Queens and a King at the bottom of the waste,
    their other Kings on 5 - ``free_piles`` piles (the last one, with three free piles, at
    the very bottom of the waste); spades at the 9 with both Queens and a
    Ten under the waste's other cards: Ten, Jacks and Kings of spades, a Queen and King of
    hearts (hearts at the King and the Jack)."""
    kings = [([], [k]) for k in ("KC", "KC", "KD")[: 5 - free_piles]]
    waste = ["KD"] * (free_piles - 2) + ["QC", "QC", "QD", "QD", "KD", "TS", "QS", "QS"]
    waste += ["JS", "KS", "TS", "JS", "QH", "KH", "KS"]
    return build("double-rail", kings + [([], [])] * free_piles, waste=waste)


def test_kings_without_their_queens_are_locked_by_the_foundations_heights() -> None:
    """Two free piles. When the spades above the Queens have left, one spade pile can reach
    the Jack and the other the 9, so both Kings and a Jack of spades are in the tableau:
    three runs, or three again with the heart Queen between a King and the Jack, since its
    pile then stops at the Jack and its King is in the tableau too. Counting each rank on
    its own, a Queen could join them in two runs; the heights see that it cannot."""
    lost = kings_without_their_queens(2)
    fam = RailAbstract(lost.rules)
    root, _ = fam.autoplay(fam.start(lost))
    assert fam.locked_ahead(root)
    assert not counts_locked(fam, root)
    assert brute_force(lost) is False
    assert abstract_search(lost, 10, None).result == UNWINNABLE


def test_kings_without_their_queens_with_a_third_pile_are_not_locked() -> None:
    """The same with a third free pile (the second King of diamonds at the bottom of the
    waste): the three runs fit, the test does not fire, and the game is won."""
    position = kings_without_their_queens(3)
    fam = RailAbstract(position.rules)
    root, _ = fam.autoplay(fam.start(position))
    assert not fam.locked_ahead(root)
    assert brute_force(position) is True
    result = abstract_search(position, 10, None)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_search_prunes_the_locked_branch_and_still_wins() -> None:
    """Five Kings over their Queens, the sixth in the stock, with the moves tried in reverse
    order (deal first): the search deals the sixth King, the test rejects that position,
    and the search goes on to the winning line (Kings to the piles first)."""
    position = six_kings(5)
    fires = [0]
    plain_moves, plain_lock = RailAbstract.moves, RailAbstract.locked_ahead

    def reversed_moves(self: RailAbstract, st: tuple) -> list:
        return plain_moves(self, st)[::-1]

    def counting(self: RailAbstract, st: tuple) -> bool:
        v = plain_lock(self, st)
        fires[0] += v
        return v

    RailAbstract.moves = reversed_moves  # type: ignore[method-assign]
    RailAbstract.locked_ahead = counting  # type: ignore[method-assign]
    try:
        result = abstract_search(position, 10, None)
    finally:
        RailAbstract.moves = plain_moves  # type: ignore[method-assign]
        RailAbstract.locked_ahead = plain_lock  # type: ignore[method-assign]
    assert fires[0] > 0
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def random_small_position(rnd: random.Random) -> Position:
    """The highest cards of each suit out (both copies, 4 to 12 cards; the rest on the
    foundations), dealt at random onto descending runs on the five piles, the waste and
    the stock."""
    while True:
        tops = [rnd.choice((0, 0, 1, 1, 2, 3)) for _ in SUITS]
        if 2 <= sum(tops) <= 6:
            break
    cards = [
        r + s
        for s, top in zip(SUITS, tops, strict=True)
        for r in RANKS[13 - top :]
        for _ in range(2)
    ]
    rnd.shuffle(cards)
    piles: list[list[str]] = [[] for _ in range(5)]
    waste: list[str] = []
    stock: list[str] = []
    for c in cards:
        where = rnd.random()
        if where < 0.3:
            p = piles[rnd.randrange(5)]
            if not p or RANKS.index(p[-1][0]) == RANKS.index(c[0]) + 1:
                p.append(c)
                continue
        (waste if where < 0.7 else stock).append(c)
    return build("double-rail", [([], p) for p in piles], stock=stock, waste=waste)


def kings_over_queens(rnd: random.Random) -> Position:
    """Three or four suits out from the Queen (now and then from the Jack) up, both copies;
    the low cards at the bottom of the waste (the last two in the stock when there are more
    than eight), each King on a pile (10 %), the waste (60 %) or anywhere in the stock."""
    suits = rnd.sample(SUITS, rnd.choice((3, 4)))
    low = [r + s for s in suits for r in ("Q" if rnd.random() < 0.85 else "JQ") for _ in range(2)]
    kings = ["K" + s for s in suits for _ in range(2)]
    rnd.shuffle(low)
    rnd.shuffle(kings)
    waste = low[: len(low) - 2] if len(low) > 8 else list(low)
    stock = low[len(waste) :]
    piles: list[list[str]] = [[] for _ in range(5)]
    for k in kings:
        x = rnd.random()
        empty = next((p for p in piles if not p), None)
        if x < 0.1 and empty is not None:
            empty.append(k)
        elif x < 0.7:
            waste.append(k)
        else:
            stock.insert(rnd.randrange(len(stock) + 1), k)
    return build("double-rail", [([], p) for p in piles], stock=stock, waste=waste)


def with_brute_force(positions: list[Position]) -> Iterator[tuple[Position, bool]]:
    """Each position with its answer from the plain engine search; positions too big for it
    are skipped."""
    for position in positions:
        try:
            truth = brute_force(position, cap=60_000)
        except AssertionError:
            continue
        yield position, truth


def multiset_search(position: Position) -> Result:
    """The complete multiset search with 20 s."""
    return abstract_search(position, 20, None)


def check_against_brute_force(
    positions: list[Position], search: Callable[[Position], Result] = multiset_search
) -> tuple[int, int, int]:
    """``search`` (by default the complete multiset search, with the waste-lock tests) and
    the plain engine search agree on each position; every position the tests call locked is
    lost; winning lines replay. Counts: won, lost, locked at the start (``locked_ahead``).
    Positions too big for the brute force are skipped."""
    won = lost = locked = 0
    for position, truth in with_brute_force(positions):
        fam = RailAbstract(position.rules)
        root, _ = fam.autoplay(fam.start(position))
        if fam.locked_ahead(root):
            locked += 1
            assert truth is False
        result = search(position)
        assert result.result == (WINNABLE if truth else UNWINNABLE)
        if truth:
            won += 1
            assert result.line is not None
            assert replays_to_win(position, result.line)
        else:
            lost += 1
    return won, lost, locked


@pytest.mark.slow  # 40-130 s: make test runs it, make check does not
def test_multiset_search_matches_brute_force_on_random_small_positions() -> None:
    """Random small positions, Jacks to Kings dealt anywhere (all won: five piles hold
    that much), then Kings over their Queens (some lost, most of those locked)."""
    rnd = random.Random(2026)
    won, lost, _ = check_against_brute_force([random_small_position(rnd) for _ in range(60)])
    assert won > 50
    rnd = random.Random(3)
    won, lost, locked = check_against_brute_force([kings_over_queens(rnd) for _ in range(30)])
    assert won > 10
    assert lost > 3
    assert locked > 3


# --------------------------------------------------------------------------- whole deals


def test_deals_proved_lost_from_the_start() -> None:
    """Double Rail deals proved lost from their start: 2804 (its five piles can never empty
    nor join, and the waste locks within 17 cards: 40 positions), 5 (455 positions; 7 741
    before the foundations' heights entered the lock test), 19 and 20 (2 069 and 5 370;
    before, 300 s of search did not decide them). The search is complete, so any move order
    visits the same positions."""
    for deal, most in ((2804, 100), (5, 1_000), (19, 5_000), (20, 10_000)):
        result = abstract_search(Position.deal_of("double-rail", deal), None, 50_000)
        assert result.result == UNWINNABLE
        assert result.nodes <= most
    assert solve(Position.deal_of("double-rail", 2804), budget=10).result == UNWINNABLE


# --------------------------------------------------------------------------- beams


@pytest.mark.slow  # 40-130 s: make test runs it, make check does not
def test_beams_only_say_winnable_with_a_line_that_wins() -> None:
    """The beam searches drop states, so they may miss a win but must never call a position
    lost: on random small positions (lost ones included, from the brute force) they answer
    "winnable" with a line that replays to a win, or "unknown"; and they win most of the
    won ones."""
    rnd = random.Random(11)
    positions = [random_small_position(rnd) for _ in range(25)]
    positions += [kings_over_queens(rnd) for _ in range(25)]
    won = beaten = lost = 0
    for position, truth in with_brute_force(positions):
        for result in (
            abstract_beam(position, 10, None, 3),
            abstract_beam(position, 10, None, 3, BEAM_WEIGHTS, 1, 1),
            abstract_beams(position, 2, None),
        ):
            assert result.result != UNWINNABLE
            if result.result == WINNABLE:
                assert truth
                assert result.line is not None
                assert replays_to_win(position, result.line)
        won += truth
        lost += not truth
        beaten += result.result == WINNABLE
    assert lost > 3
    assert beaten > won // 2


def test_beams_win_whole_deals_with_lines_that_replay() -> None:
    """Deals the beams win fast (docs/solver.md: 2807 and 2811 within ~1.5 s): the lines
    replay to a win through the engine; and solve() still proves 2804 lost."""
    for deal in (2807, 2811):
        position = Position.deal_of("double-rail", deal)
        result = abstract_beams(position, None, 2_000_000)
        assert result.result == WINNABLE
        assert result.line is not None
        assert replays_to_win(position, result.line)


def test_beams_that_keep_several_waste_bottoms_win_where_a_plain_beam_does_not() -> None:
    """Deal 18 (no phase of the solver won it at 60 s before): the plain beam dies with
    every state it keeps sharing one early choice of waste bottom; the same beam keeping at
    most 5 states per 2-card bottom wins it, and its line replays."""
    position = Position.deal_of("double-rail", 18)
    plain = abstract_beam(position, None, 2_000_000, 300, BEAM_WEIGHTS)
    assert plain.result == UNKNOWN
    assert plain.reason == "beam"
    several = abstract_beam(position, None, 2_000_000, 300, BEAM_WEIGHTS, 2, 5)
    assert several.result == WINNABLE
    assert several.line is not None
    assert replays_to_win(position, several.line)


def test_random_beams_run_only_where_a_fixed_beam_got_deep(cpu_clock: None) -> None:
    """Deal 323: a fixed beam keeps states down to 1 card left and the first random beam
    wins it (its line replays). Deal 409 (lost): every fixed beam dies with 62 or more
    cards left, so the random beams are skipped ("shallow"), well inside the budget, and
    the solver's complete searches get that time."""
    from solitaire.solver.rail.beams import BEAM_PORTFOLIO, RANDOM_BEAMS_BELOW

    position = Position.deal_of("double-rail", 323)
    result = abstract_beams(position, 30, None)
    assert result.result == WINNABLE
    assert result.extra["beam"] == len(BEAM_PORTFOLIO) + 1
    assert result.line is not None
    assert replays_to_win(position, result.line)
    position = Position.deal_of("double-rail", 409)
    alive = [abstract_beam(position, None, None, *beam).extra["alive"] for beam in BEAM_PORTFOLIO]
    assert min(alive) >= RANDOM_BEAMS_BELOW
    asked: list[float] = []
    result = abstract_beams(position, 30, None, deep_budget=deep_budget_asked(asked, 1.0))
    assert result.result == UNKNOWN
    assert result.reason == "shallow"
    assert result.seconds < 15
    assert not asked  # a shallow deal gets no longer share


def deep_budget_asked(asked: list[float], seconds: float) -> Callable[[], float]:
    """A ``deep_budget`` for :func:`abstract_beams` that notes the clock when it is asked."""

    def deep_budget() -> float:
        asked.append(core.clock())
        return seconds

    return deep_budget


def test_beams_of_a_deep_deal_run_for_the_deep_budget() -> None:
    """Deal 225 (unknown at 60 s): a fixed beam gets below RANDOM_BEAMS_BELOW cards left, so
    after the portfolio the random and tail beams run for the seconds ``deep_budget``
    returns (the solver's longer share for deep deals), not to the end of ``budget``."""
    position = Position.deal_of("double-rail", 225)
    asked: list[float] = []
    result = abstract_beams(position, 60, None, deep_budget=deep_budget_asked(asked, 2.0))
    assert result.result == UNKNOWN
    assert result.reason == "budget"
    assert len(asked) == 1
    assert 2.0 <= core.clock() - asked[0] < 3.0


def test_tail_beams_win_where_the_beams_that_kept_the_states_died() -> None:
    """Deal 255 (unknown at 60 s before tail beams): no fixed beam wins it, and those that
    die with fewer than RANDOM_BEAMS_BELOW cards left keep their states some layers before
    their end; a beam of random weights from one of them wins within the first round of
    tails, and the line (the fixed beam's moves to that state, then the tail beam's)
    replays to a win. Tail beams never say lost: from deal 409's states (a lost deal) they
    answer "unknown", within their node cap."""
    from solitaire.solver.rail.beams import (
        BEAM_PORTFOLIO,
        RANDOM_BEAMS_BELOW,
        TAIL_BACK,
        TAIL_STATES,
        Tail,
        TailBeams,
    )

    position = Position.deal_of("double-rail", 255)
    beams = TailBeams(position)
    for beam in BEAM_PORTFOLIO:
        tails: list[Tail] = []
        fixed = abstract_beam(position, None, None, *beam, tails=tails)
        assert fixed.result == UNKNOWN
        assert len(tails) <= len(TAIL_BACK) * TAIL_STATES
        if fixed.extra["alive"] < RANDOM_BEAMS_BELOW:
            beams.add(tails)
    assert beams.tails
    result = beams.run(None, None, None)
    assert result.result == WINNABLE
    assert result.extra["tail"] <= len(beams.tails)
    assert result.line is not None
    assert replays_to_win(position, result.line)
    position = Position.deal_of("double-rail", 409)
    tails = []
    abstract_beam(position, None, None, *BEAM_PORTFOLIO[0], tails=tails)
    beams = TailBeams(position)
    beams.add(tails)
    result = beams.run(None, None, 30_000)
    assert result.result == UNKNOWN
    assert result.nodes <= 30_000 + 300  # a beam stops within a layer of its cap
    assert beams.done > len(tails)  # round again, with new weights


def test_complete_search_resumes_where_it_stopped() -> None:
    """The solver's last phase goes on with the first phase's search: run in slices of
    500 positions, deal 20 is proved lost after the same positions as in one run."""
    position = Position.deal_of("double-rail", 20)
    whole = abstract_search(position, None, None)
    assert whole.result == UNWINNABLE
    search = complete_search(position)
    total = 0
    for _ in range(100):
        part = search.run(None, 500)
        total += part.nodes
        if part.result != "unknown":
            break
    assert part.result == UNWINNABLE
    assert total == whole.nodes == 5_370


# --------------------------------------------------------------------------- deal first


@pytest.mark.slow  # 40-130 s: make test runs it, make check does not
def test_deal_first_search_matches_brute_force_on_random_small_positions() -> None:
    """The complete search with its moves in the reverse order (deal first) visits the
    positions in another order, never fewer of them: it gives the plain engine search's
    answer on every small position (lost ones included), and its wins replay."""
    rnd = random.Random(7)
    positions = [random_small_position(rnd) for _ in range(30)]
    positions += [kings_over_queens(rnd) for _ in range(30)]
    won, lost, _ = check_against_brute_force(
        positions, lambda position: complete_search(position, deal_first=True).run(20, None)
    )
    assert won > 10
    assert lost > 3


def test_deal_first_search_wins_deals_the_usual_order_misses() -> None:
    """Deals 91 and 136 (no phase decided them at 60 s before): the deal-first search wins
    them within 10 000 positions, the usual order not within 20 000; the lines replay. It
    still proves deals 19 and 20 lost, and solve() wins 91."""
    for deal in (91, 136):
        position = Position.deal_of("double-rail", deal)
        assert complete_search(position).run(None, 20_000).result == UNKNOWN
        result = complete_search(position, deal_first=True).run(None, 10_000)
        assert result.result == WINNABLE
        assert result.line is not None
        assert replays_to_win(position, result.line)
    for deal in (19, 20):
        position = Position.deal_of("double-rail", deal)
        assert complete_search(position, deal_first=True).run(None, 10_000).result == UNWINNABLE
    result = solve(Position.deal_of("double-rail", 91), budget=20)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(Position.deal_of("double-rail", 91), result.line)


# --------------------------------------------------------------------------- searches in turns


def in_turns(position: Position, turn: int, shared: bool = True) -> tuple[Result, int]:
    """The usual order and the deal-first order taking turns of ``turn`` positions, each
    skipping what the other has proved lost (the solver's last phase) unless not ``shared``:
    the answer and the positions both searched."""
    first, deal_first = complete_search(position), complete_search(position, deal_first=True)
    if shared:
        first.partners, deal_first.partners = [deal_first], [first]
    for n in range(100_000):
        result = (deal_first, first)[n % 2].run(None, turn)
        if result.result != UNKNOWN:
            return result, first.nodes + deal_first.nodes
    raise AssertionError("no answer")


@pytest.mark.slow  # 40-130 s: make test runs it, make check does not
def test_searches_in_turns_match_brute_force_on_random_small_positions() -> None:
    """Turns of a few positions, so that each search often resumes under positions the other
    has finished since (its stack is cut there): still the plain engine search's answer on
    every small position, and winning lines that replay."""
    rnd = random.Random(7)
    positions = [random_small_position(rnd) for _ in range(30)]
    positions += [kings_over_queens(rnd) for _ in range(30)]

    def both(position: Position) -> Result:
        (small, _), (larger, _) = in_turns(position, 3), in_turns(position, 17)
        assert small.result == larger.result
        assert larger.line is None or replays_to_win(position, larger.line)
        return small

    won, lost, _ = check_against_brute_force(positions, both)
    assert won > 10
    assert lost > 3


def test_searches_in_turns_share_their_proofs() -> None:
    """Deal 20 (lost): the two orders alone need 5 370 positions and more each; in turns
    of 500 they prove it in barely more than the smaller of the two, not in their sum;
    without sharing, in more."""
    position = Position.deal_of("double-rail", 20)
    alone = [complete_search(position, deal_first=d).run(None, None) for d in (False, True)]
    assert all(r.result == UNWINNABLE for r in alone)
    least = min(r.nodes for r in alone)

    def total(shared: bool) -> int:
        result, nodes = in_turns(position, 500, shared)
        assert result.result == UNWINNABLE
        return nodes

    assert total(True) <= least * 1.1
    assert total(False) > least * 1.5
