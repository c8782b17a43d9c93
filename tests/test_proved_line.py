"""The kept winning line of a proved hint (``solitaire.web.proved_line``): a player who follows
its moves, with the page's auto-moves or without, dropping cards on other free cells or
foundation piles than the line did, stays on it to the win; leaving it, or a damaged line,
gives no move."""

from __future__ import annotations

import pytest

from solitaire import Game, Move, Position
from solitaire.piles import CELL, FOUNDATION
from solitaire.solver import WINNABLE, solve
from solitaire.web.proved_line import ProvedLine, line_key

#: Deals whose solver line is found within a few thousand positions (deterministic: no clock).
QUICK = {
    "russian": 16,
    "double-russian": 7,
    "double-freecell": 7,
    "double-rail": 7,
}


def winning_line(position: Position) -> list[Move]:
    result = solve(position, budget=None, max_nodes=200_000)
    assert result.result == WINNABLE
    assert result.line is not None
    return result.line


@pytest.mark.parametrize("game_id", sorted(QUICK))
@pytest.mark.parametrize("automove", [True, False])
def test_following_the_line_wins(game_id: str, automove: bool) -> None:
    game = Game.new(game_id, QUICK[game_id], automove=automove)
    line = ProvedLine(game.position, winning_line(game.position))
    asked = 0
    while not game.position.is_won():
        move = line.next_move(game.position)
        assert move is not None, f"off the line after {game.move_count} moves"
        assert game.position.why_illegal(move) is None
        game.play(move)
        asked += 1
    # with the auto-moves on, the player is asked only for the moves that are not safe
    assert asked < len(line) if automove else asked == len(line)


def test_other_foundation_piles_and_free_cells_stay_on_the_line() -> None:
    """Double FreeCell: the player parks each card the line sends to a free cell on the last
    empty cell instead, and sends each card the line puts up to the last foundation pile
    that takes it; the line's moves follow the cards to where they are."""
    game = Game.new("double-freecell", QUICK["double-freecell"], automove=False)
    line = ProvedLine(game.position, winning_line(game.position))
    elsewhere = 0
    while not game.position.is_won():
        position = game.position
        move = line.next_move(position)
        assert move is not None, f"off the line after {game.move_count} moves"
        if move.target.kind in ("cell", "foundation"):
            kind = CELL if move.target.kind == "cell" else FOUNDATION
            count = len(position.cells if kind is CELL else position.foundations)
            others = [
                Move(move.source, kind[i], move.count)
                for i in reversed(range(count))
                if position.why_illegal(Move(move.source, kind[i], move.count)) is None
            ]
            if others[0] != move:
                elsewhere += 1
            move = others[0]
        game.play(move)
    assert elsewhere >= 10  # the test did put cards elsewhere, often


def test_a_position_off_the_line_gets_no_move() -> None:
    start = Position.deal_of("double-rail", QUICK["double-rail"])
    moves = winning_line(start)
    line = ProvedLine(start, moves)
    on_line = start
    for move in moves[:10]:
        on_line = on_line.play(move)
    assert line.next_move(on_line) == moves[10]
    # another legal move from the start that the line does not make
    other = next(
        m for m in start.legal_moves() if line_key(start.play(m)) != line_key(start.play(moves[0]))
    )
    assert line.next_move(start.play(other)) is None
    assert line.next_move(Position.deal_of("double-rail", QUICK["double-rail"] + 1)) is None
    assert line.next_move(Position.deal_of("russian", 16)) is None


def test_a_damaged_line_is_not_kept() -> None:
    start = Position.deal_of("russian", QUICK["russian"])
    texts = [str(m) for m in winning_line(start)]
    assert ProvedLine.from_answer(start, texts) is not None
    assert ProvedLine.from_answer(start, texts[:-1]) is None  # does not end in a win
    assert ProvedLine.from_answer(start, ["nonsense", *texts]) is None
    assert ProvedLine.from_answer(start, [texts[1], *texts]) is None  # an illegal move
    assert ProvedLine.from_answer(start, "tableau-0>tableau-1") is None
    assert ProvedLine.from_answer(start, []) is None
    assert ProvedLine.from_answer(start, None) is None
    with pytest.raises(ValueError):
        ProvedLine(start, [Move.parse(t) for t in texts[:-1]])
