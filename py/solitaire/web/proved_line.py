"""The winning line behind a proved hint, kept so that the next hints come from it.

A proved hint ("It leads to a win") is the first move of a whole winning line, which the
solver's worker sends with it. A new search from the next position has the same short
budget and may not prove a win again (the two-deck deals are hard to prove from their early
positions); its best-looking move may then even lose the deal. So the page keeps the line:
while the player's position lies on it, the next hint is the line's next move, at once and
still proved, and the worker is not asked.

A position lies on the line when it equals one of the line's positions up to which
foundation pile or free cell holds which card. The page's safe auto-moves choose their
foundation pile themselves, and a player may drop a card on another free cell than the
hint's; no rule tells the piles of a kind apart (any of them takes the same cards), so the
line still wins from there, with its moves sent to the piles that now hold their cards.
No browser: tested under CPython.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import face
from ..piles import STOCK
from ..position import Move, Position

#: Pile kinds whose piles are interchangeable: a move to one of them may go to another.
_ANY_OF_KIND = ("foundation", "cell")


def line_key(position: Position) -> tuple[Any, ...]:
    """``position`` with its foundation piles and free cells taken as unordered (faces only
    on the foundations: which copy of a two-deck card went up first changes nothing)."""
    return (
        position.rules.id,
        position.tableau,
        position.down,
        position.stock,
        position.waste,
        tuple(sorted(card for card in position.cells if card is not None)),
        tuple(sorted(tuple(face(card) for card in pile) for pile in position.foundations)),
    )


def moved_cards(position: Position, move: Move) -> tuple[int, ...]:
    """The cards ``move`` takes from ``position`` (the stock's top card for a deal)."""
    if move.source == STOCK:
        return tuple(position.stock[-1:])
    return tuple(position.pile(move.source)[-move.count :])


class ProvedLine:
    """The positions of a winning line, each with the line's next move from it."""

    def __init__(self, start: Position, moves: Sequence[Move]) -> None:
        """Raises ``ValueError`` when a move is illegal or the line does not end in a win."""
        self._next: dict[tuple[Any, ...], tuple[Position, Move]] = {}
        position = start
        for move in moves:
            self._next.setdefault(line_key(position), (position, move))
            position = position.play(move)
        if not position.is_won():
            raise ValueError("the line does not end in a won position")

    @classmethod
    def from_answer(cls, start: Position, line: Any) -> ProvedLine | None:
        """The worker's ``line`` (move strings) from ``start``, or None when it is not a
        winning line from there (a damaged answer is ignored, not trusted)."""
        if not isinstance(line, list) or not line:
            return None
        try:
            return cls(start, [Move.parse(text) for text in line])
        except ValueError:
            return None

    def __len__(self) -> int:
        return len(self._next)

    def next_move(self, position: Position) -> Move | None:
        """The line's move from ``position``, sent to the piles of ``position``; None when
        ``position`` is not on the line (the player left it, or the game changed)."""
        found = self._next.get(line_key(position))
        if found is None:
            return None
        at, move = found
        if position == at:
            return move
        cards = moved_cards(at, move)
        for candidate in position.legal_moves():
            if candidate.count != move.count or candidate.target.kind != move.target.kind:
                continue
            if candidate.target.kind not in _ANY_OF_KIND and candidate.target != move.target:
                continue
            if moved_cards(position, candidate) == cards:
                return candidate
        return None
