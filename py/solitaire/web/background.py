"""The page's work off the player's path: the solver's worker and the winnable lists.

The solver's worker starts once the page is idle (never in the middle of the player's first
press or drag), hint and "Was it winnable?" questions go to it and their answers come back
as controller intents, and a game's list of proved-winnable deals is fetched when an
effect asks for it. Each runs as a background task whose exception is logged, never left
unhandled. Separate from app.py, which carries out the effects that are drawn at once.
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable, Coroutine
from typing import Any

import js
from js import window

from . import state as fx
from .advice import HINT_TEXT_MS, worth_stopping
from .controller import Controller
from .dom import Messages
from .solver_client import SolverClient, SolverUnavailable, WinnableLists

#: The solver's worker starts once the page is idle after it is ready, or after this long at
#: the latest (requestIdleCallback's timeout; the delay itself where the browser has no
#: requestIdleCallback), so that the first hint costs what later ones do.
SOLVER_IDLE_MS = 2000
#: While a card is pressed or dragged, the start waits this long and looks again.
SOLVER_WAIT_MS = 500
#: On a first visit whose service worker is installing (it starts once the page is ready:
#: ~2 s on a phone), the background start waits for it to take over the page, at most this
#: long: the worker may then keep its memory snapshot, so that the next visit's solver
#: restores instead of starting CPython again. A hint asked meanwhile starts the worker at
#: once.
SOLVER_INSTALL_MS = 20_000


class Background:
    def __init__(
        self,
        controller: Controller,
        winnable: WinnableLists,
        messages: Messages,
        act: Callable[..., None],
        proxy: Callable[[Any], Any],
    ) -> None:
        self.controller = controller
        self.winnable = winnable
        self.messages = messages
        self.act = act  # App.act: runs an intent and shows its effects
        self.solver = SolverClient()  # started when the page is idle (start_solver_when_idle)
        #: the solver calls in progress: (what, when asked in ms, budget in s)
        self._solving: dict[object, tuple[str, float, float]] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self._waited_for_install = False
        self._p_solver_idle = proxy(self._solver_idle)
        self._p_solver_later = proxy(self.start_solver_when_idle)

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` in the background; an exception is logged (never unhandled)."""

        async def guarded() -> None:
            try:
                await coroutine
            except Exception:
                js.console.warn(traceback.format_exc())

        task = asyncio.ensure_future(guarded())
        self._tasks.add(task)  # a reference until it is done (tasks are weakly held)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ the solver's worker

    def start_solver_when_idle(self, *args: Any) -> None:
        """Start the solver's worker in the background once the page is idle, never in the
        middle of the player's first press or drag (docs/performance.md, "First hint"), and
        during a first install of the service worker once it controls the page
        (SOLVER_INSTALL_MS). A hint or a stuck game asked for earlier starts it at once
        (``SolverClient.start``)."""
        if self.solver.started:
            return
        if hasattr(window, "requestIdleCallback"):
            options = js.Object.new()
            options.timeout = SOLVER_IDLE_MS
            window.requestIdleCallback(self._p_solver_idle, options)
        else:
            js.setTimeout(self._p_solver_idle, SOLVER_IDLE_MS)

    def _solver_idle(self, *args: Any) -> None:
        hand = self.controller.ui.hand
        if self.solver.started:
            return
        if hand.press is not None or hand.drag is not None:
            js.setTimeout(self._p_solver_later, SOLVER_WAIT_MS)
            return
        # web/register-sw.js: undefined (None) unless a first install is known to be under way
        first_install = getattr(window, "solitaireFirstInstall", None)
        waiting = None if first_install is None else first_install(SOLVER_INSTALL_MS)
        if waiting is not None and not self._waited_for_install:
            self._waited_for_install = True
            waiting.then(self._p_solver_idle)
            return
        self.solver.start()

    def warm_solver(self, effect: fx.WarmSolver) -> None:
        self.solver.start()

    def ask_solver(self, effect: fx.AskSolver) -> None:
        if effect.what == "hint":
            self._stop_stale_search()
            if not self.solver.ready:
                text = "Starting the solver (only the first time)…"
                self.messages.toast(text, info=True, ms=HINT_TEXT_MS)
        self.spawn(self._ask(effect))

    def _stop_stale_search(self) -> None:
        """A new hint makes every earlier hint's answer stale: restart the worker (from its
        memory snapshot, about 2 s on a phone) rather than wait for a longer search nobody
        wants (``advice.worth_stopping``)."""
        if worth_stopping(self._solving.values(), float(js.performance.now())):
            self.solver.restart()

    async def _ask(self, effect: fx.AskSolver) -> None:
        budget = effect.budget
        key = object()
        self._solving[key] = (effect.what, float(js.performance.now()), budget)
        try:
            answer = await self.solver.call(effect.what, effect.payload, budget, budget=budget)
        except SolverUnavailable as error:
            start = "the solver could not start" if effect.what == "hint" else "it could not start"
            answer = {"error": f"{start} ({error})"}
        finally:
            del self._solving[key]
        c = self.controller
        if effect.what == "hint":
            self.act(c.advice.hint_answered, effect.position, answer)
        else:
            self.act(c.advice.verdict_answered, effect.position, answer)

    # ------------------------------------------------------------------ the winnable lists

    def load_winnable(self, effect: fx.LoadWinnable) -> None:
        self.spawn(self._load_winnable(effect))

    async def _load_winnable(self, effect: fx.LoadWinnable) -> None:
        await self.winnable.load(effect.game_id)
        c = self.controller
        if effect.then == "new" and c.game_id == effect.game_id:
            self.act(c.new_deal)
        elif effect.then == "winnable" and c.game_id == effect.game_id:
            self.act(c.deals.winnable_deal)
        elif effect.then == "open" and c.game_id != effect.game_id:
            self.act(c.deals.open_game, effect.game_id, None)
        else:
            self.act(c.winnable_loaded, effect.game_id)
