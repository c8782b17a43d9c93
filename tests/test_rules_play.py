"""rules.md: won and stuck, safe auto-moves, auto-finish."""

from __future__ import annotations

import pytest
from engine_support import is_sentence, make
from rulecheck import C, F, T

from solitaire import GAMES, STOCK, WASTE, Game, IllegalMove, Move, Position, parse_card

ALL_GAMES = ["russian", "double-russian", "double-rail", "double-freecell"]
SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
CLUBS = "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"

# ------------------------------------------------------------------------- won


@pytest.mark.parametrize("game", ALL_GAMES)
def test_won_when_every_card_is_on_the_foundations(game: str) -> None:
    won = make(game, [], fill=True)
    assert won.is_won()
    assert not won.is_stuck()
    assert won.legal_moves() == []
    assert won.auto_finish() is None
    assert sum(map(len, won.foundations)) == GAMES[game].cards
    assert {len(p) for p in won.foundations} == {GAMES[game].foundation_size}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_one_card_short_is_not_won(game: str) -> None:
    pos = make(game, ["KH"], fill=True)
    assert not pos.is_won()
    assert not pos.is_stuck()
    after = pos.play(pos.legal_moves()[0])
    assert after.is_won()


# ------------------------------------------------------------------------- stuck

RUSSIAN_STUCK = [
    "#TS KH",
    "#TH KS",
    "#TD KC",
    "#TC KD",
    "#QH JH",
    "#QS #JD JS",
    "#QD #QC JC",
]


def test_russian_stuck() -> None:
    pos = make("russian", RUSSIAN_STUCK, fill=True)  # a complete, valid position
    assert pos.legal_moves() == []
    assert pos.is_stuck()
    assert not pos.is_won()
    assert pos.auto_finish() is None


def test_russian_stuck_when_only_whole_piles_could_shift_to_empty_piles() -> None:
    piles = ["KH", "", "#KS #TS #TH JH", "#KC #TD #TC JS", "#KD #QH #QS JD", "#QD #JC QC", ""]
    pos = make("russian", piles, fill=True)
    assert set(pos.legal_moves()) == {Move(T(0), T(1)), Move(T(0), T(6))}
    assert all(pos.is_pointless(m) for m in pos.legal_moves())
    assert pos.is_stuck()
    # a King with a face-down card under it is a real move
    piles = ["#TS KH", "", "#KS #TH JH", "#KC #TD #TC JS", "#KD #QH #QS JD", "#QD #JC QC", ""]
    pos = make("russian", piles, fill=True)
    assert not pos.is_pointless(Move(T(0), T(1)))
    assert not pos.is_stuck()


def test_double_russian_stuck() -> None:
    pos = make("double-russian", ["5S", "5S", "7H", "7H", "9D", "9D", "JC", "JC", "3S", "3S"])
    assert pos.legal_moves() == []
    assert pos.is_stuck()
    assert not make("double-russian", ["5S", "6S"]).is_stuck()


def test_double_rail_stuck_needs_an_empty_stock() -> None:
    piles = ["5S", "5H", "5D", "5C", "9S"]
    pos = make("double-rail", piles, waste="AS 2C")  # the A♠ is under the 2♣
    assert pos.legal_moves() == []
    assert pos.is_stuck()
    pos = make("double-rail", piles, waste="AS 2C", stock="KD")
    assert pos.legal_moves() == [Move(STOCK, WASTE)]
    assert not pos.is_stuck()
    after = pos.play(Move(STOCK, WASTE))
    assert after.is_stuck()


def test_double_freecell_stuck() -> None:
    columns = ["5S", "5C", "5S", "5C", "3S", "3C", "3S", "3C", "KH", "KH"]
    cells = ["9S", "9S", "9C", "9C", "9H", "9H"]
    pos = make("double-freecell", columns, cells=cells)
    assert pos.legal_moves() == []
    assert pos.is_stuck()
    pos = make("double-freecell", columns, cells=cells[:5])
    assert not pos.is_stuck()  # a free cell is a move


def test_stuck_is_reported_in_play() -> None:
    pos = make("double-rail", ["5S", "5H", "5D", "5C", "9S"], waste="AS 2C", stock="KD")
    game = Game(pos)
    assert not game.position.is_stuck()
    game.play(Move(STOCK, WASTE))
    assert game.position.is_stuck()


