"""Double Rail over tableau multisets, and the waste lock that proves its dead ends.

Every Double Rail pile is one descending run (a card only ever lands on a card one rank higher
or on an empty pile), and every tableau-to-tableau move can be undone. So the tableau matters
only through the multiset of its cards: docs/solver-rail.md ("The tableau as a
multiset") proves that every position with the same tableau cards, foundations, waste and
stock wins or loses alike, and says which moves each multiset allows. :class:`RailAbstract`
searches over (card counts, foundations, waste, stock count); :func:`concrete_line` turns its
winning line back into moves of the piles.

The waste lock (:meth:`RailAbstract.locked_ahead`, :meth:`RailAbstract.lock_margin`): a
position is lost when some waste card can never leave the waste, whatever is dealt; the
counts (:data:`LockCounts`) and the foundations' heights (:func:`_heights_fit`) decide it
without searching.
"""

from __future__ import annotations

from itertools import product

from ...position import Position
from ...rules import GameRules
from ..core import DEAL, T2F, T2T, W2F, W2T, Family, IMove, State

A_T2F = 10  # (A_T2F, face): a tableau card of that face to its foundation
A_W2T = 11  # (A_W2T,): the waste card to the tableau


class RailAbstract(Family):
    """Double Rail over tableau multisets. State: (counts, foundations, waste, stock count),
    ``counts`` a 52-byte string, how many copies of each face lie in the tableau."""

    stock: bytes
    piles: int
    leave_answers: dict[bytes, int]  # the waste-lock memo: see lock_margin
    under_counts: dict[bytes, LockCounts]
    with_counts: dict[bytes, tuple[bytes, bytes, bytes, bytes, int]]  # see _first_fit
    most_up: dict[bytes, list[int]]  # per foundations: rank r cards not up
    stock_ranks: list[tuple[int, ...]]
    score_tables: dict[tuple[int, ...], bytes]  # see beam_score
    faces: dict[tuple[int, ...], Faces]  # per foundations: see _faces_of

    def __init__(self, rules: GameRules) -> None:
        super().__init__(rules)
        self.piles = 0
        self._new_stock(b"")

    def _new_stock(self, stock: bytes) -> None:
        """Empty the memos (they hold for one stock and number of piles)."""
        self.stock = stock
        self.leave_answers = {}
        self.under_counts = {}
        self.with_counts = {}
        self.most_up = {}
        self.score_tables = {}
        self.faces = {}
        # stock_ranks[s]: cards of each rank among the stock's first s (dealt last)
        ranks = [0] * 13
        self.stock_ranks = [tuple(ranks)]
        for c in stock:
            ranks[c % 13] += 1
            self.stock_ranks.append(tuple(ranks))

    def start(self, pos: Position) -> State:
        """The position's state. The memos (the waste lock's above all) are kept when the
        stock and the number of piles are those of the last position started: their answers
        depend on nothing else (:meth:`lock_margin`), so the beams of one deal share them (a
        tail beam starts with a long waste whose every prefix a beam before it has tested)."""
        stock = bytes(c % 52 for c in pos.stock)
        piles = len(pos.tableau)
        if (stock, piles) != (self.stock, self.piles):
            self._new_stock(stock)
            self.piles = piles
        cnt = bytearray(52)
        for p in pos.tableau:
            for c in p:
                cnt[c % 52] += 1
        waste = bytes(c % 52 for c in pos.waste)
        return (bytes(cnt), self.fnd_from(pos), waste, len(pos.stock))

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
        return sum(m) - sum(map(min, m, m[1:])) < 5

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        """Safe cards to the foundations (rule 1). In Double Rail a card of rank r is safe
        when all eight cards of rank r-1 are up, i.e. every foundation pile is at least r
        high; only the next card of a pile can go, so only those eight faces are looked at."""
        cnt, fnd, waste, sn = st
        done: list[IMove] = []
        memo = self.faces
        while True:
            for k, c in (memo.get(fnd) or self._faces_of(fnd))[1]:
                if cnt[c]:
                    cnt = cnt[:c] + bytes((cnt[c] - 1,)) + cnt[c + 1 :]
                    done.append((A_T2F, c))
                elif waste and waste[-1] == c:
                    waste = waste[:-1]
                    done.append((W2F,))
                else:
                    continue
                fnd = self.f_add(fnd, k)
                break
            else:
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
        for _, h, c in (self.faces.get(fnd) or self._faces_of(fnd))[0]:
            if cnt[c] and (fluid or h == 0 or m[h - 1] < m[h]):
                out.append((A_T2F, c))
        if waste:
            r = waste[-1] % 13
            if fluid or (r < 12 and m[r] < m[r + 1]):
                out.append((A_W2T,))
        if sn:
            out.append((DEAL,))
        return out

    def _faces_of(self, fnd: tuple[int, ...]) -> Faces:
        """The foundation piles that take a card, kept per foundations (``faces``): (pile,
        its height, the face it takes next) for each pile not yet full, the lower of a
        suit's two piles only when they are level (the same face); and (pile, face) of
        those whose next card is safe (at most as high as the lower pile of every suit:
        :meth:`autoplay`)."""
        if len(self.faces) > LOCK_MEMO:
            self.faces.clear()
        nxt = tuple(
            (k, fnd[k], (k >> 1) * 13 + fnd[k])
            for k in range(8)
            if fnd[k] < 13 and not (k & 1 and fnd[k] == fnd[k - 1])
        )
        low = min(fnd[1], fnd[3], fnd[5], fnd[7])  # the lower pile of each suit
        faces = self.faces[fnd] = (nxt, tuple((k, c) for k, h, c in nxt if h <= low))
        return faces

    def won(self, st: State) -> bool:
        return sum(st[1]) == self.total

    def locked_ahead(self, st: State) -> bool:
        """The waste-lock test looking into the stock (docs/solver-rail.md, "Dead
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
        if len(answers) > LOCK_MEMO or len(under) > LOCK_MEMO or len(self.with_counts) > LOCK_MEMO:
            answers.clear()
            under.clear()
            self.with_counts.clear()
            self.most_up.clear()
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
        most_up = self.most_up.get(tag)  # rank r cards not on a foundation
        if most_up is None:
            most_up = [8] * 13
            for h in fnd:
                for r in range(h):
                    most_up[r] -= 1
            self.most_up[tag] = most_up
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
            and _fewest_runs(counts[3], most, piles) <= piles
            and _heights_fit(counts[1], avail, fnd, piles)
        ):
            return 0
        stock = self.stock
        first = 0
        if start > JUMP_FROM and start <= sn:
            # the complete search asks mostly near the stock count (deal 6: the card under
            # leaves at 64.6 cards of 66.3 on average): build the counts with the stock's
            # first start - 1 cards out of reach at once instead of card by card
            # (kept per cards out of reach and size: many positions share a waste bottom)
            first = start - 1
            memo = counts[0] + bytes((first,))
            known = self.with_counts.get(memo)
            if known is None:
                v, caps, forced, need, fewest = _counts_with(counts[0], stock[:first])
                self.with_counts[memo] = (bytes(v), bytes(caps), bytes(forced), bytes(need), fewest)
            else:
                v, caps, forced, need = (bytearray(b) for b in known[:4])
                fewest = known[4]
            dealt_last = self.stock_ranks[first]
            most = [a - b for a, b in zip(most, dealt_last, strict=True)]
            avail = [a - b for a, b in zip(avail, dealt_last, strict=True)]
        else:
            v, caps, forced, need = (bytearray(b) for b in counts[:4])
        for s in range(first, sn):
            c = stock[s]
            fewest = _bump(c, v, caps, forced, need, fewest)
            most[c % 13] -= 1
            avail[c % 13] -= 1
            if s >= start - 1 and (
                fewest <= piles
                or (
                    _fewest_runs(need, most, piles) <= piles
                    and _heights_fit(caps, avail, fnd, piles)
                )
            ):
                return s + 1
        return ~sn


#: (copies of each face out of reach, copies of each face that can be up, copies of each
#: face forced into the tableau, forced cards per rank (14: need[13] = 0), the fewest runs
#: holding just those, cards per rank out of reach): see :meth:`RailAbstract.locked_ahead`.
LockCounts = tuple[bytes, bytes, bytes, bytes, int, bytes]
#: (pile, height, next face) of the piles that take a card, (pile, face) of the safe ones.
Faces = tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]
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


def _fewest_runs(need: bytes | bytearray, most: list[int], limit: int = 104) -> int:
    """The fewest runs of a tableau with need[r] to most[r] cards of each rank (greedy from
    the King down, exact: docs/solver-rail.md); any number over ``limit`` once the count passes
    it (the runs only add up, and the callers only ask whether the piles hold them). The
    default, two decks' cards, never stops it early."""
    total = 0
    above = 0
    for r in range(12, -1, -1):
        lo = need[r]
        if above <= lo:
            if lo > above:
                total += lo - above
                if total > limit:
                    return total
            above = lo
        elif above > most[r]:
            above = most[r]
    return total


def _heights_fit(
    caps: bytes | bytearray, avail: list[int], fnd: tuple[int, ...], piles: int
) -> bool:
    """Whether some heights of the eight foundation piles leave a tableau that fits the
    piles, when the cards out of reach are fixed (docs/solver-rail.md, "the foundations'
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
