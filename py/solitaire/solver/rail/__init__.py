"""Double Rail in the solver: five piles built down in any suit, ordered runs move, anything
fills an empty pile, a stock dealt one card at a time onto the waste with no redeal.

This module holds the family over the piles (:class:`Rail`: moves, ordering, score) and
:func:`search` with its phases; :mod:`.lock` the search over tableau multisets and its waste
lock, :mod:`.lockfit` the lock's counting, :mod:`.concrete` a multiset line made into moves
of the piles; :mod:`.beams` the beam searches.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial

from ...position import Position
from .. import core
from ..core import (
    DEAL,
    SEP,
    T2F,
    T2T,
    UNKNOWN,
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
)
from .beams import abstract_beams
from .concrete import concrete_line
from .lock import RailAbstract

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
# of beam searches over tableau multisets (they find wins only), then two complete searches
# in turns, the first one resumed and one that deals first, with the rest. A hand-made
# position whose piles are not single runs gets the restricted best-first search over the
# piles, then the plain depth-first search.
# Measured at 60 s CPU over deals 1-150 (docs/solver-rail.md): every deal proved lost needed at
# most 22 s of complete search (deal 6), while the beams went on winning deals up to 32 s
# into their share (54, 61, 132, 135 at 24-32 s of beams; nothing more in 50 s). So the
# beams get 55 % (33 s of 60), the complete searches 5 % first and the last 40 %.
# A longer first phase (10 %) delays every win of the beams (median decided deal at 60 s:
# 6.1 s against 3.2 s). Where no beam of the fixed portfolio gets below
# beams.RANDOM_BEAMS_BELOW cards left in the stock, the random beams are skipped and the
# complete searches get their time as well (why: that constant).
RAIL_PROBE_PHASE = 0.05
# After the beams, two complete searches take turns: the first one (resumed) and one whose
# positions list their moves in the reverse order (deal first). The deal-first order wins
# some deals that every other phase misses within 60 s (91 and 136 in 0.2 s, 432 and 103 in
# 111 092 and 324 233 positions), and each search skips the positions the other has proved lost
# (``DepthFirst.partners``), so taking turns costs a lost deal's proof next to nothing:
# deal 430 in 243 818 positions instead of 243 779 (358: 467 198 / 467 168). Turns are
# counted in positions, so that where a search stands does not depend on the machine.
RAIL_TURN_NODES = 20_000
RAIL_BEAM_PHASE = 0.55
#: Where some fixed beam got below beams.RANDOM_BEAMS_BELOW cards left in the stock, the
#: random and tail beams go on to this fraction of the budget (the complete searches get
#: the rest). Why: of deals 1-1977, every deal the complete searches proved lost after the
#: beams' usual share had every fixed beam die with 50 or more cards left, and of deals
#: 1-450 they won one deep deal after it (103, at 45 s); the tail beams win deep deals up
#: to the end of a longer share (docs/solver-rail.md, "Tail beams").
RAIL_DEEP_BEAMS_END = 0.85
RAIL_FIRST_PHASE = 0.05
#: The first complete search's node cap when neither a budget nor a node cap is given.
PROBE_NODES = 50_000


def search(position: Position, budget: float | None, max_nodes: int | None) -> Result:
    """Over tableau multisets: the complete search (:func:`abstract_search`, 5 % of the
    budget), beam searches and tail searches from their states (:func:`abstract_beams`,
    55 %: they can only find wins; less
    where every fixed beam dies early, see :data:`.beams.RANDOM_BEAMS_BELOW`), then
    that complete search and a second one with its moves in the reverse order (deal first)
    in turns of RAIL_TURN_NODES positions, each skipping what the other proved lost, with
    every second left. A hand-made position whose piles are not single runs: a best-first
    search over a restricted move set (5 %, wins only), then the plain depth-first search
    over the piles."""
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
        (
            partial(abstract_beams, position, deep_budget=lambda: share(RAIL_DEEP_BEAMS_END)),
            RAIL_PROBE_PHASE,
            beams_end,
            None,
        ),
    ]
    for run, start, end, unbounded_cap in phases:
        r = run(
            share(end), unbounded_cap if budget is None and max_nodes is None else cap(end - start)
        )
        nodes += r.nodes
        if r.result != UNKNOWN:
            r.nodes = nodes
            r.seconds = core.clock() - t0
            return r
    # the first complete search goes on from where it stopped, taking turns with the other
    deal_first = complete_search(position, deal_first=True)
    complete.partners, deal_first.partners = [deal_first], [complete]
    turns = itertools.cycle((deal_first, complete))
    while True:
        left = None if max_nodes is None else max(max_nodes - nodes, 1)
        r = next(turns).run(
            share(1.0), RAIL_TURN_NODES if left is None else min(RAIL_TURN_NODES, left)
        )
        nodes += r.nodes
        out_of_budget = budget is not None and share(1.0) == 0.0
        if r.result != UNKNOWN or out_of_budget or (left is not None and r.nodes >= left):
            r.nodes = nodes
            r.seconds = core.clock() - t0
            return r


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


def complete_search(position: Position, deal_first: bool = False) -> DepthFirst:
    """:func:`abstract_search` as a :class:`core.DepthFirst` that can be stopped and
    resumed, so the solver's last phase goes on from its first phase's positions.

    The waste-lock test runs at the root and after deals only: between two deals the waste
    only loses its top cards, which leaves the cards forced by the cards below unchanged.

    ``deal_first``: the moves of each position in the reverse order (:class:`DealFirst`).
    Whatever the order, the search expands every position it reaches that the lock does
    not reject, so it is as complete either way (the counts differ a little: a position
    reached both by a deal and by another move is lock-tested only if a deal reaches it
    first)."""
    fam = DealFirst(position.rules) if deal_first else RailAbstract(position.rules)
    locked = fam.locked_ahead

    def dead(m: IMove | None, st: State) -> bool:
        return (m is None or m[0] == DEAL) and locked(st)

    return DepthFirst(position, fam, concrete_line, dead)


class DealFirst(RailAbstract):
    """:class:`RailAbstract` with each position's moves in the reverse order: deal first,
    then the waste card to the tableau, tableau cards and the waste card to the foundations.
    The same positions and moves (a search over it is as complete); a depth-first search
    over it deals on until the waste locks and revises its latest choices first, which wins
    at once some deals the usual order and the beams miss."""

    def moves(self, st: State) -> list[IMove]:
        return super().moves(st)[::-1]
