"""Assertions shared by the rule tests: a move allowed, a move refused."""

from __future__ import annotations

import pytest
from engine_support import is_sentence

from solitaire import CELL, FOUNDATION, TABLEAU, Game, IllegalMove, Move, PileRef, Position


def T(i: int) -> PileRef:
    return TABLEAU[i]


def F(i: int) -> PileRef:
    return FOUNDATION[i]


def C(i: int) -> PileRef:
    return CELL[i]


def allowed(pos: Position, move: Move) -> Position:
    """The move is legal, listed, and playing it changes the position (and only returns a new
    one: the old position is untouched)."""
    before = pos.to_json()
    assert pos.why_illegal(move) is None, pos.why_illegal(move)
    assert move in pos.legal_moves()
    after = pos.play(move)
    assert after != pos
    assert pos.to_json() == before
    assert sorted(after.all_cards()) == sorted(pos.all_cards())
    return after


def refused(pos: Position, move: Move, fragment: str | None = None) -> str:
    """The move is refused with a readable sentence (containing ``fragment``), is not listed,
    and neither the position nor a game holding it changes."""
    before = pos.to_json()
    digest = hash(pos)
    reason = pos.why_illegal(move)
    assert is_sentence(reason), reason
    assert reason is not None
    if fragment is not None:
        assert fragment in reason, reason
    assert move not in pos.legal_moves()
    with pytest.raises(IllegalMove) as error:
        pos.play(move)
    assert str(error.value) == reason
    game = Game(pos)
    with pytest.raises(IllegalMove):
        game.play(move)
    assert game.position is pos
    assert game.steps == []
    assert not game.can_undo
    assert pos.to_json() == before
    assert hash(pos) == digest
    return reason
