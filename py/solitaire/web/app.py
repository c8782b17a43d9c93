"""The page's controller: input (pointer, click, double-click, keyboard), routing
(``#game/deal``), undo/redo, auto-move and auto-finish, timer, settings, statistics, saving.

Python owns the state. Event listeners are added once (delegation on the board and the
document), each through one long-lived proxy. See docs/ui.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import traceback
from typing import Any

import js
from js import document, window
from pyodide.ffi import create_proxy

from ..cards import card_symbol, long_name
from ..deal import MAX_DEAL
from ..game import Game, random_playable_deal
from ..position import IllegalMove, Move, Position
from ..rules import GAMES
from .board import BoardView
from .solver_client import SolverClient, SolverUnavailable, WinnableLists
from .store import MemoryBackend, Saved, Settings, Stats, Store
from .text import (
    SHORT_NAMES,
    clock,
    describe_group,
    format_hash,
    game_name,
    hint_text,
    parse_hash,
    pile_kind,
    pile_title,
    plural,
    verdict_text,
)

DEFAULT_GAME = "russian"
AUTO_STEP_MS = 120  # between the auto-moves that follow a move
FINISH_TOTAL_MS = 2200  # auto-finish animation, at most
TOAST_MS = 2800
DRAG_THRESHOLD = 6  # pixels before a press becomes a drag (touch: 9)
HINT_BUDGET = 2.0  # seconds of search in the worker for a hint
VERDICT_BUDGET = 8.0  # seconds for "Was it winnable?"
HINT_SHOW_MS = 4000  # the hinted move stays marked this long (or until the next change)
HINT_TEXT_MS = 6500


_ELEMENTS: dict[str, Any] = {}


def _by_id(name: str) -> Any:
    """The element with id ``name`` (index.html's elements are never replaced: the proxy is
    kept, so a move's status update does not make a new one per element)."""
    el = _ELEMENTS.get(name)
    if el is None:
        el = document.getElementById(name)
        if el is not None:
            _ELEMENTS[name] = el
    return el


class App:
    def __init__(self) -> None:
        self.board_el = _by_id("board")
        self.board_data = self.board_el.dataset
        self.view = BoardView(self.board_el)
        try:
            backend: Any = window.localStorage
            if backend is None:
                backend = MemoryBackend()
        except Exception:
            backend = MemoryBackend()
        self.store = Store(backend)
        self.settings: Settings = self.store.load_settings()
        self.saved: Saved = Saved(Game.new(DEFAULT_GAME, 1))
        self.selection: tuple[str, int] | None = None
        self.press: dict[str, Any] | None = None
        self.drag: dict[str, Any] | None = None
        self.queue: list[tuple[Position, int]] = []
        self.anim_timer: Any = None
        self.toast_timer: Any = None
        self.return_timer: Any = None
        self.persist_timer: Any = None  # a save queued by after_change
        self.shown_ui: dict[tuple[str, str], Any] = {}  # what update_status last wrote
        self.status = ""  # the board's data-status
        self.hint_state = ""  # #btn-hint's data-hint
        self.toast_info = False  # the toast shown (while toast_timer runs) is an info one
        self.pending_won = False
        self.pending_finish = False
        self.keyboard = False
        self.last_tick: float | None = None
        self.update_offered = False
        self.live_flip = False
        self.finish_moves: list[Move] | None = None
        self.won_records: dict[str, bool] = {}
        self.last_touch = -1e9
        self.hint_provider: Any = None
        self.hint_cards: list[int] = []
        self.hint_timer: Any = None
        self.solver = SolverClient()  # the worker starts on first use (hint or stuck game)
        self.winnable = WinnableLists()
        self.hint_asked: Position | None = None  # a hint is being computed for this position
        self.verdict_asked: Position | None = None  # "Was it winnable?" is being computed
        self.verdict_step: int | None = None  # the step "Undo to before move k+1" goes back to
        self.shown_position: Position | None = None
        self.last_tap: tuple[float, tuple[str, int | None]] | None = None
        self._proxies: list[Any] = []
        self._tasks: set[asyncio.Future[None]] = set()

    # ------------------------------------------------------------------ start

    def start(self) -> None:
        self._listen(self.board_el, "pointerdown", self.on_pointerdown)
        self._listen(self.board_el, "pointermove", self.on_pointermove)
        self._listen(self.board_el, "pointerup", self.on_pointerup)
        self._listen(self.board_el, "pointercancel", self.on_pointercancel)
        self._listen(self.board_el, "lostpointercapture", self.on_pointercancel)
        self._listen(self.board_el, "dblclick", self.on_dblclick)
        self._listen(self.board_el, "contextmenu", lambda ev: ev.preventDefault())
        self._listen(document, "keydown", self.on_keydown)
        self._listen(document, "click", self.on_click_action)
        self._listen(_by_id("game-select"), "change", self.on_game_select)
        self._listen(_by_id("form-deal"), "submit", self.on_deal_submit)
        for name in (
            "set-automove",
            "set-fourcolor",
            "set-winnable",
            "set-theme-system",
            "set-theme-light",
            "set-theme-dark",
        ):
            self._listen(_by_id(name), "change", self.on_setting)
        self._listen(window, "hashchange", self.on_hashchange)
        self._listen(document, "visibilitychange", self.on_visibility)
        self._listen(window, "pagehide", lambda ev: self.persist())
        self._p_anim = self._proxy(self.on_anim_tick)
        self._p_toast = self._proxy(self.hide_toast)
        self._p_return = self._proxy(lambda *a: self.view.clear_returning())
        self._p_tick = self._proxy(self.on_tick)
        self._p_finish = self._proxy(self.on_auto_finish)
        self._p_unhint = self._proxy(self.clear_hint)
        self._p_persist = self._proxy(self.on_persist_timer)

        if window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            self.view.animate_enabled = False
        self.apply_settings()
        for each in GAMES:  # a damaged entry is reported now, not when it is next needed
            self.store.load_stats(each)
        game_id, deal, problem = parse_hash(str(window.location.hash))
        self.open_game(
            game_id or self.store.last_game() or DEFAULT_GAME, deal, push=False, boot=True
        )
        if problem:
            self.store.notices.insert(0, problem + f" Showing {self.describe_table()} instead.")
        self.show_notices()
        js.setInterval(self._p_tick, 1000)
        self.enable_hint(self.ask_hint)
        if self.settings.winnable_only:
            self.winnable.load(self.game_id)

    def _proxy(self, fn: Any) -> Any:
        p = create_proxy(fn)
        self._proxies.append(p)
        return p

    def _listen(self, target: Any, event: str, fn: Any) -> None:
        target.addEventListener(event, self._proxy(fn))

    # ------------------------------------------------------------------ games

    @property
    def game(self) -> Game:
        return self.saved.game

    @property
    def game_id(self) -> str:
        return self.game.game_id

    def describe_table(self) -> str:
        deal = self.game.deal
        return f"{game_name(self.game_id)}, " + (f"deal {deal}" if deal else "a saved position")

    def open_game(
        self,
        game_id: str,
        deal: int | None = None,
        *,
        push: bool = True,
        fresh: bool = False,
        boot: bool = False,
    ) -> None:
        """Show ``game_id``: its game in progress when it is that deal (or no deal was asked
        for), else a new game of ``deal`` (a random one when None)."""
        self.cancel_drag()
        self.flush()
        self.clear_selection()
        self.close_dialogs()
        if not boot:
            self.persist()
        saved = self.store.load_game(game_id)
        if saved is not None and not fresh and (deal is None or saved.game.deal == deal):
            chosen = saved
        else:
            if saved is not None and saved.counted and not saved.recorded:
                stats = self.store.load_stats(game_id)
                stats.record_abandoned()
                self.store.save_stats(game_id, stats)
            number = deal if deal is not None else self.random_deal(game_id)
            chosen = Saved(Game.new(game_id, number, automove=self.settings.automove))
        chosen.game.automove = self.settings.automove
        self.saved = chosen
        self.pending_won = False
        self.pending_finish = False
        self.view.setup(self.game.position)
        pile, index = self.default_focus()
        self.view.element(pile, index).tabIndex = 0  # the board's one tab stop (roving)
        self.last_tick = None
        self.store.set_last_game(game_id)
        self.persist()
        _by_id("game-select").value = game_id
        self.set_hash(push)
        self.update_status()
        document.title = f"{self.describe_table()} · Solitaire"
        if not boot:
            self.announce(f"{self.describe_table()}.")
            self.show_notices()

    def random_deal(self, game_id: str, avoid: int | None = None) -> int:
        """A random deal number: with "winnable deals only", one of the game's proved-winnable
        deals when its list is loaded (see ``new_deal``)."""
        deals = self.winnable.get(game_id) if self.settings.winnable_only else None
        if deals:
            return self.winnable.pick(deals, avoid)
        return random_playable_deal(game_id)

    def new_deal(self) -> None:
        game_id = self.game_id
        if self.settings.winnable_only:
            if not self.winnable.known(game_id):
                self._spawn(self._new_deal_when_loaded(game_id))
                return
            if self.winnable.get(game_id) is None:
                self.show_notice(
                    f"No list of winnable {game_name(game_id)} deals comes with this version: "
                    "this new deal may not be winnable."
                )
        number = self.random_deal(game_id, avoid=self.game.deal)
        self.open_game(game_id, number, fresh=True)

    async def _new_deal_when_loaded(self, game_id: str) -> None:
        await self.winnable.load(game_id)
        if self.game_id == game_id:
            self.new_deal()

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

    def restart(self) -> None:
        self.cancel_drag()
        self.flush()
        self.clear_selection()
        self.close_dialogs()
        if not self.game.can_undo and not self.game.can_redo:
            self.announce("This deal has not been played yet.")
            return
        self.game.restart()
        self.view.render(self.game.position)
        self.last_tick = None
        self.persist()
        self.update_status()
        self.announce("Restarted.")

    def set_hash(self, push: bool) -> None:
        wanted = format_hash(self.game_id, self.game.deal)
        if str(window.location.hash) == wanted:
            return
        if push:
            window.history.pushState(None, "", wanted)
        else:
            window.history.replaceState(None, "", wanted)

    def on_hashchange(self, ev: Any) -> None:
        game_id, deal, problem = parse_hash(str(window.location.hash))
        if problem:
            if game_id is not None and game_id != self.game_id:
                self.open_game(game_id, None, push=False)
            self.show_notice(problem + f" Showing {self.describe_table()}.")
            self.set_hash(False)
            return
        if game_id is None:
            self.set_hash(False)
            return
        if game_id == self.game_id and (deal is None or deal == self.game.deal):
            self.set_hash(False)
            return
        self.open_game(game_id, deal, push=False)

    def persist(self) -> None:
        """Save the game now (and drop a save queued by ``schedule_persist``)."""
        if self.persist_timer is not None:
            js.clearTimeout(self.persist_timer)
            self.persist_timer = None
        self.store.save_game(self.saved)

    def schedule_persist(self) -> None:
        """Save the game in a zero-delay timer, after the current handler: a move's DOM update
        does not wait for the JSON and ``localStorage`` write. ``pagehide`` and a hidden
        ``visibilitychange`` call ``persist()``, which writes a queued save at once."""
        if self.persist_timer is None:
            self.persist_timer = js.setTimeout(self._p_persist, 0)

    def on_persist_timer(self, *args: Any) -> None:
        self.persist_timer = None
        self.persist()

    # ------------------------------------------------------------------ moves

    def do_move(self, move: Move, dragged: list[int] | None = None) -> bool:
        """Play a player's move (and the auto-moves it triggers) with animation."""
        self.flush()
        before = self.game.position
        try:
            step = self.game.play(move)
        except IllegalMove as error:
            if dragged:
                self.view.end_drag(dragged, back=True)
                self._schedule_return()
            self.toast(str(error))
            return False
        moving = before.pile(move.source)[-move.count :] if move.source != "stock" else ()
        self.started()
        self.play_step(before, step, dragged=dragged)
        self.announce(self.describe_step(before, step, moving))
        self.after_change(player=True)
        return True

    def started(self) -> None:
        """The player made a move: the deal counts as played, the clock runs."""
        if not self.saved.counted:
            self.saved.counted = True
            stats = self.store.load_stats(self.game_id)
            stats.record_played()
            self.store.save_stats(self.game_id, stats)
        if self.last_tick is None:
            self.last_tick = js.performance.now()

    def play_step(
        self,
        before: Position,
        step: list[Move],
        dragged: list[int] | None = None,
        gap: int = AUTO_STEP_MS,
    ) -> None:
        """Show a step move by move: the first at once, the others every ``gap`` ms."""
        position = before
        frames: list[tuple[Position, int]] = []
        for move in step:
            position = position.play(move)
            frames.append((position, gap))
        first, _ = frames[0]
        self.view.render(first, dragged=dragged)
        self.queue = frames[1:]
        if self.queue:
            self.anim_timer = js.setTimeout(self._p_anim, self.queue[0][1])
        else:
            self.after_animation()

    def on_anim_tick(self, *args: Any) -> None:
        self.anim_timer = None
        if not self.queue:
            return
        position, _ = self.queue.pop(0)
        self.view.render(position)
        if self.queue:
            self.anim_timer = js.setTimeout(self._p_anim, self.queue[0][1])
        else:
            self.view.render(self.game.position)
            self.after_animation()

    def cancel_drag(self) -> None:
        drag = self.drag
        self.press = None
        if drag is not None:
            self.drag = None
            self.view.end_drag(drag["cards"], back=True)
            self.view.set_targets(set())
            self.view.set_hover(None)
            self._schedule_return()

    def flush(self) -> None:
        """Finish any running step animation at once (before handling new input)."""
        if self.anim_timer is not None:
            js.clearTimeout(self.anim_timer)
            self.anim_timer = None
        if self.queue:
            self.queue = []
            self.view.render(self.game.position, animate=False)
            self.after_animation()

    def after_animation(self) -> None:
        if self.pending_won:
            self.pending_won = False
            self.show_won()
        elif self.pending_finish:
            self.pending_finish = False
            js.setTimeout(self._p_finish, 150)

    def after_change(self, player: bool = False) -> None:
        """Queue the save, refresh the status, count a win, and queue auto-finish after a move."""
        position = self.game.position
        if position.is_won() and not self.saved.recorded:
            self.saved.recorded = True
            self.tick()
            stats = self.store.load_stats(self.game_id)
            self.won_records = stats.record_win(self.game.elapsed, self.game.move_count)
            self.store.save_stats(self.game_id, stats)
            self.pending_won = True
            if not self.queue:
                self.after_animation()
        self.schedule_persist()
        self.update_status()
        if player and self.settings.automove and self.finish_moves and not position.is_won():
            self.pending_finish = True
            if not self.queue:
                self.after_animation()

    def on_auto_finish(self, *args: Any) -> None:
        if self.finish_moves and not self.queue:
            self.finish()

    def finish(self) -> None:
        self.cancel_drag()
        self.flush()
        self.clear_selection()
        before = self.game.position
        try:
            step = self.game.auto_finish()
        except IllegalMove as error:
            self.toast(str(error))
            return
        self.started()
        gap = max(25, min(110, FINISH_TOTAL_MS // max(1, len(step))))
        self.announce(f"Finishing: {plural(len(step), 'move')} to the foundations.")
        self.play_step(before, step, gap=gap)
        self.after_change()

    def undo(self) -> None:
        self.cancel_drag()
        self.flush()
        self.clear_selection()
        step = self.game.undo()
        if step is None:
            self.announce("Nothing to undo.")
            return
        self.view.render(self.game.position)
        self.persist()
        self.update_status()
        self.announce(f"Undone. {plural(self.game.move_count, 'move')}.")

    def redo(self) -> None:
        self.cancel_drag()
        self.flush()
        self.clear_selection()
        before = self.game.position
        step = self.game.redo()
        if step is None:
            self.announce("Nothing to redo.")
            return
        self.play_step(before, step)
        self.announce(f"Redone. {plural(self.game.move_count, 'move')}.")
        self.after_change()

    def describe_step(self, before: Position, step: list[Move], moving: tuple[int, ...]) -> str:
        move = step[0]
        if move.source == "stock":
            card = self.game.position.waste[-1] if len(step) == 1 else None
            text = "Dealt a card from the stock"
            if card is not None:
                text = f"Dealt the {long_name(card)}"
        else:
            text = f"Moved {describe_group(moving)} to {pile_title(move.target).lower()}"
        extra = len(step) - 1
        if extra:
            text += f"; {plural(extra, 'card')} to the foundations"
        return text + "."

    # ------------------------------------------------------------------ status

    def update_status(self) -> None:
        game = self.game
        position = game.position
        won = position.is_won()
        stuck = not won and position.is_stuck()
        status = "won" if won else "stuck" if stuck else "playing"
        put = self.put
        deal = "" if game.deal is None else str(game.deal)
        put("board", "game", game.game_id, self.board_data)
        put("board", "deal", deal, self.board_data)
        if position is not self.shown_position:
            self.shown_position = position
            self.position_changed()
        if self.status != status:
            self.status = status
            self.board_data.status = status
            if stuck:
                self.announce("No moves left: this deal is stuck. Undo, restart or deal again.")
                self.reset_verdict()
                self.solver.start()  # boot the worker now: "Was it winnable?" is likely next
        put("stuck", "hidden", not stuck)
        self.finish_moves = None if won else position.auto_finish()
        put("btn-finish", "hidden", self.finish_moves is None)
        put("btn-undo", "disabled", not game.can_undo)
        put("btn-redo", "disabled", not game.can_redo)
        put("st-game", "textContent", SHORT_NAMES[game.game_id])
        put("st-deal", "textContent", deal or "–")
        put("st-moves", "textContent", str(game.move_count))
        put("st-time", "textContent", clock(game.elapsed))

    def put(self, name: str, attr: str, value: Any, target: Any = None) -> None:
        """Set ``attr`` of element ``name`` (or of ``target``) unless it already holds
        ``value``: a move does not rewrite (and restyle) what did not change. Only for what
        ``update_status`` and the clock own."""
        key = (name, attr)
        if self.shown_ui.get(key, self) != value:
            setattr(_by_id(name) if target is None else target, attr, value)
            self.shown_ui[key] = value

    def tick(self) -> None:
        """Add the time since the last tick to the game's clock (while it is being played)."""
        now = js.performance.now()
        if self.last_tick is not None and self.status == "playing":
            self.game.elapsed += max(0.0, (now - self.last_tick) / 1000)
        if self.game.move_count or self.last_tick is not None:
            self.last_tick = now

    def on_tick(self, *args: Any) -> None:
        if str(document.visibilityState) == "hidden":
            return
        if self.last_tick is not None and self.status == "playing":
            self.tick()
            self.put("st-time", "textContent", clock(self.game.elapsed))
        if (
            not self.update_offered
            and document.documentElement.getAttribute("data-update") == "ready"
        ):
            self.update_offered = True
            self.show_notice("A new version of the game is ready: reload the page to use it.")

    def on_visibility(self, ev: Any) -> None:
        if str(document.visibilityState) == "hidden":
            self.tick()
            self.persist()
        elif self.last_tick is not None:
            self.last_tick = js.performance.now()

    # ------------------------------------------------------------------ selection

    def selectable(self, pile: str, index: int | None) -> int | None:
        """The index of the card a press on (pile, index) picks up, or None."""
        position = self.game.position
        kind, i = pile_kind(pile)
        cards = position.pile(pile)
        if not cards or kind in ("foundation", "stock"):
            return None
        if kind == "tableau":
            if index is None:
                return len(cards) - 1
            return index if index >= position.down[i] else None
        return len(cards) - 1

    def legal_targets(self, pile: str, count: int) -> set[str]:
        return {
            m.target
            for m in self.game.position.legal_moves()
            if m.source == pile and m.count == count
        }

    def select(self, pile: str, index: int) -> None:
        cards = list(self.game.position.pile(pile)[index:])
        self.selection = (pile, index)
        self.view.set_selected(cards)
        self.view.set_targets(self.legal_targets(pile, len(cards)))

    def clear_selection(self) -> None:
        if self.selection is not None or self.view.selected:
            self.selection = None
            self.view.set_selected([])
            self.view.set_targets(set())

    def activate(self, pile: str, index: int | None) -> None:
        """A click (or Enter) on a pile or one of its cards."""
        self.flush()
        if pile == "stock":
            self.clear_selection()
            self.do_move(Move("stock", "waste"))
            return
        position = self.game.position
        if self.selection is not None:
            source, start = self.selection
            if source == pile:
                pick = self.selectable(pile, index)
                if index is not None and pick is not None and pick != start:
                    self.select(pile, pick)
                else:
                    self.clear_selection()
                    self.announce("Put back.")
                return
            count = len(position.pile(source)) - start
            move = Move(source, pile, count)
            reason = position.why_illegal(move)
            if reason is None:
                # Cleared after the move: BoardView.render's first reads then use the last
                # frame's layout, so the move forces one style + layout pass instead of two.
                self.do_move(move)
                self.clear_selection()
                return
            self.clear_selection()
            self.toast(reason)
            self.view.shake(list(position.pile(source)[start:]))
            pick = self.selectable(pile, index) if index is not None else None
            if pick is not None:
                self.select(pile, pick)
            return
        pick = self.selectable(pile, index)
        if pick is not None:
            self.select(pile, pick)
            group = position.pile(pile)[pick:]
            self.announce(f"Picked up {describe_group(group)}. Choose where it goes.")
        elif index is not None:
            kind, _ = pile_kind(pile)
            if kind == "foundation":
                self.toast("Cards never come back off a foundation.")
            elif kind == "tableau":
                self.toast("Face-down cards cannot be moved.")

    def to_foundation(self, pile: str, index: int | None) -> None:
        self.flush()
        self.clear_selection()
        position = self.game.position
        kind, _ = pile_kind(pile)
        cards = position.pile(pile)
        if not cards or kind in ("foundation", "stock"):
            return
        if index is not None and index != len(cards) - 1 and kind == "tableau":
            self.toast("Only the top card of a pile can go to a foundation.")
            return
        for move in position.legal_moves():
            if move.source == pile and move.target.startswith("foundation"):
                self.do_move(move)
                return
        self.toast(f"The {card_symbol(cards[-1])} cannot go to a foundation yet.")

    # ------------------------------------------------------------------ pointer input

    def locate(self, target: Any) -> tuple[str | None, int | None]:
        # (DOM lookups give JS null, which is falsy in Python but not None)
        if not target or not hasattr(target, "closest"):
            return None, None
        pile_el = target.closest(".pile")
        name = pile_el.getAttribute("data-pile") if pile_el else None
        if not name:
            return None, None
        pile = str(name)
        card_el = target.closest(".card")
        index = self.view.index_of(pile, card_el) if card_el else None
        return pile, index

    def on_pointerdown(self, ev: Any) -> None:
        if ev.pointerType == "mouse" and ev.button != 0:
            return
        if self.press is not None:
            return
        self.keyboard = False
        if ev.pointerType != "mouse":
            self.last_touch = float(js.performance.now())
        pile, index = self.locate(ev.target)
        if pile is None:
            self.flush()
            self.clear_selection()
            return
        self.press = {
            "pile": pile,
            "index": index,
            "x": float(ev.clientX),
            "y": float(ev.clientY),
            "id": ev.pointerId,
            "drag": False,
            "touch": ev.pointerType != "mouse",
        }

    def on_pointermove(self, ev: Any) -> None:
        press = self.press
        if press is None or ev.pointerId != press["id"]:
            return
        dx = float(ev.clientX) - press["x"]
        dy = float(ev.clientY) - press["y"]
        if not press["drag"]:
            limit = 9 if press["touch"] else DRAG_THRESHOLD
            if dx * dx + dy * dy < limit * limit:
                return
            if not self.start_drag(press):
                return
        self.view.drag_to(dx, dy)
        drag = self.drag
        if drag is not None:
            target = self.drop_target(drag, dx, dy)
            self.view.set_hover(target if target in drag["targets"] else None)

    def start_drag(self, press: dict[str, Any]) -> bool:
        pile, index = press["pile"], press["index"]
        if index is None or self.selectable(pile, index) != index:
            return False
        self.flush()
        self.clear_selection()
        cards = list(self.game.position.pile(pile)[index:])
        press["drag"] = True
        targets = self.legal_targets(pile, len(cards))
        self.drag = {
            "pile": pile,
            "cards": cards,
            "targets": targets,
            "rects": self.view.pile_rects(),
            "lead": self.view.card_rect(cards[0]),
        }
        self.view.begin_drag(cards)
        self.view.set_targets(targets)
        with contextlib.suppress(Exception):
            self.board_el.setPointerCapture(press["id"])
        return True

    def drop_target(self, drag: dict[str, Any], dx: float, dy: float) -> str | None:
        """The pile the dragged group is over: None while it is mostly over its own pile, else
        the legal pile it overlaps most, else the pile it overlaps most."""
        left, top, right, bottom = drag["lead"]
        left, right, top, bottom = left + dx, right + dx, top + dy, bottom + dy
        best: tuple[float, str] | None = None
        best_legal: tuple[float, str] | None = None
        for name, (pl, pt, pr, pb) in drag["rects"].items():
            w = min(right, pr) - max(left, pl)
            h = min(bottom, pb) - max(top, pt)
            if w <= 0 or h <= 0:
                continue
            area = w * h
            if best is None or area > best[0]:
                best = (area, name)
            if name in drag["targets"] and (best_legal is None or area > best_legal[0]):
                best_legal = (area, name)
        if best is not None and best[1] == drag["pile"]:
            return None
        if best_legal is not None:
            return best_legal[1]
        return best[1] if best is not None else None

    def on_pointerup(self, ev: Any) -> None:
        press = self.press
        if press is None or ev.pointerId != press["id"]:
            return
        self.press = None
        if press["drag"]:
            dx = float(ev.clientX) - press["x"]
            dy = float(ev.clientY) - press["y"]
            self.drop(dx, dy)
        else:
            self.activate(press["pile"], press["index"])
            if press["touch"]:
                # double-tap (mice get the browser's dblclick event)
                now = float(js.performance.now())
                spot = (press["pile"], press["index"])
                last = self.last_tap
                self.last_tap = (now, spot)
                if last is not None and last[1] == spot and now - last[0] < 400:
                    self.last_tap = None
                    self.to_foundation(press["pile"], press["index"])

    def on_pointercancel(self, ev: Any) -> None:
        press = self.press
        if press is None or ev.pointerId != press["id"]:
            return
        self.press = None
        drag = self.drag
        if drag is not None:
            self.drag = None
            self.view.end_drag(drag["cards"], back=True)
            self.view.set_targets(set())
            self.view.set_hover(None)
            self._schedule_return()

    def drop(self, dx: float, dy: float) -> None:
        drag = self.drag
        self.drag = None
        if drag is None:
            return
        self.view.set_hover(None)
        self.view.set_targets(set())
        target = self.drop_target(drag, dx, dy)
        cards = drag["cards"]
        if target is None:
            self.view.end_drag(cards, back=True)
            self._schedule_return()
            return
        move = Move(drag["pile"], target, len(cards))
        reason = self.game.position.why_illegal(move)
        if reason is not None:
            self.view.end_drag(cards, back=True)
            self._schedule_return()
            self.toast(reason)
            return
        self.do_move(move, dragged=cards)

    def _schedule_return(self) -> None:
        if self.return_timer is not None:
            js.clearTimeout(self.return_timer)
        self.return_timer = js.setTimeout(self._p_return, 320)

    def on_dblclick(self, ev: Any) -> None:
        if float(js.performance.now()) - self.last_touch < 1000:
            return  # a touch double-tap: handled in on_pointerup
        pile, index = self.locate(ev.target)
        if pile is None or index is None:
            return
        self.to_foundation(pile, index)

    # ------------------------------------------------------------------ keyboard

    def on_keydown(self, ev: Any) -> None:
        key = str(ev.key)
        target = ev.target
        tag = str(getattr(target, "tagName", "") or "").lower()
        in_dialog = bool(document.querySelector("dialog[open]"))
        typing = tag in ("input", "select", "textarea")
        ctrl = bool(ev.ctrlKey or ev.metaKey)
        if ctrl and not in_dialog and not typing and not ev.altKey:
            lower = key.lower()
            if lower == "z" and not ev.shiftKey:
                ev.preventDefault()
                self.undo()
                return
            if (lower == "z" and ev.shiftKey) or lower == "y":
                ev.preventDefault()
                self.redo()
                return
        if key == "Escape" and not in_dialog and self.selection is not None:
            self.clear_selection()
            self.announce("Put back.")
            ev.preventDefault()
            return
        if in_dialog or typing or ctrl or ev.altKey:
            return
        if key in ("h", "H") and not ev.repeat:
            ev.preventDefault()
            self.on_hint()
            return
        inside = bool(self.board_el.contains(target))
        if not inside:
            return
        self.keyboard = True
        pile, index = self.locate(target)
        if pile is None:
            pile, index = self.default_focus()
        handled = True
        if key in ("ArrowLeft", "ArrowRight"):
            self.focus_pile_step(pile, 1 if key == "ArrowRight" else -1)
        elif key in ("ArrowUp", "ArrowDown"):
            self.focus_vertical(pile, index, -1 if key == "ArrowUp" else 1)
        elif key in ("Enter", " "):
            self.activate(pile, index)
            self.refocus_after_move(pile)
        elif key == "Escape":
            if self.selection is not None:
                self.clear_selection()
                self.announce("Put back.")
            else:
                handled = False
        elif key in ("f", "F"):
            self.to_foundation(pile, None)
            self.refocus_after_move(pile)
        else:
            handled = False
        if handled:
            ev.preventDefault()

    def default_focus(self) -> tuple[str, int | None]:
        cards = self.game.position.pile("tableau-0")
        return "tableau-0", (len(cards) - 1 if cards else None)

    def focus_on(self, pile: str, index: int | None) -> None:
        el = self.view.element(pile, index)
        for old in list(self.board_el.querySelectorAll('[tabindex="0"]')):
            old.tabIndex = -1
        el.tabIndex = 0
        el.focus()

    def top_index(self, pile: str) -> int | None:
        cards = self.game.position.pile(pile)
        return len(cards) - 1 if cards else None

    def rows(self) -> tuple[list[str], list[str]]:
        top = [n for n in self.view.top_slots if n is not None]
        tableau = [n for n in self.view.order if n.startswith("tableau")]
        return top, tableau

    def focus_pile_step(self, pile: str, step: int) -> None:
        top, tableau = self.rows()
        row = top if pile in top else tableau
        i = row.index(pile) if pile in row else 0
        new = row[(i + step) % len(row)]
        self.focus_on(new, self.top_index(new))

    def _column(self, pile: str) -> float:
        _top, tableau = self.rows()
        if pile in tableau:
            return (tableau.index(pile) + 0.5) / len(tableau)
        slot = self.view.top_slots.index(pile)
        return (slot + 0.5) / len(self.view.top_slots)

    def _nearest(self, row: list[str], column: float) -> str:
        return min(row, key=lambda n: abs(self._column(n) - column))

    def focus_vertical(self, pile: str, index: int | None, step: int) -> None:
        top, tableau = self.rows()
        position = self.game.position
        if pile in tableau:
            i = int(pile.split("-")[1])
            cards = position.tableau[i]
            lowest = min(position.down[i], max(len(cards) - 1, 0))
            if step < 0:
                if index is not None and index > lowest:
                    self.focus_on(pile, index - 1)
                    return
                new = self._nearest(top, self._column(pile))
                self.focus_on(new, self.top_index(new))
            elif index is not None and index < len(cards) - 1:
                self.focus_on(pile, index + 1)
        elif step > 0:
            new = self._nearest(tableau, self._column(pile))
            self.focus_on(new, self.top_index(new))

    def refocus_after_move(self, pile: str) -> None:
        """Keep the keyboard focus on the pile acted on (its element may have moved)."""
        if self.selection is not None:
            source, start = self.selection
            self.focus_on(source, start)
            return
        self.focus_on(pile, self.top_index(pile))

    # ------------------------------------------------------------------ toolbar, dialogs

    def on_click_action(self, ev: Any) -> None:
        target = ev.target
        if not target or not hasattr(target, "closest"):
            return
        button = target.closest("[data-action]")
        if not button or button.disabled:
            return
        action = str(button.dataset.action)
        menu = _by_id("menu")
        if button.closest("#menu"):
            with contextlib.suppress(Exception):
                menu.hidePopover()
        dialog = button.closest("dialog")
        if dialog and action not in ("reset-stats", "rules-of"):
            dialog.close()
        handler = {
            "undo": self.undo,
            "redo": self.redo,
            "restart": self.restart,
            "new": self.new_deal,
            "finish": self.finish,
            "deal": self.show_deal_dialog,
            "rules": self.show_rules,
            "stats": self.show_stats,
            "settings": self.show_settings,
            "dismiss-notice": self.hide_notice,
            "close-dialog": lambda: None,
            "reset-stats": self.reset_stats,
            "hint": self.on_hint,
            "was-winnable": self.ask_verdict,
            "undo-to": self.undo_to_verdict,
            "rules-of": lambda: self.show_rules_of(str(button.getAttribute("data-game"))),
        }.get(action)
        if handler is not None:
            handler()

    def close_dialogs(self) -> None:
        for dialog in list(document.querySelectorAll("dialog[open]")):
            dialog.close()

    def on_game_select(self, ev: Any) -> None:
        game_id = str(ev.target.value)
        if game_id in GAMES and game_id != self.game_id:
            if self.settings.winnable_only and not self.winnable.known(game_id):
                self._spawn(self._open_when_loaded(game_id))
                return
            self.open_game(game_id, None)

    async def _open_when_loaded(self, game_id: str) -> None:
        await self.winnable.load(game_id)
        if self.game_id != game_id:
            self.open_game(game_id, None)

    def show_deal_dialog(self) -> None:
        _by_id("deal-input").value = str(self.game.deal or "")
        _by_id("deal-error").textContent = ""
        _by_id("dlg-deal").showModal()
        _by_id("deal-input").select()

    def on_deal_submit(self, ev: Any) -> None:
        ev.preventDefault()
        text = str(_by_id("deal-input").value).strip()
        if not (
            text.isascii() and text.isdigit() and len(text) <= 10 and 1 <= int(text) <= MAX_DEAL
        ):
            _by_id("deal-error").textContent = f"Enter a whole number from 1 to {MAX_DEAL}."
            return
        _by_id("dlg-deal").close()
        self.open_game(self.game_id, int(text), fresh=True)

    def show_rules(self) -> None:
        self.show_rules_of(self.game_id)
        _by_id("dlg-rules").showModal()

    def show_rules_of(self, game_id: str) -> None:
        for section in list(document.querySelectorAll("#dlg-rules section[data-rules]")):
            section.classList.toggle("current", section.dataset.rules == game_id)
        for tab in list(document.querySelectorAll("#dlg-rules .rules-tabs button")):
            tab.setAttribute("aria-pressed", "true" if tab.dataset.game == game_id else "false")

    def show_settings(self) -> None:
        s = self.settings
        _by_id("set-automove").checked = s.automove
        _by_id("set-fourcolor").checked = s.four_color
        _by_id("set-winnable").checked = s.winnable_only
        _by_id(f"set-theme-{s.theme}").checked = True
        _by_id("dlg-settings").showModal()

    def on_setting(self, ev: Any) -> None:
        s = self.settings
        s.automove = bool(_by_id("set-automove").checked)
        s.four_color = bool(_by_id("set-fourcolor").checked)
        s.winnable_only = bool(_by_id("set-winnable").checked)
        if s.winnable_only:
            self.winnable.load(self.game_id)  # fetched now, so that "New deal" is instant
        for theme in ("system", "light", "dark"):
            if _by_id(f"set-theme-{theme}").checked:
                s.theme = theme
        self.store.save_settings(s)
        self.apply_settings()

    def apply_settings(self) -> None:
        s = self.settings
        self.game.automove = s.automove
        self.board_el.classList.toggle("four-color", s.four_color)
        root = document.documentElement
        if s.theme == "system":
            root.removeAttribute("data-theme")
        else:
            root.dataset.theme = s.theme

    def stats_rows(self) -> str:
        """The statistics table: one column per game (fits a phone), one row per number."""
        games = list(GAMES)
        stats = {g: self.store.load_stats(g) for g in games}

        def rate(st: Stats) -> str:
            return "–" if st.win_rate is None else f"{st.win_rate:.0%}"

        rows: list[tuple[str, str, Any]] = [
            ("played", "Played", lambda st: st.played),
            ("won", "Won", lambda st: st.won),
            ("rate", "Win rate", rate),
            ("streak", "Streak", lambda st: st.streak),
            ("best-streak", "Best streak", lambda st: st.best_streak),
            ("best-time", "Best time", lambda st: clock(st.best_time)),
            (
                "fewest-moves",
                "Fewest moves",
                lambda st: "–" if st.fewest_moves is None else st.fewest_moves,
            ),
        ]

        def cls(g: str) -> str:
            return ' class="current"' if g == self.game_id else ""

        head = "".join(f'<th scope="col"{cls(g)}>{SHORT_NAMES[g]}</th>' for g in games)
        body = "".join(
            f'<tr data-k="{key}"><th scope="row">{label}</th>'
            + "".join(f'<td data-stats="{g}"{cls(g)}>{value(stats[g])}</td>' for g in games)
            + "</tr>"
            for key, label, value in rows
        )
        return (
            '<div class="stats-scroll"><table class="stats-table"><thead><tr><td></td>'
            f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
        )

    def show_stats(self) -> None:
        _by_id("stats-body").innerHTML = self.stats_rows()
        _by_id("dlg-stats").showModal()

    def reset_stats(self) -> None:
        if not window.confirm(f"Reset the statistics of {game_name(self.game_id)}?"):
            return
        self.store.reset_stats(self.game_id)
        _by_id("stats-body").innerHTML = self.stats_rows()

    def show_won(self) -> None:
        stats = self.store.load_stats(self.game_id)
        records = self.won_records

        def rec(key: str) -> str:
            return ' <span class="record">(best!)</span>' if records.get(key) else ""

        rate = stats.win_rate
        _by_id("won-body").innerHTML = (
            f"<p>{self.describe_table()}.</p>"
            '<dl class="won-numbers">'
            f'<dt>Moves</dt><dd data-k="moves">{self.game.move_count}{rec("moves")}</dd>'
            f'<dt>Time</dt><dd data-k="time">{clock(self.game.elapsed)}{rec("time")}</dd>'
            f'<dt>Games won</dt><dd data-k="won">{stats.won} of {stats.played}'
            f" ({'–' if rate is None else f'{rate:.0%}'})</dd>"
            f'<dt>Streak</dt><dd data-k="streak">{stats.streak}{rec("streak")}</dd>'
            "</dl>"
        )
        self.announce(
            f"You won! {plural(self.game.move_count, 'move')} in {clock(self.game.elapsed)}."
        )
        _by_id("dlg-won").showModal()

    # ------------------------------------------------------------------ hints (the solver)

    def enable_hint(self, provider: Any) -> None:
        """Show the Hint button; a click calls ``provider()`` (which may start work in the
        solver worker and later call ``show_hint``). ``None`` hides the button again.
        ``start()`` enables it with ``ask_hint`` (the worker in ``solver_client``)."""
        self.hint_provider = provider
        button = _by_id("btn-hint")
        button.hidden = provider is None
        button.disabled = provider is None

    def on_hint(self) -> None:
        if self.hint_provider is not None:
            self.cancel_drag()
            self.flush()
            self.clear_selection()
            self.hint_provider()

    def ask_hint(self) -> None:
        """Ask the worker for the next move of a winning line from the table's position; the
        board stays playable meanwhile, and a move made before the answer makes it stale."""
        position = self.game.position
        if position.is_won():
            return
        if not position.legal_moves():  # stuck: nothing to search
            self.hint_answer("lost", None)
            return
        if self.hint_asked == position:
            return  # already thinking about this very position
        self.clear_hint()
        self.hint_asked = position
        self.set_hint_state("thinking")
        if not self.solver.ready:
            self.toast("Starting the solver (only the first time)…", info=True, ms=HINT_TEXT_MS)
        self._spawn(self._hint(position))

    async def _hint(self, position: Position) -> None:
        try:
            answer = await self.solver.call(
                "hint", json.dumps(position.to_json()), HINT_BUDGET, budget=HINT_BUDGET
            )
        except SolverUnavailable as error:
            answer = {"error": f"the solver could not start ({error})"}
        if self.hint_asked is not position:
            return  # the player moved (or asked again elsewhere): a stale answer
        self.hint_asked = None
        if position != self.game.position:
            self.set_hint_state("")
            return
        problem = answer.get("error")
        if problem:
            self.set_hint_state("error")
            self.toast(f"No hint: {problem}.")
            return
        kind = str(answer.get("kind"))
        move = None
        text = answer.get("move")
        if isinstance(text, str):
            try:
                move = Move.parse(text)
            except ValueError:
                move = None
        self.hint_answer(kind, move)

    def hint_answer(self, kind: str, move: Move | None) -> None:
        """Show an answer of the worker's ``hint`` (``kind``: winning | heuristic | lost)."""
        if kind not in ("winning", "heuristic", "lost") or (kind != "lost" and move is None):
            self.set_hint_state("")
            self.show_hint(None)
            return
        self.set_hint_state(kind, move)
        if move is None:
            self.toast(hint_text("lost", "", self.game_id), info=True, ms=HINT_TEXT_MS)
            return
        self.show_hint(move, hint_text(kind, self.describe_move(move), self.game_id))

    def set_hint_state(self, state: str, move: Move | None = None) -> None:
        """``#btn-hint``: busy while thinking; ``data-hint`` (thinking, winning, heuristic,
        lost, error or empty) and ``data-hint-move`` say the last answer (for tests)."""
        self.hint_state = state
        button = _by_id("btn-hint")
        busy = state == "thinking"
        button.classList.toggle("busy", busy)
        button.setAttribute("aria-busy", "true" if busy else "false")
        button.querySelector(".label").textContent = "Thinking…" if busy else "Hint"
        button.title = "Thinking… (you can keep playing)" if busy else "Hint (H)"
        button.dataset.hint = state
        button.dataset.hintMove = "" if move is None else str(move)

    def describe_move(self, move: Move) -> str:
        if move.source == "stock":
            return "deal a card from the stock"
        cards = tuple(self.game.position.pile(move.source)[-move.count :])
        return f"move {describe_group(cards)} to {pile_title(move.target).lower()}"

    def show_hint(self, move: Move | None, text: str = "") -> None:
        """Point at ``move`` (its cards and its target pile) for a moment; ``None`` says that
        no move is known to help. Ignored if the position changed since it was asked for."""
        if move is None:
            self.toast(text or "No hint: no move found that helps.")
            return
        position = self.game.position
        if position.why_illegal(move) is not None:
            return
        self.clear_hint()
        if move.source == "stock":
            cards = list(position.stock[-1:])
        else:
            cards = list(position.pile(move.source)[-move.count :])
        self.view.set_selected([])
        for c in cards:
            self.view.card_els[c].classList.add("hint")
        self.view.set_targets({move.target})
        self.hint_cards = cards
        self.hint_timer = js.setTimeout(self._p_unhint, HINT_SHOW_MS)
        text = text or f"Hint: {self.describe_move(move)}."
        self.toast(text, info=True, ms=HINT_TEXT_MS)

    def clear_hint(self, *args: Any) -> None:
        if self.hint_timer is not None:
            js.clearTimeout(self.hint_timer)
            self.hint_timer = None
        if not self.hint_cards:
            return
        for c in self.hint_cards:
            el = self.view.card_els.get(c)
            if el is not None:
                el.classList.remove("hint")
        self.hint_cards = []
        if self.selection is None and self.drag is None:
            self.view.set_targets(set())

    def position_changed(self) -> None:
        """The table shows another position: hints and pending answers about the old one go."""
        self.clear_hint()
        if self.toast_info and self.toast_timer is not None:  # an info toast is showing
            js.clearTimeout(self.toast_timer)
            self.hide_toast()
        if self.hint_asked is not None:
            self.hint_asked = None  # its answer will be ignored
            self.set_hint_state("")
        elif self.hint_state:
            self.set_hint_state("")
        if self.verdict_asked is not None:
            self.verdict_asked = None

    # ------------------------------------------------------------------ was it winnable?

    def reset_verdict(self) -> None:
        self.verdict_asked = None
        self.verdict_step = None
        verdict = _by_id("stuck-verdict")
        verdict.hidden = True
        verdict.textContent = ""
        verdict.classList.remove("busy")
        banner = _by_id("stuck")
        banner.dataset.verdict = ""
        ask = _by_id("btn-was-winnable")
        ask.hidden = False
        ask.disabled = False
        _by_id("btn-undo-to").hidden = True

    def ask_verdict(self) -> None:
        """The stuck banner's "Was it winnable?": ask the worker about the deal from its start
        and the player's history (``hints.was_winnable``)."""
        position = self.game.position
        if self.verdict_asked is position:
            return
        self.reset_verdict()
        self.verdict_asked = position
        verdict = _by_id("stuck-verdict")
        verdict.hidden = False
        verdict.classList.add("busy")
        seconds = int(VERDICT_BUDGET + 2)
        verdict.textContent = f"Thinking… (up to {seconds} seconds)"
        _by_id("btn-was-winnable").disabled = True
        _by_id("stuck").dataset.verdict = "thinking"
        self.announce("Checking whether this deal was winnable…")
        self._spawn(self._verdict(position, json.dumps(self.game.to_json())))

    async def _verdict(self, position: Position, game_json: str) -> None:
        try:
            answer = await self.solver.call(
                "was_winnable", game_json, VERDICT_BUDGET, budget=VERDICT_BUDGET
            )
        except SolverUnavailable as error:
            answer = {"error": f"it could not start ({error})"}
        if self.verdict_asked is not position or self.game.position is not position:
            return  # the table changed meanwhile
        self.verdict_asked = None
        text, step = verdict_text(answer, self.game_id)
        verdict = _by_id("stuck-verdict")
        verdict.classList.remove("busy")
        verdict.textContent = text
        banner = _by_id("stuck")
        banner.dataset.verdict = "error" if answer.get("error") else str(answer.get("from_start"))
        banner.dataset.lastWinnable = "" if step is None else str(step)
        ask = _by_id("btn-was-winnable")
        had_focus = bool(ask.matches(":focus"))
        ask.hidden = True
        if step is not None and step < self.game.move_count:
            self.verdict_step = step
            undo_to = _by_id("btn-undo-to")
            undo_to.textContent = f"Undo to before move {step + 1}"
            undo_to.hidden = False
            if had_focus:
                undo_to.focus()
        elif had_focus:
            banner.querySelector("[data-action=undo]").focus()
        self.announce(text)

    def undo_to_verdict(self) -> None:
        """Take back every step after the last position from which a win was proved."""
        step = self.verdict_step
        if step is None or step >= self.game.move_count:
            return
        self.cancel_drag()
        self.flush()
        self.clear_selection()
        while self.game.move_count > step:
            self.game.undo()
        self.view.render(self.game.position)
        self.persist()
        self.update_status()
        self.announce(
            f"Back to before move {step + 1}. A win is still possible from here; "
            "Hint (H) shows the way."
        )

    # ------------------------------------------------------------------ messages

    def announce(self, text: str) -> None:
        # A trailing no-break space that alternates makes repeated messages be read again.
        self.live_flip = not self.live_flip
        _by_id("live").textContent = text + ("\u00a0" if self.live_flip else "")

    def toast(self, text: str, info: bool = False, ms: int = TOAST_MS) -> None:
        """A short message over the table: a warning (why a move is refused), or with
        ``info`` a neutral one (hints)."""
        el = _by_id("toast")
        el.textContent = text
        self.toast_info = info
        el.classList.toggle("info", info)
        el.classList.add("show")
        self.announce(text)
        if self.toast_timer is not None:
            js.clearTimeout(self.toast_timer)
        self.toast_timer = js.setTimeout(self._p_toast, ms)

    def hide_toast(self, *args: Any) -> None:
        self.toast_timer = None
        _by_id("toast").classList.remove("show")

    def show_notice(self, text: str) -> None:
        _by_id("notice-text").textContent = text
        _by_id("notice").hidden = False

    def show_notices(self) -> None:
        if self.store.notices:
            self.show_notice(" ".join(self.store.notices))
            self.store.notices.clear()

    def hide_notice(self) -> None:
        _by_id("notice").hidden = True


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


def current() -> App | None:
    """The running page's ``App`` (for other glue, e.g. the solver's hint: ``current().enable_hint(
    provider)`` and later ``current().show_hint(move)``)."""
    return _app
