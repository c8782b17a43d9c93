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
from dataclasses import replace
from typing import Any

import js
from js import document, window
from pyodide.ffi import create_proxy, to_js

from . import state as fx
from .advice import HINT_TEXT_MS, worth_stopping
from .animation import StepPlayer
from .board import BoardView
from .celebration import Celebration
from .controller import Controller
from .dialogs import Dialogs, close_all
from .dom import Messages, StatusView, by_id
from .keyboard import KeyboardInput
from .pointer import PointerInput
from .solver_client import SolverClient, SolverUnavailable, WinnableLists
from .sound import Sounds
from .store import MemoryBackend, Store, scope_of
from .text import deal_link
from .wiring import Wiring

HINT_SHOW_MS = 4000  # the hinted move stays marked this long (or until the next change)
RETURN_MS = 320  # a refused drag glides back for this long
FINISH_DELAY_MS = 150
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


def _store() -> Store:
    """The page's store: localStorage under the page's directory, or, when the browser blocks
    localStorage, a stand-in in memory that says progress is not being saved."""
    scope = scope_of(str(window.location.pathname))
    try:
        backend: Any = window.localStorage
    except Exception:
        backend = None
    if backend is None:
        return Store(MemoryBackend(), scope, persistent=False)
    store = Store(backend, scope)
    store.adopt_unscoped()
    return store


