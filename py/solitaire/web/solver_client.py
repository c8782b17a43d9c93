"""The main thread's side of the solver: its worker (``web/solver-worker.mjs``), started in
the background once the page is idle, and the lists of proved-winnable deals. See docs/ui.md
("Hint, winnable deals, was it winnable?") and docs/performance.md ("First hint").

The worker is a plain module worker that loads Pyodide itself and imports
``solitaire.web.solver_worker``; on later visits it restores all of that from a memory snapshot.
Nothing of it runs on the main thread: this side creates the worker and exchanges JSON strings
with it by ``postMessage``, so no ``SharedArrayBuffer``/``Atomics`` (cross-origin isolation) is
needed. Every call is ``await client.call(name, *args)``, answered by a message; results are
the JSON objects that ``solver_worker`` returns.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from typing import Any

import js
from js import document
from pyodide.ffi import create_proxy, to_js

from .documents import valid_deals

WORKER_URL = "./web/solver-worker.mjs"
BOOT_TIMEOUT = 90.0  # seconds: a first visit on a slow link downloads the runtime again
CALL_MARGIN = 30.0  # seconds on top of a call's own budget before giving up on an answer


class SolverUnavailable(RuntimeError):
    """The worker could not be started (or stopped answering)."""


class SolverClient:
    """One worker, started once; calls run one at a time in it (in the order they were made).

    ``<html data-solver>`` says ``starting``, ``ready`` or ``failed``; once ready,
    ``data-solver-boot`` says how its interpreter started (``snapshot`` or ``fresh``),
    ``data-solver-snapshot`` what became of its memory snapshot (``restored``, ``saved``,
    ``failed``, ``bad``: unusable and deleted, ``none``) and ``data-solver-boot-ms`` how long
    the start took (tests and benchmarks read them)."""

    def __init__(self) -> None:
        self._boot: asyncio.Future[Any] | None = None
        self._booted: asyncio.Future[dict[str, Any]] | None = None
        self._pending: dict[int, asyncio.Future[str]] = {}
        self._ids = itertools.count(1)
        self._on_message = create_proxy(self._message)
        self._on_error = create_proxy(self._error)
        self.worker: Any = None  # the JS Worker, once it answered that it is ready
        self._js_worker: Any = None
        self.boot_ms: float | None = None
        self.failed: str | None = None
        self.restarts = 0

    @property
    def started(self) -> bool:
        return self._boot is not None

    @property
    def ready(self) -> bool:
        return self.worker is not None

    def start(self) -> asyncio.Future[Any]:
        """Start the worker (once; again after a failed start); the future resolves to it."""
        if self._boot is None or (self._boot.done() and self._boot.exception() is not None):
            self.failed = None
            self._boot = asyncio.ensure_future(self._start())
            self._boot.add_done_callback(_consume)
        return self._boot

    async def _start(self) -> Any:
        t0 = float(js.performance.now())
        root = document.documentElement
        root.dataset.solver = "starting"
        self._booted = asyncio.get_event_loop().create_future()
        try:
            worker = js.Worker.new(WORKER_URL, to_js({"type": "module"}, dict_converter=_object))
            worker.addEventListener("message", self._on_message)
            worker.addEventListener("error", self._on_error)
            self._js_worker = worker
            worker.postMessage(json.dumps({"start": {"save": _controlled()}}))
            info = await asyncio.wait_for(self._booted, BOOT_TIMEOUT)
        except Exception as error:
            self.failed = f"{type(error).__name__}: {error}"
            root.dataset.solver = "failed"
            self._stop()
            raise SolverUnavailable(self.failed) from error
        self.worker = self._js_worker
        self.boot_ms = float(js.performance.now()) - t0
        root.dataset.solverBoot = str(info.get("boot", ""))
        root.dataset.solverSnapshot = str(info.get("snapshot", ""))
        root.dataset.solverBootMs = str(round(self.boot_ms))
        root.dataset.solver = "ready"
        return self.worker

    def restart(self) -> None:
        """Stop the worker in the middle of its calls and start a new one: the only way to end
        a search nobody waits for any more (a worker's Python cannot be interrupted, and
        without cross-origin isolation there is no shared memory to ask it to stop). The
        pending calls raise ``SolverUnavailable``. ``<html data-solver-restarts>`` counts
        the restarts (tests)."""
        if self._boot is None or not self._boot.done() or self.worker is None:
            return  # not started, or still starting: no search runs yet
        self._stop()
        self._boot = None
        self.restarts += 1
        document.documentElement.dataset.solverRestarts = str(self.restarts)
        self.start()

    def _stop(self) -> None:
        """Drop the worker (it failed, or ``restart`` stops it); its pending calls raise
        ``SolverUnavailable``, and a later ``start`` makes a new one."""
        if self._js_worker is not None:
            self._js_worker.terminate()
            self._js_worker = None
        self.worker = None
        for future in self._pending.values():
            if not future.done():
                future.set_exception(SolverUnavailable(self.failed or "the solver stopped"))
        self._pending.clear()

    def _message(self, event: Any) -> None:
        try:
            message = json.loads(str(event.data))
        except ValueError:
            return
        booted = self._booted
        if "ready" in message or "failed" in message:
            if booted is not None and not booted.done():
                if "ready" in message:
                    booted.set_result(dict(message["ready"]))
                else:
                    booted.set_exception(SolverUnavailable(str(message["failed"])))
            return
        future = self._pending.pop(message.get("id"), None)
        if future is None or future.done():
            return  # a call given up on (timed out)
        if "result" in message:
            future.set_result(str(message["result"]))
        else:
            future.set_exception(SolverUnavailable(str(message.get("error"))))

    def _error(self, event: Any) -> None:
        """The worker's script could not load or threw: no console error (the page says that
        the solver could not start), the start fails."""
        event.preventDefault()
        reason = str(getattr(event, "message", "") or "the worker could not start")
        if self._booted is not None and not self._booted.done():
            self._booted.set_exception(SolverUnavailable(reason))
        else:
            self.failed = reason
            document.documentElement.dataset.solver = "failed"
            self._stop()

    async def call(self, name: str, *args: Any, budget: float = 10.0) -> dict[str, Any]:
        """``await`` the worker's ``name(*args)`` and parse its JSON answer. Raises
        ``SolverUnavailable`` if the worker cannot start or does not answer in time."""
        worker = await self.start()
        call_id = next(self._ids)
        future: asyncio.Future[str] = asyncio.get_event_loop().create_future()
        self._pending[call_id] = future
        worker.postMessage(json.dumps({"id": call_id, "name": name, "args": list(args)}))
        try:
            text = await asyncio.wait_for(future, budget + CALL_MARGIN)
        except SolverUnavailable:
            raise
        except Exception as error:
            raise SolverUnavailable(f"{type(error).__name__}: {error}") from error
        finally:
            self._pending.pop(call_id, None)
        answer = json.loads(text)
        if not isinstance(answer, dict):
            raise SolverUnavailable(f"unexpected answer {answer!r}")
        return answer


def _object(entries: Any) -> Any:
    return js.Object.fromEntries(entries)


def _controlled() -> bool:
    """The page is controlled by the service worker: the site is cached for offline play and
    the visitor likely comes back, so the worker may store a memory snapshot."""
    service = getattr(js.navigator, "serviceWorker", None)
    return bool(service is not None and service.controller)


def _consume(future: asyncio.Future[Any]) -> None:
    """Read a finished future's exception, so that a failed boot nobody awaited is not
    reported as "exception was never retrieved" (callers get it from ``call``)."""
    if not future.cancelled():
        future.exception()


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
        # The browser's fetch, not pyodide.http.pyfetch: importing pyodide.http imports the
        # package loader's modules too (tarfile, zipfile, shutil...), which cost ~0.5 s of a
        # phone's main thread right after the board appears (docs/performance.md).
        deals: list[int] | None = None
        try:
            response = await js.fetch(f"./web/winnable/{game_id}.json")
            if response.ok:
                deals = valid_deals(json.loads(str(await response.text())))
        except Exception:
            deals = None
        self.lists[game_id] = deals
        return deals

    @staticmethod
    def pick(deals: list[int], avoid: int | None = None) -> int:
        choices = [d for d in deals if d != avoid] or deals
        return random.choice(choices)
