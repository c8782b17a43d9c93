"""A winning line over tableau multisets made into moves of the real piles.

:class:`.lock.RailAbstract` searches over the multiset of the tableau's cards, which
docs/solver-rail.md ("The tableau as a multiset") proves decides the position: every move it
plays is possible from every arrangement of those cards. :func:`concrete_line` replays such a
line on the actual piles and adds the tableau-to-tableau moves that bring a card to the top or
give the waste card a place.

Why a module of its own: it works on the piles, not the multisets, and runs once per win; the
search and its waste lock never call it.
"""

from __future__ import annotations

from ...position import Position
from ..core import DEAL, T2F, T2T, W2F, W2T, IMove
from .lock import A_W2T


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
