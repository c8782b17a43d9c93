"""Russian and Double Russian in the solver: the Yukon family (build down by suit, any
face-up card moves with everything on it, only a King fills an empty pile)."""

from __future__ import annotations

import random
from bisect import bisect_right

from ..position import Position
from ..rules import GameRules
from . import core
from .core import (
    DOWN,
    DOWN_BYTES,
    SEP,
    T2F,
    T2T,
    UNKNOWN,
    WINNABLE,
    Family,
    IMove,
    Result,
    State,
    best_first,
    depth_first,
    first_item,
    flip,
    to_engine,
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


# --------------------------------------------------------------------------- Double Russian

#: Weights of the Double Russian score (:meth:`DoubleYukon.pile_value`). The portfolio runs
#: beams with several weightings: each wins deals the others lose.
WEIGHTS: dict[str, dict[str, float]] = {
    # cards up, face-down cards, piles with any, empty piles, breaks in the building order
    # (above face-down cards / in a pile with none), a King on face-down cards
    "main": {"down": 10, "downpile": 2, "empty": 8, "brkdown": 2, "brk": 2, "king": 6},
    "plain": {"down": 10, "downpile": 0, "empty": 8, "brkdown": 0, "brk": 0, "king": 0},
    "order": {"down": 10, "downpile": 2, "empty": 8, "brkdown": 6, "brk": 4, "king": 10},
}


class DoubleYukon(Yukon):
    """Double Russian: two copies of every card, two foundation slots per suit (kept in
    decreasing order). A card goes up by itself (safe) exactly when the lower slot of its
    suit has reached its rank."""

    def __init__(self, rules: GameRules) -> None:
        super().__init__(rules)
        # slot whose height decides a safe auto-move of face f: the lower slot of its suit
        self.low = [(f // 13) * 2 + 1 for f in range(52)]
        self.hi = [(f // 13) * 2 for f in range(52)]
        self.rank = [f % 13 for f in range(52)]
        self.pile_memo: dict[bytes, float] = {}
        self.weights = WEIGHTS["main"]

    def weigh(self, weights: str | dict[str, float]) -> None:
        """Score positions with the weights ``WEIGHTS[weights]`` (or these weights)."""
        self.weights = WEIGHTS[weights] if isinstance(weights, str) else weights
        self.pile_memo = {}

    def autoplay(self, st: State) -> tuple[State, list[IMove]]:
        tab, fnd = st
        low = self.low
        rank = self.rank
        done: list[IMove] = []
        again = True
        while again:
            again = False
            for i, p in enumerate(tab):
                if p:
                    c = p[-1]
                    if fnd[low[c]] == rank[c]:
                        lst = list(fnd)
                        lst[low[c]] += 1
                        if lst[low[c]] > lst[low[c] - 1]:
                            lst[low[c]], lst[low[c] - 1] = lst[low[c] - 1], lst[low[c]]
                        fnd = tuple(lst)
                        t = list(tab)
                        t[i] = flip(p[:-1])
                        tab = tuple(t)
                        done.append((T2F, i))
                        again = True
        return (tab, fnd), done

    def moves(self, st: State) -> list[IMove]:
        """As :meth:`Yukon.moves` (same moves, same order of preference), found with one
        ``find`` per target in the joined piles instead of one per target and pile."""
        tab, fnd = st
        hi = self.hi
        low = self.low
        rank = self.rank
        joined = SEP.join(tab)
        starts = []
        k = 0
        for p in tab:
            starts.append(k)
            k += len(p) + 1
        scored: list[tuple[int, IMove]] = []
        empty = -1
        for t, p in enumerate(tab):
            if not p:
                if empty < 0:
                    empty = t
                continue
            top = p[-1]
            r = rank[top]
            if fnd[hi[top]] == r or fnd[low[top]] == r:
                scored.append((95 if len(p) > 1 and p[-2] >= DOWN else 75, (T2F, t)))
            if r:
                need = top - 1
                at = joined.find(need)
                while at >= 0:
                    i = bisect_right(starts, at) - 1
                    if i != t:
                        j = at - starts[i]
                        q = tab[i]
                        if j == 0:
                            rate = 85  # empties a pile
                        else:
                            under = q[j - 1]
                            if under >= DOWN:
                                rate = 100 + j  # turns a card up; prefer the deeper piles
                            elif under == top:
                                rate = 5  # from one copy of its parent to the other
                            elif fnd[hi[under]] == rank[under] or fnd[low[under]] == rank[under]:
                                rate = 80
                            else:
                                rate = 40
                        scored.append((rate, (T2T, i, t, len(q) - j)))
                    at = joined.find(need, at + 1)
        if empty >= 0:
            for king in (12, 25, 38, 51):
                at = joined.find(king)
                while at >= 0:
                    i = bisect_right(starts, at) - 1
                    j = at - starts[i]
                    if j:
                        q = tab[i]
                        under = q[j - 1]
                        score = 90 + j if under >= DOWN else 30
                        scored.append((score, (T2T, i, empty, len(q) - j)))
                    at = joined.find(king, at + 1)
        scored.sort(key=first_item, reverse=True)
        return [m for _, m in scored]

    def pile_value(self, p: bytes) -> float:
        w = self.weights
        if not p:
            return w["empty"]
        d = len(p) - len(p.lstrip(DOWN_BYTES))
        v = 0.0
        if d:
            v -= w["down"] * d + w["downpile"]
            if p[d] % 13 == 12:
                v -= w["king"]
        prev = p[d]
        brk = 0
        for c in p[d + 1 :]:
            if c != prev - 1:
                brk += 1
            prev = c
        v -= brk * (w["brkdown"] if d else w["brk"])
        return v

    def score(self, st: State) -> float:
        tab, fnd = st
        memo = self.pile_memo
        s = 10.0 * sum(fnd)
        for p in tab:
            v = memo.get(p)
            if v is None:
                v = self.pile_value(p)
                if len(memo) > 300_000:  # bounded memory (Pyodide)
                    memo.clear()
                memo[p] = v
            s += v
        return s


def FAMILY(rules: GameRules) -> Yukon:
    """The family object of a Yukon game: Double Russian has its own autoplay and score."""
    return DoubleYukon(rules) if rules.decks == 2 else Yukon(rules)


def wide_beam(
    position: Position,
    width: int,
    budget: float | None,
    max_nodes: int | None,
    weights: str | dict[str, float] = "main",
) -> Result:
    """A beam search (keep the ``width`` best positions of each depth) scoring with
    ``WEIGHTS[weights]`` (or these weights). Only the positions it keeps are marked as seen (a
    beam that marks every position it generates won the same deals of 1-30 at width 200). It
    stops when its layer is empty. Proves nothing: "winnable" with a line, or "unknown"."""
    t0, fam, deadline, root, autos = core.start_search(position, budget)
    if fam.won(root):
        return Result(WINNABLE, 1, core.clock() - t0, to_engine(position, autos))
    if isinstance(fam, DoubleYukon):
        fam.weigh(weights)
    seen = {fam.key(root)}
    parents: list[int] = [-1]
    steps: list[list[IMove]] = [autos]
    layer: list[tuple[float, int, State]] = [(0.0, 0, root)]
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    score, moves_of, apply, autoplay, key, won = (
        fam.score,
        fam.moves,
        fam.apply,
        fam.autoplay,
        fam.key,
        fam.won,
    )
    nodes = 1
    clock = core.clock
    while layer:
        nxt: dict[bytes, tuple[float, int, State, IMove, list[IMove]]] = {}
        for _, node, st in layer:
            for m in moves_of(st):
                child, done = autoplay(apply(st, m))
                if won(child):
                    line = core.trace_line(steps, parents, node, [m, *done])
                    return Result(WINNABLE, nodes, clock() - t0, to_engine(position, line))
                k = key(child)
                if k in seen or k in nxt:
                    continue
                nodes += 1
                nxt[k] = (-score(child), node, child, m, done)
            if nodes >= node_cap or (deadline is not None and clock() > deadline):
                return Result(UNKNOWN, nodes, clock() - t0, reason="budget")
        best = sorted(nxt.items(), key=_beam_order)[:width]
        layer = []
        for k, (s, node, child, m, done) in best:
            seen.add(k)
            parents.append(node)
            steps.append([m, *done])
            layer.append((s, len(parents) - 1, child))
    return Result(UNKNOWN, nodes, clock() - t0, reason="beam")


def _beam_order(item: tuple[bytes, tuple[float, int, State, IMove, list[IMove]]]) -> float:
    return item[1][0]


#: Double Russian's portfolio: phases tried in turn, each on the whole deal: ``("best", n,
#: _)`` is best-first capped at ``n`` positions, ``("beam", w, weights)`` a beam of width
#: ``w`` scoring with ``WEIGHTS[weights]``. Beams only ever answer "winnable"; the last
#: phase, an uncapped best-first search, is complete (so is a capped best-first phase that
#: empties its heap).
PHASES: tuple[tuple[str, int, str], ...] = (
    ("best", 20_000, "main"),
    ("beam", 150, "main"),
    ("beam", 300, "plain"),
    ("beam", 300, "order"),
    ("beam", 1000, "main"),
    ("beam", 600, "plain"),
)
#: The most of the remaining budget one beam phase may use.
BEAM_SHARE = 0.35
#: The share of the budget left after :data:`PHASES` that beams with random weights take
#: (:func:`random_weights`, seeded: runs repeat) before the complete best-first search.
#: Different weights win different deals, and most beams die out within a second: 60 s of
#: random beams alone won 3 of 12 deals the solver had left unknown at 60 s.
RANDOM_BEAM_SHARE = 0.5
RANDOM_BEAM_WIDTHS = (600, 1000)


def random_weights(rng: random.Random) -> dict[str, float]:
    """Weights for a random beam, around the ranges of :data:`WEIGHTS`."""
    return {
        "down": rng.uniform(5.0, 15.0),
        "downpile": rng.uniform(0.0, 5.0),
        "empty": rng.uniform(0.0, 15.0),
        "brkdown": rng.uniform(0.0, 8.0),
        "brk": rng.uniform(0.0, 6.0),
        "king": rng.uniform(0.0, 12.0),
    }


def random_beams(position: Position, budget: float, max_nodes: int | None) -> Result:
    """Beams of random weights and widths, one after the other, until one wins or the
    budget (or node cap) runs out; each takes at most :data:`BEAM_SHARE` of what is left.
    "winnable" or "unknown" only."""
    t0 = core.clock()
    rng = random.Random(0)
    nodes = 0
    while True:
        left = budget - (core.clock() - t0)
        cap = None if max_nodes is None else max_nodes - nodes
        if left <= 0 or (cap is not None and cap <= 0):
            return Result(UNKNOWN, nodes, core.clock() - t0, reason="budget")
        weights = random_weights(rng)
        width = rng.choice(RANDOM_BEAM_WIDTHS)
        r = wide_beam(position, width, left * BEAM_SHARE, cap, weights)
        nodes += r.nodes
        if r.result != UNKNOWN:
            r.nodes, r.seconds = nodes, core.clock() - t0
            return r


def search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """One deck (Russian): depth-first (most deals are proved lost in a few hundred
    positions). Two decks (Double Russian, whose searches are far larger): a portfolio
    (:data:`PHASES`): a short best-first search, beams of growing width (they only ever answer
    "winnable"), beams of random weights (:data:`RANDOM_BEAM_SHARE` of what is left of a
    budget in seconds), then the complete best-first search with what is left."""
    if position.rules.decks == 1:
        return depth_first(position, budget, max_nodes)
    t0 = core.clock()
    nodes = 0
    for kind, size, weights in PHASES:
        left = None if budget is None else budget - (core.clock() - t0)
        cap = None if max_nodes is None else max_nodes - nodes
        if (left is not None and left <= 0) or (cap is not None and cap <= 0):
            break
        if kind == "best":
            r = best_first(position, left, size if cap is None else min(size, cap))
        else:
            share = None if left is None else left * BEAM_SHARE
            r = wide_beam(position, size, share, cap, weights)
        nodes += r.nodes
        if r.result != UNKNOWN:
            r.nodes, r.seconds = nodes, core.clock() - t0
            return r
    if budget is not None:
        left = max(0.0, budget - (core.clock() - t0))
        cap = None if max_nodes is None else max(1, max_nodes - nodes)
        r = random_beams(position, left * RANDOM_BEAM_SHARE, cap)
        nodes += r.nodes
        if r.result != UNKNOWN:
            r.nodes, r.seconds = nodes, core.clock() - t0
            return r
    left = None if budget is None else max(0.0, budget - (core.clock() - t0))
    cap = None if max_nodes is None else max(1, max_nodes - nodes)
    r = best_first(position, left, cap)
    r.nodes, r.seconds = nodes + r.nodes, core.clock() - t0
    return r
