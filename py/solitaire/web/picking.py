"""Picking cards up and putting them down: what a click, a tap or Enter on a card or pile
does, and a double-click, double-tap or F.

A first click picks up the card and the cards on it (``Selection``, with the piles it may go
to marked); a click on another pile plays it there or says why not; a click on the same pile
puts it back. Separate from the pointer's press and drag (``gestures.py``), which hands its
taps here. No browser.
"""

from __future__ import annotations

from ..cards import card_symbol
from ..piles import STOCK, WASTE, PileRef
from ..position import Move
from .ports import Table
from .state import Selection, Shake
from .text import describe_group


class Picking:
    def __init__(self, controller: Table) -> None:
        self.c = controller

    def selectable(self, pile: PileRef, index: int | None) -> int | None:
        """The index of the card a press on (pile, index) picks up, or None."""
        position = self.c.position
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
            m.target for m in self.c.position.legal_moves() if m.source == pile and m.count == count
        )

    def select(self, pile: PileRef, index: int) -> None:
        cards = tuple(self.c.position.pile(pile)[index:])
        self.c.clear_hint()
        self.c.ui.hand.selection = Selection(
            pile, index, cards, self.legal_targets(pile, len(cards))
        )

    def put_back(self) -> bool:
        if self.c.ui.hand.selection is None:
            return False
        self.c.ui.hand.selection = None
        self.c.announce("Put back.")
        return True

    def activate(self, pile: PileRef, index: int | None) -> None:
        """A click, a tap or Enter on a pile or one of its cards."""
        ui = self.c.ui
        if pile == STOCK:
            ui.hand.selection = None
            self.c.play(Move(STOCK, WASTE))
            return
        position = self.c.position
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
                self.c.play(move)
                return
            self.c.toast(reason)
            self.c.emit(Shake(selection.cards))
            pick = self.selectable(pile, index) if index is not None else None
            if pick is not None:
                self.select(pile, pick)
            return
        pick = self.selectable(pile, index)
        if pick is not None:
            self.select(pile, pick)
            group = position.pile(pile)[pick:]
            self.c.announce(f"Picked up {describe_group(group)}. Choose where it goes.")
        elif index is not None:
            if pile.kind == "foundation":
                self.c.toast("Cards never come back off a foundation.")
            elif pile.kind == "tableau":
                self.c.toast("Face-down cards cannot be moved.")

    def to_foundation(self, pile: PileRef, index: int | None) -> None:
        """A double-click, double-tap or F: the top card of ``pile`` to a foundation."""
        self.c.ui.hand.selection = None
        position = self.c.position
        cards = position.pile(pile)
        if not cards or pile.kind in ("foundation", "stock"):
            return
        if index is not None and index != len(cards) - 1 and pile.kind == "tableau":
            self.c.toast("Only the top card of a pile can go to a foundation.")
            return
        for move in position.legal_moves():
            if move.source == pile and move.target.kind == "foundation":
                self.c.play(move)
                return
        self.c.toast(f"The {card_symbol(cards[-1])} cannot go to a foundation yet.")
