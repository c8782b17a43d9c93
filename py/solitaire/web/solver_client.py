"""The main thread's side of the solver: a PyScript worker started on first use, and the
lists of proved-winnable deals. See docs/ui.md ("Hint, winnable deals, was it winnable?").

The worker (``py/solitaire/web/solver_worker.py``) boots its own Pyodide, which costs a few
seconds of CPU and some tens of MB: it is started only when the player first asks for a hint
or a game gets stuck (never during page start), by adding the same ``<script type="py"
worker name="solver">`` element that docs/solver.md describes, and awaiting ``pyscript.workers``.

Every call is ``await worker.fn(...)``: asynchronous from the main thread, answered by a
message from the worker, so no ``SharedArrayBuffer``/``Atomics`` (cross-origin isolation) is
needed. Results are JSON strings.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import js
from js import document

from .store import valid_deals

WORKER_NAME = "solver"
WORKER_SRC = "./py/solitaire/web/solver_worker.py"
WORKER_CONFIG = "./pyscript-worker.json"
BOOT_TIMEOUT = 90.0  # seconds: a first visit on a slow link downloads the runtime again
CALL_MARGIN = 30.0  # seconds on top of a call's own budget before giving up on an answer


class SolverUnavailable(RuntimeError):
    """The worker could not be started (or stopped answering)."""


class SolverClient:
    """One lazily started worker; calls run one at a time in it (the worker's own queue)."""

    def __init__(self) -> None:
        self._boot: asyncio.Future[Any] | None = None
        self.worker: Any = None
        self.boot_ms: float | None = None
        self.failed: str | None = None

    @property
    def started(self) -> bool:
        return self._boot is not None

    @property
    def ready(self) -> bool:
        return self.worker is not None

    def start(self) -> asyncio.Future[Any]:
        """Start the worker (once); the returned future resolves to it."""
        if self._boot is None or (self._boot.done() and self._boot.exception() is not None):
            self.failed = None
            self._boot = asyncio.ensure_future(self._start())
            self._boot.add_done_callback(_consume)
        return self._boot

    async def _start(self) -> Any:
        t0 = float(js.performance.now())
        root = document.documentElement
        root.dataset.solver = "starting"  # html[data-solver]: starting | ready | failed
        from pyscript import workers

        if not document.querySelector(f'script[worker][name="{WORKER_NAME}"]'):  # JS null
            script = document.createElement("script")
            script.type = "py"
            script.setAttribute("worker", "")
            script.setAttribute("name", WORKER_NAME)
            script.setAttribute("src", WORKER_SRC)
            script.setAttribute("config", WORKER_CONFIG)
            document.body.append(script)
        try:
            worker = await asyncio.wait_for(_awaitable(workers[WORKER_NAME]), BOOT_TIMEOUT)
            answer = json.loads(str(await asyncio.wait_for(_awaitable(worker.ping()), 30)))
        except Exception as error:
            self.failed = f"{type(error).__name__}: {error}"
            root.dataset.solver = "failed"
            raise SolverUnavailable(self.failed) from error
        if answer != "ready":
            self.failed = f"unexpected answer {answer!r}"
            root.dataset.solver = "failed"
            raise SolverUnavailable(self.failed)
        self.worker = worker
        self.boot_ms = float(js.performance.now()) - t0
        root.dataset.solver = "ready"
        root.dataset.solverBootMs = str(round(self.boot_ms))
        return worker

    async def call(self, name: str, *args: Any, budget: float = 10.0) -> dict[str, Any]:
        """``await`` the worker's ``name(*args)`` and parse its JSON answer. Raises
        ``SolverUnavailable`` if the worker cannot start or does not answer in time."""
        worker = await self.start()
        try:
            text = await asyncio.wait_for(
                _awaitable(getattr(worker, name)(*args)), budget + CALL_MARGIN
            )
        except Exception as error:
            raise SolverUnavailable(f"{type(error).__name__}: {error}") from error
        answer = json.loads(str(text))
        if not isinstance(answer, dict):
            raise SolverUnavailable(f"unexpected answer {answer!r}")
        return answer


def _consume(future: asyncio.Future[Any]) -> None:
    """Read a finished future's exception, so that a failed boot nobody awaited is not
    reported as "exception was never retrieved" (callers get it from ``call``)."""
    if not future.cancelled():
        future.exception()


async def _awaitable(value: Any) -> Any:
    """Await a JS promise (or return a plain value)."""
    return await value


class WinnableLists:
    """``web/winnable/GAME.json``: proved-winnable deal numbers, fetched once per game (from
    the service worker's cache when offline)."""

    def __init__(self) -> None:
        self.lists: dict[str, list[int] | None] = {}  # None: no list for that game
        self._loading: dict[str, asyncio.Future[list[int] | None]] = {}

    def known(self, game_id: str) -> bool:
        """The game's list was fetched (or found missing)."""
        return game_id in self.lists

    def get(self, game_id: str) -> list[int] | None:
        return self.lists.get(game_id)

    def load(self, game_id: str) -> asyncio.Future[list[int] | None]:
        if game_id not in self._loading:
            self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
        return self._loading[game_id]

    async def _load(self, game_id: str) -> list[int] | None:
        from pyodide.http import pyfetch

        deals: list[int] | None = None
        try:
            response = await pyfetch(f"./web/winnable/{game_id}.json")
            if response.ok:
                deals = valid_deals(json.loads(await response.string()))
        except Exception:
            deals = None
        self.lists[game_id] = deals
        return deals

    @staticmethod
    def pick(deals: list[int], avoid: int | None = None) -> int:
        choices = [d for d in deals if d != avoid] or deals
        return random.choice(choices)
