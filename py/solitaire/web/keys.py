"""The keyboard as intents: shortcuts that work wherever the focus is, and the keys that act
on the board's focused card or pile (arrows, Enter/Space, F). Pure logic over the
controller's state: ``keyboard.py`` passes each ``keydown`` here with where the focus is, and
the tests drive it under CPython (docs/ui.md, "Keyboard").
"""

from __future__ import annotations

from collections.abc import Callable

from ..piles import STOCK, TABLEAU, WASTE, PileRef
from .ports import Table
from .state import Focus, Rect, ShowHelp


class Keys:
    """The controller's keyboard intents (``Controller.keys``)."""

    def __init__(self, controller: Table) -> None:
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
        if key == "Escape":  # what the hand holds goes back; else a lesson is skipped
            return self.c.put_back() or self.c.skip_lesson()
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
            rows, _ = self.rows()
            row = next((r for r in rows if pile in r), self.c.table.tableau)
            i = row.index(pile) if pile in row else 0
            new = row[(i + (1 if key == "ArrowRight" else -1)) % len(row)]
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
        self.c.hint()

    def new_deal(self) -> None:
        """N: as the New deal button."""
        self.c.new_deal()

    def default_focus(self) -> tuple[PileRef, int | None]:
        return TABLEAU[0], self.top_index(TABLEAU[0])

    def top_index(self, pile: PileRef) -> int | None:
        cards = self.c.position.pile(pile)
        return len(cards) - 1 if cards else None

    def rows(self) -> tuple[tuple[tuple[PileRef, ...], ...], dict[PileRef, Rect] | None]:
        """The board's rows of piles from the top, as the arrows walk them: the top row and
        the tableau; and where the stock is drawn below the tableau (Double Rail on an upright
        phone, web/style.css), the top row without stock and waste, the tableau, then waste and
        stock, with the piles' rectangles measured to tell (the style sheet decides it; None
        when the rows are the layout plan's)."""
        table = self.c.table
        if STOCK in table.top:
            rects = self.c.geometry.pile_rects()
            stock, tableau = rects.get(STOCK), rects.get(TABLEAU[0])
            if stock is not None and tableau is not None and stock[1] > tableau[1]:
                top = tuple(p for p in table.top if p not in (STOCK, WASTE))
                return (top, table.tableau, (WASTE, STOCK)), rects
        return (table.top, table.tableau), None

    def focus_vertical(self, pile: PileRef, index: int | None, step: int) -> None:
        """Up and Down: along a tableau pile's face-up cards, then to the nearest pile of the
        row above or below."""
        if pile.kind == "tableau":
            position = self.c.position
            cards = position.tableau[pile.index]
            lowest = min(position.down[pile.index], max(len(cards) - 1, 0))
            if step < 0 and index is not None and index > lowest:
                self.c.emit(Focus(pile, index - 1))
                return
            if step > 0 and index is not None and index < len(cards) - 1:
                self.c.emit(Focus(pile, index + 1))
                return
        rows, rects = self.rows()
        here = next((k for k, row in enumerate(rows) if pile in row), len(rows) - 1)
        if not 0 <= here + step < len(rows):
            return
        row = rows[here + step]
        if rects is None:
            new = self.c.table.nearest(row, self.c.table.column(pile))
        else:  # the piles where they are drawn: the nearest in height, then across
            left, top, right, bottom = rects[pile]

            def distance(p: PileRef) -> tuple[int, float]:
                p_left, p_top, p_right, p_bottom = rects[p]
                gap = p_top - bottom if step > 0 else top - p_bottom
                across = abs((p_left + p_right) / 2 - (left + right) / 2)
                return round(max(gap, 0.0) / 4), across

            new = min(row, key=distance)
        self.c.emit(Focus(new, self.top_index(new)))

    def refocus(self, pile: PileRef) -> None:
        """Keep the keyboard focus on the pile acted on (its cards may have moved)."""
        selection = self.c.ui.hand.selection
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
