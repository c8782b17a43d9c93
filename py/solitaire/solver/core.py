"""What the solver's families and searches share: the compact state's constants, the
foundation bookkeeping of :class:`Family`, the generic searches (depth-first, resumable, and
best-first), the helpers of a search that keeps its tree as lists (:func:`start_search`,
:func:`trace_line`) and the conversion of a line back to engine moves (:func:`to_engine`).

A game's family (how its compact state moves) lives in its own module of this package, named
by its rules' ``solver`` field: ``yukon`` (Russian, Double Russian), ``rail`` (Double Rail),
``freecell`` (Double FreeCell); each also says how its games are searched (its ``search``
function). :mod:`solitaire.solver` is the public entry point. See docs/solver.md.
"""

from __future__ import annotations

import heapq
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..piles import CELL, FOUNDATION, STOCK, TABLEAU, WASTE
from ..position import Move, Position
from ..rules import GameRules
from ..tables import rule_tables

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


# --------------------------------------------------------------------------- foundations
#
# ``fnd`` is a tuple of heights. By-suit games with one foundation per suit copy keep
# ``decks`` slots per suit (slot ``s * decks + k``), kept in decreasing order inside a suit
# so that the two interchangeable piles of a suit are stored one way only. Double FreeCell
# keeps one slot per suit, 0 … 26 (built A→K twice).


class Family:
    """Rules shared by the three solver families; subclasses give moves and ordering."""

    restricted = False

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.decks = rules.decks
        self.total = rules.cards
        self.laps = rules.foundation_laps
        tables = rule_tables(rules)  # the engine's tables, shared
        self.per_suit = tables.per_suit  # foundation piles per suit
        #: For every face: the faces of rank r-1 whose copies must all be up for it to be safe.
        self.below = tables.below
        #: ``fits[c][u]``: the face c may be built on the face u.
        self.fits = tables.face_fits

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


def flip(rest: bytes) -> bytes:
    if rest and rest[-1] >= DOWN:
        return rest[:-1] + bytes((rest[-1] - DOWN,))
    return rest


DOWN_BYTES = bytes(range(DOWN, DOWN + 52))


def first_item(item: tuple[int, IMove]) -> int:
    return item[0]


# --------------------------------------------------------------------------- families


def family_module(rules: GameRules) -> Any:
    """The module of the game's solver family (``rules.solver``): its ``FAMILY`` (a class or
    a function of the rules giving the family object) and its ``search`` function."""
    return importlib.import_module(f".{rules.solver}", __package__)


def family(rules: GameRules, restricted: bool = False) -> Family:
    """The search rules of a game. ``restricted`` (Double Rail only) leaves out moves that
    split a run between two cards of the same rank unless the card uncovered can go to
    a foundation: an incomplete search, used only to find wins fast."""
    fam: Family = family_module(rules).FAMILY(rules)
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
            mv = Move(TABLEAU[m[1]], TABLEAU[m[2]], m[3])
        elif kind in (T2F, W2F, C2F):
            if kind == T2F:
                src = TABLEAU[m[1]]
                card = pos.tableau[m[1]][-1]
            elif kind == W2F:
                src, card = WASTE, pos.waste[-1]
            else:
                k = next(k for k, c in enumerate(pos.cells) if c is not None and c % 52 == m[1])
                src, card = CELL[k], pos.cells[k] or 0
            f = next(
                (f for f, p in enumerate(pos.foundations) if pos.foundation_accepts(card, p)), -1
            )
            mv = Move(src, FOUNDATION[f])
        elif kind == W2T:
            mv = Move(WASTE, TABLEAU[m[1]])
        elif kind == C2T:
            k = next(k for k, c in enumerate(pos.cells) if c is not None and c % 52 == m[1])
            mv = Move(CELL[k], TABLEAU[m[2]])
        elif kind == T2C:
            k = next(k for k, c in enumerate(pos.cells) if c is None)
            mv = Move(TABLEAU[m[1]], CELL[k])
        else:
            mv = Move(STOCK, WASTE)
        pos = pos.play(mv)
        out.append(mv)
    if check_win and not pos.is_won():
        raise AssertionError("solver line does not win")
    return out


def start_search(
    position: Position, budget: float | None, restricted: bool = False
) -> tuple[float, Family, float | None, State, list[IMove]]:
    """The start of a search over ``position``'s family (see :func:`family` for
    ``restricted``): the clock when it starts, the family, the deadline that ``budget``
    seconds give, and the root state after the safe auto-moves with those moves."""
    t0 = clock()
    fam = family(position.rules, restricted)
    deadline = None if budget is None else t0 + budget
    root, autos = fam.autoplay(fam.start(position))
    return t0, fam, deadline, root, autos


def trace_line(
    steps: list[list[IMove]], parents: list[int], node: int, line: list[IMove]
) -> list[IMove]:
    """The winning line of a search that keeps its tree as lists: ``parents[n]`` is the
    parent of node ``n`` (-1 for the root) and ``steps[n]`` the moves that led to it. Returns
    ``line`` (the moves after ``node``, changed in place) preceded by the moves from the root
    to ``node``."""
    while node >= 0:
        line[:0] = steps[node]
        node = parents[node]
    return line


