"""Where one tap sends a card: the legal destinations of a group, best first.

"Tap a card to move it" (on by default on touch screens, as in Microsoft's, Google's and
solitaire.gg's games) plays a tapped card, with the cards on it, to its best place at once;
tapping it again right after moves it on to the next place. The order, chosen to keep the
game open:

1. a foundation, when the card goes up safely (``goes_up_safely``): every card that could
   be built on it in the tableau is home already, or is an Ace in a game where every Ace has
   a foundation of its own (an Ace never waits on a tableau card), as Microsoft's and
   Google's games send a card home first;
2. a build on a non-empty pile (left to right);
3. a foundation, when the card does not go up safely (a card that may still need it to sit
   on is out: a Double Russian 3♥ while the second 2♥ is in the tableau);
4. an empty tableau pile;
5. a free cell.

Destinations that play alike are listed once: one of several empty foundations of a suit,
one empty tableau pile, one free cell. A pure function of the position, tested under CPython.
"""

from __future__ import annotations

from ..cards import face, rank
from ..piles import PileRef
from ..position import Move, Position
from ..tables import rule_tables


def goes_up_safely(position: Position, card: int) -> bool:
    """Can ``card`` go to a foundation without taking a place another card may need?

    ``Position.is_safe`` (the auto-move's test) asks that every card that could be built on
    it in the tableau be home. For a tap that is stricter than a player: in the two-deck
    games with a foundation per Ace (Double Russian, Double Rail) the second A♣ still out
    would keep a 2♣ off its foundation, though an Ace never needs a card to sit on: it
    always has an empty foundation. So a missing Ace does not count there.
    """
    if position.is_safe(card):
        return True
    rules = position.rules
    if rules.foundations < 4 * rules.decks or rules.foundation_laps > 1:
        return False  # an Ace may have to wait (Double FreeCell's second round)
    home = position.home_counts()
    below = rule_tables(rules).below[face(card)]
    return all(home.get(f, 0) >= rules.decks or rank(f) == 1 for f in below)


def tap_moves(position: Position, pile: PileRef, index: int) -> list[Move]:
    cards = position.pile(pile)
    if not 0 <= index < len(cards):
        return []
    count = len(cards) - index
    card = cards[index]
    safe = goes_up_safely(position, card)

    def place(move: Move) -> int:
        target = move.target
        if target.kind == "foundation":
            return 0 if safe else 2
        if target.kind == "tableau":
            return 1 if position.pile(target) else 3
        return 4

    seen: set[tuple[int, bool]] = set()
    found: list[tuple[int, int, Move]] = []
    for move in position.legal_moves():
        if move.source != pile or move.count != count:
            continue
        order = place(move)
        alike = (order, bool(position.pile(move.target)))
        if order != 1:  # every empty foundation, empty pile or free cell plays alike
            if alike in seen:
                continue
            seen.add(alike)
        found.append((order, move.target.index, move))
    found.sort(key=lambda item: (item[0], item[1]))
    return [move for _, _, move in found]
