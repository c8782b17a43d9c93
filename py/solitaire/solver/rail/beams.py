"""Double Rail's beam searches over tableau multisets and their portfolio: they find wins
fast where the complete search gets lost, and prove nothing ("winnable" with a line, or
"unknown"). Each layer is one card dealt; states are scored by :func:`beam_score` and the
waste lock (:mod:`.lock`) drops the dead ones. Tail beams (:class:`TailBeams`) start from
the states a beam kept some dozens of cards before it died."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import accumulate
from operator import gt
from typing import NamedTuple

from ...position import Position
from .. import core
from ..core import DEAL, UNKNOWN, WINNABLE, IMove, Result, State, to_engine
from .concrete import concrete_line
from .lock import RailAbstract

#: Beam score weights: (foundation cards, waste cards, waste blockers, tableau slack,
#: next-card depth[, waste-lock margin]). See :func:`beam_score`.
BEAM_WEIGHTS = (10.0, 1.0, 3.0, 2.0, 1.0)


def beam_score(fam: RailAbstract, st: State, w: tuple[float, ...]) -> float:
    """How promising a multiset state is, bigger is better (states of one beam layer have
    dealt the same cards, so only where the dealt cards went matters): cards on the
    foundations; waste cards; waste *blockers* (a card with a card below it that its suit's
    foundation reaches sooner: it must find a place in the tableau first); tableau slack
    (5 minus the fewest runs that hold the tableau: a rigid tableau takes no new card
    whose rank-above cards are all covered); how deep the next card of each foundation pile
    lies in the waste; with a sixth weight, the waste-lock margin (:meth:`RailAbstract.
    lock_margin`, up to MARGIN_CAP: how many cards can still be dealt before a card of
    this waste must have left it). The margin costs a lock test per state scored (beams
    1.3-1.8 times slower), so only two beams of the portfolio use it."""
    cnt, fnd, waste, _ = st
    blockers = 0
    if len(waste) > 1:
        table = fam.score_tables.get(fnd)
        if table is None:
            table = fam.score_tables[fnd] = _steps_table(fnd)
        d = waste.translate(table)  # foundation steps to each waste card
        blockers = sum(map(gt, d[1:], accumulate(d, min)))  # more steps than one below
    m = fam.ranks(cnt)
    runs = sum(m) - sum(map(min, m, m[1:]))
    n = len(waste)
    deep = 0
    for k in range(8):
        h = fnd[k]
        if h < 13 and not (k & 1 and h == fnd[k - 1]):
            j = waste.rfind((k >> 1) * 13 + h)
            if j >= 0:
                deep += n - 1 - j
    score = w[0] * sum(fnd) - w[1] * n - w[2] * blockers + w[3] * (fam.piles - runs) - w[4] * deep
    if len(w) > 5 and w[5]:
        score += w[5] * min(fam.lock_margin(st), MARGIN_CAP)
    return score


#: The waste-lock margin counts in the score up to this many cards (see beam_score).
MARGIN_CAP = 30


def _steps_table(fnd: tuple[int, ...]) -> bytes:
    """For :meth:`bytes.translate`: how many foundation steps until each face can go up
    (the nearer of its suit's two piles; 13 if both are past it)."""
    dist = bytearray(256)
    for s in range(4):
        h1 = fnd[2 * s]
        h2 = fnd[2 * s + 1]
        for r in range(13):
            dist[s * 13 + r] = r - h1 if r >= h1 else (r - h2 if r >= h2 else 13)
    return bytes(dist)


def _score_of(item: tuple[float, int, State]) -> float:
    return item[0]


def abstract_beam(
    position: Position,
    budget: float | None,
    max_nodes: int | None,
    width: int = 200,
    weights: tuple[float, ...] = BEAM_WEIGHTS,
    bottom: int = 0,
    per_bottom: int = 0,
    tails: list[Tail] | None = None,
    start: Tail | None = None,
    fam: RailAbstract | None = None,
) -> Result:
    """Beam search over tableau multisets, one layer per card dealt: every state reachable
    from the layer without dealing (foundation moves, waste cards to the tableau) is
    generated, the ``width`` best by :func:`beam_score` that the waste-lock test does not
    reject deal the next card. It answers "winnable" (with a line) or "unknown", never
    "unwinnable" (it drops states).

    With ``per_bottom``, at most that many states of a layer share the same ``bottom``
    cards at the bottom of the waste. Why: the bottom of the waste is the early commitment
    that loses a deal (it stays to the end), and a plain beam soon holds one bottom only
    (deal 15: 300 states, one 6-card bottom from the 70th card left in the stock on), so
    it compares late details of a single early choice.

    With ``tails``, a beam that dies appends to it the best TAIL_STATES states it kept
    TAIL_BACK[i] layers before its last one, each with its line from the root, for
    :class:`TailBeams`; with ``start``, the beam starts from such a state instead of the
    position (its line then begins with the tail's). ``fam``: the family to search with,
    shared by the beams of one position so that they share its waste-lock memo."""
    t0 = core.clock()
    clock = core.clock
    if fam is None:
        fam = RailAbstract(position.rules)
    deadline = None if budget is None else t0 + budget
    node_cap = max_nodes if max_nodes is not None else 1 << 62
    first = fam.start(position)  # (also sets the family up: the stock's order)
    root, autos = fam.autoplay(first) if start is None else (start.state, list(start.line))
    parents: list[int] = [-1]
    steps: list[list[IMove]] = [autos]

    def win(node: int, last: list[IMove]) -> Result:
        line = concrete_line(position, core.trace_line(steps, parents, node, last))
        return Result(WINNABLE, len(parents), clock() - t0, to_engine(position, line))

    if fam.won(root):
        return win(-1, list(autos))
    moves_of, apply, autoplay, key, won = fam.moves, fam.apply, fam.autoplay, fam.key, fam.won
    locked = fam.locked_ahead
    layer: list[tuple[int, State]] = [(0, root)]
    alive = root[3]  # the fewest cards left in the stock of a state kept
    kept: list[list[tuple[int, State]]] = []  # each layer's best states, for tails
    while layer:
        if tails is not None:
            kept.append(layer[:TAIL_STATES])
        seen = {key(st) for _, st in layer}
        pool = list(layer)
        i = 0
        while i < len(pool):
            node, st = pool[i]
            i += 1
            for m in moves_of(st):
                if m[0] == DEAL:
                    continue
                child, done = autoplay(apply(st, m))
                if won(child):
                    return win(node, [m, *done])
                k = key(child)
                if k in seen:
                    continue
                seen.add(k)
                parents.append(node)
                steps.append([m, *done])
                pool.append((len(parents) - 1, child))
            if not i & 63 and (
                len(parents) >= node_cap or (deadline is not None and clock() > deadline)
            ):
                return Result(
                    UNKNOWN, len(parents), clock() - t0, reason="budget", extra={"alive": alive}
                )
        ranked = sorted(
            ((beam_score(fam, st, weights), n, st) for n, st in pool if st[3]),
            key=_score_of,
            reverse=True,
        )
        nxt: list[tuple[int, State]] = []
        bottoms: dict[bytes, int] = {}
        for _, node, st in ranked:
            if per_bottom:
                under = st[2][:bottom]
                if bottoms.get(under, 0) >= per_bottom:
                    continue
            child, done = autoplay(apply(st, (DEAL,)))
            if won(child):
                return win(node, [(DEAL,), *done])
            if locked(child):
                continue
            if per_bottom:
                bottoms[under] = bottoms.get(under, 0) + 1
            parents.append(node)
            steps.append([(DEAL,), *done])
            nxt.append((len(parents) - 1, child))
            alive = child[3]
            if len(nxt) >= width:
                break
        layer = nxt
    if tails is not None:
        for back in TAIL_BACK:
            if back < len(kept):
                for node, st in kept[-1 - back]:
                    tails.append(Tail(st, core.trace_line(steps, parents, node, [])))
    return Result(UNKNOWN, len(parents), clock() - t0, reason="beam", extra={"alive": alive})


class Tail(NamedTuple):
    """A state a beam kept some layers before it died, and the abstract line to it."""

    state: State
    line: list[IMove]


#: How many layers (cards dealt) before a beam's last layer the tail beams start, and how
#: many of each such layer's best states they start from.
TAIL_BACK = (5, 10, 20, 30, 40, 50, 60)
TAIL_STATES = 20
#: After each random beam, tail beams run for this many times as long as it took (at least
#: TAIL_TURN seconds): see :func:`abstract_beams`.
TAIL_SHARE = 3.0
TAIL_TURN = 1.0


class Beam(NamedTuple):
    """One beam of :func:`abstract_beams`: width, score weights (:func:`beam_score`), and
    at most ``per_bottom`` states per ``bottom`` cards at the bottom of the waste (0: no
    limit)."""

    width: int
    weights: tuple[float, ...]
    bottom: int = 0
    per_bottom: int = 0


_W0 = (10.0, 8.0, 0.0, 1.0, 0.0)
_W1 = (10.0, 3.0, 3.0, 2.0, 1.0)
_W2 = (10.0, 5.0, 0.0, 0.0, 0.0)
_W3 = (10.0, 2.0, 1.0, 4.0, 0.5)

#: The beams of :func:`abstract_beams`, tried in turn, then beams with random weights and
#: bottom limits (seeded) until the budget runs out. Chosen greedily, wins per second, on
#: 19 deals of 1-50 no phase decided at 60 s and deals 2801-2830
#: (bench/results/2026-12-07-solver-history.md): the beams with narrow bottom limits are
#: cheap (0.2-0.5 s a deal) and win deals no plain beam wins; the plain beams of the earlier
#: portfolio close it.
BEAM_PORTFOLIO: tuple[Beam, ...] = (
    Beam(300, _W1, 1, 3),
    Beam(300, _W0, 2, 2),
    Beam(300, _W1, 2, 2),
    Beam(300, _W0, 1, 3),
    Beam(300, _W1, 2, 5),
    Beam(300, _W1, 3, 3),
    Beam(300, _W0),
    Beam(300, _W1),
    Beam(300, (*_W0, 8.0)),
    Beam(300, (*_W1, 8.0)),
    Beam(300, _W2, 2, 5),
    Beam(300, _W0, 3, 3),
    Beam(300, _W1, 2, 10),
    Beam(300, _W0, 4, 3),
    Beam(300, _W2),
    Beam(300, _W3),
    Beam(1000, _W1),
)


def random_beam(rng: random.Random) -> Beam:
    """A beam of random weights and bottom limit, after the portfolio."""
    weights = (
        10.0,
        rng.uniform(0.0, 10.0),
        rng.uniform(0.0, 4.0),
        rng.uniform(0.0, 4.0),
        rng.uniform(0.0, 2.0),
    )
    bottom = rng.choice((0, 2, 2, 3, 4))
    return Beam(300, weights, bottom, rng.choice((2, 3, 5, 10)) if bottom else 0)


#: The random beams run only if some beam of the portfolio kept a state alive with fewer
#: cards than this left in the stock; otherwise the complete searches get their time. Of
#: deals 1-450, the 16 that only random beams won had a fixed beam get down to 0-43 cards
#: left; in the 16 where none got below 46 (lost deals, deals the complete searches win,
#: unknown ones), 40 s of random beams won nothing
#: (bench/results/2026-11-29-double-rail-shallow-beams.md). The tail beams start only
#: from the states of the beams that got below it.
RANDOM_BEAMS_BELOW = 45


def abstract_beams(
    position: Position,
    budget: float | None,
    max_nodes: int | None,
    seed: int = 0,
    deep_budget: Callable[[], float | None] | None = None,
) -> Result:
    """:func:`abstract_beam` with the beams of :data:`BEAM_PORTFOLIO`, then, with the time
    left, random beams from the deal and :class:`TailBeams` from the states the fixed beams
    kept (those of the beams that died with fewer than :data:`RANDOM_BEAMS_BELOW` cards
    left in the stock) taking turns, each turn of tail beams TAIL_SHARE times as long as
    the random beam before it (at least TAIL_TURN seconds), until one wins or the budget
    (or node cap) runs out. Why both: of 39 deals of 1-450 that no fixed beam wins, tail
    beams alone won 23 within 45 s, and two others are won by the first random beams from
    the deal within a second (bench/results/2026-12-07-solver-history.md).
    Different weightings and bottom limits win different deals; a wider beam wins hardly
    more than a narrow one. It answers "winnable" or "unknown" only; "unknown" with the
    reason "shallow" right after the portfolio when none of its beams got below
    :data:`RANDOM_BEAMS_BELOW` cards left in the stock (the caller's complete searches get
    the time). Where some did, and ``deep_budget`` is given, the random and tail beams run
    for the seconds it returns (asked after the portfolio, counted from then) instead of
    what is left of ``budget``."""
    t0 = core.clock()
    rng = random.Random(seed)
    nodes = 0
    i = 0
    alive = len(position.stock)  # the fewest cards left in the stock of a state a fixed beam kept
    fam = RailAbstract(position.rules)
    tails = TailBeams(position, seed, fam)
    while True:
        if i == len(BEAM_PORTFOLIO):
            if alive >= RANDOM_BEAMS_BELOW:
                return Result(UNKNOWN, nodes, core.clock() - t0, reason="shallow")
            if deep_budget is not None:
                more = deep_budget()
                budget = None if more is None else core.clock() - t0 + more
        fixed = i < len(BEAM_PORTFOLIO)
        beam = BEAM_PORTFOLIO[i] if fixed else random_beam(rng)
        i += 1
        started = core.clock()
        left = None if budget is None else budget - (started - t0)
        if left is not None and left <= 0:
            break
        cap = None if max_nodes is None else max_nodes - nodes
        if cap is not None and cap <= 0:
            break
        kept: list[Tail] | None = [] if fixed else None
        r = abstract_beam(position, left, cap, *beam, tails=kept, fam=fam)
        nodes += r.nodes
        alive = min(alive, r.extra.get("alive", alive))
        if r.result == WINNABLE:
            r.nodes, r.seconds = nodes, core.clock() - t0
            r.extra["beam"] = i
            return r
        if kept and r.extra["alive"] < RANDOM_BEAMS_BELOW:
            tails.add(kept)
        if budget is None and max_nodes is None and i >= len(BEAM_PORTFOLIO):
            break  # unbounded: the fixed beams only
        if not fixed and tails.tails:
            turn = max(TAIL_SHARE * (core.clock() - started), TAIL_TURN)
            r = tails.run(
                core.clock() + turn,
                None if budget is None else t0 + budget,
                None if max_nodes is None else max_nodes - nodes,
            )
            nodes += r.nodes
            if r.result == WINNABLE:
                r.nodes, r.seconds = nodes, core.clock() - t0
                return r
    return Result(UNKNOWN, nodes, core.clock() - t0, reason="budget")


class TailBeams:
    """Beams of random weights (:func:`random_beam`), each from the next of the fixed beams'
    tails (:class:`Tail`): beam by beam in the order they ran, each beam's tails in the order
    it kept them, then round again with new weights. :meth:`run` goes on where the last run
    stopped. Why: a beam that dies after many cards made its fatal choice some dozens of
    cards before and then kept only states that share it; a beam of other weights from a
    state it kept earlier keeps the beam's good start and revises every later choice. Its
    own generator, so that the random beams from the deal draw the same weights whether or
    not tail beams run between them."""

    def __init__(self, position: Position, seed: int = 0, fam: RailAbstract | None = None) -> None:
        self.position = position
        self.fam = RailAbstract(position.rules) if fam is None else fam
        self.rng = random.Random(seed)
        self.tails: list[Tail] = []
        self.done = 0  # tail beams run

    def add(self, tails: list[Tail]) -> None:
        self.tails.extend(tails)

    def run(self, until: float | None, deadline: float | None, max_nodes: int | None) -> Result:
        """Tail beams until one wins, the time ``until`` passes (a beam started before it
        runs to its end: cut at a turn's end, its search would be lost) or the ``deadline``
        does (that cuts a beam), or the node cap is reached."""
        nodes = 0
        while self.tails:
            now = core.clock()
            left = None if deadline is None else deadline - now
            cap = None if max_nodes is None else max_nodes - nodes
            if (
                (until is not None and now >= until)
                or (left is not None and left <= 0)
                or (cap is not None and cap <= 0)
            ):
                break
            tail = self.tails[self.done % len(self.tails)]
            self.done += 1
            r = abstract_beam(
                self.position, left, cap, *random_beam(self.rng), start=tail, fam=self.fam
            )
            nodes += r.nodes
            if r.result == WINNABLE:
                r.nodes = nodes
                r.extra["tail"] = self.done
                return r
        return Result(UNKNOWN, nodes, 0.0, reason="budget")
