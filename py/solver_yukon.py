"""Russian and Double Russian in the solver: the Yukon family (build down by suit, any
face-up card moves with everything on it, only a King fills an empty pile)."""

from __future__ import annotations

from .position import Position
from .solver_core import (
    DOWN,
    DOWN_BYTES,
    SEP,
    T2F,
    T2T,
    Family,
    IMove,
    Result,
    State,
    best_first,
    depth_first,
    first_item,
    flip,
)

# --------------------------------------------------------------------------- Yukon family


class Yukon(Family):
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
                        lst[i] = flip(p[:-1])
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
            lst[i] = flip(p[:-n])
            lst[t] = tab[t] + p[-n:]
        else:  # T2F
            i = m[1]
            p = tab[i]
            fnd = self.f_add(fnd, self.f_index(fnd, p[-1]))
            lst[i] = flip(p[:-1])
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
        scored.sort(key=first_item, reverse=True)
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
            down = len(p) - len(p.lstrip(DOWN_BYTES))
            s -= 8 * down + (2 * down if down else 0)
        return s


FAMILY = Yukon


def search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """Russian: depth-first (most deals are proved lost in a few hundred positions).
    Double Russian: best-first (depth-first follows a poor early choice for too long)."""
    if position.rules.id == "russian":
        return depth_first(position, budget, max_nodes)
    return best_first(position, budget, max_nodes)
