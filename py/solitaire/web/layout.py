"""Where each pile stands on the table, as a pure function of the game's rules.

The board has two rows: the top row holds stock and waste (Double Rail), free cells (Double
FreeCell), then the foundations on the right; the second row holds the tableau. Both rows
share one card width, so the wider row decides the number of grid columns. The style sheet
may draw the plan otherwise for a screen (two rows of foundations, the side columns of a
phone on its side, Double Rail's stock below the tableau on an upright phone). The keyboard's
focus moves (left/right along a row, up/down to the nearest pile of the row above or below:
``keys.py``) read the same plan, so they are tested under CPython with the rest of the
controller.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..piles import CELL, FOUNDATION, STOCK, TABLEAU, WASTE, PileRef
from ..rules import GameRules


@dataclass(frozen=True)
class Layout:
    """The table of one game: grid columns, the top row's slots (None: an empty slot) and
    the tableau row."""

    cols: int
    top_slots: tuple[PileRef | None, ...]
    tableau: tuple[PileRef, ...]

    @property
    def top(self) -> tuple[PileRef, ...]:
        return tuple(p for p in self.top_slots if p is not None)

    @property
    def order(self) -> tuple[PileRef, ...]:
        """Every pile, in the order the board shows them (top row, then tableau)."""
        return self.top + self.tableau

    def column(self, pile: PileRef) -> float:
        """The horizontal middle of ``pile`` as a share of the board's width."""
        if pile in self.tableau:
            return (self.tableau.index(pile) + 0.5) / len(self.tableau)
        return (self.top_slots.index(pile) + 0.5) / len(self.top_slots)

    def nearest(self, row: tuple[PileRef, ...], column: float) -> PileRef:
        return min(row, key=lambda p: abs(self.column(p) - column))


def layout(rules: GameRules) -> Layout:
    top: list[PileRef | None] = []
    if rules.stock:
        top += [STOCK, WASTE]
    top += CELL[: rules.cells]
    foundations = FOUNDATION[: rules.foundations]
    tableau = TABLEAU[: len(rules.tableau)]
    cols = max(len(tableau), len(top) + len(foundations))
    top += [None] * (cols - len(top) - len(foundations))
    top += foundations
    return Layout(cols=cols, top_slots=tuple(top), tableau=tuple(tableau))
