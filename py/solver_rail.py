"""Double Rail in the solver: five piles built down in any suit, ordered runs move, anything
fills an empty pile, a stock dealt one card at a time onto the waste with no redeal."""

from __future__ import annotations

from . import solver_core
from .position import Position
from .solver_core import (
    DEAL,
    SEP,
    T2F,
    T2T,
    W2F,
    W2T,
    WINNABLE,
    Family,
    IMove,
    Result,
    State,
    best_first,
    depth_first,
    first_item,
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

# The share of the budget given to the restricted best-first phase.
RAIL_FIRST_PHASE = 0.8


def search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """First a best-first search over a restricted move set (it can only find wins) with
    80 % of the budget, then the complete depth-first search with the rest."""
    t0 = solver_core.clock()
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
        None if budget is None else max(budget - (solver_core.clock() - t0), 0.0),
        None if max_nodes is None else max(max_nodes - first.nodes, 1),
    )
    rest.nodes += first.nodes
    rest.seconds = solver_core.clock() - t0
    return rest
