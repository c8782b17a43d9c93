"""The solver's entry point in its worker, so a search never freezes the page.

``web/solver-worker.mjs`` (a module worker that loads Pyodide itself) imports this module and
calls the functions named in ``__export__`` for the page (``solver_client.SolverClient``)::

    answer = json.loads(await client.call("hint", json.dumps(position.to_json()), 1.5))

Arguments and results cross the worker boundary as JSON **strings** (no proxies to
convert or to destroy). Every function returns a JSON object; on bad input it returns
``{"error": "..."}`` instead of raising, so the main thread always gets an answer.

This module imports nothing from the browser, so CPython tests can import and call it
directly, and the worker's memory snapshot (taken after importing it) holds no JS object.
"""

from __future__ import annotations

import json
from typing import Any

from solitaire.position import Position
from solitaire.rules import GAMES
from solitaire.solver import hints

#: Seconds of search per game in ``warm_up``.
WARM_UP_BUDGET = 0.05


def _call(fn: Any, *args: Any) -> str:
    try:
        return json.dumps(fn(*args))
    except Exception as error:  # the page shows the message; the worker keeps running
        return json.dumps({"error": f"{type(error).__name__}: {error}"})


def hint(position_json: str, budget_seconds: float = 1.5) -> str:
    """``hints.hint`` on a position document (a JSON string)."""
    return _call(lambda: hints.hint(json.loads(position_json), float(budget_seconds)))


def was_winnable(game_json: str, budget_seconds: float = 10.0) -> str:
    """``hints.was_winnable`` on a saved game (``Game.to_json()`` as a JSON string)."""
    return _call(lambda: hints.was_winnable(json.loads(game_json), float(budget_seconds)))


def is_winnable_deal(game_id: str, deal: int, budget_seconds: float = 10.0) -> str:
    """``hints.is_winnable_deal``: decide a numbered deal."""
    return _call(lambda: hints.is_winnable_deal(str(game_id), int(deal), float(budget_seconds)))


def ping() -> str:
    """Returns ``'"ready"'`` once the worker has imported the engine and the solver."""
    return json.dumps("ready")


def warm_up(budget_seconds: float = WARM_UP_BUDGET) -> str:
    """A short hint on the first deal of every game, run by the worker before it says it is
    ready: it imports every solver family and builds the tables that a game's first search
    would otherwise build (kept in the worker's memory snapshot), and runs the interpreter's
    search code once in this worker, so that the player's first hint costs what later ones
    do (docs/performance.md, "First hint"). Returns the kinds of answers, by game."""
    kinds = {}
    for game_id in GAMES:
        kinds[game_id] = hints.hint(Position.deal_of(game_id, 1), float(budget_seconds))["kind"]
    return json.dumps(kinds)


# The calls the worker answers (web/solver-worker.mjs refuses any other name).
__export__ = ["hint", "was_winnable", "is_winnable_deal", "ping"]
