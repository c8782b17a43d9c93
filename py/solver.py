"""An exact solver for the four games: can a position still be won, and how.

"Thoughtful" solitaire: the solver sees every card, face-down ones and the stock order
included. The search is an exhaustive depth-first search over positions with a
transposition table, so ``"unwinnable"`` is a proof (every reachable position was visited)
and ``"winnable"`` comes with a line of engine :class:`Move` objects that replays to a win
through :meth:`Position.play`. A time or node budget stops it with ``"unknown"``.

Inside the search a position is a compact tuple: tableau piles as ``bytes`` of card faces
(``card % 52``; the two copies of a card play identically), face-down cards marked by +64,
foundations as per-suit heights, free cells as a sorted ``bytes``, the stock as a count (its
order is fixed) and the waste as ``bytes``. The transposition key joins the *sorted* piles,
so piles whose order does not matter, interchangeable foundations and free cells and the
two copies of a card are each counted once. See docs/solver.md for the pruning rules and
why each is safe.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .position import Move, Position
from .rules import GAMES, GameRules

WINNABLE = "winnable"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"

DOWN = 64  # added to a face-down card's face in a pile's bytes
SEP = b"\xff"

# Internal moves are small tuples; the first item says what kind:
T2T = 0  # (T2T, source pile, target pile, count)
T2F = 1  # (T2F, pile)
W2F = 2  # (W2F,)
W2T = 3  # (W2T, target pile)
C2F = 4  # (C2F, face)
C2T = 5  # (C2T, face, target pile)
T2C = 6  # (T2C, pile)
DEAL = 7  # (DEAL,)

IMove = tuple[int, ...]
State = tuple[Any, ...]


@dataclass
class Result:
    """What the solver found. ``line`` is set when the result is ``"winnable"``."""

    result: str
    nodes: int
    seconds: float
    line: list[Move] | None = None
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "line": None if self.line is None else [str(m) for m in self.line],
        }


# The clock budgets are measured with: wall-clock by default; the benchmark sets it to
# ``time.process_time`` so that other programs on a shared machine do not eat the budget.
clock: Callable[[], float] = time.perf_counter

# Best-first search: among equal scores, expand the newest position first (depth-first on
# plateaus) rather than the oldest.
LIFO = True

# Double Rail: the share of the budget given to the restricted best-first phase.
RAIL_FIRST_PHASE = 0.8


# --------------------------------------------------------------------------- foundations
#
# ``fnd`` is a tuple of heights. By-suit games with one foundation per suit copy keep
# ``decks`` slots per suit (slot ``s * decks + k``), kept in decreasing order inside a suit
# so that the two interchangeable piles of a suit are stored one way only. Double FreeCell
# keeps one slot per suit, 0 … 26 (built A→K twice).


class _Family:
    """Rules shared by the three solver families; subclasses give moves and ordering."""

    restricted = False

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.decks = rules.decks
        self.total = rules.cards
        self.laps = rules.foundation_laps
        self.per_suit = rules.foundations // 4  # foundation piles per suit
        build = rules.build
        # For every face: the faces of rank r-1 whose copies must all be up for it to be safe.
        self.below: list[tuple[int, ...]] = []
        for f in range(52):
            r, s = f % 13, f // 13
            if r == 0:
                self.below.append(())
            elif build == "same-suit":
                self.below.append((s * 13 + r - 1,))
            elif build == "alternate-colour":
                others = (0, 3) if s in (1, 2) else (1, 2)
                self.below.append(tuple(o * 13 + r - 1 for o in others))
            else:
                self.below.append(tuple(o * 13 + r - 1 for o in range(4)))
        if build == "same-suit":
            self.fits = [[False] * 52 for _ in range(52)]
            for c in range(52):
                if c % 13 < 12:
                    self.fits[c][c + 1] = True
        elif build == "alternate-colour":
            self.fits = [
                [
                    u % 13 == c % 13 + 1 and ((c // 13) in (1, 2)) != ((u // 13) in (1, 2))
                    for u in range(52)
                ]
                for c in range(52)
            ]
        else:
            self.fits = [[u % 13 == c % 13 + 1 for u in range(52)] for c in range(52)]

    # ---- foundations
    def f_index(self, fnd: tuple[int, ...], face: int) -> int:
        """Slot that accepts ``face``, or -1."""
        r, s = face % 13, face // 13
        if self.laps == 2:
            h = fnd[s]
            return s if h < 26 and h % 13 == r else -1
        n = self.per_suit
        base = s * n
        for k in range(base, base + n):
            if fnd[k] == r:
                return k
        return -1

    def f_add(self, fnd: tuple[int, ...], k: int) -> tuple[int, ...]:
        lst = list(fnd)
        lst[k] += 1
        if self.per_suit == 2 and k % 2 == 1 and lst[k] > lst[k - 1]:
            lst[k], lst[k - 1] = lst[k - 1], lst[k]
        return tuple(lst)

    def up_count(self, fnd: tuple[int, ...], face: int) -> int:
        """How many copies of ``face`` are on the foundations."""
        r, s = face % 13, face // 13
        if self.laps == 2:
            h = fnd[s]
            return (h > r) + (h > 13 + r)
        n = self.per_suit
        return sum(1 for k in range(s * n, s * n + n) if fnd[k] > r)

    def is_safe(self, fnd: tuple[int, ...], face: int) -> bool:
        decks = self.decks
        return all(self.up_count(fnd, b) >= decks for b in self.below[face])

    def fnd_from(self, pos: Position) -> tuple[int, ...]:
        if self.laps == 2:
            lst = [0] * 4
            for p in pos.foundations:
                if p:
                    lst[(p[0] % 52) // 13] = len(p)
            return tuple(lst)
        n = self.per_suit
        heights: list[list[int]] = [[] for _ in range(4)]
        for p in pos.foundations:
            if p:
                heights[(p[0] % 52) // 13].append(len(p))
        out: list[int] = []
        for s in range(4):
            h = sorted(heights[s], reverse=True) + [0] * n
            out += h[:n]
        return tuple(out)

    # ---- to be provided
    # Deliberately repeated per family (hot, per node): specialised code, no per-game branches.
    def start(self, pos: Position) -> State:
        raise NotImplementedError

    def key(self, st: State) -> bytes:
        raise NotImplementedError

    def moves(self, st: State) -> list[IMove]:
        raise NotImplementedError

    def apply(self, st: State, m: IMove) -> State:
        raise NotImplementedError

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        raise NotImplementedError

    def won(self, st: State) -> bool:
        return sum(st[1]) == self.total if self.laps == 1 else sum(st[1]) == 104

    def score(self, st: State) -> float:
        """Heuristic value of a position (bigger is better), for hints and ordering."""
        raise NotImplementedError


def _flip(rest: bytes) -> bytes:
    if rest and rest[-1] >= DOWN:
        return rest[:-1] + bytes((rest[-1] - DOWN,))
    return rest


# --------------------------------------------------------------------------- Yukon family


class _Yukon(_Family):
    """Russian and Double Russian: build down by suit, any face-up card moves with all on
    top of it, only a King fills an empty pile. State: (tableau, foundations)."""

    def start(self, pos: Position) -> State:
        tab = tuple(
            bytes([c % 52 + DOWN for c in p[:d]] + [c % 52 for c in p[d:]])
            for p, d in zip(pos.tableau, pos.down, strict=False)
        )
        return (tab, self.fnd_from(pos))

    def key(self, st: State) -> bytes:
        return SEP.join(sorted(st[0]))

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        tab, fnd = st
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
                        lst[i] = _flip(p[:-1])
                        tab = tuple(lst)
                        done.append((T2F, i))
                        again = True
        return (tab, fnd), done

    def apply(self, st: State, m: IMove) -> State:
        tab, fnd = st
        lst = list(tab)
        if m[0] == T2T:
            _, i, t, n = m
            p = tab[i]
            lst[i] = _flip(p[:-n])
            lst[t] = tab[t] + p[-n:]
        else:  # T2F
            i = m[1]
            p = tab[i]
            fnd = self.f_add(fnd, self.f_index(fnd, p[-1]))
            lst[i] = _flip(p[:-1])
        return (tuple(lst), fnd)

    def moves(self, st: State) -> list[IMove]:
        tab, fnd = st
        scored: list[tuple[int, IMove]] = []
        empty = -1
        for t, p in enumerate(tab):
            if not p:
                if empty < 0:
                    empty = t
                continue
            top = p[-1]
            if self.f_index(fnd, top) >= 0:
                below = p[-2] if len(p) > 1 else -1
                scored.append((95 if below >= DOWN else 75, (T2F, t)))
            if top % 13:
                need = top - 1
                for i, q in enumerate(tab):
                    if i == t:
                        continue
                    j = q.find(need)
                    while j >= 0:
                        scored.append((self._rate(tab, fnd, q, j, need), (T2T, i, t, len(q) - j)))
                        j = q.find(need, j + 1)
        if empty >= 0:
            for i, q in enumerate(tab):
                for king in (12, 25, 38, 51):
                    j = q.find(king, 1)
                    while j >= 0:
                        under = q[j - 1]
                        score = 90 + (j if under >= DOWN else 0) if under >= DOWN else 30
                        scored.append((score, (T2T, i, empty, len(q) - j)))
                        j = q.find(king, j + 1)
        scored.sort(key=_first, reverse=True)
        return [m for _, m in scored]

    def _rate(self, tab: tuple[bytes, ...], fnd: tuple[int, ...], q: bytes, j: int, c: int) -> int:
        if j == 0:
            return 85  # empties a pile
        under = q[j - 1]
        if under >= DOWN:
            return 100 + j  # turns a card up; prefer the deeper piles
        if under == c + 1:
            return 5  # from one copy of its parent to the other
        if self.f_index(fnd, under) >= 0:
            return 80
        return 40

    def score(self, st: State) -> float:
        tab, fnd = st
        s = 10.0 * sum(fnd)
        for p in tab:
            if not p:
                s += 8
                continue
            down = len(p) - len(p.lstrip(_DOWN_BYTES))
            s -= 8 * down + (2 * down if down else 0)
        return s


_DOWN_BYTES = bytes(range(DOWN, DOWN + 52))


def _first(item: tuple[int, IMove]) -> int:
    return item[0]


# --------------------------------------------------------------------------- Double Rail


class _Rail(_Family):
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
        scored.sort(key=_first, reverse=True)
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


# --------------------------------------------------------------------------- Double FreeCell


class _FreeCell(_Family):
    """Double FreeCell: ten columns built down in alternating colours, six free cells,
    ordered runs move up to the free-space limit, anything fills an empty column.
    State: (tableau, foundations, cells as sorted bytes)."""

    def start(self, pos: Position) -> State:
        self.ncells = len(pos.cells)
        tab = tuple(bytes(c % 52 for c in p) for p in pos.tableau)
        cells = bytes(sorted(c % 52 for c in pos.cells if c is not None))
        return (tab, self.fnd_from(pos), cells)

    def key(self, st: State) -> bytes:
        cells: bytes = st[2]
        return SEP.join(sorted(st[0])) + b"\xfe" + cells

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        tab, fnd, cells = st
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
            for c in cells:
                k = self.f_index(fnd, c)
                if k >= 0 and self.is_safe(fnd, c):
                    fnd = self.f_add(fnd, k)
                    j = cells.index(c)
                    cells = cells[:j] + cells[j + 1 :]
                    done.append((C2F, c))
                    again = True
                    break
        return (tab, fnd, cells), done

    def apply(self, st: State, m: IMove) -> State:
        tab, fnd, cells = st
        kind = m[0]
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
        elif kind == T2C:
            i = m[1]
            p = tab[i]
            cells = bytes(sorted(cells + p[-1:]))
            lst[i] = p[:-1]
        else:
            c = m[1]
            j = cells.index(c)
            cells = cells[:j] + cells[j + 1 :]
            if kind == C2F:
                fnd = self.f_add(fnd, self.f_index(fnd, c))
                return (tab, fnd, cells)
            t = m[2]
            lst[t] = tab[t] + bytes((c,))
        return (tuple(lst), fnd, cells)

    def moves(self, st: State) -> list[IMove]:
        tab, fnd, cells = st
        fits = self.fits
        scored: list[tuple[int, IMove]] = []
        empty = -1
        n_empty = 0
        for t, p in enumerate(tab):
            if not p:
                n_empty += 1
                if empty < 0:
                    empty = t
        free = self.ncells - len(cells)
        limit = (free + 1) << n_empty
        limit_e = (free + 1) << max(n_empty - 1, 0)
        prev = -1
        for c in cells:
            if c == prev:
                continue
            prev = c
            if self.f_index(fnd, c) >= 0:
                scored.append((100, (C2F, c)))
            for t, p in enumerate(tab):
                if p and fits[c][p[-1]]:
                    scored.append((85, (C2T, c, t)))
            if empty >= 0:
                scored.append((30, (C2T, c, empty)))
        runs = []
        for i, p in enumerate(tab):
            n = len(p)
            if not n:
                runs.append(0)
                continue
            if self.f_index(fnd, p[-1]) >= 0:
                scored.append((95, (T2F, i)))
            k = n - 1
            while k > 0 and fits[p[k]][p[k - 1]]:
                k -= 1
            runs.append(k)
        for i, p in enumerate(tab):
            n = len(p)
            if not n:
                continue
            run = runs[i]
            for t, q in enumerate(tab):
                if t == i or not q:
                    continue
                top = q[-1]
                # the one card of the run that fits on ``top``, if any
                k = n - 1 - (top % 13 - 1 - p[-1] % 13)
                if k < run or k >= n or not fits[p[k]][top]:
                    continue
                cnt = n - k
                if cnt > limit:
                    continue
                if k == 0:
                    score = 90
                elif k == run:
                    score = 80 if self.f_index(fnd, p[k - 1]) >= 0 else 65
                else:
                    score = 75 if self.f_index(fnd, p[k - 1]) >= 0 else 15
                scored.append((score, (T2T, i, t, cnt)))
            if empty >= 0:
                for k in range(max(run, 1, n - limit_e), n):
                    score = 45 if k == run else 20
                    scored.append((score, (T2T, i, empty, n - k)))
            if free:
                score = 40 if (n == 1 or self.f_index(fnd, p[-2]) >= 0) else 25
                scored.append((score, (T2C, i)))
        scored.sort(key=_first, reverse=True)
        return [m for _, m in scored]

    def score(self, st: State) -> float:
        tab, fnd, cells = st
        w = FC_WEIGHTS
        s = w[0] * sum(fnd) + w[1] * (self.ncells - len(cells))
        fits = self.fits
        wb, wm = w[3], w[6]
        for p in tab:
            if not p:
                s += w[2]
                continue
            first = 0
            for k in range(1, len(p)):
                if not fits[p[k]][p[k - 1]]:
                    s -= wb
                    if not first:
                        first = k
            if first:
                s -= wm * (len(p) - first)
        for su in range(4):
            h = fnd[su]
            if h >= 26:
                continue
            for ahead, weight in ((0, w[4]), (1, w[5])):
                if h + ahead >= 26:
                    break
                face = su * 13 + (h + ahead) % 13
                if face in cells:
                    continue
                best = 99
                for p in tab:
                    j = p.rfind(face)
                    if j >= 0 and len(p) - 1 - j < best:
                        best = len(p) - 1 - j
                s -= weight * best
        return s


# Double FreeCell score weights: foundation card, free cell, empty column, break in a
# column's order, depth of the next card a foundation needs, of the one after, cards above
# a column's first break.
FC_WEIGHTS = (20.0, 5.0, 15.0, 1.0, 3.0, 1.0, 1.0)


_FAMILIES: dict[str, Callable[[GameRules], _Family]] = {
    "russian": _Yukon,
    "double-russian": _Yukon,
    "double-rail": _Rail,
    "double-freecell": _FreeCell,
}


def family(rules: GameRules, restricted: bool = False) -> _Family:
    """The search rules of a game. ``restricted`` (Double Rail only) leaves out moves that
    split a run between two cards of the same rank unless the card uncovered can go to
    a foundation: an incomplete search, used only to find wins fast."""
    fam = _FAMILIES[rules.id](rules)
    fam.restricted = restricted
    return fam


# --------------------------------------------------------------------------- the search


def to_engine(pos: Position, line: list[IMove], check_win: bool = True) -> list[Move]:
    """Turn internal moves into engine moves, playing them on ``pos`` to choose the
    foundation and free-cell indices (canonical states forget those). Raises
    ``IllegalMove`` if a move does not replay, which would be a solver bug."""
    out: list[Move] = []
    for m in line:
        kind = m[0]
        if kind == T2T:
            mv = Move(f"tableau-{m[1]}", f"tableau-{m[2]}", m[3])
        elif kind in (T2F, W2F, C2F):
            if kind == T2F:
                src = f"tableau-{m[1]}"
                card = pos.tableau[m[1]][-1]
            elif kind == W2F:
                src, card = "waste", pos.waste[-1]
            else:
                k = next(k for k, c in enumerate(pos.cells) if c is not None and c % 52 == m[1])
                src, card = f"cell-{k}", pos.cells[k] or 0
            f = next(
                (f for f, p in enumerate(pos.foundations) if pos.foundation_accepts(card, p)), -1
            )
            mv = Move(src, f"foundation-{f}")
        elif kind == W2T:
            mv = Move("waste", f"tableau-{m[1]}")
        elif kind == C2T:
            k = next(k for k, c in enumerate(pos.cells) if c is not None and c % 52 == m[1])
            mv = Move(f"cell-{k}", f"tableau-{m[2]}")
        elif kind == T2C:
            k = next(k for k, c in enumerate(pos.cells) if c is None)
            mv = Move(f"tableau-{m[1]}", f"cell-{k}")
        else:
            mv = Move("stock", "waste")
        pos = pos.play(mv)
        out.append(mv)
    if check_win and not pos.is_won():
        raise AssertionError("solver line does not win")
    return out


def _start(
    position: Position, budget: float | None, restricted: bool = False
) -> tuple[float, _Family, float | None, State, list[IMove]]:
    """The start of every search: its clock, rules, deadline, and the root after autoplay."""
    t0 = clock()
    fam = family(position.rules, restricted)
    deadline = None if budget is None else t0 + budget
    root, autos = fam.autoplay(fam.start(position))
    return t0, fam, deadline, root, autos


def _trace(
    steps: list[list[IMove]], parents: list[int], node: int, line: list[IMove]
) -> list[IMove]:
    """``line`` (the moves after ``node``) preceded by the moves from the root to ``node``."""
    while node >= 0:
        line[:0] = steps[node]
        node = parents[node]
    return line


def solve(
    position: Position,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
) -> Result:
    """Decide ``position``: ``"winnable"`` with a winning line (engine moves that replay
    through :meth:`Position.play`), ``"unwinnable"`` (proved by visiting every reachable
    position) or ``"unknown"`` when ``budget`` seconds or ``max_nodes`` positions ran out.

    Russian: depth-first search. Double Russian and Double FreeCell: best-first search.
    Double Rail: first a best-first search over a restricted move set (it can only find
    wins) with 80 % of the budget, then the complete depth-first search with the rest.
    Every complete search visits all reachable positions before saying "unwinnable"."""
    game = position.rules.id
    if game == "russian":
        return depth_first(position, budget, max_nodes)
    if game != "double-rail":
        return best_first(position, budget, max_nodes)
    t0 = clock()
    first = best_first(
        position,
        None if budget is None else budget * RAIL_FIRST_PHASE,
        None if max_nodes is None else int(max_nodes * RAIL_FIRST_PHASE),
        restricted=True,
    )
    if first.result == WINNABLE:
        return first
    rest = depth_first(
        position,
        None if budget is None else max(budget - (clock() - t0), 0.0),
        None if max_nodes is None else max(max_nodes - first.nodes, 1),
    )
    rest.nodes += first.nodes
    rest.seconds = clock() - t0
    return rest


def depth_first(
    position: Position,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
) -> Result:
    """Exhaustive depth-first search with a transposition table and move ordering."""
    t0, fam, deadline, root, autos = _start(position, budget)
    nodes = 1
    if fam.won(root):
        line = to_engine(position, autos)
        return Result(WINNABLE, nodes, clock() - t0, line)
    seen = {fam.key(root)}
    path: list[list[IMove]] = [autos]
    stack: list[list[Any]] = [[fam.moves(root), 0, root]]
    moves_of = fam.moves
    apply = fam.apply
    autoplay = fam.autoplay
    key = fam.key
    won = fam.won
    add = seen.add
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    while stack:
        frame = stack[-1]
        ms = frame[0]
        i = frame[1]
        if i >= len(ms):
            stack.pop()
            path.pop()
            continue
        frame[1] = i + 1
        m = ms[i]
        st, done = autoplay(apply(frame[2], m))
        if won(st):
            path.append([m, *done])
            line = to_engine(position, [x for step in path for x in step])
            return Result(WINNABLE, nodes, clock() - t0, line)
        k = key(st)
        if k in seen:
            continue
        add(k)
        nodes += 1
        if not nodes & 255 and (nodes >= node_cap or (deadline is not None and clock() > deadline)):
            return Result(UNKNOWN, nodes, clock() - t0, reason="budget")
        path.append([m, *done])
        stack.append([moves_of(st), 0, st])
    return Result(UNWINNABLE, nodes, clock() - t0)


def best_first(
    position: Position,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
    restricted: bool = False,
) -> Result:
    """Greedy best-first search: always expand the generated position with the best
    heuristic score. Complete like :func:`solve` (every reachable position is expanded once
    before it says ``"unwinnable"``), but it finds wins far faster in the free-cell game."""
    t0, fam, deadline, root, autos = _start(position, budget, restricted)
    if fam.won(root):
        return Result(WINNABLE, 1, clock() - t0, to_engine(position, autos))
    seen = {fam.key(root)}
    parents: list[int] = [-1]
    steps: list[list[IMove]] = [autos]
    heap: list[tuple[float, int, int, State]] = [(0.0, 0, 0, root)]
    moves_of = fam.moves
    apply = fam.apply
    autoplay = fam.autoplay
    key = fam.key
    won = fam.won
    score = fam.score
    add = seen.add
    push = heapq.heappush
    tie = -1 if LIFO else 1
    pop = heapq.heappop
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    expanded = 0
    while heap:
        _, _, node, st = pop(heap)
        expanded += 1
        if not expanded & 15 and (
            len(parents) >= node_cap or (deadline is not None and clock() > deadline)
        ):
            return Result(UNKNOWN, len(parents), clock() - t0, reason="budget")
        for m in moves_of(st):
            child, done = autoplay(apply(st, m))
            if won(child):
                line = _trace(steps, parents, node, [m, *done])
                return Result(WINNABLE, len(parents), clock() - t0, to_engine(position, line))
            k = key(child)
            if k in seen:
                continue
            add(k)
            parents.append(node)
            steps.append([m, *done])
            push(heap, (-score(child), tie * len(parents), len(parents) - 1, child))
    if restricted:
        return Result(UNKNOWN, len(parents), clock() - t0, reason="restricted search exhausted")
    return Result(UNWINNABLE, len(parents), clock() - t0)


def beam(
    position: Position,
    width: int = 200,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
) -> Result:
    """Beam search: keep the ``width`` best positions of each depth. Finds wins fast in the
    games where depth-first search gets lost; it proves nothing, so it only ever answers
    ``"winnable"`` (with a line) or ``"unknown"``."""
    t0, fam, deadline, root, autos = _start(position, budget)
    if fam.won(root):
        return Result(WINNABLE, 1, clock() - t0, to_engine(position, autos))
    seen = {fam.key(root)}
    parents: list[int] = [-1]
    steps: list[list[IMove]] = [autos]
    layer: list[tuple[float, int, State]] = [(0.0, 0, root)]
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    score = fam.score
    while layer:
        nxt: list[tuple[float, int, State]] = []
        for _, node, st in layer:
            for m in fam.moves(st):
                child, done = fam.autoplay(fam.apply(st, m))
                if fam.won(child):
                    line = _trace(steps, parents, node, [m, *done])
                    return Result(
                        WINNABLE,
                        len(parents),
                        clock() - t0,
                        to_engine(position, line),
                    )
                k = fam.key(child)
                if k in seen:
                    continue
                seen.add(k)
                parents.append(node)
                steps.append([m, *done])
                nxt.append((-score(child), len(parents) - 1, child))
            if len(parents) >= node_cap or (deadline is not None and clock() > deadline):
                return Result(UNKNOWN, len(parents), clock() - t0, reason="budget")
        nxt.sort(key=_first_f)
        layer = nxt[:width]
    return Result(UNKNOWN, len(parents), clock() - t0, reason="beam")


def _first_f(item: tuple[float, int, State]) -> float:
    return item[0]


def solve_deal(
    game: str, deal: int, budget: float | None = 10.0, max_nodes: int | None = None
) -> Result:
    return solve(Position.deal_of(GAMES[game], deal), budget, max_nodes)


def _version() -> str:
    import hashlib
    import os

    try:
        with open(os.path.abspath(__file__), "rb") as f:
            return hashlib.sha1(f.read()).hexdigest()[:10]
    except OSError:
        return "unknown"


VERSION = _version()  # hash of this file: which solver produced a survey line
