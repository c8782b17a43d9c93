"""Changes of the whole table (restart, new deal, a chosen deal, another game, a link, "Continue
deal N") as steps that Undo takes back, and the one unfinished game per game kept aside.

A change replaces the game shown; until the player's first move after it, Undo (Ctrl+Z, the
Undo button, or the Undo button in the change's toast) puts back exactly what was there: the
game shown before with its moves, redo list and clock, the saved game and the kept-aside game
of the game now shown, and that game's statistics. A played, unfinished game that a change
replaces within its own game is kept aside (``solitaire.aside.<id>``) and offered as "Continue
deal N" in the menu, after the undo window has closed too.

Statistics (docs/ui.md, "Nothing lost by one click"): a counted game is abandoned, and the win
streak ends, once: when the player makes a move in another deal of the same game while it is
kept aside, or when another game takes its place aside. No browser.
"""

from __future__ import annotations

from dataclasses import dataclass

from .documents import Saved, Stats
from .ports import Table
from .state import Toast
from .text import plural

CHANGE_TOAST_MS = 8000  # the change's toast (with its Undo button) stays this long


@dataclass
class TableChange:
    """What one change replaced, for Undo to put back."""

    text: str  # "New deal 4127."
    before: Saved  # the game shown before
    game_id: str  # the game shown after
    saved: Saved | None  # that game's saved game the change replaced (None: not replaced)
    aside: Saved | None  # that game's kept-aside game before the change
    stats: Stats  # that game's statistics before the change


def same_game(a: Saved | None, b: Saved | None) -> bool:
    return a is b or (a is not None and b is not None and a.game.to_json() == b.game.to_json())


class Changes:
    def __init__(self, controller: Table) -> None:
        self.c = controller
        self.pending: TableChange | None = None  # the change Undo takes back now
        self.settled = True  # False: no move yet since the last change (or the page's start)

    # ------------------------------------------------------------------ keeping aside

    def begin(self, game_id: str) -> TableChange:
        """Note what a change of the table to ``game_id`` may replace (before it does)."""
        store = self.c.store
        return TableChange(
            "",
            self.c.saved,
            game_id,
            None,
            store.load_game(game_id, "aside"),
            store.load_stats(game_id),
        )

    def put_aside(self, saved: Saved, change: TableChange) -> None:
        """``saved`` leaves the table for another game of its kind: keep it if it is worth
        keeping. The game kept aside before goes (and counts as abandoned)."""
        change.saved = saved
        if not saved.worth_keeping:
            return
        old = change.aside
        if old is not None and not same_game(old, saved):
            self.abandon(old)
        self.c.store.save_game(saved, "aside")

    def bring_back(self, change: TableChange, shown: Saved | None) -> None:
        """The game kept aside (``change.aside``) comes back to the table: ``shown``, the game
        it replaces, takes its place aside if worth keeping. Nothing is abandoned: the game
        that was aside is the one coming back."""
        store = self.c.store
        store.drop_aside(change.game_id)
        if shown is not None:
            change.saved = shown
            if shown.worth_keeping:
                store.save_game(shown, "aside")

    def abandon(self, saved: Saved) -> None:
        """``saved`` is really left: a counted, unwon game ends the streak, once."""
        if saved.counted and not saved.recorded and not saved.abandoned:
            saved.abandoned = True
            store = self.c.store
            stats = store.load_stats(saved.game.game_id)
            stats.record_abandoned()
            store.save_stats(saved.game.game_id, stats)

    def kept_aside(self) -> Saved | None:
        return self.c.store.load_game(self.c.game_id, "aside")

    # ------------------------------------------------------------------ the undo window

    def done(self, change: TableChange, text: str) -> None:
        """The change happened: offer its undo in a toast."""
        change.text = text
        self.pending = change
        self.settled = False
        self.c.emit(Toast(text, info=True, ms=CHANGE_TOAST_MS, action="undo", label="Undo"))
        self.refresh()

    def moved(self) -> None:
        """The player made a move: the undo window closes; the first move in another deal
        than the one kept aside abandons that one."""
        self.pending = None
        if self.settled:
            return
        self.settled = True
        aside = self.kept_aside()
        if aside is not None and aside.game.deal != self.c.game.deal:
            was = aside.abandoned
            self.abandon(aside)
            if aside.abandoned != was:
                self.c.store.save_game(aside, "aside")
        self.refresh()

    def undo(self) -> bool:
        """Take back the last change, if it is still the last thing done."""
        change = self.pending
        if change is None:
            return False
        self.pending = None
        c = self.c
        store = c.store
        game_id = change.game_id
        if change.saved is not None:
            store.save_game(change.saved)
        if change.aside is not None:
            store.save_game(change.aside, "aside")
        else:
            store.drop_aside(game_id)
        store.save_stats(game_id, change.stats)
        c.show(change.before, push=True)
        self.refresh()
        moves = plural(c.game.move_count, "move")
        c.announce(f"Undone: {change.text} Back to {c.describe_table()}, {moves}.")
        return True

    def continue_aside(self) -> None:
        """The menu's "Continue deal N": the game kept aside comes back to the table, and the
        game shown takes its place aside."""
        c = self.c
        aside = self.kept_aside()
        if aside is None:
            c.announce("No game is kept aside.")
            return
        c.tick()
        c.persist()
        change = self.begin(c.game_id)
        self.bring_back(change, c.saved)
        c.show(aside, push=True)
        self.done(change, f"Back to deal {c.game.deal}, {plural(c.game.move_count, 'move')}.")

    def refresh(self) -> None:
        """What the toolbar and the menu offer: Undo of the change, "Continue deal N"."""
        ui = self.c.ui
        ui.aside.undo_table = self.pending is not None
        aside = self.kept_aside()
        if aside is None:
            ui.aside.label = ""
        else:
            deal = aside.game.deal
            what = f"deal {deal}" if deal is not None else "the saved position"
            ui.aside.label = f"Continue {what} ({plural(aside.game.move_count, 'move')})"
