"""The counting behind the Double Rail waste lock: whether the cards out of reach leave a
tableau that fits the piles.

When a waste card x leaves the waste, the cards under it and the stock's first cards are out
of reach, and every other card is up or in the tableau. From the copies out of reach alone
these functions give the copies that can be up, the copies forced into the tableau, the fewest
runs holding those (:func:`_fewest_runs`), and whether some heights of the foundation piles
leave a tableau of at most as many runs as piles (:func:`_heights_fit`): docs/solver-rail.md,
"Dead ends: the waste lock", steps 1-4.

Why a module of its own: these are pure functions of the counts (no memo, no stock, no search
state), each exact and checked in the tests against a slow definition; the memoized walk over
the waste that asks them, height by height and stock size by stock size, is
:meth:`.lock.RailAbstract.lock_margin`.
"""

from __future__ import annotations

from itertools import product

#: (copies of each face out of reach, copies of each face that can be up, copies of each
#: face forced into the tableau, forced cards per rank (14: need[13] = 0), the fewest runs
#: holding just those, cards per rank out of reach), after the cards under a waste card: see
#: :meth:`.lock.RailAbstract.locked_ahead`.
LockCounts = tuple[bytes, bytes, bytes, bytes, int, bytes]
#: The counts with no card out of reach (under the bottom card of the waste).
LOCK_START: LockCounts = (bytes(52), bytes([2] * 52), bytes(52), bytes(14), 0, bytes(13))


def _after(counts: LockCounts, c: int) -> LockCounts:
    """The counts with one more card, ``c``, out of reach (under the waste card tested)."""
    v, caps, forced, need = (bytearray(b) for b in counts[:4])
    fewest = _bump(c, v, caps, forced, need, counts[4])
    ranks = bytearray(counts[5])
    ranks[c % 13] += 1
    return (bytes(v), bytes(caps), bytes(forced), bytes(need), fewest, bytes(ranks))


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
