"""The page's wiring: the controller (logic, no browser) between the input adapters (pointer,
keyboard, toolbar, dialogs, address) and the views (board, status, messages).

Every intent goes through ``act``: finish a running step animation, call the controller,
carry out the effects it asked for (``state.Effect``), then draw the board's marks and the
status from its state. Event listeners are added once, each through one long-lived proxy.
See docs/architecture.md and docs/ui.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import traceback
from collections.abc import Callable
from typing import Any

import js
from js import document, window
from pyodide.ffi import create_proxy, to_js

from . import state as fx
from .advice import HINT_BUDGET, HINT_TEXT_MS, VERDICT_BUDGET
from .animation import StepPlayer
from .board import BoardView
from .controller import Controller
from .dialogs import Dialogs, close_all
from .dom import Messages, StatusView, by_id
from .keyboard import KeyboardInput
from .pointer import PointerInput
from .solver_client import SolverClient, SolverUnavailable, WinnableLists
from .store import MemoryBackend, Store
from .text import deal_link
from .wiring import Wiring

HINT_SHOW_MS = 4000  # the hinted move stays marked this long (or until the next change)
RETURN_MS = 320  # a refused drag glides back for this long
FINISH_DELAY_MS = 150


def _storage() -> Any:
    try:
        backend: Any = window.localStorage
    except Exception:
        return MemoryBackend()
    return MemoryBackend() if backend is None else backend


class App:
    def __init__(self) -> None:
        self.board_el = by_id("board")
        self.view = BoardView(self.board_el)
        self.solver = SolverClient()  # the worker starts on first use (hint or stuck game)
        self.winnable = WinnableLists()
        self.controller = Controller(
            Store(_storage()), self.winnable, self.view, lambda: float(js.performance.now())
        )
        self.player = StepPlayer(self.view, lambda: self.controller.position)
        self.status = StatusView(self.board_el)
        self._proxies: list[Any] = []
        self._tasks: set[asyncio.Future[None]] = set()
        self.messages: Messages = Messages(self._proxy(self._hide_toast))
        self.persist_timer: Any = None
        self.return_timer: Any = None
        self.hint_timer: Any = None
        self.update_offered = False

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        listen = self._listen
        wiring = Wiring(self.board_el, self.view, self.controller, self.act, listen)
        PointerInput(wiring, self.player.flush, self.draw_marks)
        KeyboardInput(wiring)
        self.dialogs = Dialogs(wiring, self.apply_settings)
        listen(document, "click", self.on_click_action)
        listen(by_id("game-select"), "change", self.on_game_select)
        listen(
            window,
            "hashchange",
            lambda ev: self.act(self.controller.address_changed, str(window.location.hash)),
        )
        listen(document, "visibilitychange", self.on_visibility)
        listen(window, "pagehide", lambda ev: self.persist())
        # the clock stands still while a dialog is open (any dialog's open attribute)
        self._dialogs_watch = js.MutationObserver.new(self._proxy(self.on_dialogs))
        watch = {"attributes": True, "subtree": True, "attributeFilter": ["open"]}
        self._dialogs_watch.observe(
            document.body, to_js(watch, dict_converter=js.Object.fromEntries)
        )
        self._p_persist = self._proxy(self.on_persist_timer)
        self._p_return = self._proxy(lambda *a: self.view.clear_returning())
        self._p_finish = self._proxy(lambda *a: self.act(self.controller.auto_finish_due))
        self._p_unhint = self._proxy(lambda *a: self.act(self.controller.advice.clear_hint))
        if window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            self.view.animate_enabled = False
        self.controller.coarse_pointer = bool(window.matchMedia("(pointer: coarse)").matches)
        self.apply_settings()
        self.act(self.controller.boot, str(window.location.hash))
        js.setInterval(self._proxy(self.on_tick), 1000)
        by_id("btn-hint").hidden = False
        by_id("btn-hint").disabled = False

    def _hide_toast(self, *args: Any) -> None:
        self.messages.hide_toast()

    def _proxy(self, fn: Any) -> Any:
        p = create_proxy(fn)
        self._proxies.append(p)
        return p

    def _listen(self, target: Any, event: str, fn: Any) -> None:
        target.addEventListener(event, self._proxy(fn))

    # ------------------------------------------------------------------ the loop

    def act(self, intent: Callable[..., Any], *args: Any) -> None:
        """Run one intent: settle the table, call the controller, show what it asked for."""
        self.player.flush()
        intent(*args)
        for effect in self.controller.take_effects():
            self.carry_out(effect)
        self.draw_marks()
        self.status.render(self.controller.game, self.controller.ui)

    def draw_marks(self) -> None:
        self.view.set_marks(*self.controller.ui.marks())

    def carry_out(self, effect: fx.Effect) -> None:
        c = self.controller
        view = self.view
        if isinstance(effect, fx.Show):
            self.player.play(effect.before, effect.step, effect.gap, effect.dragged)
        elif isinstance(effect, fx.Redraw):
            view.render(c.position)
        elif isinstance(effect, fx.NewBoard):
            view.setup(c.position)
            by_id("game-select").value = c.game_id
        elif isinstance(effect, fx.DragBack):
            view.end_drag(effect.cards, back=True)
            if self.return_timer is not None:
                js.clearTimeout(self.return_timer)
            self.return_timer = js.setTimeout(self._p_return, RETURN_MS)
        elif isinstance(effect, fx.Shake):
            view.shake(effect.cards)
        elif isinstance(effect, fx.Toast):
            self.messages.toast(effect.text, effect.info, effect.ms, effect.action, effect.label)
            if not effect.info and c.vibrate_on:
                self.vibrate()
        elif isinstance(effect, fx.HideInfoToast):
            self.messages.hide_info_toast()
        elif isinstance(effect, fx.Announce):
            self.messages.announce(effect.text)
        elif isinstance(effect, fx.Notice):
            self.messages.notice(effect.text)
        elif isinstance(effect, fx.Focus):
            self.focus(effect)
        elif isinstance(effect, fx.SetAddress):
            if str(window.location.hash) != effect.text:
                if effect.push:
                    window.history.pushState(None, "", effect.text)
                else:
                    window.history.replaceState(None, "", effect.text)
        elif isinstance(effect, fx.Title):
            document.title = effect.text
        elif isinstance(effect, fx.CloseDialogs):
            close_all()
        elif isinstance(effect, fx.SchedulePersist):
            if self.persist_timer is None:
                self.persist_timer = js.setTimeout(self._p_persist, 0)
        elif isinstance(effect, fx.ShowWon):
            self.player.after(lambda: self.dialogs.show_won(self.messages.announce))
        elif isinstance(effect, fx.AutoFinish):
            self.player.after(lambda: js.setTimeout(self._p_finish, FINISH_DELAY_MS))
        elif isinstance(effect, fx.ShowHint):
            if self.hint_timer is not None:
                js.clearTimeout(self.hint_timer)
            self.hint_timer = js.setTimeout(self._p_unhint, HINT_SHOW_MS)
        elif isinstance(effect, fx.AskSolver):
            self.ask_solver(effect)
        elif isinstance(effect, fx.WarmSolver):
            self.solver.start()
        elif isinstance(effect, fx.LoadWinnable):
            self._spawn(self._load_winnable(effect))

    @staticmethod
    def vibrate() -> None:
        """A short buzz for a refused move, where the platform has it."""
        navigator = window.navigator
        if hasattr(navigator, "vibrate"):
            with contextlib.suppress(Exception):
                navigator.vibrate(30)

    def focus(self, effect: fx.Focus) -> None:
        """Make a card or pile the board's one tab stop (a roving tabindex), and focus it."""
        el = self.view.element(effect.pile, effect.index)
        if effect.move_focus:
            for old in list(self.board_el.querySelectorAll('[tabindex="0"]')):
                old.tabIndex = -1
        el.tabIndex = 0
        if effect.move_focus:
            el.focus()

    # ------------------------------------------------------------------ saving

    def persist(self) -> None:
        """Save the game now (and drop a save queued by ``SchedulePersist``)."""
        if self.persist_timer is not None:
            js.clearTimeout(self.persist_timer)
            self.persist_timer = None
        self.controller.persist()

    def on_persist_timer(self, *args: Any) -> None:
        self.persist_timer = None
        self.persist()

    # ------------------------------------------------------------------ clock and visibility

    def on_tick(self, *args: Any) -> None:
        if str(document.visibilityState) == "hidden":
            return
        c = self.controller
        if c.ui.last_tick is not None and c.ui.status == "playing":
            c.tick()
            self.status.clock(c.game)
        if (
            not self.update_offered
            and document.documentElement.getAttribute("data-update") == "ready"
        ):
            self.update_offered = True
            self.messages.notice("A new version of the game is ready: reload the page to use it.")

    def on_dialogs(self, *args: Any) -> None:
        paused = bool(document.querySelectorAll("dialog[open]").length)  # (null is no None)
        if paused != self.controller.ui.paused:
            self.controller.set_paused(paused)
            self.status.clock(self.controller.game)

    def on_visibility(self, ev: Any) -> None:
        if str(document.visibilityState) == "hidden":
            self.controller.hidden()
            self.persist()
        else:
            self.controller.shown_again()

    # ------------------------------------------------------------------ toolbar and menu

    def on_click_action(self, ev: Any) -> None:
        target = ev.target
        if not target or not hasattr(target, "closest"):
            return
        button = target.closest("[data-action]")
        if not button or button.disabled:
            return
        action = str(button.dataset.action)
        if button.closest("#menu"):
            with contextlib.suppress(Exception):
                by_id("menu").hidePopover()
        dialog = button.closest("dialog")
        if dialog and action not in ("reset-stats", "rules-of"):
            dialog.close()
        c = self.controller
        d = self.dialogs
        intents: dict[str, Callable[[], None]] = {
            "undo": c.undo,
            "redo": c.redo,
            "restart": c.restart,
            "new": c.new_deal,
            "finish": c.finish,
            "hint": c.advice.hint,
            "was-winnable": c.advice.ask_verdict,
            "undo-to": c.advice.undo_to_verdict,
            "continue": c.changes.continue_aside,
            "winnable-deal": c.winnable_deal,
        }
        views: dict[str, Callable[[], None]] = {
            "deal": d.show_deal,
            "rules": d.show_rules,
            "stats": d.show_stats,
            "settings": d.show_settings,
            "reset-stats": d.reset_stats,
            "dismiss-notice": self.messages.hide_notice,
            "close-dialog": lambda: None,
            "rules-of": lambda: d.show_rules_of(str(button.getAttribute("data-game"))),
            "share": lambda: self._spawn(self.share()),
        }
        if button.closest("#toast"):
            self.messages.hide_toast()
        if action in intents:
            self.act(intents[action])
        elif action in views:
            views[action]()

    def on_game_select(self, ev: Any) -> None:
        self.act(self.controller.choose_game, str(ev.target.value))

    async def share(self) -> None:
        """The menu's "Copy link to this deal": the page's own address with this deal's hash;
        when the clipboard is refused, the link is shown to be copied by hand."""
        c = self.controller
        link = deal_link(str(window.location.href), c.game_id, c.game.deal)
        try:
            await window.navigator.clipboard.writeText(link)
        except Exception:
            self.messages.notice(f"Copy this link to share the deal: {link}")
            return
        self.messages.toast("Link copied.", info=True)

    def apply_settings(self) -> None:
        s = self.controller.settings
        by_id("st-clock").hidden = not s.show_timer
        self.board_el.classList.toggle("four-color", s.four_color)
        root = document.documentElement
        if s.theme == "system":
            root.removeAttribute("data-theme")
        else:
            root.dataset.theme = s.theme

    # ------------------------------------------------------------------ background work

    def _spawn(self, coroutine: Any) -> None:
        """Run ``coroutine`` in the background; an exception is logged (never unhandled)."""

        async def guarded() -> None:
            try:
                await coroutine
            except Exception:
                js.console.warn(traceback.format_exc())

        task = asyncio.ensure_future(guarded())
        self._tasks.add(task)  # a reference until it is done (tasks are weakly held)
        task.add_done_callback(self._tasks.discard)

    async def _load_winnable(self, effect: fx.LoadWinnable) -> None:
        await self.winnable.load(effect.game_id)
        c = self.controller
        if effect.then == "new" and c.game_id == effect.game_id:
            self.act(c.new_deal)
        elif effect.then == "winnable" and c.game_id == effect.game_id:
            self.act(c.winnable_deal)
        elif effect.then == "open" and c.game_id != effect.game_id:
            self.act(c.open_game, effect.game_id, None)
        else:
            self.act(c.winnable_loaded, effect.game_id)

    def ask_solver(self, effect: fx.AskSolver) -> None:
        if effect.what == "hint" and not self.solver.ready:
            text = "Starting the solver (only the first time)…"
            self.messages.toast(text, info=True, ms=HINT_TEXT_MS)
        self._spawn(self._ask(effect))

    async def _ask(self, effect: fx.AskSolver) -> None:
        budget = HINT_BUDGET if effect.what == "hint" else VERDICT_BUDGET
        try:
            answer = await self.solver.call(effect.what, effect.payload, budget, budget=budget)
        except SolverUnavailable as error:
            start = "the solver could not start" if effect.what == "hint" else "it could not start"
            answer = {"error": f"{start} ({error})"}
        c = self.controller
        if effect.what == "hint":
            self.act(c.advice.hint_answered, effect.position, answer)
        else:
            self.act(c.advice.verdict_answered, effect.position, answer)


_app: App | None = None


def main() -> None:
    """Start the page; on failure, say so on the loading screen instead of a blank page."""
    global _app
    try:
        _app = App()
        _app.start()
    except Exception as error:
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        js.console.warn(traceback.format_exc())
        fail = getattr(window, "solitaireBootFail", None)
        if fail is not None:
            fail("The game could not start", f"Python reported: {detail}")
        return
    document.documentElement.dataset.app = "ready"
