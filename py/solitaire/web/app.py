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
from .animation import StepPlayer
from .background import Background
from .board import BoardView
from .celebration import Celebration
from .controller import Controller
from .dialogs import Dialogs, close_all
from .dom import Messages, StatusView, by_id
from .hint_ghost import HintGhost
from .keyboard import KeyboardInput
from .lesson_view import LessonView
from .pointer import PointerInput
from .solver_client import WinnableLists
from .sound import Sounds
from .store import MemoryBackend, Store, scope_of
from .text import deal_link
from .wiring import Wiring

HINT_SHOW_MS = 4000  # the hinted move stays marked this long (or until the next change)
RETURN_MS = 320  # a refused drag glides back for this long
FINISH_DELAY_MS = 150


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
        self.winnable = WinnableLists()
        self.controller = Controller(
            _store(), self.winnable, self.view, lambda: float(js.performance.now())
        )
        self.player = StepPlayer(self.view, lambda: self.controller.position)
        self.ghost = HintGhost(self.view)
        self.status = StatusView(self.board_el)
        self.lesson_view = LessonView()
        self._proxies: list[Any] = []
        self.messages: Messages = Messages(self._proxy(self._hide_toast))
        self.background = Background(
            self.controller, self.winnable, self.messages, self.act, self._proxy
        )
        self.persist_timer: Any = None
        self.return_timer: Any = None
        self.hint_timer: Any = None
        self.update_offered = False
        self.sounds = Sounds()
        self.celebration = Celebration()
        #: what carries out each kind of effect (``carry_out``)
        self.handlers: dict[type[fx.Effect], Callable[[Any], object]] = {
            fx.Show: self.show_step,
            fx.Redraw: lambda e: self.view.render(self.controller.position),
            fx.NewBoard: self.new_board,
            fx.DragStart: self.drag_start,
            fx.DragTo: lambda e: self.view.drag_to(e.dx, e.dy),
            fx.DragBack: self.drag_back,
            fx.Shake: self.shake,
            fx.Toast: self.toast,
            fx.HideToast: lambda e: self.messages.hide_stale_toast(),
            fx.Announce: lambda e: self.messages.announce(e.text),
            fx.Notice: lambda e: self.messages.notice(e.text),
            fx.Focus: self.focus,
            fx.SetAddress: self.set_address,
            fx.Title: self.set_title,
            fx.CloseDialogs: lambda e: close_all(),
            fx.SchedulePersist: self.schedule_persist,
            fx.ShowWon: lambda e: self.player.after(self.celebrate),
            fx.AutoFinish: self.auto_finish,
            fx.ShowHelp: self.show_help,
            fx.ShowHint: self.show_hint,
            fx.AskSolver: self.background.ask_solver,
            fx.WarmSolver: self.background.warm_solver,
            fx.LoadWinnable: self.background.load_winnable,
        }

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
        if window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            self.view.animate_enabled = False
        self.controller.coarse_pointer = bool(window.matchMedia("(pointer: coarse)").matches)
        self.apply_settings()
        # the e2e harness turns the lessons and the rule chip off unless a test asks for them
        self.controller.teaching.enabled = not getattr(window, "solitaireNoLessons", False)
        board = self.board_el  # web/table-preview.js marks a table it painted
        painted = (str(board.getAttribute("data-game")), str(board.getAttribute("data-deal")))
        preview = board.getAttribute("data-preview")
        shown = painted if preview == "first" else None
        marked = painted if preview and not by_id("st-winnable").hidden else None
        self.act(self.controller.deals.boot, str(window.location.hash), shown, marked)
        js.setInterval(self._proxy(self.on_tick), 1000)

    def listen_to_player(self) -> None:
        """The player's input (pointer, keys, the toolbar, the game list), the address and the
        page's visibility, storage and leaving; then Hint can be asked for."""
        listen = self._listen
        PointerInput(self.wiring, self.player.flush, self.act_on_hand)
        KeyboardInput(self.wiring)
        listen(document, "click", self.on_click_action)
        listen(by_id("game-select"), "change", self.on_game_select)
        listen(
            window,
            "hashchange",
            lambda ev: self.act(self.controller.deals.address_changed, str(window.location.hash)),
        )
        listen(document, "visibilitychange", self.on_visibility)
        listen(window, "pagehide", lambda ev: self.leave())
        listen(window, "storage", self.on_storage)
        by_id("btn-hint").hidden = False  # enabled by StatusView: not on a won table

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
        c = self.controller
        if c.teaching.lesson is not None and getattr(intent, "__self__", None) in (
            c.deals,
            c.changes,
        ):
            self.act_on_hand(c.teaching.end)  # another table: the lesson ends first
        self.act_on_hand(intent, *args)
        if c.teaching.due:
            self.act_on_hand(c.teaching.begin_due)
        self.status.render(self.controller.game, self.controller.ui)
        self.lesson_view.render(c.teaching)
        self.messages.save_problem(self.controller.store.problem())

    def act_on_hand(self, intent: Callable[..., Any], *args: Any) -> None:
        """Run an intent and show what it asked for and the board's marks. Alone, for the one
        that only changes what the hand holds (a drag's moves, dozens a second): it cannot
        change the status line or the save, so those are not drawn again each time."""
        intent(*args)
        for effect in self.controller.take_effects():
            self.carry_out(effect)
        self.draw_marks()

    def draw_marks(self) -> None:
        self.view.set_marks(*self.controller.ui.marks())
        if self.ghost.ghosts and not self.controller.ui.hint.cards:
            self.ghost.clear()  # the hint is over (the table changed): so is its slide

    def carry_out(self, effect: fx.Effect) -> None:
        self.handlers[type(effect)](effect)

    def show_step(self, effect: fx.Show) -> None:
        self.player.play(effect.before, effect.step, effect.gap, effect.dragged)
        self.sounds.place()

    def new_board(self, effect: fx.NewBoard) -> None:
        self.celebration.stop()
        self.view.setup(self.controller.position)
        by_id("game-select").value = self.controller.game_id

    def drag_start(self, effect: fx.DragStart) -> None:
        self.view.begin_drag(effect.cards)
        with contextlib.suppress(Exception):
            self.board_el.setPointerCapture(effect.pointer_id)

    def drag_back(self, effect: fx.DragBack) -> None:
        self.view.end_drag(effect.cards, back=True)
        if self.return_timer is not None:
            js.clearTimeout(self.return_timer)
        self.return_timer = js.setTimeout(self._p_return, RETURN_MS)

    def shake(self, effect: fx.Shake) -> None:
        self.view.shake(effect.cards)
        self.sounds.refuse()

    def toast(self, effect: fx.Toast) -> None:
        self.messages.toast(effect.text, effect.info, effect.ms, effect.action, effect.label)
        if not effect.info and self.controller.vibrate_on:
            self.vibrate()

    @staticmethod
    def set_address(effect: fx.SetAddress) -> None:
        if str(window.location.hash) != effect.text:
            if effect.push:
                window.history.pushState(None, "", effect.text)
            else:
                window.history.replaceState(None, "", effect.text)

    @staticmethod
    def set_title(effect: fx.Title) -> None:
        document.title = effect.text

    def schedule_persist(self, effect: fx.SchedulePersist) -> None:
        if self.persist_timer is None:
            self.persist_timer = js.setTimeout(self._p_persist, 0)

    def auto_finish(self, effect: fx.AutoFinish) -> None:
        self.player.after(lambda: js.setTimeout(self._p_finish, FINISH_DELAY_MS))

    def show_help(self, effect: fx.ShowHelp) -> None:
        self.dialogs.show_rules()
        by_id("shortcuts").scrollIntoView()

    def show_hint(self, effect: fx.ShowHint) -> None:
        if self.hint_timer is not None:
            js.clearTimeout(self.hint_timer)
        self.hint_timer = js.setTimeout(self._p_unhint, HINT_SHOW_MS)
        hint = self.controller.ui.hint
        self.ghost.slide(hint.cards, hint.target)

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
        if (key is None or name is not None) and self.controller.teaching.lesson is None:
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
            if self.controller.teaching.lesson is None:
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
            "restart": c.deals.restart,
            "new": c.new_deal,
            "finish": c.finish,
            "hint": c.advice.hint,
            "was-winnable": c.advice.ask_verdict,
            "undo-to": c.advice.undo_to_verdict,
            "toggle-sound": self.toggle_sound,
            "continue": c.changes.continue_aside,
            "winnable-deal": c.deals.winnable_deal,
            "how-to-play": c.teaching.begin,
            "skip-lesson": c.teaching.skip,
            "lessons-again": self.lessons_again,
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
            "share": lambda: self.background.spawn(self.share()),
        }
        if button.closest("#toast"):
            self.messages.hide_toast()
        if action in intents:
            self.act(intents[action])
        elif action in views:
            views[action]()

    def lessons_again(self) -> None:
        """Settings' "Show the lessons again": every game's lesson shows at its next open."""
        c = self.controller
        c.settings_changed(replace(c.settings, lessons_done=()))
        c.toast("The lessons will show again.", info=True)

    def on_game_select(self, ev: Any) -> None:
        self.act(self.controller.deals.choose_game, str(ev.target.value))

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
        self.board_el.classList.toggle("large-cards", s.large_cards)
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
    _app.background.start_solver_when_idle()