class App:
    def __init__(self) -> None:
        self.board_el = by_id("board")
        self.view = BoardView(self.board_el)
        self.solver = SolverClient()  # started when the page is idle (start_solver_when_idle)
        #: the solver calls in progress: (what, when asked in ms, budget in s)
        self._solving: dict[object, tuple[str, float, float]] = {}
        self.winnable = WinnableLists()
        self.controller = Controller(
            _store(), self.winnable, self.view, lambda: float(js.performance.now())
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
        self.sounds = Sounds()
        self.celebration = Celebration()

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        """Draw the first table: what the controller's effects use, then its boot. The
        player's input is wired afterwards (:meth:`listen_to_player`), in a task of its own."""
        self.wiring = Wiring(self.board_el, self.view, self.controller, self.act, self._listen)
        self.dialogs = Dialogs(self.wiring, self.apply_settings)
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
        self._p_solver_idle = self._proxy(self._solver_idle)
        self._waited_for_install = False
        self._p_solver_later = self._proxy(self.start_solver_when_idle)
        if window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            self.view.animate_enabled = False
        self.controller.coarse_pointer = bool(window.matchMedia("(pointer: coarse)").matches)
        self.apply_settings()
        board = self.board_el  # web/table-preview.js marks a table it painted
        painted = (str(board.getAttribute("data-game")), str(board.getAttribute("data-deal")))
        preview = board.getAttribute("data-preview")
        shown = painted if preview == "first" else None
        marked = painted if preview and not by_id("st-winnable").hidden else None
        self.act(self.controller.boot, str(window.location.hash), shown, marked)
        js.setInterval(self._proxy(self.on_tick), 1000)

    def listen_to_player(self) -> None:
        """The player's input (pointer, keys, the toolbar, the game list), the address and the
        page's visibility, storage and leaving; then Hint can be asked for."""
        listen = self._listen
        PointerInput(self.wiring, self.player.flush, self.draw_marks)
        KeyboardInput(self.wiring)
        listen(document, "click", self.on_click_action)
        listen(by_id("game-select"), "change", self.on_game_select)
        listen(
            window,
            "hashchange",
            lambda ev: self.act(self.controller.address_changed, str(window.location.hash)),
        )
        listen(document, "visibilitychange", self.on_visibility)
        listen(window, "pagehide", lambda ev: self.leave())
        listen(window, "storage", self.on_storage)
        by_id("btn-hint").hidden = False
        by_id("btn-hint").disabled = False

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
        ui = self.controller.ui
        if self.solver.started:
            return
        if ui.hand.press is not None or ui.hand.drag is not None:
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
        self.messages.save_problem(self.controller.store.problem())

    def draw_marks(self) -> None:
        self.view.set_marks(*self.controller.ui.marks())

    def carry_out(self, effect: fx.Effect) -> None:
        c = self.controller
        view = self.view
        if isinstance(effect, fx.Show):
            self.player.play(effect.before, effect.step, effect.gap, effect.dragged)
            self.sounds.place()
        elif isinstance(effect, fx.Redraw):
            view.render(c.position)
        elif isinstance(effect, fx.NewBoard):
            self.celebration.stop()
            view.setup(c.position)
            by_id("game-select").value = c.game_id
        elif isinstance(effect, fx.DragBack):
            view.end_drag(effect.cards, back=True)
            if self.return_timer is not None:
                js.clearTimeout(self.return_timer)
            self.return_timer = js.setTimeout(self._p_return, RETURN_MS)
        elif isinstance(effect, fx.Shake):
            view.shake(effect.cards)
            self.sounds.refuse()
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
            self.player.after(self.celebrate)
        elif isinstance(effect, fx.AutoFinish):
            self.player.after(lambda: js.setTimeout(self._p_finish, FINISH_DELAY_MS))
        elif isinstance(effect, fx.ShowHelp):
            self.dialogs.show_rules()
            by_id("shortcuts").scrollIntoView()
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

    def celebrate(self) -> None:
        """The win: a sound, the cards' cascade (none with reduced motion), then the dialog."""
        self.sounds.win()

        def show() -> None:
            self.dialogs.show_won(self.messages.announce)

        if window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            show()
            return
        launches, colours, face = self.view.cascade()
        self.celebration.start(launches, colours, face, show)

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
        if self.controller.persist() == "newer":  # another tab saved later: show its game
            self.act(self.controller.tabs.follow_game)
        self.messages.save_problem(self.controller.store.problem())

    def leave(self) -> None:
        """The page is hidden or left: save the game, and keep the table for the next
        visit's first paint (web/table-preview.js)."""
        self.persist()
        meta = document.querySelector('meta[name="release"]')
        self.controller.keep_table(str(meta.content) if meta else "")

    def on_storage(self, ev: Any) -> None:
        """Another tab of this origin wrote to localStorage."""
        key = ev.key
        name = None if key is None else self.controller.store.name_of(str(key))
        if key is None or name is not None:
            self.act(self.controller.tabs.storage_changed, name)
            self.apply_settings()

    def on_persist_timer(self, *args: Any) -> None:
        self.persist_timer = None
        self.persist()

    # ------------------------------------------------------------------ clock and visibility

    def on_tick(self, *args: Any) -> None:
        if str(document.visibilityState) == "hidden":
            return
        c = self.controller
        if c.ui.clock.last_tick is not None and c.ui.progress.status == "playing":
            c.tick()
            self.status.clock(c.game)
        if (
            not self.update_offered
            and document.documentElement.getAttribute("data-update") == "ready"
        ):
            self.update_offered = True
            self.messages.notice("A new version of the game is ready.")
            by_id("btn-update").hidden = False

    def update(self) -> None:
        """Switch to the waiting new version (web/register-sw.js): save the game, clock
        included, so that the reloaded page continues it exactly."""
        self.controller.tick()
        self.persist()
        window.solitaireApplyUpdate()

    def on_dialogs(self, *args: Any) -> None:
        paused = bool(document.querySelectorAll("dialog[open]").length)  # (null is no None)
        if paused != self.controller.ui.clock.paused:
            self.controller.set_paused(paused)
            self.status.clock(self.controller.game)

    def on_visibility(self, ev: Any) -> None:
        if str(document.visibilityState) == "hidden":
            self.controller.hidden()
            self.leave()
        else:
            self.controller.shown_again()
            self.act(self.controller.tabs.follow_game)

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
            "toggle-sound": self.toggle_sound,
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
            "update": self.update,
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

    def toggle_sound(self) -> None:
        """The menu's quick mute / unmute (Settings.sound, saved like any setting); turning
        sounds on plays one, so the player hears what was turned on."""
        c = self.controller
        c.settings_changed(replace(c.settings, sound=not c.settings.sound))
        self.apply_settings()
        self.sounds.place()

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
        root.dataset.back = s.card_back  # web/style.css reads both: the back and the felt
        root.dataset.table = s.table
        self.sounds.enabled = s.sound
        toggle = by_id("menu-sound")
        toggle.setAttribute("aria-checked", "true" if s.sound else "false")
        toggle.textContent = "Sounds: on" if s.sound else "Sounds: off"
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
        if effect.what == "hint":
            self._stop_stale_search()
            if not self.solver.ready:
                text = "Starting the solver (only the first time)…"
                self.messages.toast(text, info=True, ms=HINT_TEXT_MS)
        self._spawn(self._ask(effect))

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


_app: App | None = None


async def main() -> None:
    """Start the page; on failure, say so on the loading screen instead of a blank page.

    Three tasks, not one: the app's objects, the first table, the player's input. The browser
    can paint and answer between them, and none blocks the page for long (Lighthouse's Total
    Blocking Time counts each task's time over 50 ms on a 4x slower CPU: docs/performance.md,
    "Shorter tasks"). The page is ready after the last."""
    global _app
    try:
        _app = App()
        await asyncio.sleep(0)
        _app.start()
        await asyncio.sleep(0)
        _app.listen_to_player()
    except Exception as error:
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        js.console.warn(traceback.format_exc())
        fail = getattr(window, "solitaireBootFail", None)
        if fail is not None:
            fail("The game could not start", f"Python reported: {detail}")
        return
    document.documentElement.dataset.app = "ready"
    _app.start_solver_when_idle()
