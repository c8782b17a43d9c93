"""Double Rail in the solver: five piles built down in any suit, ordered runs move, anything
fills an empty pile, a stock dealt one card at a time onto the waste with no redeal."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from itertools import accumulate, product
from operator import gt
from typing import NamedTuple

from ...position import Position
from ...rules import GameRules
from .. import core
from ..core import (
    DEAL,
    SEP,
    T2F,
    T2T,
    UNKNOWN,
    UNWINNABLE,
    W2F,
    W2T,
    WINNABLE,
    DepthFirst,
    Family,
    IMove,
    Result,
    State,
    best_first,
    depth_first,
    first_item,
    to_engine,
)

# --------------------------------------------------------------------------- Double Rail


class Rail(Family):
    """Double Rail: five piles built down in any suit, ordered runs move, anything fills an
    empty pile, a stock dealt one card at a time onto the waste with no redeal.
    State: (tableau, foundations, waste, stock count)."""

    def start(self, pos: Position) -> State:
        self.stock = bytes(c % 52 for c in pos.stock)
        tab = tuple(bytes(c % 52 for c in p) for p in pos.tableau)
        waste = bytes(c % 52 for c in pos.waste)
        return (tab, self.fnd_from(pos), waste, len(pos.stock))

    def key(self, st: State) -> bytes:
        waste: bytes = st[2]
        return SEP.join(sorted(st[0])) + b"\xfe" + bytes((st[3],)) + waste

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        tab, fnd, waste, sn = st
        done: list[IMove] = []
        again = True
        while again:
            again = False
            for i, p in enumerate(tab):
                if p:
                    c = p[-1]
                    k = self.f_index(fnd, c)
                    if k >= 0 and self.is_safe(fnd, c):
                        fnd = self.f_add(fnd, k)
                        lst = list(tab)
                        lst[i] = p[:-1]
                        tab = tuple(lst)
                        done.append((T2F, i))
                        again = True
            if waste:
                c = waste[-1]
                k = self.f_index(fnd, c)
                if k >= 0 and self.is_safe(fnd, c):
                    fnd = self.f_add(fnd, k)
                    waste = waste[:-1]
                    done.append((W2F,))
                    again = True
        return (tab, fnd, waste, sn), done

    def apply(self, st: State, m: IMove) -> State:
        tab, fnd, waste, sn = st
        kind = m[0]
        if kind == DEAL:
            return (tab, fnd, waste + self.stock[sn - 1 : sn], sn - 1)
        lst = list(tab)
        if kind == T2T:
            _, i, t, n = m
            p = tab[i]
            lst[i] = p[:-n]
            lst[t] = tab[t] + p[-n:]
        elif kind == T2F:
            i = m[1]
            p = tab[i]
            fnd = self.f_add(fnd, self.f_index(fnd, p[-1]))
            lst[i] = p[:-1]
        elif kind == W2F:
            fnd = self.f_add(fnd, self.f_index(fnd, waste[-1]))
            waste = waste[:-1]
            return (tab, fnd, waste, sn)
        else:  # W2T
            t = m[1]
            lst[t] = tab[t] + waste[-1:]
            waste = waste[:-1]
        return (tuple(lst), fnd, waste, sn)

    def moves(self, st: State) -> list[IMove]:
        tab, fnd, waste, sn = st
        scored: list[tuple[int, IMove]] = []
        empty = -1
        tops = [-1] * len(tab)
        for t, p in enumerate(tab):
            if p:
                tops[t] = p[-1] % 13
                if self.f_index(fnd, p[-1]) >= 0:
                    scored.append((100, (T2F, t)))
            elif empty < 0:
                empty = t
        if waste:
            w = waste[-1]
            if self.f_index(fnd, w) >= 0:
                scored.append((100, (W2F,)))
            rw = w % 13 + 1
            for t, r in enumerate(tops):
                if r == rw:
                    scored.append((70, (W2T, t)))
            if empty >= 0:
                scored.append((35, (W2T, empty)))
        for i, p in enumerate(tab):
            n = len(p)
            if not n:
                continue
            k = n - 1
            while k > 0 and p[k - 1] % 13 == p[k] % 13 + 1:
                k -= 1
            run = k
            for k in range(run, n):
                r = p[k] % 13 + 1
                if k == 0:
                    base = 90  # empties the pile
                elif k == run:
                    base = 80 if self.f_index(fnd, p[k - 1]) >= 0 else 60
                else:
                    if self.f_index(fnd, p[k - 1]) >= 0:
                        base = 80
                    elif self.restricted:
                        continue
                    else:
                        base = 10
                for t, rt in enumerate(tops):
                    if rt == r and t != i:
                        scored.append((base, (T2T, i, t, n - k)))
                if empty >= 0 and k > 0:
                    scored.append((base - 30, (T2T, i, empty, n - k)))
        if sn:
            scored.append((50, (DEAL,)))
        scored.sort(key=first_item, reverse=True)
        return [m for _, m in scored]

    def score(self, st: State) -> float:
        tab, fnd, waste, sn = st
        s = 30.0 * sum(fnd) - 0.5 * len(waste)
        for p in tab:
            if not p:
                s += 6
            for k in range(1, len(p)):
                if p[k - 1] % 13 != p[k] % 13 + 1:
                    s -= 2
        stock = self.stock
        nw = len(waste)
        for k in range(8):
            h = fnd[k]
            if h >= 13:
                continue
            face = (k >> 1) * 13 + h
            j = waste.rfind(face)
            if j >= 0:
                s -= 2 * (nw - 1 - j)
                continue
            for p in tab:
                j = p.rfind(face)
                if j >= 0:
                    s -= 2 * (len(p) - 1 - j)
                    break
            else:
                j = stock.rfind(face, 0, sn)
                if j >= 0:
                    s -= 0.3 * (sn - 1 - j)
        return s


FAMILY = Rail

# How the budget is shared: a short complete search first (it decides positions whose
# waste locks soon, e.g. deals 19 and 20 in 2 069 and 5 370 positions), then a portfolio
# of beam searches over tableau multisets (they find wins only), then the complete search
# again with the rest. A hand-made position whose piles are not single runs gets the
# restricted best-first search over the piles, then the plain depth-first search.
# Measured at 60 s CPU over deals 1-150 (docs/solver.md): every deal proved lost needed at
# most 22 s of complete search (deal 6), while the beams went on winning deals up to 32 s
# into their share (54, 61, 132, 135 at 24-32 s of beams; nothing more in 50 s). So the
# beams get 55 % (33 s of 60), the complete search 5 % first and the last 40 % (27 s in all).
# A longer first phase (10 %) delays every win of the beams (median decided deal at 60 s:
# 6.1 s against 3.2 s). The randomised dives won no deal of 1-50 at 60 s that the other
# phases did not, so they get no share (a positive RAIL_DIVES_PHASE puts them after the beams).
RAIL_PROBE_PHASE = 0.05
RAIL_BEAM_PHASE = 0.55
RAIL_DIVES_PHASE = 0.0
RAIL_FIRST_PHASE = 0.05
#: The first complete search's node cap when neither a budget nor a node cap is given.
PROBE_NODES = 50_000


def search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """Over tableau multisets: the complete search (:func:`abstract_search`, 5 % of the
    budget), beam searches (:func:`abstract_beams`, 55 %: they can only find wins), then
    the complete search again with the rest (40 %; randomised dives, :func:`abstract_dives`,
    before it if RAIL_DIVES_PHASE is set). A hand-made position whose piles are not single runs:
    a best-first search over a restricted move set (5 %, wins only), then the plain
    depth-first search over the piles."""
    t0 = core.clock()
    nodes = 0

    def share(f: float) -> float | None:
        """The budget up to the end of a phase that ends at fraction f of it."""
        return None if budget is None else max(budget * f - (core.clock() - t0), 0.0)

    def cap(f: float) -> int | None:
        return None if max_nodes is None else max(int(max_nodes * f), 1)

    if not runs_only(position):
        first = best_first(position, share(RAIL_FIRST_PHASE), cap(RAIL_FIRST_PHASE), True)
        if first.result == WINNABLE:
            return first
        rest = depth_first(
            position,
            share(1.0),
            None if max_nodes is None else max(max_nodes - first.nodes, 1),
        )
        rest.nodes += first.nodes
        rest.seconds = core.clock() - t0
        return rest
    # (search, start and end of its share, its node cap when there is neither budget nor cap)
    complete = complete_search(position)
    beams_end = RAIL_PROBE_PHASE + RAIL_BEAM_PHASE
    phases: list[tuple[Callable[[float | None, int | None], Result], float, float, int | None]] = [
        (complete.run, 0.0, RAIL_PROBE_PHASE, PROBE_NODES),
        # unbounded: its fixed beams
        (partial(abstract_beams, position), RAIL_PROBE_PHASE, beams_end, None),
        # unbounded search: the dives still stop (the complete search has no end to wait for)
        (
            partial(abstract_dives, position),
            beams_end,
            beams_end + RAIL_DIVES_PHASE,
            DIVE_NODES * 100,
        ),
    ]
    for run, start, end, unbounded_cap in phases:
        if end <= start:
            continue
        r = run(
            share(end), unbounded_cap if budget is None and max_nodes is None else cap(end - start)
        )
        nodes += r.nodes
        if r.result != UNKNOWN:
            r.nodes = nodes
            r.seconds = core.clock() - t0
            return r
    # the complete search goes on from where the first phase stopped
    rest = complete.run(share(1.0), None if max_nodes is None else max(max_nodes - nodes, 1))
    rest.nodes += nodes
    rest.seconds = core.clock() - t0
    return rest


# --------------------------------------------------------------------------- the abstraction
#
# Every Double Rail pile is one descending run (a card only ever lands on a card one rank
# higher or on an empty pile), and every tableau-to-tableau move can be undone. So the
# tableau matters only through the multiset of its cards: docs/solver.md ("Double Rail:
# the tableau as a multiset") proves that every position with the same tableau cards,
# foundations, waste and stock wins or loses alike, and says which moves each multiset
# allows. The search below runs over (card counts, foundations, waste, stock count).

A_T2F = 10  # (A_T2F, face): a tableau card of that face to its foundation
A_W2T = 11  # (A_W2T,): the waste card to the tableau


class RailAbstract(Rail):
    """Double Rail over tableau multisets. State: (counts, foundations, waste, stock count),
    ``counts`` a 52-byte string, how many copies of each face lie in the tableau."""

    def start(self, pos: Position) -> State:
        tab, fnd, waste, sn = super().start(pos)
        cnt = bytearray(52)
        for p in tab:
            for c in p:
                cnt[c] += 1
        self.piles = len(tab)
        self.leave_answers: dict[bytes, int] = {}
        self.under_counts: dict[bytes, LockCounts] = {}
        self.score_tables: dict[tuple[int, ...], bytes] = {}  # see beam_score
        return (bytes(cnt), fnd, waste, sn)

    def key(self, st: State) -> bytes:
        cnt: bytes = st[0]
        waste: bytes = st[2]
        return cnt + bytes((st[3],)) + waste

    @staticmethod
    def ranks(cnt: bytes) -> list[int]:
        """Cards of each rank in the tableau: the four suits' counts added as 13-digit
        base-256 numbers (no carry: at most 8 a rank), 2.3 times faster than by rank."""
        whole = (
            int.from_bytes(cnt[:13], "big")
            + int.from_bytes(cnt[13:26], "big")
            + int.from_bytes(cnt[26:39], "big")
            + int.from_bytes(cnt[39:], "big")
        )
        return list(whole.to_bytes(13, "big"))

    @staticmethod
    def fluid(m: list[int]) -> bool:
        """Some arrangement of these cards leaves a pile empty: the fewest descending runs
        that hold them (cards minus the best matchings between neighbouring ranks) < 5."""
        b = sum(m)
        for r in range(12):
            b -= m[r] if m[r] < m[r + 1] else m[r + 1]
        return b < 5

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        """Safe cards to the foundations (rule 1). In Double Rail a card of rank r is safe
        when all eight cards of rank r-1 are up, i.e. every foundation pile is at least r
        high; only the next card of a pile can go, so only those eight faces are looked at."""
        cnt, fnd, waste, sn = st
        done: list[IMove] = []
        again = True
        while again:
            again = False
            low = min(fnd[1], fnd[3], fnd[5], fnd[7])  # the lower pile of each suit
            for k in range(8):
                h = fnd[k]
                if h > low or h >= 13 or (k & 1 and h == fnd[k - 1]):
                    continue
                c = (k >> 1) * 13 + h
                if cnt[c]:
                    cnt = cnt[:c] + bytes((cnt[c] - 1,)) + cnt[c + 1 :]
                    done.append((A_T2F, c))
                elif waste and waste[-1] == c:
                    waste = waste[:-1]
                    done.append((W2F,))
                else:
                    continue
                fnd = self.f_add(fnd, k)
                again = True
                break
        return (cnt, fnd, waste, sn), done

    def apply(self, st: State, m: IMove) -> State:
        cnt, fnd, waste, sn = st
        kind = m[0]
        if kind == DEAL:
            return (cnt, fnd, waste + self.stock[sn - 1 : sn], sn - 1)
        if kind == W2F:
            return (cnt, self.f_add(fnd, self.f_index(fnd, waste[-1])), waste[:-1], sn)
        if kind == A_W2T:
            c = waste[-1]
            return (cnt[:c] + bytes((cnt[c] + 1,)) + cnt[c + 1 :], fnd, waste[:-1], sn)
        c = m[1]  # A_T2F
        cnt = cnt[:c] + bytes((cnt[c] - 1,)) + cnt[c + 1 :]
        return (cnt, self.f_add(fnd, self.f_index(fnd, c)), waste, sn)

    def moves(self, st: State) -> list[IMove]:
        cnt, fnd, waste, sn = st
        m = self.ranks(cnt)
        fluid = self.fluid(m)
        out: list[IMove] = []
        if waste:
            w = waste[-1]
            if self.f_index(fnd, w) >= 0:
                out.append((W2F,))
        for k in range(8):
            h = fnd[k]
            if h >= 13 or (k & 1 and h == fnd[k - 1]):
                continue
            c = (k >> 1) * 13 + h
            if cnt[c] and (fluid or h == 0 or m[h - 1] < m[h]):
                out.append((A_T2F, c))
        if waste:
            r = waste[-1] % 13
            if fluid or (r < 12 and m[r] < m[r + 1]):
                out.append((A_W2T,))
        if sn:
            out.append((DEAL,))
        return out

    def won(self, st: State) -> bool:
        return sum(st[1]) == self.total

    def locked_ahead(self, st: State) -> bool:
        """The waste-lock test looking into the stock (docs/solver.md, "Double Rail: dead
        ends", the stronger form and the foundations' heights): True only if the position
        is lost. For each waste card x, and for each number s of cards that may still be in
        the stock when x leaves the waste, every card neither under x nor among the stock's
        first s cards is then up or in the tableau, so the tableau is fixed by the heights
        of the foundation piles (each at least its height now, and only as high as the
        copies out of reach allow); lost if no choice of such sizes, one per waste card and
        never larger under a card than above it (a card leaves before the cards under it),
        has heights that leave a tableau fitting the piles (:func:`_heights_fit`).

        Whether x can leave depends only on the cards under it, the stock count and the
        foundations, never on x or what lies above it, and the stock count only through
        the smallest stock size that fits (:meth:`_first_fit`, the stock's cards are
        fixed); positions of one search share most of their waste bottoms, so the size
        chosen for the card at height j (the smallest that fits at or above the one chosen
        under it; per foundations and the j cards under it) and the counts after the cards
        under x are kept: 2-3 times faster in the beams, where this test took 70 % of the
        time, and 1.2-1.6 times more since the answers no longer depend on the stock count
        (the next layer of a beam asks again with one card fewer)."""
        return self.lock_margin(st) < 0

    def lock_margin(self, st: State) -> int:
        """How many more cards can be dealt before some waste card is locked in, if none of
        them leaves: the stock count minus the smallest stock size at which the top card can
        leave, the cards under it leaving in order (:meth:`locked_ahead`); -1 if the
        position is locked."""
        fnd, waste = st[1], st[2]
        sn: int = st[3]
        n = len(waste)
        if n < 2:
            return sn  # nothing under the only card
        tag = bytes(fnd)  # the heights now
        answers = self.leave_answers
        under = self.under_counts
        if len(answers) > LOCK_MEMO or len(under) > LOCK_MEMO:
            answers.clear()
            under.clear()
        # answers[tag + waste[:j]]: the smallest size the card at height j (above those j
        # cards) can leave at, those under it leaving in order (negative: none up to some
        # stock size, as in _first_fit); a position usually shares all but its top card or
        # two with one asked before (its parent's waste)
        # (every shorter prefix of a known one is known: binary search for the longest)
        j = n - 1
        fit = answers.get(tag + waste[:j])
        if fit is None:
            lo, hi = 0, n - 2  # waste[:lo] known (lo = 0: nothing), waste[:hi + 1] not
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if tag + waste[:mid] in answers:
                    lo = mid
                else:
                    hi = mid - 1
            j = lo
            fit = answers[tag + waste[:j]] if j else 0
        if fit < 0:
            if sn <= ~fit:
                return -1
            fit, j = 0, 0  # asked before with a smaller stock: start again
        elif fit > sn:
            return -1
        if j + 1 == n:
            return sn - fit  # the top card's answer was known
        counts = under.get(waste[:j]) if j else None  # the counts after waste[:have]
        have = j
        if counts is None:
            counts, have = LOCK_START, 0
        most_up = [8] * 13  # rank r cards not on a foundation
        for h in fnd:
            for r in range(h):
                most_up[r] -= 1
        for i in range(j + 1, n):
            while have < i:
                have += 1
                below = waste[:have]
                nxt = under.get(below)
                if nxt is None:
                    nxt = _after(counts, waste[have - 1])
                    under[below] = nxt
                counts = nxt
            fit = self._first_fit(counts, most_up, fnd, sn, fit)
            answers[tag + waste[:i]] = fit
            if fit < 0 or fit > sn:
                return -1
        return sn - fit

    def _first_fit(
        self, counts: LockCounts, most_up: list[int], fnd: tuple[int, ...], sn: int, start: int
    ) -> int:
        """The fewest cards that may be left in the stock when the waste card above the
        cards counted in ``counts`` leaves, at least ``start`` (the size the card under it
        leaves at: the leaving order): the smallest such s (0: the whole stock dealt) such
        that with the stock's first s cards still there the tableau can fit the piles
        (:func:`_heights_fit`); ``~sn`` (negative) if none up to ``sn`` does. The stock's
        cards are fixed, so the answer holds for every stock size: the card can leave iff
        it is at most that size (why it is kept per cards under x and foundations, not per
        stock size: the next layers of a beam ask again with one card fewer).

        Two cheaper bounds come first: the forced cards alone fit (every pile as high as
        it can go: then the heights fit), or not even any choice of counts per rank between
        the forced cards and all the cards does (then no heights fit)."""
        piles = self.piles
        fewest = counts[4]
        if start == 0 and fewest <= piles:
            return 0
        out = counts[5]
        most = [most_up[r] - out[r] for r in range(13)]
        avail = [8 - x for x in out]  # rank r cards not out of reach: up or in the tableau
        if (
            start == 0
            and _fewest_runs(counts[3], most) <= piles
            and _heights_fit(counts[1], avail, fnd, piles)
        ):
            return 0
        stock = self.stock
        first = 0
        if start > JUMP_FROM and start <= sn:
            # the complete search asks mostly near the stock count (deal 6: the card under
            # leaves at 64.6 cards of 66.3 on average): build the counts with the stock's
            # first start - 1 cards out of reach at once instead of card by card
            first = start - 1
            v, caps, forced, need, fewest = _counts_with(counts[0], stock[:first])
            for c in stock[:first]:
                most[c % 13] -= 1
                avail[c % 13] -= 1
        else:
            v, caps, forced, need = (bytearray(b) for b in counts[:4])
        for s in range(first, sn):
            c = stock[s]
            fewest = _bump(c, v, caps, forced, need, fewest)
            most[c % 13] -= 1
            avail[c % 13] -= 1
            if s >= start - 1 and (
                fewest <= piles
                or (_fewest_runs(need, most) <= piles and _heights_fit(caps, avail, fnd, piles))
            ):
                return s + 1
        return ~sn


#: (copies of each face out of reach, copies of each face that can be up, copies of each
#: face forced into the tableau, forced cards per rank (14: need[13] = 0), the fewest runs
#: holding just those, cards per rank out of reach): see :meth:`RailAbstract.locked_ahead`.
LockCounts = tuple[bytes, bytes, bytes, bytes, int, bytes]
LOCK_START: LockCounts = (bytes(52), bytes([2] * 52), bytes(52), bytes(14), 0, bytes(13))
#: Entries kept per memo of the waste-lock test before it is emptied (~300 bytes each).
LOCK_MEMO = 100_000


def _after(counts: LockCounts, c: int) -> LockCounts:
    """The counts with one more card, ``c``, out of reach (under the waste card tested)."""
    v, caps, forced, need = (bytearray(b) for b in counts[:4])
    fewest = _bump(c, v, caps, forced, need, counts[4])
    ranks = bytearray(counts[5])
    ranks[c % 13] += 1
    return (bytes(v), bytes(caps), bytes(forced), bytes(need), fewest, bytes(ranks))


#: Above this first stock size to ask, _first_fit builds its counts at once (_counts_with).
JUMP_FROM = 8


def _counts_with(
    out_of_reach: bytes, more: bytes
) -> tuple[bytearray, bytearray, bytearray, bytearray, int]:
    """What :func:`_bump` gives card by card, at once: with the cards ``more`` out of
    reach as well, the copies out of reach, the copies that can be up (the fewest copies
    left at or below the face in its suit), the copies forced into the tableau, the forced
    cards per rank and the fewest runs holding them."""
    v = bytearray(out_of_reach)
    for c in more:
        v[c] += 1
    caps = bytearray(52)
    forced = bytearray(52)
    need = bytearray(14)
    for base in (0, 13, 26, 39):
        cap = 2
        for r in range(13):
            f = base + r
            left = 2 - v[f]
            if left < cap:
                cap = left
            caps[f] = cap
            if left > cap:
                forced[f] = left - cap
                need[r] += left - cap
    fewest = 0
    for r in range(13):
        if need[r] > need[r + 1]:
            fewest += need[r] - need[r + 1]
    return v, caps, forced, need, fewest


def _bump(
    c: int, v: bytearray, caps: bytearray, forced: bytearray, need: bytearray, fewest: int
) -> int:
    """One more copy of face c out of reach (under x, or left in the stock): update the
    copies that can be up, the forced copies and the forced cards per rank in place;
    returns the new fewest runs holding just the forced cards."""
    v[c] += 1
    k = c % 13
    base = c - k
    cap = 2 if k == 0 else caps[c - 1]
    for r in range(k, 13):
        f = base + r
        w = v[f]
        if 2 - w < cap:
            cap = 2 - w
        if r > k and cap == caps[f]:
            break
        caps[f] = cap
        x = 2 - w - cap
        if x < 0:
            x = 0
        d = x - forced[f]
        if d:
            forced[f] = x
            a, b = need[r], need[r + 1]
            fewest -= a - b if a > b else 0
            if r:
                z = need[r - 1]
                fewest -= z - a if z > a else 0
                fewest += z - a - d if z > a + d else 0
            a += d
            need[r] = a
            fewest += a - b if a > b else 0
    return fewest


def _fewest_runs(need: bytes | bytearray, most: list[int]) -> int:
    """The fewest runs of a tableau with need[r] to most[r] cards of each rank (greedy from
    the King down, exact: docs/solver.md)."""
    total = 0
    above = 0
    for r in range(12, -1, -1):
        lo = need[r]
        hi = most[r]
        m = lo if above <= lo else (above if above <= hi else hi)
        if m > above:
            total += m - above
        above = m
    return total


def _heights_fit(
    caps: bytes | bytearray, avail: list[int], fnd: tuple[int, ...], piles: int
) -> bool:
    """Whether some heights of the eight foundation piles leave a tableau that fits the
    piles, when the cards out of reach are fixed (docs/solver.md, "the foundations'
    heights"): every other card is then up or in the tableau, so the tableau is fixed by
    the heights. ``caps[f]``: copies of face f that can be up (2, 1, 0: the fewest copies
    out of reach at or below it in its suit); ``avail[r]``: rank r cards not out of reach;
    ``fnd``: the heights now (they only grow).

    Why it is exact and cheap: with m[r] = avail[r] - U[r] cards of rank r in the tableau
    (U[r] piles higher than r), the fewest runs are sum max(0, m[r] - m[r+1]) =
    sum max(0, D[r] - u[r]), D[r] = avail[r] - avail[r+1], u[r] the piles whose top card
    has rank r. So a pile counts only through its top's rank, and the fewest runs are
    sum max(0, D[r]) minus the most piles that can top a rank with D[r] > 0, at most D[r]
    per rank: a matching of piles to ranks, each pile an interval of ranks (greedy by
    right end is optimal). A suit's two piles reach ranks below M1 (the first rank with
    no copy left) and M2 (with one): one pile up to M1 and the other up to M2, either
    way round: at most 2^4 choices."""
    room = [0] * 13
    surplus = -piles
    above = 0
    for r in range(12, -1, -1):
        a = avail[r]
        if a > above:
            room[r] = a - above
            surplus += a - above
        above = a
    if surplus <= 0:
        return True
    if surplus > 8:
        return False  # eight piles top at most eight ranks (44 % of the asks in the beams)
    # (highest top rank, lowest) of each pile: height h tops rank h - 1
    fixed: list[tuple[int, int]] = []
    either: list[tuple[tuple[int, int], ...]] = []  # a suit's piles, taken either way round
    for k in range(4):
        row = caps[k * 13 : k * 13 + 13]
        m1 = 13 - row.count(0)
        m2 = row.count(2)
        c1, c2 = fnd[2 * k], fnd[2 * k + 1]
        lo1 = c1 - 1 if c1 else 0
        lo2 = c2 - 1 if c2 else 0
        if c1 <= m2 < m1 and c1 != c2:
            either.append(((m1 - 1, lo1), (m2 - 1, lo2), (m2 - 1, lo1), (m1 - 1, lo2)))
        else:
            if m1 > lo1:
                fixed.append((m1 - 1, lo1))
            if m2 > lo2:
                fixed.append((m2 - 1, lo2))
    if len(fixed) + 2 * len(either) < surplus:
        return False
    if not either:
        return _matches(fixed, room, surplus)
    for combo in product((0, 2), repeat=len(either)):
        spans = fixed.copy()
        for j, pairs in zip(combo, either, strict=True):
            for hi, lo in pairs[j : j + 2]:
                if hi >= lo:
                    spans.append((hi, lo))
        if _matches(spans, room, surplus):
            return True
    return False


def _matches(spans: list[tuple[int, int]], room: list[int], wanted: int) -> bool:
    """Whether ``wanted`` of the piles (spans: highest and lowest rank the pile can top)
    can top distinct places (``room[r]`` places at rank r): greedy by highest rank, each
    pile taking the lowest free rank it can (optimal for intervals)."""
    if len(spans) < wanted:
        return False
    spans.sort()
    left = room.copy()
    for hi, lo in spans:
        for t in range(lo, hi + 1):
            if left[t]:
                left[t] -= 1
                wanted -= 1
                if not wanted:
                    return True
                break
    return False


def _merge(piles: list[list[int]], out: list[IMove]) -> bool:
    """Put a whole pile on a top one rank above its bottom card (emptying it), if any."""
    for i, p in enumerate(piles):
        if not p:
            continue
        for t, q in enumerate(piles):
            if t != i and q and q[-1] % 13 == p[0] % 13 + 1:
                out.append((T2T, i, t, len(p)))
                q.extend(p)
                p.clear()
                return True
    return False


def _make_top(piles: list[list[int]], face: int, out: list[IMove]) -> int:
    """Tableau moves that bring a card of ``face`` to the top of its pile; its pile."""
    for _ in range(8):
        at = [(i, p.index(face)) for i, p in enumerate(piles) if face in p]
        for i, j in at:
            if j == len(piles[i]) - 1:
                return i
        i, j = at[0]
        p = piles[i]
        n = len(p) - 1 - j
        r = face % 13
        t = next((t for t, q in enumerate(piles) if t != i and q and q[-1] % 13 == r), -1)
        if t < 0:
            t = next((t for t, q in enumerate(piles) if not q), -1)
        if t >= 0:
            out.append((T2T, i, t, n))
            piles[t].extend(p[-n:])
            del p[-n:]
            return i
        if not _merge(piles, out):
            break
    raise AssertionError("solver: no arrangement uncovers the card")


def _make_room(piles: list[list[int]], face: int, out: list[IMove]) -> int:
    """Tableau moves that give the card ``face`` a place: a top one rank above, or an
    empty pile; that pile."""
    for _ in range(2):
        r = face % 13 + 1
        t = next((t for t, q in enumerate(piles) if q and q[-1] % 13 == r), -1)
        if t < 0:
            t = next((t for t, q in enumerate(piles) if not q), -1)
        if t >= 0:
            return t
        if not _merge(piles, out):
            break
    raise AssertionError("solver: no room for the waste card")


def concrete_line(position: Position, line: list[IMove]) -> list[IMove]:
    """The abstract line as moves of the real game (tableau moves added where the
    arrangement matters)."""
    piles = [[c % 52 for c in p] for p in position.tableau]
    waste = [c % 52 for c in position.waste]
    stock = [c % 52 for c in position.stock]
    out: list[IMove] = []
    for m in line:
        kind = m[0]
        if kind == DEAL:
            waste.append(stock.pop())
            out.append(m)
        elif kind == W2F:
            waste.pop()
            out.append(m)
        elif kind == A_W2T:
            c = waste.pop()
            t = _make_room(piles, c, out)
            piles[t].append(c)
            out.append((W2T, t))
        else:
            i = _make_top(piles, m[1], out)
            piles[i].pop()
            out.append((T2F, i))
    return out


def runs_only(position: Position) -> bool:
    """Every pile one descending run (always so in play; a hand-made position may not be)."""
    return all(
        all(p[k - 1] % 13 == p[k] % 13 + 1 for k in range(1, len(p))) for p in position.tableau
    )


def abstract_search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """Depth-first search over tableau multisets (complete: the moves between them form an
    acyclic graph, every state reached is expanded once, except the states the waste-lock
    test proves lost); its line is realised on the piles by :func:`concrete_line`."""
    return complete_search(position).run(budget, max_nodes)


def complete_search(position: Position) -> DepthFirst:
    """:func:`abstract_search` as a :class:`core.DepthFirst` that can be stopped and
    resumed, so the solver's last phase goes on from its first phase's positions.

    The waste-lock test runs at the root and after deals only: between two deals the waste
    only loses its top cards, which leaves the cards forced by the cards below unchanged."""
    fam = RailAbstract(position.rules)
    locked = fam.locked_ahead

    def dead(m: IMove | None, st: State) -> bool:
        return (m is None or m[0] == DEAL) and locked(st)

    return DepthFirst(position, fam, concrete_line, dead)


#: Randomised dives: positions per dive, and the chances that a position tries its
#: foundation moves first and (then) the waste card to the tableau before dealing.
DIVE_NODES = 300
DIVE_FOUNDATION_FIRST = 0.8
DIVE_PLACE_FIRST = 0.6


def abstract_dives(
    position: Position, budget: float | None, max_nodes: int | None, seed: int = 0
) -> Result:
    """Short depth-first dives over tableau multisets, each with its own randomised move
    order (seeded: the same dives every run) and its own seen set, until one wins or the
    budget runs out. It answers "winnable" (with a line) or "unknown"; "unwinnable" only
    when a dive runs out of positions before its size limit: a depth-first search with a
    seen set that empties its stack has tried every move of every position it reached,
    whatever their order, i.e. it was the complete search.

    Why: a single depth-first search spends its budget undoing the last choices of its
    first line, while the choices that lose a Rail deal are early ones (what stays in the
    waste). On deals 2801-2850, 200 dives of 300 positions found 10 wins where the plain
    search (and one dive) found 6."""
    t0 = core.clock()
    clock = core.clock
    deadline = None if budget is None else t0 + budget
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    fam = _DiveOrder(position.rules, random.Random(seed))
    dive = DepthFirst(position, fam, concrete_line)
    if dive.answer is not None:  # won at the start
        return dive.run()
    if fam.locked_ahead(dive.stack[0][2]):
        return Result(UNWINNABLE, 1, clock() - t0)
    nodes = 1  # the root, counted once for all dives
    while True:
        dive.counted = 1
        r = dive.run(None, DIVE_NODES)
        nodes += r.nodes
        if r.result != UNKNOWN:  # won, or the dive was the complete search
            r.nodes, r.seconds = nodes, clock() - t0
            return r
        if nodes >= node_cap or (deadline is not None and clock() > deadline):
            return Result(UNKNOWN, nodes, clock() - t0, reason="budget")
        dive = DepthFirst(position, fam, concrete_line)


class _DiveOrder(RailAbstract):
    """The multiset rules with the dives' randomised move order: foundation moves (in
    random order) first with probability DIVE_FOUNDATION_FIRST, and the waste card to the
    tableau before dealing with probability DIVE_PLACE_FIRST."""

    def __init__(self, rules: GameRules, rng: random.Random) -> None:
        super().__init__(rules)
        self.rand = rng.random
        self.shuffle = rng.shuffle

    def moves(self, st: State) -> list[IMove]:
        ms = RailAbstract.moves(self, st)
        fnd = [m for m in ms if m[0] == W2F or m[0] == A_T2F]
        place = [m for m in ms if m[0] == A_W2T]
        deal = [m for m in ms if m[0] == DEAL]
        if len(fnd) > 1:
            self.shuffle(fnd)
        other = place + deal if self.rand() < DIVE_PLACE_FIRST else deal + place
        return fnd + other if self.rand() < DIVE_FOUNDATION_FIRST else other + fnd


# --------------------------------------------------------------------------- beam

#: Beam score weights: (foundation cards, waste cards, waste blockers, tableau slack,
#: next-card depth[, waste-lock margin]). See :func:`beam_score`.
BEAM_WEIGHTS = (10.0, 1.0, 3.0, 2.0, 1.0)


def beam_score(fam: RailAbstract, st: State, w: tuple[float, ...]) -> float:
    """How promising a multiset state is, bigger is better (states of one beam layer have
    dealt the same cards, so only where the dealt cards went matters): cards on the
    foundations; waste cards; waste *blockers* (a card with a card below it that its suit's
    foundation reaches sooner: it must find a place in the tableau first); tableau slack
    (5 minus the fewest runs that hold the tableau: a rigid tableau takes no new card
    whose rank-above cards are all covered); how deep the next card of each foundation pile
    lies in the waste; with a sixth weight, the waste-lock margin (:meth:`RailAbstract.
    lock_margin`, up to MARGIN_CAP: how many cards can still be dealt before a card of
    this waste must have left it). The margin costs a lock test per state scored (beams
    1.3-1.8 times slower), so only two beams of the portfolio use it."""
    cnt, fnd, waste, _ = st
    blockers = 0
    if len(waste) > 1:
        table = fam.score_tables.get(fnd)
        if table is None:
            table = fam.score_tables[fnd] = _steps_table(fnd)
        d = waste.translate(table)  # foundation steps to each waste card
        blockers = sum(map(gt, d[1:], accumulate(d, min)))  # more steps than one below
    m = fam.ranks(cnt)
    runs = sum(m) - sum(map(min, m, m[1:]))
    n = len(waste)
    deep = 0
    for k in range(8):
        h = fnd[k]
        if h < 13 and not (k & 1 and h == fnd[k - 1]):
            j = waste.rfind((k >> 1) * 13 + h)
            if j >= 0:
                deep += n - 1 - j
    score = w[0] * sum(fnd) - w[1] * n - w[2] * blockers + w[3] * (fam.piles - runs) - w[4] * deep
    if len(w) > 5 and w[5]:
        score += w[5] * min(fam.lock_margin(st), MARGIN_CAP)
    return score


#: The waste-lock margin counts in the score up to this many cards (see beam_score).
MARGIN_CAP = 30


def _steps_table(fnd: tuple[int, ...]) -> bytes:
    """For :meth:`bytes.translate`: how many foundation steps until each face can go up
    (the nearer of its suit's two piles; 13 if both are past it)."""
    dist = bytearray(256)
    for s in range(4):
        h1 = fnd[2 * s]
        h2 = fnd[2 * s + 1]
        for r in range(13):
            dist[s * 13 + r] = r - h1 if r >= h1 else (r - h2 if r >= h2 else 13)
    return bytes(dist)


def _score_of(item: tuple[float, int, State]) -> float:
    return item[0]


def abstract_beam(
    position: Position,
    budget: float | None,
    max_nodes: int | None,
    width: int = 200,
    weights: tuple[float, ...] = BEAM_WEIGHTS,
    bottom: int = 0,
    per_bottom: int = 0,
) -> Result:
    """Beam search over tableau multisets, one layer per card dealt: every state reachable
    from the layer without dealing (foundation moves, waste cards to the tableau) is
    generated, the ``width`` best by :func:`beam_score` that the waste-lock test does not
    reject deal the next card. It answers "winnable" (with a line) or "unknown", never
    "unwinnable" (it drops states).

    With ``per_bottom``, at most that many states of a layer share the same ``bottom``
    cards at the bottom of the waste. Why: the bottom of the waste is the early commitment
    that loses a deal (it stays to the end), and a plain beam soon holds one bottom only
    (deal 15: 300 states, one 6-card bottom from the 70th card left in the stock on), so
    it compares late details of a single early choice."""
    t0 = core.clock()
    clock = core.clock
    fam = RailAbstract(position.rules)
    deadline = None if budget is None else t0 + budget
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    root, autos = fam.autoplay(fam.start(position))
    parents: list[int] = [-1]
    steps: list[list[IMove]] = [autos]

    def win(node: int, last: list[IMove]) -> Result:
        line = concrete_line(position, core._trace(steps, parents, node, last))
        return Result(WINNABLE, len(parents), clock() - t0, to_engine(position, line))

    if fam.won(root):
        return win(-1, list(autos))
    moves_of, apply, autoplay, key, won = fam.moves, fam.apply, fam.autoplay, fam.key, fam.won
    locked = fam.locked_ahead
    layer: list[tuple[int, State]] = [(0, root)]
    while layer:
        seen = {key(st) for _, st in layer}
        pool = list(layer)
        i = 0
        while i < len(pool):
            node, st = pool[i]
            i += 1
            for m in moves_of(st):
                if m[0] == DEAL:
                    continue
                child, done = autoplay(apply(st, m))
                if won(child):
                    return win(node, [m, *done])
                k = key(child)
                if k in seen:
                    continue
                seen.add(k)
                parents.append(node)
                steps.append([m, *done])
                pool.append((len(parents) - 1, child))
            if not i & 63 and (
                len(parents) >= node_cap or (deadline is not None and clock() > deadline)
            ):
                return Result(UNKNOWN, len(parents), clock() - t0, reason="budget")
        ranked = sorted(
            ((beam_score(fam, st, weights), n, st) for n, st in pool if st[3]),
            key=_score_of,
            reverse=True,
        )
        nxt: list[tuple[int, State]] = []
        bottoms: dict[bytes, int] = {}
        for _, node, st in ranked:
            if per_bottom:
                under = st[2][:bottom]
                if bottoms.get(under, 0) >= per_bottom:
                    continue
            child, done = autoplay(apply(st, (DEAL,)))
            if won(child):
                return win(node, [(DEAL,), *done])
            if locked(child):
                continue
            if per_bottom:
                bottoms[under] = bottoms.get(under, 0) + 1
            parents.append(node)
            steps.append([(DEAL,), *done])
            nxt.append((len(parents) - 1, child))
            if len(nxt) >= width:
                break
        layer = nxt
    return Result(UNKNOWN, len(parents), clock() - t0, reason="beam")


class Beam(NamedTuple):
    """One beam of :func:`abstract_beams`: width, score weights (:func:`beam_score`), and
    at most ``per_bottom`` states per ``bottom`` cards at the bottom of the waste (0: no
    limit)."""

    width: int
    weights: tuple[float, ...]
    bottom: int = 0
    per_bottom: int = 0


_W0 = (10.0, 8.0, 0.0, 1.0, 0.0)
_W1 = (10.0, 3.0, 3.0, 2.0, 1.0)
_W2 = (10.0, 5.0, 0.0, 0.0, 0.0)
_W3 = (10.0, 2.0, 1.0, 4.0, 0.5)

#: The beams of :func:`abstract_beams`, tried in turn, then beams with random weights and
#: bottom limits (seeded) until the budget runs out. Chosen greedily, wins per second, on
#: 19 deals of 1-50 no phase decided at 60 s and deals 2801-2830 (docs/solver.md): the
#: beams with narrow bottom limits are cheap (0.2-0.5 s a deal) and win deals no plain
#: beam wins; the plain beams of the earlier portfolio close it.
BEAM_PORTFOLIO: tuple[Beam, ...] = (
    Beam(300, _W1, 1, 3),
    Beam(300, _W0, 2, 2),
    Beam(300, _W1, 2, 2),
    Beam(300, _W0, 1, 3),
    Beam(300, _W1, 2, 5),
    Beam(300, _W1, 3, 3),
    Beam(300, _W0),
    Beam(300, _W1),
    Beam(300, (*_W0, 8.0)),
    Beam(300, (*_W1, 8.0)),
    Beam(300, _W2, 2, 5),
    Beam(300, _W0, 3, 3),
    Beam(300, _W1, 2, 10),
    Beam(300, _W0, 4, 3),
    Beam(300, _W2),
    Beam(300, _W3),
    Beam(1000, _W1),
)


def random_beam(rng: random.Random) -> Beam:
    """A beam of random weights and bottom limit, after the portfolio."""
    weights = (
        10.0,
        rng.uniform(0.0, 10.0),
        rng.uniform(0.0, 4.0),
        rng.uniform(0.0, 4.0),
        rng.uniform(0.0, 2.0),
    )
    bottom = rng.choice((0, 2, 2, 3, 4))
    return Beam(300, weights, bottom, rng.choice((2, 3, 5, 10)) if bottom else 0)


def abstract_beams(
    position: Position, budget: float | None, max_nodes: int | None, seed: int = 0
) -> Result:
    """:func:`abstract_beam` with the beams of :data:`BEAM_PORTFOLIO`, then random ones,
    until one wins or the budget (or node cap) runs out. Different weightings and bottom
    limits win different deals; a wider beam wins hardly more than a narrow one. It
    answers "winnable" or "unknown" only."""
    t0 = core.clock()
    rng = random.Random(seed)
    nodes = 0
    i = 0
    while True:
        beam = BEAM_PORTFOLIO[i] if i < len(BEAM_PORTFOLIO) else random_beam(rng)
        i += 1
        left = None if budget is None else budget - (core.clock() - t0)
        if left is not None and left <= 0:
            break
        cap = None if max_nodes is None else max_nodes - nodes
        if cap is not None and cap <= 0:
            break
        r = abstract_beam(position, left, cap, *beam)
        nodes += r.nodes
        if r.result == WINNABLE:
            r.nodes, r.seconds = nodes, core.clock() - t0
            r.extra["beam"] = i
            return r
        if budget is None and max_nodes is None and i >= len(BEAM_PORTFOLIO):
            break  # unbounded: the fixed beams only
    return Result(UNKNOWN, nodes, core.clock() - t0, reason="budget")