class DepthFirst:
    """Exhaustive depth-first search with a transposition table and move ordering, that
    can be stopped and resumed: each :meth:`run` goes on from where the last one stopped
    (stack, seen set and node count kept), so a portfolio that comes back to it (Double
    Rail's last phase) does not search its first phase's positions again.

    ``fam``: search these rules instead of the game's own family (e.g. an abstraction of
    it, as Double Rail's tableau multisets); ``realise`` then turns its winning line into
    the family's moves that :func:`to_engine` replays. ``dead(move, state)`` (move None at
    the root): True only for a state proved lost, which is then not expanded (Double Rail's
    waste-lock test); the search stays complete."""

    def __init__(
        self,
        position: Position,
        fam: Family | None = None,
        realise: Callable[[Position, list[IMove]], list[IMove]] | None = None,
        dead: Callable[[IMove | None, State], bool] | None = None,
    ) -> None:
        self.position = position
        self.fam = fam = family(position.rules) if fam is None else fam
        self.realise = realise
        self.dead = dead
        root, autos = fam.autoplay(fam.start(position))
        self.nodes = 1
        self.counted = 0  # nodes already reported by earlier runs
        self.seen: set[Any] = set()
        self.seen.add(fam.key(root))
        self.path: list[list[IMove]] = [autos]
        self.stack: list[list[Any]] = [[fam.moves(root), 0, root]]
        #: the answer once found (a later run repeats it)
        self.answer: Result | None = None
        #: other searches of the same position and family whose finished positions this one
        #: skips (:meth:`finished_keys`), so that searches taking turns share their proofs
        self.partners: list[DepthFirst] = []
        if fam.won(root):
            self.answer = self._win(autos)
        elif dead is not None and dead(None, root):
            self.answer = Result(UNWINNABLE, 1, 0.0)

    def finished_keys(self) -> tuple[set[Any], set[Any]]:
        """(seen, on the stack): between two runs, every position seen and not on the stack
        is proved lost. The move graphs searched here are acyclic, so a position's successor
        that was seen before is never one of its ancestors (the positions on the stack): it
        was expanded to the end, or rejected by ``dead``, and no win was found under it."""
        key = self.fam.key
        return self.seen, {key(frame[2]) for frame in self.stack}

    def _win(self, line: list[IMove]) -> Result:
        if self.realise is not None:
            line = self.realise(self.position, line)
        return Result(WINNABLE, self.nodes, 0.0, to_engine(self.position, line))

    def _report(self, result: str, t0: float, **extra: Any) -> Result:
        """This run's result: its own nodes and seconds."""
        nodes, self.counted = self.nodes - self.counted, self.nodes
        line = self.answer.line if self.answer is not None else None
        return Result(result, nodes, clock() - t0, line, **extra)

    def run(self, budget: float | None = 10.0, max_nodes: int | None = None) -> Result:
        """Search on for ``budget`` seconds / ``max_nodes`` more positions; the result
        counts this run's positions and seconds."""
        t0 = clock()
        if self.answer is not None:
            return self._report(self.answer.result, t0)
        deadline = None if budget is None else t0 + budget
        nodes = self.nodes
        node_cap = nodes + (max_nodes if max_nodes is not None else 1 << 62)
        fam, dead, path, stack = self.fam, self.dead, self.path, self.stack
        moves_of, apply, autoplay, key, won = fam.moves, fam.apply, fam.autoplay, fam.key, fam.won
        seen = self.seen
        add = seen.add
        others = [p.finished_keys() for p in self.partners]

        def lost_elsewhere(k: Any) -> bool:
            return any(k in s and k not in busy for s, busy in others)

        if others:
            # positions of the stack that a partner has proved lost since: leave them
            for j in range(1, len(stack)):
                if lost_elsewhere(key(stack[j][2])):
                    del stack[j:], path[j:]
                    break
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
                self.nodes = nodes
                self.answer = self._win([x for step in path for x in step])
                return self._report(WINNABLE, t0)
            k = key(st)
            if k in seen:
                continue
            if others and lost_elsewhere(k):
                add(k)  # proved lost by a partner
                continue
            add(k)
            nodes += 1
            if dead is None or not dead(m, st):
                path.append([m, *done])
                stack.append([moves_of(st), 0, st])
            # after the push: a resumed run goes on with this position
            if nodes >= node_cap or (
                not nodes & 255 and deadline is not None and clock() > deadline
            ):
                self.nodes = nodes
                return self._report(UNKNOWN, t0, reason="budget")
        self.nodes = nodes
        self.answer = Result(UNWINNABLE, nodes, 0.0)
        return self._report(UNWINNABLE, t0)


def depth_first(
    position: Position,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
    fam: Family | None = None,
    realise: Callable[[Position, list[IMove]], list[IMove]] | None = None,
    dead: Callable[[IMove | None, State], bool] | None = None,
) -> Result:
    """One run of :class:`DepthFirst` (used for Russian, whose searches are small)."""
    return DepthFirst(position, fam, realise, dead).run(budget, max_nodes)


def best_first(
    position: Position,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
    restricted: bool = False,
) -> Result:
    """Greedy best-first search: always expand the generated position with the best
    heuristic score, among equal scores the newest (depth-first on plateaus). Complete like
    :func:`solve` (every reachable position is expanded once before it says
    ``"unwinnable"``), but it finds wins far faster in the free-cell game."""
    t0, fam, deadline, root, autos = start_search(position, budget, restricted)
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
                line = trace_line(steps, parents, node, [m, *done])
                return Result(WINNABLE, len(parents), clock() - t0, to_engine(position, line))
            k = key(child)
            if k in seen:
                continue
            add(k)
            parents.append(node)
            steps.append([m, *done])
            push(heap, (-score(child), -len(parents), len(parents) - 1, child))
    if restricted:
        return Result(UNKNOWN, len(parents), clock() - t0, reason="restricted search exhausted")
    return Result(UNWINNABLE, len(parents), clock() - t0)
