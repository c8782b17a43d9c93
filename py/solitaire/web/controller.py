"""The page's logic without the browser: intents in, engine calls, a new UI state out.

Every player intent (tap or click a card, press/drag/drop, a key, a toolbar button, an
address, a solver answer) is a method here. Each one changes the game (``solitaire.game``)
and the UI state (``state.UIState``) and appends what the page must show to ``effects``
(``state.Effect`` values: animate a step, toast a refusal, move the focus, ask the solver).
The DOM side (``app.py``) calls a method, then carries out the effects and draws the marks
from the state. No ``js`` import: the tests drive this class under CPython with a
``MemoryBackend`` store, a fake clock and fake geometry.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game import Game, random_playable_deal
from ..piles import STOCK, PileRef
from ..position import IllegalMove, Move, Position
from .advice import Advice
from .changes import Changes
from .dealing import DEFAULT_GAME, WINNABLE_BY_DEFAULT, Deals
from .documents import Saved, Settings
from .gestures import Gestures
from .keys import Keys
from .layout import Layout, layout
from .lesson import Teaching
from .markup import preview_looks, table_preview
from .picking import Picking
from .ports import Geometry, Winnable
from .state import (
    Announce,
    AutoFinish,
    CloseDialogs,
    DragBack,
    Effect,
    Focus,
    HideToast,
    LoadWinnable,
    NewBoard,
    Notice,
    Redraw,
    SchedulePersist,
    SetAddress,
    Show,
    ShowWon,
    Status,
    Title,
    Toast,
    UIState,
    Verdict,
    WarmSolver,
)
from .store import SaveResult, Store
from .tab_sync import TabSync
from .text import (
    clock,
    describe_move,
    describe_step,
    format_hash,
    game_name,
    plural,
)

AUTO_STEP_MS = 120  # between the auto-moves that follow a move
FINISH_TOTAL_MS = 2200  # auto-finish animation, at most


class Controller:
    def __init__(
        self,
        store: Store,
        winnable: Winnable,
        geometry: Geometry,
        now: Callable[[], float],
        random_deal: Callable[[str], int] = random_playable_deal,
    ) -> None:
        self.store = store
        self.winnable = winnable
        self.geometry = geometry
        self.now = now  # milliseconds (performance.now() in the page)
        self.settings: Settings = store.load_settings()
        self.saved = Saved(Game.new(DEFAULT_GAME, 1))  # a placeholder: never saved
        self.loaded = False  # a real game is on the table (open_game): saving may begin
        self.table: Layout = layout(self.game.position.rules)
        self.ui = UIState()
        self.effects: list[Effect] = []
        self.coarse_pointer = False  # the device's primary pointer is a finger
        # the (game, deal) whose status line web/table-preview.js painted with the "Winnable"
        # mark before Python started (boot): the mark stays for it until the list comes
        self.marked_winnable: tuple[str, int] | None = None
        self.picking = Picking(self)  # what a click, tap or Enter on a card does
        self.gestures = Gestures(self)  # pointer intents
        self.advice = Advice(self)  # hint and "Was it winnable?" intents
        self.keys = Keys(self)  # keyboard intents
        self.tabs = TabSync(self)  # follows what other tabs save
        self.changes = Changes(self)  # restart, new deal, ... as undoable steps
        self.deals = Deals(self, self.changes, winnable, random_deal)  # which deal is shown
        self.teaching = Teaching(self)  # the lessons; the player's game is set aside meanwhile

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Game:
        return self.saved.game

    @property
    def game_id(self) -> str:
        return self.game.game_id

    @property
    def position(self) -> Position:
        return self.game.position

    def new_deal(self) -> None:
        """The New deal button or N (``Deals.new_deal``)."""
        self.teaching.end()
        self.deals.new_deal()

    def hint(self) -> None:
        """The Hint button or H (``Advice.hint``)."""
        self.teaching.end()
        self.advice.hint()

    def clear_hint(self) -> None:
        """The hinted move is no longer marked (``Advice.clear_hint``)."""
        self.advice.clear_hint()

    def take_effects(self) -> list[Effect]:
        effects, self.effects = self.effects, []
        return effects

    def emit(self, *effects: Effect) -> None:
        self.effects.extend(effects)

    def announce(self, text: str) -> None:
        self.emit(Announce(text))

    def toast(self, text: str, info: bool = False, ms: int = 2800) -> None:
        self.emit(Toast(text, info, ms))

    @property
    def tap_move_on(self) -> bool:
        """ "Tap a card to move it": the setting, else on exactly for touch screens."""
        tap_move = self.settings.tap_move
        return self.coarse_pointer if tap_move is None else tap_move

    def winnable_only_for(self, game_id: str) -> bool:
        """ "Winnable deals only": the setting, else on for the games in WINNABLE_BY_DEFAULT."""
        only = self.settings.winnable_only
        return game_id in WINNABLE_BY_DEFAULT if only is None else only

    @property
    def vibrate_on(self) -> bool:
        vibrate = self.settings.vibrate
        return self.coarse_pointer if vibrate is None else vibrate

    def describe_table(self) -> str:
        deal = self.game.deal
        return f"{game_name(self.game_id)}, " + (f"deal {deal}" if deal else "a saved position")

    # ------------------------------------------------------------------ games

    def show_notices(self) -> None:
        if self.store.notices:
            self.emit(Notice(" ".join(self.store.notices)))
            self.store.notices.clear()

    def seat(self, chosen: Saved, same_board: bool = False) -> None:
        """Put ``chosen`` on the table: the one path by which a game comes to the table,
        whether the player opened it (``show``) or another tab saved it
        (``TabSync.follow_game``). The hand lets go, the clock waits for the next move, the
        board is built anew (with ``same_board``: the same game's cards are redrawn) and
        the status is recomputed."""
        self.cancel_drag()
        hand = self.ui.hand
        hand.selection = None
        hand.last_tap = None
        self.ui.clock.last_tick = None
        chosen.game.automove = self.settings.automove
        self.saved = chosen
        self.loaded = True
        self.table = layout(chosen.game.position.rules)
        self.emit(Redraw() if same_board else NewBoard())
        self.winnable_loaded(chosen.game.game_id)
        self.position_changed()

    def show(self, chosen: Saved, push: bool = True, boot: bool = False) -> None:
        """Put ``chosen`` on the table as the player's choice: a new board with the focus on
        it, dialogs closed, the game saved as the last played, and the address and title
        naming it (a new history entry with ``push``)."""
        self.emit(CloseDialogs())
        self.seat(chosen)
        pile, index = self.keys.default_focus()
        self.emit(Focus(pile, index, move_focus=False))
        self.store.set_last_game(self.game_id)
        self.persist()
        self.name_table(push)
        if not boot:
            self.announce(f"{self.describe_table()}.")
            self.show_notices()
        self.teaching.first_open()

    def name_table(self, push: bool) -> None:
        """The address and the title name the deal shown."""
        self.emit(SetAddress(format_hash(self.game_id, self.game.deal), push))
        self.emit(Title(f"{self.describe_table()} · Solitaire"))

    def winnable_loaded(self, game_id: str) -> None:
        """The list of ``game_id``'s proved-winnable deals came (or the table changed): the
        status line says whether the deal shown is in it."""
        if self.winnable.known(self.game_id):
            self.marked_winnable = None  # the list says from now on
            self.ui.progress.proved_winnable = self.game.deal in (
                self.winnable.get(self.game_id) or ()
            )
        else:
            self.ui.progress.proved_winnable = (
                self.game_id,
                self.game.deal,
            ) == self.marked_winnable
        if game_id == self.game_id and not self.winnable.known(game_id):
            self.emit(LoadWinnable(game_id))

    def keep_table(self, release: str) -> None:
        """Keep the table on the screen for the next visit's first paint (``Store.save_table``,
        web/table-preview.js), with the looks the settings give it."""
        if not self.loaded or self.teaching.lesson is not None:
            return
        game = self.game
        self.store.save_table(
            table_preview(
                game.position,
                game.deal,
                game.move_count,
                game.elapsed,
                preview_looks(self.settings),
                release,
                proved_winnable=self.ui.progress.proved_winnable,
            )
        )

    def persist(self) -> SaveResult | None:
        """Save the game (None: not before a real game is loaded; see ``Store.save_game``)."""
        if not self.loaded or self.teaching.lesson is not None:  # a lesson is never saved
            return None
        return self.store.save_game(self.saved)

    def reset_stats(self) -> None:
        """The statistics dialog's Reset (confirmed): this game's statistics start again."""
        self.store.reset_stats(self.game_id)

    def settings_changed(self, settings: Settings) -> None:
        self.settings = settings
        self.game.automove = settings.automove
        self.store.save_settings(settings)
        if not self.winnable.known(self.game_id):
            self.emit(LoadWinnable(self.game_id))  # fetched now: "New deal" is then instant

    # ------------------------------------------------------------------ moves

    def play(self, move: Move, dragged: tuple[int, ...] = ()) -> bool:
        """Play a player's move (and the auto-moves it sets off), or say why not."""
        before = self.position
        if self.position.why_illegal(move) is None and self.teaching.refuses(move):
            if dragged:
                self.emit(DragBack(dragged))
            return False
        try:
            step = self.game.play(move)
        except IllegalMove as error:
            if dragged:
                self.emit(DragBack(dragged))
            self.toast(str(error))
            return False
        moving = before.pile(move.source)[-move.count :] if move.source != STOCK else ()
        self.started()
        self.emit(Show(before, tuple(step), AUTO_STEP_MS, dragged))
        self.announce(describe_step(self.position, step, moving))
        self.after_change(player=True)
        self.teaching.played()
        return True

    def started(self) -> None:
        """The player made a move: the deal counts as played, the clock runs."""
        if not self.saved.counted:
            self.saved.counted = True
            stats = self.store.load_stats(self.game_id)
            stats.record_played()
            self.store.save_stats(self.game_id, stats)
        if self.ui.clock.last_tick is None:
            self.ui.clock.last_tick = self.now()
        if self.teaching.lesson is None:  # the player's table changes are not the lesson's
            self.changes.moved()

    def after_change(self, player: bool = False) -> None:
        """Queue the save, refresh the status, count a win, queue auto-finish after a move."""
        position = self.position
        ui = self.ui
        if position.is_won() and not self.saved.recorded:
            self.saved.recorded = True
            self.tick()
            stats = self.store.load_stats(self.game_id)
            saved = self.saved
            ui.progress.won_records = stats.record_win(
                self.game.elapsed, self.game.move_count, saved.hints
            )
            self.store.save_stats(self.game_id, stats)
            self.emit(ShowWon())
        self.emit(SchedulePersist())
        self.position_changed()
        if (
            player
            and self.settings.automove
            and ui.progress.finish_moves
            and not position.is_won()
            and self.teaching.lesson is None
        ):
            self.emit(AutoFinish())

    def finish(self) -> None:
        if self.teaching.lesson is not None:
            return  # the lesson's moves are played one by one
        self.cancel_drag()
        self.ui.hand.selection = None
        before = self.position
        try:
            step = self.game.auto_finish()
        except IllegalMove as error:
            self.toast(str(error))
            return
        self.started()
        gap = max(25, min(110, FINISH_TOTAL_MS // max(1, len(step))))
        self.announce(f"Finishing: {plural(len(step), 'move')} to the foundations.")
        self.emit(Show(before, tuple(step), gap))
        self.after_change()

    def auto_finish_due(self) -> None:
        """The auto-finish timer after a move's animation."""
        if self.ui.progress.finish_moves:
            self.finish()

    def undo(self) -> None:
        """Take back the last move, or the last change of the table right after it."""
        self.cancel_drag()
        self.ui.hand.selection = None
        if (
            self.teaching.lesson is None and self.changes.undo()
        ):  # a change of the table is always the last thing done
            return
        if self.game.undo() is None:
            self.announce("Nothing to undo.")
            return
        self.emit(Redraw())
        self.persist()
        self.position_changed()
        self.announce(f"Undone. {plural(self.game.move_count, 'move')}.")

    def redo(self) -> None:
        self.cancel_drag()
        self.ui.hand.selection = None
        before = self.position
        step = self.game.redo()
        if step is None:
            self.announce("Nothing to redo.")
            return
        self.emit(Show(before, tuple(step), AUTO_STEP_MS))
        self.announce(f"Redone. {plural(self.game.move_count, 'move')}.")
        self.after_change()

    def describe_move(self, move: Move) -> str:
        return describe_move(self.position, move)

    # ------------------------------------------------------------------ status and clock

    def position_changed(self) -> None:
        """Recompute the status; hints and answers about an earlier position go."""
        ui = self.ui
        position = self.position
        won = position.is_won()
        stuck = not won and position.is_stuck()
        status: Status = "won" if won else "stuck" if stuck else "playing"
        if status != ui.progress.status:
            ui.progress.status = status
            if stuck:
                self.announce("No moves left: this deal is stuck. Undo, restart or deal again.")
                ui.verdict = Verdict()
                self.emit(WarmSolver())
        # no Finish in a lesson: its moves are played one by one
        lesson = self.teaching.lesson is not None
        ui.progress.finish_moves = None if won or lesson else position.auto_finish()
        self.emit(HideToast())
        hint = ui.hint
        hint.asked = None  # an answer still to come is about another position: ignored
        hint.kind = ""
        hint.move = None
        hint.from_line = False
        self.clear_hint()
        if ui.verdict.asked is not None and ui.verdict.asked is not position:
            ui.verdict.asked = None

    def tick(self) -> None:
        """Add the time since the last tick to the game's clock (while it is being played)."""
        now = self.now()
        ui = self.ui
        if (
            ui.clock.last_tick is not None
            and ui.progress.status == "playing"
            and not ui.clock.paused
        ):
            self.game.elapsed += max(0.0, (now - ui.clock.last_tick) / 1000)
        if self.game.move_count or ui.clock.last_tick is not None:
            ui.clock.last_tick = now

    def clock_text(self) -> str:
        return clock(self.game.elapsed)

    def hidden(self) -> None:
        """The tab was hidden: stop the clock here and save."""
        self.tick()
        self.persist()

    def shown_again(self) -> None:
        if self.ui.clock.last_tick is not None:
            self.ui.clock.last_tick = self.now()

    def set_paused(self, paused: bool) -> None:
        """A dialog opened (``paused``) or the last one closed: the clock stops or goes on."""
        if paused == self.ui.clock.paused:
            return
        if paused:
            self.tick()
        self.ui.clock.paused = paused
        if not paused:
            self.shown_again()

    # ------------------------------------------------------------------ selection

    def selectable(self, pile: PileRef, index: int | None) -> int | None:
        return self.picking.selectable(pile, index)

    def legal_targets(self, pile: PileRef, count: int) -> frozenset[PileRef]:
        return self.picking.legal_targets(pile, count)

    def put_back(self) -> bool:
        return self.picking.put_back()

    def skip_lesson(self) -> bool:
        """Skip (Escape, the lesson's Skip button) or leave a lesson (``Teaching.end``)."""
        return self.teaching.end()

    def activate(self, pile: PileRef, index: int | None) -> None:
        """A click, a tap or Enter on a pile or one of its cards (``Picking.activate``)."""
        self.picking.activate(pile, index)

    def to_foundation(self, pile: PileRef, index: int | None) -> None:
        """A double-click, double-tap or F (``Picking.to_foundation``)."""
        self.picking.to_foundation(pile, index)

    def cancel_drag(self) -> None:
        drag = self.ui.hand.drag
        self.ui.hand.press = None
        if drag is not None:
            self.ui.hand.drag = None
            self.emit(DragBack(drag.cards))
