"""Hints and post-mortems for the page, on top of the solver; pure Python, usable in the
page's solver worker (see ``solitaire.web.solver_worker``) and in CPython.

- :func:`hint` — the next move of a winning line, or (budget out) a heuristic move, or
  "this position is lost".
- :func:`was_winnable` — for a stuck or abandoned game: could the deal be won from its
  start, and what was the last step of the player's history from which a win was still
  possible.
- :func:`is_winnable_deal` — decide a numbered deal.

Every function takes and returns plain JSON-able values (dicts of str / int / float /
list / None), so they cross the worker boundary unchanged.
"""

from __future__ import annotations

import time
from typing import Any

from ..game import Game
from ..position import Move, Position
from ..rules import GAMES
from . import solve
from .core import UNKNOWN, UNWINNABLE, WINNABLE, family, to_engine


def heuristic_move(position: Position) -> Move | None:
    """The legal move (other than shifting a whole pile to an empty one) whose resulting
    position, after the safe auto-moves, has the best heuristic score
    (:meth:`core.Family.score`: cards on the foundations first, then face-down cards, cards
    out of sequence, empty piles and free cells, and how deep the next cards the
    foundations need are buried). Ties keep the solver's move order. ``None`` when no
    move is left."""
    fam = family(position.rules)
    start = fam.start(position)
    best: tuple[float, int] | None = None
    best_move = None
    key0 = fam.key(start)
    for order, m in enumerate(fam.moves(start)):
        st, _ = fam.autoplay(fam.apply(start, m))
        if fam.key(st) == key0:
            continue
        value = (fam.score(st), -order)
        if best is None or value > best:
            best, best_move = value, m
    if best_move is None:
        legal = [m for m in position.legal_moves() if not position.is_pointless(m)]
        return legal[0] if legal else None
    return to_engine(position, [best_move], check_win=False)[0]


def hint(position: Position | dict[str, Any], budget_seconds: float = 1.5) -> dict[str, Any]:
    """Advice for ``position`` (a :class:`Position` or its JSON document).

    Returns ``{"move": str | None, "kind": ..., "nodes": int, "seconds": float, ...}``:

    - ``kind == "winning"``: ``move`` is the first move of a winning line found by the
      solver; ``line`` holds the whole line (move strings). A won position gives
      ``move`` None.
    - ``kind == "heuristic"``: the solver ran out of budget; ``move`` is
      :func:`heuristic_move` (may still be a good move, but nothing is promised).
    - ``kind == "lost"``: the solver proved that no sequence of moves wins from here;
      ``move`` is None.
    """
    if isinstance(position, dict):
        position = Position.from_json(position)
    t0 = time.perf_counter()
    if position.is_won():
        return {"move": None, "kind": "winning", "line": [], "nodes": 0, "seconds": 0.0}
    result = solve(position, budget_seconds * 0.85)
    out: dict[str, Any] = {"nodes": result.nodes}
    if result.result == WINNABLE:
        assert result.line is not None
        out.update(
            move=str(result.line[0]) if result.line else None,
            kind="winning",
            line=[str(m) for m in result.line],
        )
    elif result.result == UNWINNABLE:
        out.update(move=None, kind="lost")
    else:
        move = heuristic_move(position)
        out.update(move=None if move is None else str(move), kind="heuristic")
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def _verdict(position: Position, budget: float) -> str:
    return solve(position, budget).result


def was_winnable(game_json: dict[str, Any], budget: float = 10.0) -> dict[str, Any]:
    """For a saved game (``Game.to_json()``): was its deal winnable from the start, and
    which was the last step of its history from which a win was still possible?

    Winnability can only be lost along a history (a position after a winnable one may be
    lost, never the reverse), so the winnable positions are a prefix of the history and a
    binary search over it needs about log2(steps) solves; ``budget`` seconds are shared
    among them.

    Returns ``{"from_start": "winnable"|"unwinnable"|"unknown", "last_winnable_step": k
    | None, "first_lost_step": j | None, "exact": bool, "steps": n, "seconds": s}``:
    ``k`` is the number of steps played (0 = the deal) at the last position proved
    winnable, ``j`` the first proved lost; ``exact`` is true when ``j == k + 1`` (or the
    current position is still winnable, ``k == n``).
    """
    t0 = time.perf_counter()
    game = Game.from_json(game_json)
    positions = game.positions
    n = len(positions) - 1
    rounds = max(1, n.bit_length()) + 2
    per = max(budget / rounds, 0.05)

    def left() -> float:
        return max(budget - (time.perf_counter() - t0), 0.05)

    start = _verdict(positions[0], min(per * 2, left()))
    out: dict[str, Any] = {"from_start": start, "steps": n}
    if start == UNWINNABLE:
        out.update(last_winnable_step=None, first_lost_step=0, exact=True)
    else:
        lo = 0 if start == WINNABLE else None  # last proved winnable
        hi = None  # first proved lost
        end = _verdict(positions[n], min(per, left())) if n else start
        if end == WINNABLE:
            lo = n
        elif end == UNWINNABLE:
            hi = n
        a, b = (lo if lo is not None else 0), (hi if hi is not None else n)
        while b - a > 1 and time.perf_counter() - t0 < budget:
            mid = (a + b) // 2
            v = _verdict(positions[mid], min(per, left()))
            if v == WINNABLE:
                lo = a = mid
            elif v == UNWINNABLE:
                hi = b = mid
            else:
                break  # unknown: stop and report what is proved
        out.update(
            last_winnable_step=lo,
            first_lost_step=hi,
            exact=(lo == n) or (lo is not None and hi is not None and hi == lo + 1),
        )
    out["seconds"] = round(time.perf_counter() - t0, 3)
    return out


def is_winnable_deal(game_id: str, deal: int, budget: float = 10.0) -> dict[str, Any]:
    """Decide deal ``deal`` of ``game_id``: ``{"result", "nodes", "seconds", "line"}``
    (``line`` is the winning line as move strings, or None)."""
    if game_id not in GAMES:
        raise KeyError(f"unknown game {game_id!r}")
    return solve(Position.deal_of(game_id, deal), budget).to_json()


__all__ = [
    "UNKNOWN",
    "UNWINNABLE",
    "WINNABLE",
    "heuristic_move",
    "hint",
    "is_winnable_deal",
    "was_winnable",
]
