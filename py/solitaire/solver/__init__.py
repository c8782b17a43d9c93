"""An exact solver for the four games: can a position still be won, and how.

"Thoughtful" solitaire: the solver sees every card, face-down ones and the stock order
included. The searches are exhaustive over positions with a transposition table, so
``"unwinnable"`` is a proof (every reachable position was visited) and ``"winnable"`` comes
with a line of engine :class:`Move` objects that replays to a win through
:meth:`Position.play`. A time or node budget stops it with ``"unknown"``.

Inside the search a position is a compact tuple: tableau piles as ``bytes`` of card faces
(``card % 52``; the two copies of a card play identically), face-down cards marked by +64,
foundations as per-suit heights, free cells as a sorted ``bytes``, the stock as a count (its
order is fixed) and the waste as ``bytes``. The transposition key joins the *sorted* piles,
so piles whose order does not matter, interchangeable foundations and free cells and the
two copies of a card are each counted once. See docs/solver.md for the pruning rules and
why each is safe.

Where things are: this package's ``__init__`` is the public entry point; ``core`` holds the
shared state bookkeeping and the generic searches; ``yukon``, ``rail`` (a package: the family
and its phases, ``rail.lock`` the tableau multisets and their waste lock, ``rail.beams`` the
beam searches) and ``freecell`` each hold one family of games (its moves, ordering, heuristic
and how its games are searched), chosen by the game's ``GameRules.solver``; ``hints`` answers
the page's questions (a hint, was the deal winnable) on top of :func:`solve`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..position import Position
from . import core
from .core import UNKNOWN, UNWINNABLE, WINNABLE, Result, best_first, depth_first, family_module

# The searches' building blocks (Family, State, IMove, family, to_engine ...) are in ``core``.
__all__ = [
    "UNKNOWN",
    "UNWINNABLE",
    "VERSION",
    "WINNABLE",
    "Result",
    "best_first",
    "depth_first",
    "set_clock",
    "solve",
    "solve_deal",
]


def set_clock(clock: Callable[[], float]) -> None:
    """The clock budgets are measured with: wall-clock by default; the benchmark and the
    survey can switch to ``time.process_time`` so that other programs on a shared machine
    do not eat the budget."""
    core.clock = clock


def solve(
    position: Position,
    budget: float | None = 10.0,
    max_nodes: int | None = None,
) -> Result:
    """Decide ``position``: ``"winnable"`` with a winning line (engine moves that replay
    through :meth:`Position.play`), ``"unwinnable"`` (proved by visiting every reachable
    position) or ``"unknown"`` when ``budget`` seconds or ``max_nodes`` positions ran out.

    How each game is searched is its family module's ``search`` (docs/solver.md). Every
    complete search visits all reachable positions before saying "unwinnable"."""
    result: Result = family_module(position.rules).search(position, budget, max_nodes)
    return result


def solve_deal(
    game: str, deal: int, budget: float | None = 10.0, max_nodes: int | None = None
) -> Result:
    """:func:`solve` on deal ``deal`` of the game ``game`` (a game id such as "russian")."""
    return solve(Position.deal_of(game, deal), budget, max_nodes)


def _version() -> str:
    """A hash of every source file of this package (path and text): which solver produced a
    survey line."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha1()
    here = Path(__file__).resolve().parent
    try:
        for path in sorted(here.rglob("*.py")):
            digest.update(path.relative_to(here).as_posix().encode())
            digest.update(path.read_bytes())
    except OSError:
        return "unknown"
    return digest.hexdigest()[:10]


VERSION = _version()
