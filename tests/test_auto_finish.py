"""``Position.auto_finish``'s quick answer (``_finishes``, on plain lists) against the trial
on positions it replaced, over winning lines (where the answer turns from no to yes) and
random play, in all four games."""

from __future__ import annotations

import pytest
from engine_support import make
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import deals, games, picks, walk

from solitaire import STOCK, WASTE, Move, Position
from solitaire.solver import WINNABLE, solve


def trial(position: Position) -> list[Move] | None:
    """The former ``auto_finish``: foundation moves (or a deal) played on positions."""
    if position.is_won():
        return None
    moves: list[Move] = []
    while not position.is_won():
        for source, card in position._tops():
            move = position._foundation_move(source, card)
            if move is not None:
                break
        else:
            if not position.stock:
                return None
            move = Move(STOCK, WASTE)
        moves.append(move)
        position = position.play_unchecked(move)
    return moves


def check(position: Position) -> bool:
    expected = trial(position)
    assert position.auto_finish() == expected
    assert position._finishes() == (expected is not None or position.is_won())
    return expected is not None


@pytest.mark.parametrize(
    ("game", "deal"),
    [("russian", 16), ("russian", 22), ("double-russian", 1), ("double-freecell", 9)],
)
def test_along_a_winning_line(game: str, deal: int) -> None:
    position = Position.deal_of(game, deal)
    result = solve(position, budget=30)
    assert result.result == WINNABLE
    assert result.line
    answers = []
    for move in result.line:
        answers.append(check(position))
        position = position.play(move)
    assert answers[-1], "one move before the win, foundation moves alone win"
    assert not answers[0], "a deal is not won by foundation moves alone"


def test_double_rail_with_stock_deals() -> None:
    """Finishes that need stock deals, and ones the waste's order forbids."""
    assert check(make("double-rail", ["KS"], stock="QH KH QS", waste="", fill=True))
    assert check(make("double-rail", ["KS"], stock="KH", waste="QS QH", fill=True))
    assert not check(make("double-rail", ["QS"], stock="", waste="QH KS KH", fill=True))
    assert not check(make("double-rail", ["QS"], stock="KS", waste="QH KH", fill=True))


@settings(max_examples=60, deadline=None)
@given(game=games, number=deals, choices=picks, automove=st.booleans())
def test_random_play(game: str, number: int, choices: list[int], automove: bool) -> None:
    check(walk(game, number, choices, automove).position)
