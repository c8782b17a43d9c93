"""The keyboard as intents: shortcuts that work wherever the focus is, and the keys that act
on the board's focused card or pile (arrows, Enter/Space, F). Pure logic over the
controller's state: ``keyboard.py`` passes each ``keydown`` here with where the focus is, and
the tests drive it under CPython (docs/ui.md, "Keyboard").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..piles import TABLEAU, PileRef
from .state import Focus, ShowHelp

if TYPE_CHECKING:
    from .controller import Controller


class Keys:
    """The controller's keyboard intents (``Controller.keys``)."""

    def __init__(self, controller: Controller) -> None:
        self.c = controller

    def press(
        self,
        key: str,
        *,
        ctrl: bool = False,
        shift: bool = False,
        alt: bool = False,
        repeat: bool = False,
        in_dialog: bool = False,
        typing: bool = False,
        on_board: bool = False,
        pile: PileRef | None = None,
        index: int | None = None,
    ) -> bool:
        """A key press; returns True when it was handled (the page then prevents its default).

        The shortcuts (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, H, N, ?, Escape) work wherever the focus
        is (the game picker and the buttons included), except while ``typing`` in a text field
        or with a dialog open (``in_dialog``). Arrows, Enter/Space and F act on the board's
        focused card or pile (``pile``/``index``; ``on_board``). A held key's repeats
        (``repeat``) do not ask again for a hint, a new deal or the help."""
        if in_dialog or typing or alt:
            return False
        if ctrl:
            return self.ctrl_key(key.lower(), shift)
        if key == "Escape":
            return self.c.put_back()
        if key in GLOBAL_KEYS:
            if not repeat:
                GLOBAL_KEYS[key](self)
            return True
        if not on_board:
            return False
        if pile is None:
            pile, index = self.default_focus()
        elif index is None:
            index = self.top_index(pile)  # the pile itself (its empty area): its top card
        return self.board_key(key, pile, index)

    def ctrl_key(self, lower: str, shift: bool) -> bool:
        """Ctrl (or Cmd) + ``lower``: undo, redo; anything else is the browser's."""
        if lower == "z" and not shift:
            self.c.undo()
        elif (lower == "z" and shift) or lower == "y":
            self.c.redo()
        else:
            return False
        return True

    def board_key(self, key: str, pile: PileRef, index: int | None) -> bool:
        """A key on the board's focused card (``pile``, ``index``; None: the empty pile)."""
        if key in ("ArrowLeft", "ArrowRight"):
            new = self.c.table.step(pile, 1 if key == "ArrowRight" else -1)
            self.c.emit(Focus(new, self.top_index(new)))
        elif key in ("ArrowUp", "ArrowDown"):
            self.focus_vertical(pile, index, -1 if key == "ArrowUp" else 1)
        elif key in ("Enter", " "):
            self.c.activate(pile, index)
            self.refocus(pile)
        elif key in ("f", "F"):
            self.c.to_foundation(pile, None)
            self.refocus(pile)
        else:
            return False
        return True

    def show_help(self) -> None:
        """The ? key: the help (the rules, with the keyboard shortcuts)."""
        self.c.emit(ShowHelp())

    def hint(self) -> None:
        """H: as the Hint button."""
        self.c.advice.hint()

    def new_deal(self) -> None:
        """N: as the New deal button."""
        self.c.new_deal()

    def default_focus(self) -> tuple[PileRef, int | None]:
        return TABLEAU[0], self.top_index(TABLEAU[0])

    def top_index(self, pile: PileRef) -> int | None:
        cards = self.c.position.pile(pile)
        return len(cards) - 1 if cards else None

    def focus_vertical(self, pile: PileRef, index: int | None, step: int) -> None:
        table = self.c.table
        if pile.kind == "tableau":
            position = self.c.position
            cards = position.tableau[pile.index]
            lowest = min(position.down[pile.index], max(len(cards) - 1, 0))
            if step < 0:
                if index is not None and index > lowest:
                    self.c.emit(Focus(pile, index - 1))
                    return
                new = table.nearest(table.top, table.column(pile))
                self.c.emit(Focus(new, self.top_index(new)))
            elif index is not None and index < len(cards) - 1:
                self.c.emit(Focus(pile, index + 1))
        elif step > 0:
            new = table.nearest(table.tableau, table.column(pile))
            self.c.emit(Focus(new, self.top_index(new)))

    def refocus(self, pile: PileRef) -> None:
        """Keep the keyboard focus on the pile acted on (its cards may have moved)."""
        selection = self.c.ui.selection
        if selection is not None:
            self.c.emit(Focus(selection.pile, selection.index))
        else:
            self.c.emit(Focus(pile, self.top_index(pile)))


#: Keys that act wherever the focus is (not in a text field or a dialog), without Ctrl or Alt.
GLOBAL_KEYS: dict[str, Callable[[Keys], None]] = {
    "h": Keys.hint,
    "H": Keys.hint,
    "n": Keys.new_deal,
    "N": Keys.new_deal,
    "?": Keys.show_help,
}
