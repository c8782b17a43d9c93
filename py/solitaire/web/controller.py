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

from .. import MAX_DEAL
from ..cards import card_symbol, long_name
from ..game import Game, random_playable_deal
from ..piles import STOCK, WASTE, PileRef
from ..position import IllegalMove, Move, Position
from ..rules import GAMES
from .advice import Advice
from .changes import Changes
from .gestures import Gestures
from .keys import Keys
from .layout import Layout, layout
from .markup import table_preview
from .ports import Geometry, Winnable
from .state import (
    Announce,
    AutoFinish,
    CloseDialogs,
    DragBack,
    Effect,
    Focus,
    HideInfoToast,
    LoadWinnable,
    NewBoard,
    Notice,
    Redraw,
    SchedulePersist,
    Selection,
    SetAddress,
    Shake,
    Show,
    ShowWon,
    Status,
    Title,
    Toast,
    UIState,
    Verdict,
    WarmSolver,
)
from .store import Saved, SaveResult, Settings, Store
from .tab_sync import TabSync
from .text import (
    clock,
    describe_group,
    format_hash,
    game_name,
    parse_hash,
    pile_title,
    plural,
)

DEFAULT_GAME = "russian"
# "Winnable deals only" until the player sets it: on where most deals cannot be won (Russian:
# 93.5 %, docs/winnability.md); off where most can and the shipped list covers only deals
# 1-2000 (the other games)
WINNABLE_BY_DEFAULT = frozenset({"russian"})
AUTO_STEP_MS = 120  # between the auto-moves that follow a move
FINISH_TOTAL_MS = 2200  # auto-finish animation, at most


