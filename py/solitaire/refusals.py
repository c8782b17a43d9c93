"""Why the rules refuse a move, in a sentence for the player (``Position.why_illegal``):
the checks run in the order a player would ask them, from "is this a move at all" to the
group limit, and stop at the first that fails."""

from __future__ import annotations

from typing import Any

from .cards import SUIT_NAMES, card_symbol, rank, suit
from .moves import PositionView, pile_text
from .piles import PileRef

BUILD_WORDS = {
    "same-suit": "build down by one rank in the same suit",
    "alternate-colour": "build down by one rank in alternating colours",
    "any-suit": "build down by one rank, any suit",
}


def why_illegal(position: PositionView, move: Any) -> str | None:
    """``None`` when ``move`` is legal, else the reason, worded for the player.

    ``move`` is a ``Move`` (or a 3-tuple); anything else is refused with a reason too."""
    rules = position.rules
    if isinstance(move, (str, bytes)):
        return "That is not a move."
    try:
        source, target, count = move
    except (TypeError, ValueError):
        return "That is not a move."
    if not isinstance(source, PileRef) or not isinstance(target, PileRef):
        return "That is not a move."
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        return "A move takes at least one card."
    for ref in (source, target):
        try:
            position.pile(ref)
        except KeyError:
            return f"There is no pile called “{pile_text(ref)}” in {rules.name}."
    if source == target:
        return "The cards are already there."
    skind, s = source
    tkind, t = target
    if skind == "foundation":
        return "Cards never come back off a foundation."
    if skind == "stock":
        if tkind != "waste":
            return "Cards from the stock go to the waste: click the stock to deal one."
        if not position.stock:
            return "The stock is empty, and there is no redeal."
        return None if count == 1 else "The stock deals one card at a time."
    if tkind == "stock":
        return "Nothing can be put on the stock."
    if tkind == "waste":
        return "Only the stock deals onto the waste."
    cards = position.pile(source)
    if not cards:
        return "There is no card there to move."
    if count > len(cards):
        return f"That pile has only {len(cards)} card{'s' if len(cards) > 1 else ''}."
    if skind == "waste" and count > 1:
        return "Only the top card of the waste moves."
    card = cards[-count]
    if skind == "tableau":
        if len(cards) - count < position.down[s]:
            return "Face-down cards cannot be moved."
        if count > 1 and rules.group == "sequence" and position.movable_from(s) < count:
            return (
                f"Only a run that follows the building rule ({BUILD_WORDS[rules.build]}) "
                "moves together."
            )
    if tkind == "foundation":
        if count > 1:
            return "Cards go to a foundation one at a time."
        pile = position.foundations[t]
        if position.foundation_accepts(card, pile):
            return None
        if not pile:
            if rank(card) != 1:
                return "Only an Ace can start a foundation."
            return (
                f"The {SUIT_NAMES[suit(card)]} already have their foundation: "
                "this Ace goes on it after the King."
            )
        if len(pile) >= rules.foundation_size:
            return "That foundation is complete."
        return (
            f"The {card_symbol(card)} cannot go on the {card_symbol(pile[-1])}: "
            "foundations build up by suit."
        )
    if tkind == "cell":
        if skind == "cell":
            return "A card cannot move from one free cell to another."
        if count > 1:
            return "A free cell holds one card."
        if position.cells[t] is not None:
            return "That free cell is taken."
        return None
    # onto the tableau
    pile = position.tableau[t]
    if pile:
        if not position.fits_on(card, pile[-1]):
            return (
                f"The {card_symbol(card)} cannot go on the {card_symbol(pile[-1])}: "
                f"{BUILD_WORDS[rules.build]}."
            )
    elif rules.empty == "king" and rank(card) != 13:
        return "Only a King can go to an empty pile."
    if skind == "tableau" and count > 1:
        limit = position.group_limit(not pile)
        if count > limit:
            free = position.cells.count(None)
            empty = sum(1 for p in position.tableau if not p) - (0 if pile else 1)
            return (
                f"With {free} free cell{'s' if free != 1 else ''} and {empty} empty "
                f"column{'s' if empty != 1 else ''} to spare, at most {limit} cards "
                "move at once."
            )
    return None
