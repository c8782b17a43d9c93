"""The solver's entry point in a PyScript worker, so a search never freezes the page.

The page starts it as a *named worker* (see docs/solver.md for the exact HTML and calls)::

    <script type="py" worker name="solver" src="./py/solitaire/web/solver_worker.py"
            config="./pyscript-worker.json">
    </script>

and calls it from the main thread::

    from pyscript import workers
    solver = await workers["solver"]
    answer = json.loads(await solver.hint(json.dumps(position.to_json()), 1.5))

Arguments and results cross the worker boundary as JSON **strings** (no proxies to
convert or to destroy). Every function returns a JSON object; on bad input it returns
``{"error": "..."}`` instead of raising, so the main thread always gets an answer.

This module imports nothing from the browser except, when present, ``pyscript.sync``
(for workers created with ``PyWorker`` instead of a named ``<script>``), so CPython tests
can import and call it directly.
"""

from __future__ import annotations

import json
from typing import Any

from solitaire.solver import hints


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


# Named workers (<script type="py" worker name="solver">): PyScript reads __export__.
__export__ = ["hint", "was_winnable", "is_winnable_deal", "ping"]

# Workers created with PyWorker(...) from the main thread: expose the same functions on
# `sync`, reachable there as `worker.sync.hint(...)`.
try:  # pragma: no cover - only inside a PyScript worker
    from pyscript import RUNNING_IN_WORKER, sync

    if RUNNING_IN_WORKER:
        sync.hint = hint
        sync.was_winnable = was_winnable
        sync.is_winnable_deal = is_winnable_deal
        sync.ping = ping
except Exception:  # CPython, or the main thread
    pass