def valid_deal_text(text: str) -> int | None:
    """The deal number typed in the "Deal number" dialog, or None when it is not one."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= 10 and 1 <= int(text) <= MAX_DEAL:
        return int(text)
    return None


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
        self.random_playable = random_deal
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
        self.gestures = Gestures(self)  # pointer intents
        self.advice = Advice(self)  # hint and "Was it winnable?" intents
        self.keys = Keys(self)  # keyboard intents
        self.tabs = TabSync(self)  # follows what other tabs save
        self.changes = Changes(self)  # restart, new deal, ... as undoable steps

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

    def hint(self) -> None:
        """The Hint button or H (``Advice.hint``)."""
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

    def boot(
        self,
        address: str,
        shown: tuple[str, str] | None = None,
        marked_winnable: tuple[str, str] | None = None,
    ) -> None:
        """Open the game the address names (else the last one played), and say what was
        wrong with the address or the saved data.

        ``shown``: the (game, deal) of the first-visit table that web/table-preview.js
        painted before Python started (``#board``'s data-game and data-deal). A first visit
        (no game played yet, no address) opens that deal, so that the cards already on the
        screen are the game's; anything else ignores it. ``marked_winnable``: the (game, deal)
        of the table it painted with the status line's "Winnable" mark: if that is the deal
        opened, the mark stays until the game's winnable list has come (and says), rather than
        going at Python's first paint and coming back a moment later."""
        if marked_winnable is not None:
            self.marked_winnable = shown_deal(marked_winnable)
        for each in GAMES:  # a damaged entry is reported now, not when it is next needed
            self.store.load_stats(each)
        game_id, deal, problem = parse_hash(address)
        link = game_id is not None and deal is not None
        last = self.store.last_game()
        if game_id is None and last is None and shown is not None:
            first = shown_deal(shown)
            if first is not None and self.store.load_game(first[0]) is None:
                game_id, deal = first
        self.open_game(game_id or last or DEFAULT_GAME, deal, boot=True, link=link)
        if problem:
            self.store.notices.insert(0, problem + f" Showing {self.describe_table()} instead.")
        self.show_notices()

    def show_notices(self) -> None:
        if self.store.notices:
            self.emit(Notice(" ".join(self.store.notices)))
            self.store.notices.clear()

    def open_game(
        self,
        game_id: str,
        deal: int | None = None,
        *,
        push: bool = True,
        fresh: bool = False,
        boot: bool = False,
        link: bool = False,
        said: str = "",
    ) -> None:
        """Show ``game_id``: its game in progress when it is that deal (or no deal was asked
        for), else its game kept aside when that is the deal asked for (Back after "New
        deal", or a link to the deal being played: the player's game, not its start), else a
        new game of ``deal`` (a random one when None). The game replaced is kept aside and
        the change is a step Undo takes back (``changes.py``); ``said`` is the change's toast
        (a default one when empty)."""
        if not boot:
            self.tick()
            self.persist()
        change = self.changes.begin(game_id)
        saved = self.store.load_game(game_id)
        aside = change.aside
        back = False  # the game kept aside comes back, as by "Continue deal N"
        if saved is not None and not fresh and (deal is None or saved.game.deal == deal):
            chosen = saved
        elif not fresh and deal is not None and aside is not None and aside.game.deal == deal:
            chosen, back = aside, True
            self.changes.bring_back(change, saved)
        else:
            if saved is not None:
                self.changes.put_aside(saved, change)
            number = deal if deal is not None else self.random_deal(game_id)
            chosen = Saved(Game.new(game_id, number, automove=self.settings.automove))
        if boot:
            # the page's start: Undo can bring back only a game a link replaced
            change.before = change.saved or chosen
        self.show(chosen, push=push and not boot, boot=boot)
        if boot and (change.saved is None or not change.saved.worth_keeping):
            self.changes.refresh()
            return
        where = f"deal {self.game.deal}" if game_id == change.before.game.game_id else None
        if not said and back:
            what = self.describe_table() if where is None else where
            said = f"Back to {what}, {plural(self.game.move_count, 'move')}."
        elif not said:
            what = self.describe_table() if where is None else where.capitalize()
            said = f"{what} from the link." if link else f"{what}."
        self.changes.done(change, said)

    def show(self, chosen: Saved, push: bool = True, boot: bool = False) -> None:
        """Put ``chosen`` on the table (a new board, the address, the title, the status)."""
        self.cancel_drag()
        self.ui.hand.selection = None
        self.emit(CloseDialogs())
        chosen.game.automove = self.settings.automove
        self.saved = chosen
        self.loaded = True
        game_id = chosen.game.game_id
        self.table = layout(chosen.game.position.rules)
        ui = self.ui
        ui.clock.last_tick = None
        ui.hand.last_tap = None
        self.emit(NewBoard())
        pile, index = self.keys.default_focus()
        self.emit(Focus(pile, index, move_focus=False))
        self.store.set_last_game(game_id)
        self.persist()
        self.emit(SetAddress(format_hash(game_id, self.game.deal), push))
        self.emit(Title(f"{self.describe_table()} · Solitaire"))
        self.winnable_loaded(game_id)
        self.position_changed()
        if not boot:
            self.announce(f"{self.describe_table()}.")
            self.show_notices()

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

    def random_deal(self, game_id: str, avoid: int | None = None) -> int:
        """A random deal number: with "winnable deals only", one of the game's proved-winnable
        deals when its list is loaded."""
        deals = self.winnable.get(game_id) if self.winnable_only_for(game_id) else None
        if deals:
            return self.winnable.pick(deals, avoid)
        return self.random_playable(game_id)

    def new_deal(self) -> None:
        game_id = self.game_id
        if self.winnable_only_for(game_id):
            if not self.winnable.known(game_id):
                self.emit(LoadWinnable(game_id, "new"))
                return
            if self.winnable.get(game_id) is None:
                self.emit(
                    Notice(
                        f"No list of winnable {game_name(game_id)} deals comes with this "
                        "version: this new deal may not be winnable."
                    )
                )
        number = self.random_deal(game_id, avoid=self.game.deal)
        self.open_game(game_id, number, fresh=True, said=f"New deal {number}.")

    def winnable_deal(self) -> None:
        """A proved-winnable deal of this game, whatever the setting (offered when the hint
        finds the deal lost from its start)."""
        game_id = self.game_id
        if not self.winnable.known(game_id):
            self.emit(LoadWinnable(game_id, "winnable"))
            return
        deals = self.winnable.get(game_id)
        if not deals:
            self.toast(f"No list of winnable {game_name(game_id)} deals comes with this version.")
            return
        number = self.winnable.pick(deals, self.game.deal)
        self.open_game(game_id, number, fresh=True, said=f"New deal {number}, proved winnable.")

    def choose_game(self, game_id: str) -> None:
        """The game picker."""
        if game_id not in GAMES or game_id == self.game_id:
            return
        if self.winnable_only_for(game_id) and not self.winnable.known(game_id):
            self.emit(LoadWinnable(game_id, "open"))
            return
        self.open_game(game_id, None)

    def choose_deal(self, text: str) -> str | None:
        """The "Deal number" dialog: opens that deal, or returns why the text is not one."""
        number = valid_deal_text(text)
        if number is None:
            return f"Enter a whole number from 1 to {MAX_DEAL}."
        self.open_game(self.game_id, number, fresh=True, said=f"Deal {number}.")
        return None

    def address_changed(self, address: str) -> None:
        """The player edited the address or went back/forward in history."""
        game_id, deal, problem = parse_hash(address)
        here = format_hash(self.game_id, self.game.deal)
        if problem:
            if game_id is not None and game_id != self.game_id:
                self.open_game(game_id, None, push=False)
            self.emit(Notice(problem + f" Showing {self.describe_table()}."))
            self.emit(SetAddress(format_hash(self.game_id, self.game.deal), False))
            return
        if game_id is None or (game_id == self.game_id and deal in (None, self.game.deal)):
            self.emit(SetAddress(here, False))
            return
        self.open_game(game_id, deal, push=False, link=True)

    def restart(self) -> None:
        """Back to the deal's start: the game as it was is kept aside, and Undo brings it
        back."""
        self.cancel_drag()
        self.ui.hand.selection = None
        self.emit(CloseDialogs())
        old = self.saved
        if not old.game.can_undo and not old.game.can_redo:
            self.announce("This deal has not been played yet.")
            return
        self.tick()
        self.persist()
        change = self.changes.begin(self.game_id)
        self.changes.put_aside(old, change)
        game = Game(old.game.start, automove=self.settings.automove)
        self.show(Saved(game, old.counted, old.recorded, old.hints, old.abandoned))
        self.changes.done(change, f"Restarted deal {self.game.deal}.")

    def keep_table(self, release: str) -> None:
        """Keep the table on the screen for the next visit's first paint (``Store.save_table``,
        web/table-preview.js), with the looks the settings give it."""
        if not self.loaded:
            return
        s = self.settings
        looks: dict[str, str | bool] = {
            "back": s.card_back,
            "table": s.table,
            "theme": s.theme,
            "four": s.four_color,
            "timer": s.show_timer,
        }
        game = self.game
        self.store.save_table(
            table_preview(
                game.position,
                game.deal,
                game.move_count,
                game.elapsed,
                looks,
                release,
                proved_winnable=self.ui.progress.proved_winnable,
            )
        )

    def persist(self) -> SaveResult | None:
        """Save the game (None: not before a real game is loaded; see ``Store.save_game``)."""
        if not self.loaded:
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
        self.announce(self.describe_step(step, moving))
        self.after_change(player=True)
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
        if player and self.settings.automove and ui.progress.finish_moves and not position.is_won():
            self.emit(AutoFinish())

    def finish(self) -> None:
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
        if self.changes.undo():  # a change of the table is always the last thing done
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

    def describe_step(self, step: list[Move], moving: tuple[int, ...]) -> str:
        move = step[0]
        if move.source == STOCK:
            text = "Dealt a card from the stock"
            if len(step) == 1 and self.position.waste:
                text = f"Dealt the {long_name(self.position.waste[-1])}"
        else:
            text = f"Moved {describe_group(moving)} to {pile_title(move.target).lower()}"
        extra = len(step) - 1
        if extra:
            text += f"; {plural(extra, 'card')} to the foundations"
        return text + "."

    def describe_move(self, move: Move) -> str:
        if move.source == STOCK:
            return "deal a card from the stock"
        cards = tuple(self.position.pile(move.source)[-move.count :])
        return f"move {describe_group(cards)} to {pile_title(move.target).lower()}"

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
        ui.progress.finish_moves = None if won else position.auto_finish()
        self.emit(HideInfoToast())
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
        """The index of the card a press on (pile, index) picks up, or None."""
        position = self.position
        cards = position.pile(pile)
        if not cards or pile.kind in ("foundation", "stock"):
            return None
        if pile.kind == "tableau":
            if index is None:
                return len(cards) - 1
            return index if index >= position.down[pile.index] else None
        return len(cards) - 1

    def legal_targets(self, pile: PileRef, count: int) -> frozenset[PileRef]:
        return frozenset(
            m.target for m in self.position.legal_moves() if m.source == pile and m.count == count
        )

    def select(self, pile: PileRef, index: int) -> None:
        cards = tuple(self.position.pile(pile)[index:])
        self.clear_hint()
        self.ui.hand.selection = Selection(pile, index, cards, self.legal_targets(pile, len(cards)))

    def put_back(self) -> bool:
        if self.ui.hand.selection is None:
            return False
        self.ui.hand.selection = None
        self.announce("Put back.")
        return True

    def activate(self, pile: PileRef, index: int | None) -> None:
        """A click, a tap or Enter on a pile or one of its cards."""
        ui = self.ui
        if pile == STOCK:
            ui.hand.selection = None
            self.play(Move(STOCK, WASTE))
            return
        position = self.position
        selection = ui.hand.selection
        if selection is not None:
            if selection.pile == pile:
                pick = self.selectable(pile, index)
                if index is not None and pick is not None and pick != selection.index:
                    self.select(pile, pick)
                else:
                    self.put_back()
                return
            move = Move(selection.pile, pile, len(selection.cards))
            reason = position.why_illegal(move)
            ui.hand.selection = None
            if reason is None:
                self.play(move)
                return
            self.toast(reason)
            self.emit(Shake(selection.cards))
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
            if pile.kind == "foundation":
                self.toast("Cards never come back off a foundation.")
            elif pile.kind == "tableau":
                self.toast("Face-down cards cannot be moved.")

    def to_foundation(self, pile: PileRef, index: int | None) -> None:
        """A double-click, double-tap or F: the top card of ``pile`` to a foundation."""
        self.ui.hand.selection = None
        position = self.position
        cards = position.pile(pile)
        if not cards or pile.kind in ("foundation", "stock"):
            return
        if index is not None and index != len(cards) - 1 and pile.kind == "tableau":
            self.toast("Only the top card of a pile can go to a foundation.")
            return
        for move in position.legal_moves():
            if move.source == pile and move.target.kind == "foundation":
                self.play(move)
                return
        self.toast(f"The {card_symbol(cards[-1])} cannot go to a foundation yet.")

    def cancel_drag(self) -> None:
        drag = self.ui.hand.drag
        self.ui.hand.press = None
        if drag is not None:
            self.ui.hand.drag = None
            self.emit(DragBack(drag.cards))


def shown_deal(shown: tuple[str, str]) -> tuple[str, int] | None:
    """The (game, deal) of a table painted before Python (``#board``'s data-game and
    data-deal, as text), or None when it names no game or no deal."""
    game_id, deal = shown
    if game_id not in GAMES or not deal.isdigit() or len(deal) > 10:
        return None
    number = int(deal)
    return (game_id, number) if 1 <= number <= MAX_DEAL else None
