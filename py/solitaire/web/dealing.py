"""Which deal is on the table: the page's start, a game or deal opened, a new deal, a link,
a restart.

Each of these picks a game (the game in progress of that game, the one kept aside, or a new
deal, a proved-winnable one where "winnable deals only" is on) and puts it on the table through
the controller's one path (``Controller.show``), as a change that Undo takes back
(``changes.py``). No ``js`` import: driven by app.py, tested under CPython.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import MAX_DEAL
from ..game import Game
from ..rules import GAMES
from .changes import Changes
from .documents import Saved
from .ports import Table, Winnable
from .state import CloseDialogs, LoadWinnable, Notice, SetAddress
from .text import format_hash, game_name, parse_hash, plural

DEFAULT_GAME = "russian"
# "Winnable deals only" until the player sets it: on where most deals cannot be won (Russian:
# 93.5 %, docs/winnability.md); off where most can and the shipped list covers only deals
# 1-2000 (the other games)
WINNABLE_BY_DEFAULT = frozenset({"russian"})


def valid_deal_text(text: str) -> int | None:
    """The deal number typed in the "Deal number" dialog, or None when it is not one."""
    text = text.strip()
    if text.isascii() and text.isdigit() and len(text) <= 10 and 1 <= int(text) <= MAX_DEAL:
        return int(text)
    return None


class Deals:
    def __init__(
        self,
        controller: Table,
        changes: Changes,
        winnable: Winnable,
        random_playable: Callable[[str], int],
    ) -> None:
        self.c = controller
        self.changes = changes
        self.winnable = winnable
        self.random_playable = random_playable  # a random deal number of a game

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
            self.c.marked_winnable = shown_deal(marked_winnable)
        for each in GAMES:  # a damaged entry is reported now, not when it is next needed
            self.c.store.load_stats(each)
        game_id, deal, problem = parse_hash(address)
        link = game_id is not None and deal is not None
        last = self.c.store.last_game()
        if game_id is None and last is None and shown is not None:
            first = shown_deal(shown)
            if first is not None and self.c.store.load_game(first[0]) is None:
                game_id, deal = first
        self.open_game(game_id or last or DEFAULT_GAME, deal, boot=True, link=link)
        if problem:
            self.c.store.notices.insert(0, problem + f" Showing {self.c.describe_table()} instead.")
        self.c.show_notices()

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
            self.c.tick()
            self.c.persist()
        change = self.changes.begin(game_id)
        saved = self.c.store.load_game(game_id)
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
            chosen = Saved(Game.new(game_id, number, automove=self.c.settings.automove))
        if boot:
            # the page's start: Undo can bring back only a game a link replaced
            change.before = change.saved or chosen
        self.c.show(chosen, push=push and not boot, boot=boot)
        if boot and (change.saved is None or not change.saved.worth_keeping):
            self.changes.refresh()
            return
        where = f"deal {self.c.game.deal}" if game_id == change.before.game.game_id else None
        if not said and back:
            what = self.c.describe_table() if where is None else where
            said = f"Back to {what}, {plural(self.c.game.move_count, 'move')}."
        elif not said:
            what = self.c.describe_table() if where is None else where.capitalize()
            said = f"{what} from the link." if link else f"{what}."
        self.changes.done(change, said)

    def random_deal(self, game_id: str, avoid: int | None = None) -> int:
        """A random deal number: with "winnable deals only", one of the game's proved-winnable
        deals when its list is loaded."""
        deals = self.winnable.get(game_id) if self.c.winnable_only_for(game_id) else None
        if deals:
            return self.winnable.pick(deals, avoid)
        return self.random_playable(game_id)

    def new_deal(self) -> None:
        game_id = self.c.game_id
        if self.c.winnable_only_for(game_id):
            if not self.winnable.known(game_id):
                self.c.emit(LoadWinnable(game_id, "new"))
                return
            if self.winnable.get(game_id) is None:
                self.c.emit(
                    Notice(
                        f"No list of winnable {game_name(game_id)} deals comes with this "
                        "version: this new deal may not be winnable."
                    )
                )
        number = self.random_deal(game_id, avoid=self.c.game.deal)
        self.open_game(game_id, number, fresh=True, said=f"New deal {number}.")

    def winnable_deal(self) -> None:
        """A proved-winnable deal of this game, whatever the setting (offered when the hint
        finds the deal lost from its start)."""
        game_id = self.c.game_id
        if not self.winnable.known(game_id):
            self.c.emit(LoadWinnable(game_id, "winnable"))
            return
        deals = self.winnable.get(game_id)
        if not deals:
            self.c.toast(f"No list of winnable {game_name(game_id)} deals comes with this version.")
            return
        number = self.winnable.pick(deals, self.c.game.deal)
        self.open_game(game_id, number, fresh=True, said=f"New deal {number}, proved winnable.")

    def choose_game(self, game_id: str) -> None:
        """The game picker."""
        if game_id not in GAMES or game_id == self.c.game_id:
            return
        if self.c.winnable_only_for(game_id) and not self.winnable.known(game_id):
            self.c.emit(LoadWinnable(game_id, "open"))
            return
        self.open_game(game_id, None)

    def choose_deal(self, text: str) -> str | None:
        """The "Deal number" dialog: opens that deal, or returns why the text is not one."""
        number = valid_deal_text(text)
        if number is None:
            return f"Enter a whole number from 1 to {MAX_DEAL}."
        self.open_game(self.c.game_id, number, fresh=True, said=f"Deal {number}.")
        return None

    def address_changed(self, address: str) -> None:
        """The player edited the address or went back/forward in history."""
        game_id, deal, problem = parse_hash(address)
        here = format_hash(self.c.game_id, self.c.game.deal)
        if problem:
            if game_id is not None and game_id != self.c.game_id:
                self.open_game(game_id, None, push=False)
            self.c.emit(Notice(problem + f" Showing {self.c.describe_table()}."))
            self.c.emit(SetAddress(format_hash(self.c.game_id, self.c.game.deal), False))
            return
        if game_id is None or (game_id == self.c.game_id and deal in (None, self.c.game.deal)):
            self.c.emit(SetAddress(here, False))
            return
        self.open_game(game_id, deal, push=False, link=True)

    def restart(self) -> None:
        """Back to the deal's start: the game as it was is kept aside, and Undo brings it
        back."""
        self.c.cancel_drag()
        self.c.ui.hand.selection = None
        self.c.emit(CloseDialogs())
        old = self.c.saved
        if not old.game.can_undo and not old.game.can_redo:
            self.c.announce("This deal has not been played yet.")
            return
        self.c.tick()
        self.c.persist()
        change = self.changes.begin(self.c.game_id)
        self.changes.put_aside(old, change)
        game = Game(old.game.start, automove=self.c.settings.automove)
        self.c.show(Saved(game, old.counted, old.recorded, old.hints, old.abandoned))
        self.changes.done(change, f"Restarted deal {self.c.game.deal}.")


def shown_deal(shown: tuple[str, str]) -> tuple[str, int] | None:
    """The (game, deal) of a table painted before Python (``#board``'s data-game and
    data-deal, as text), or None when it names no game or no deal."""
    game_id, deal = shown
    if game_id not in GAMES or not deal.isdigit() or len(deal) > 10:
        return None
    number = int(deal)
    return (game_id, number) if 1 <= number <= MAX_DEAL else None
