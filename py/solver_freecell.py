"""Double FreeCell in the solver: ten columns built down in alternating colours, six free
cells, ordered runs move up to the free-space limit, anything fills an empty column."""

from __future__ import annotations

from .position import Position
from .solver_core import (
    C2F,
    C2T,
    SEP,
    T2C,
    T2F,
    T2T,
    Family,
    IMove,
    Result,
    State,
    best_first,
    first_item,
)

# --------------------------------------------------------------------------- Double FreeCell


class FreeCell(Family):
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
        scored.sort(key=first_item, reverse=True)
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


FAMILY = FreeCell


def search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """Best-first search: depth-first follows a poor early choice for too long."""
    return best_first(position, budget, max_nodes)