# ------------------------------------------------------------------------- safe auto-moves


def test_russian_every_foundation_move_is_safe() -> None:
    # one deck: if 3♠ can go up, the only 2♠ is already there
    pos = make("russian", ["3S", "5H", "AD"], foundations=["AS 2S", "AH 2H 3H"])
    assert pos.safe_automoves() == [Move(T(0), F(0)), Move(T(2), F(2))]
    assert not pos.is_safe(parse_card("5H"))  # the 4♥ is not up
    assert pos.is_safe(parse_card("4H"))


def test_double_russian_safe_needs_both_copies() -> None:
    # 3♠ may go up (on A♠ 2♠) but the other 2♠ is still in play: not safe
    pos = make("double-russian", ["3S", "2S"], foundations=["AS 2S", "AS"])
    assert Move(T(0), F(0)) in pos.legal_moves()
    assert not pos.is_safe(parse_card("3S"))
    assert pos.safe_automoves() == [Move(T(1), F(1)), Move(T(0), F(0))]  # 2♠ first, then 3♠
    pos = make("double-russian", ["3S", "3H"], foundations=["AS 2S", "AS", "AH 2H", "AH 2H"])
    assert pos.safe_automoves() == [Move(T(1), F(2))]


def test_double_freecell_safe_needs_both_copies_of_the_other_colour() -> None:
    # 5♥ is safe when both 4♠ and both 4♣ are up (the second copies on the second lap)
    hearts = "AH 2H 3H 4H"
    lap2 = {"S": SPADES + " AS 2S 3S 4S", "C": CLUBS + " AC 2C 3C 4C"}
    pos = make("double-freecell", ["5H", "5S"], foundations=[lap2["S"], hearts, lap2["C"]])
    assert pos.is_safe(parse_card("5H"))
    assert Move(T(0), F(1)) in pos.safe_automoves()
    pos = make("double-freecell", ["5H"], foundations=[lap2["S"], hearts, CLUBS])
    assert Move(T(0), F(1)) in pos.legal_moves()
    assert not pos.is_safe(parse_card("5H"))
    assert pos.safe_automoves() == []
    # the red 4s do not matter to a red 5, nor the other black suit's 4 alone
    pos = make("double-freecell", ["5H"], foundations=[SPADES, hearts, CLUBS])
    assert pos.safe_automoves() == []
    # a black card needs the red cards below it
    pos = make("double-freecell", ["2S"], foundations=["AS", "AH", "AD"])
    assert not pos.is_safe(parse_card("2S"))
    pos = make(
        "double-freecell",
        ["2S"],
        foundations=["AS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "AD " + "AD"[:0]],
    )
    assert not pos.is_safe(parse_card("2S"))  # only one A♦ up


def test_double_rail_safe_needs_every_copy_of_the_rank_below() -> None:
    eight = ["AS 2S", "AS 2S", "AH 2H", "AH 2H", "AD 2D", "AD 2D", "AC 2C", "AC 2C"]
    pos = make("double-rail", ["3D", "3S"], foundations=eight)
    assert pos.is_safe(parse_card("3D"))
    assert pos.safe_automoves() == [Move(T(0), F(4)), Move(T(1), F(0))]
    pos = make("double-rail", ["3D", "2C"], foundations=[*eight[:7], "AC"])
    assert not pos.is_safe(parse_card("3D"))
    # 2♣ goes first (twos are safe once every Ace is up), then the 3♦ becomes safe
    assert pos.safe_automoves() == [Move(T(1), F(7)), Move(T(0), F(4))]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_aces_are_always_safe(game: str) -> None:
    pos = make(game, ["AH", "KS"])
    assert pos.is_safe(parse_card("AH"))
    assert pos.safe_automoves() == [Move(T(0), F(0))]


def test_auto_moves_from_the_waste_and_the_cells() -> None:
    pos = make("double-rail", ["9S"], waste="KD AC")
    assert pos.safe_automoves() == [Move(WASTE, F(0))]
    pos = make("double-freecell", ["9S"], cells=[None, "AC", "AD"])
    assert pos.safe_automoves() == [Move(C(1), F(0)), Move(C(2), F(1))]


def test_auto_moves_repeat_through_what_they_uncover() -> None:
    pos = make("russian", ["#3S #2S AS", "KD"])
    # A♠ goes up, the 2♠ turns and is safe, then the 3♠
    assert pos.safe_automoves() == [Move(T(0), F(0))] * 3


@pytest.mark.parametrize("automove", [True, False])
def test_a_move_and_its_auto_moves_are_one_undo_step(automove: bool) -> None:
    pos = make("russian", ["#2S AS 5H", "6H", "KD"])
    game = Game(pos, automove=automove)
    step = game.play(Move(T(0), T(1)))
    if automove:
        assert step == [Move(T(0), T(1)), Move(T(0), F(0)), Move(T(0), F(0))]
        assert game.position.tableau[0] == ()
    else:
        assert step == [Move(T(0), T(1))]
    assert game.move_count == 1
    assert game.steps == [step]
    assert game.undo() == step
    assert game.position == pos
    assert game.move_count == 0
    assert game.redo() == step
    assert game.move_count == 1


# ------------------------------------------------------------------------- auto-finish


def test_auto_finish_offered_when_foundation_moves_alone_win() -> None:
    pos = make("russian", ["KS QS", "KH QH", "#KD QD", "KC QC"], fill=True)
    moves = pos.auto_finish()
    assert moves is not None
    assert len(moves) == 8
    assert all(m.target.kind == "foundation" for m in moves)
    end = pos
    for move in moves:
        end = end.play(move)
    assert end.is_won()
    game = Game(pos, automove=False)
    assert game.auto_finish() == moves
    assert game.position.is_won()
    assert game.move_count == 1
    game.undo()
    assert game.position == pos


def test_auto_finish_not_offered_when_a_card_is_buried() -> None:
    pos = make("russian", ["QS KS", "KH QH", "#KD QD", "KC QC"], fill=True)
    assert pos.auto_finish() is None
    game = Game(pos)
    with pytest.raises(IllegalMove) as error:
        game.auto_finish()
    assert is_sentence(str(error.value))
    assert game.position is pos
    assert game.steps == []


def test_auto_finish_with_stock_deals_double_rail() -> None:
    pos = make("double-rail", ["KS"], stock="QH KH QS", waste="", fill=True)
    moves = pos.auto_finish()
    assert moves is not None
    assert Move(STOCK, WASTE) in moves
    end = pos
    for move in moves:
        end = end.play(move)
    assert end.is_won()
    # the waste buries the card needed first: foundation moves and deals alone cannot win
    pos = make("double-rail", ["KS"], stock="KH", waste="QS QH", fill=True)
    assert pos.auto_finish() is not None  # Q♥ up, then Q♠, K♠, deal, K♥
    pos = make("double-rail", ["QS"], stock="", waste="QH KS KH", fill=True)
    assert pos.auto_finish() is None


def test_auto_finish_double_freecell_with_cells() -> None:
    pos = make("double-freecell", ["KS", "QS"], cells=["KH", None, "QH"], fill=True)
    moves = pos.auto_finish()
    assert moves is not None
    assert len(moves) == 4


def test_auto_finish_plays_from_a_position_with_face_down_cards() -> None:
    pos = make("russian", ["#KS #QS JS", "KH QH JH", "KD QD JD", "KC QC JC"], fill=True)
    moves = pos.auto_finish()
    assert moves is not None
    assert len(moves) == 12


def test_auto_finish_is_none_once_won() -> None:
    assert make("double-rail", [], fill=True).auto_finish() is None


def test_valid_documents_for_the_hand_made_endgames() -> None:
    for pos in (
        make("russian", RUSSIAN_STUCK, fill=True),
        make("double-rail", ["KS"], stock="QH KH QS", fill=True),
    ):
        again = Position.from_json(pos.to_json())
        assert again == pos
        assert again.to_json() == pos.to_json()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_position_cannot_be_changed(game: str) -> None:
    """Positions are shared (undo keeps them, the solver replays on them): every attribute
    is read-only, and no other can be added."""
    pos = Position.deal_of(game, 5)
    before = pos.to_json()
    for name in ("rules", "deal", "tableau", "down", "foundations", "cells", "stock", "waste"):
        with pytest.raises(AttributeError):
            setattr(pos, name, getattr(pos, name))
        with pytest.raises(AttributeError):
            delattr(pos, name)
    with pytest.raises(AttributeError):
        pos.extra = 1  # type: ignore[attr-defined]
    assert pos.to_json() == before
    assert pos == Position.deal_of(game, 5)
