"""Double Rail over tableau multisets, and the waste lock that proves its dead ends.

Every Double Rail pile is one descending run (a card only ever lands on a card one rank higher
or on an empty pile), and every tableau-to-tableau move can be undone. So the tableau matters
only through the multiset of its cards: docs/solver-rail.md ("The tableau as a
multiset") proves that every position with the same tableau cards, foundations, waste and
stock wins or loses alike, and says which moves each multiset allows. :class:`RailAbstract`
searches over (card counts, foundations, waste, stock count); :func:`.concrete.concrete_line`
turns its winning line back into moves of the piles.

The waste lock (:meth:`RailAbstract.locked_ahead`, :meth:`RailAbstract.lock_margin`): a
position is lost when some waste card can never leave the waste, whatever is dealt. This
module walks the waste card by card and the stock size by size, with the memos that make the
walk fast; whether the cards out of reach at one such moment leave a tableau that fits the
piles (the counts, :data:`.lockfit.LockCounts`, and the foundations' heights,
:func:`.lockfit._heights_fit`) is :mod:`.lockfit`.
"""

from __future__ import annotations

from ...position import Position
from ...rules import GameRules
from ..core import DEAL, W2F, Family, IMove, State
from .lockfit import (
    LOCK_START,
    LockCounts,
    _after,
    _bump,
    _counts_with,
    _fewest_runs,
    _heights_fit,
)

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


#: (pile, height, next face) of the piles that take a card, (pile, face) of the safe ones.
Faces = tuple[tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]
#: Entries kept per memo of the waste-lock test before it is emptied (~300 bytes each).
LOCK_MEMO = 100_000

#: Above this first stock size to ask, _first_fit builds its counts at once (_counts_with).
JUMP_FROM = 8
