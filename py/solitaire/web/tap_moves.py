"""Where one tap sends a card: the legal destinations of a group, best first.

"Tap a card to move it" (on by default on touch screens, as in Microsoft's, Google's and
solitaire.gg's games) plays a tapped card, with the cards on it, to its best place at once;
tapping it again right after moves it on to the next place. The order, chosen to keep the
game open:

1. a foundation, when the card is safe there (no card of the other colour still needs it);
2. a build on a non-empty pile (left to right);
3. a foundation, when the card is not safe there;
4. an empty tableau pile;
5. a free cell.

Destinations that play alike are listed once: one of several empty foundations of a suit,
one empty tableau pile, one free cell. A pure function of the position, tested under CPython.
"""

from __future__ import annotations

from ..piles import PileRef
from ..position import Move, Position


def tap_moves(position: Position, pile: PileRef, index: int) -> list[Move]:
    cards = position.pile(pile)
    if not 0 <= index < len(cards):
        return []
    count = len(cards) - index
    card = cards[index]
    safe = position.is_safe(card)

    def rank(move: Move) -> int:
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
        order = rank(move)
        alike = (order, bool(position.pile(move.target)))
        if order != 1:  # every empty foundation, empty pile or free cell plays alike
            if alike in seen:
                continue
            seen.add(alike)
        found.append((order, move.target.index, move))
    found.sort(key=lambda item: (item[0], item[1]))
    return [move for _, _, move in found]
