"""rules.md, tableau: building, group moves, empty piles, turning face-down cards."""

from __future__ import annotations

import pytest
from engine_support import make
from rulecheck import T, allowed, refused

from solitaire import CELL, FOUNDATION, WASTE, Game, Move, Position, parse_card

RUSSIAN_GAMES = ["russian", "double-russian"]
ALL_GAMES = ["russian", "double-russian", "double-rail", "double-freecell"]

# ------------------------------------------------------------------------- building
# The 7 of each suit and some wrong ranks, onto the 8♠, in each build rule.
BUILD_ON_8S = {
    "russian": {"7S": True, "7C": False, "7H": False, "7D": False, "6S": False, "9S": False},
    "double-russian": {"7S": True, "7C": False, "7H": False, "7D": False, "6S": False},
    "double-rail": {"7S": True, "7C": True, "7H": True, "7D": True, "6S": False, "8S": False},
    "double-freecell": {"7S": False, "7C": False, "7H": True, "7D": True, "6H": False},
}
BUILD_WORDS = {
    "russian": "same suit",
    "double-russian": "same suit",
    "double-rail": "any suit",
    "double-freecell": "alternating colours",
}


@pytest.mark.parametrize("game", ALL_GAMES)
def test_building_from_the_tableau(game: str) -> None:
    for card, ok in BUILD_ON_8S[game].items():
        pos = make(game, ["8S", card, "2D"])
        move = Move(T(1), T(0))
        if ok:
            after = allowed(pos, move)
            assert after.tableau[0] == (parse_card("8S"), parse_card(card))
            assert after.tableau[1] == ()
        else:
            reason = refused(pos, move, BUILD_WORDS[game])
            assert "cannot go on the 8♠" in reason


@pytest.mark.parametrize("game", ALL_GAMES)
def test_building_on_a_red_card(game: str) -> None:
    expect = {
        "russian": {"9H": True, "9D": False, "9C": False},
        "double-russian": {"9H": True, "9D": False, "9S": False},
        "double-rail": {"9H": True, "9D": True, "9C": True},
        "double-freecell": {"9H": False, "9D": False, "9C": True, "9S": True},
    }[game]
    for card, ok in expect.items():
        pos = make(game, ["3C", "TH", card])
        move = Move(T(2), T(1))
        if ok:
            allowed(pos, move)
        else:
            refused(pos, move, "cannot go on the 10♥")


def test_building_from_the_waste_double_rail() -> None:
    for card, ok in BUILD_ON_8S["double-rail"].items():
        pos = make("double-rail", ["8S", "2D", "2D"], waste=f"KC {card}")
        if ok:
            after = allowed(pos, Move(WASTE, T(0)))
            assert after.waste == (parse_card("KC"),)
        else:
            refused(pos, Move(WASTE, T(0)), "any suit")


def test_building_from_a_cell_double_freecell() -> None:
    for card, ok in BUILD_ON_8S["double-freecell"].items():
        pos = make("double-freecell", ["8S", *FILL], cells=[None, card])
        if ok:
            after = allowed(pos, Move(CELL[1], T(0)))
            assert after.cells[1] is None
        else:
            refused(pos, Move(CELL[1], T(0)), "alternating colours")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_pile_onto_itself_is_refused(game: str) -> None:
    pos = make(game, ["8S 7S", "3D"])
    refused(pos, Move(T(0), T(0)), "already there")


# ------------------------------------------------------------------------- Yukon groups


@pytest.mark.parametrize("game", RUSSIAN_GAMES)
def test_yukon_any_face_up_card_moves_with_everything_on_it(game: str) -> None:
    pos = make(game, ["#2C 9S 3H KD 4C", "TS", "4H", "5C"])
    # 9♠ with the three unordered cards on it goes on the 10♠
    after = allowed(pos, Move(T(0), T(1), 4))
    assert after.tableau[1] == tuple(parse_card(c) for c in ["TS", "9S", "3H", "KD", "4C"])
    assert after.tableau[0] == (parse_card("2C"),)
    assert after.down[0] == 0
    # a group from the middle: 3♥ with K♦ 4♣ on it, onto the 4♥
    allowed(pos, Move(T(0), T(2), 3))
    # the top card alone
    refused(pos, Move(T(0), T(2), 1), "cannot go on the 4♥")
    # the bottom card of the group must fit: K♦ (with 4♣) on the 10♠ does not
    refused(pos, Move(T(0), T(1), 2), "cannot go on the 10♠")
    # 4♣ alone on the 5♣
    allowed(pos, Move(T(0), T(3), 1))
    # face-down cards never move
    refused(pos, Move(T(0), T(1), 5), "Face-down cards cannot be moved.")
    refused(pos, Move(T(0), T(1), 6), "only 5 cards")


@pytest.mark.parametrize("game", RUSSIAN_GAMES)
def test_yukon_groups_are_listed(game: str) -> None:
    pos = make(game, ["#2C 9S 3H KD 4C", "TS", "4H", "5C"])
    moves = set(pos.legal_moves())
    assert {Move(T(0), T(1), 4), Move(T(0), T(2), 3), Move(T(0), T(3), 1)} <= moves
    # K♦ with the 4♣ may go to any of the three empty piles
    assert {Move(T(0), T(k), 2) for k in range(4, len(pos.tableau))} <= moves


# ------------------------------------------------------------------------- Double Rail runs


def test_double_rail_runs_and_tails() -> None:
    pos = make("double-rail", ["KH 9S 8H 7C 6C", "TD", "8D", "9S 5H 4C", "3S"])
    allowed(pos, Move(T(0), T(1), 4))  # the whole run 9♠ 8♥ 7♣ 6♣ on the 10♦
    allowed(pos, Move(T(0), T(2), 2))  # its tail 7♣ 6♣ on the 8♦
    allowed(pos, Move(T(4), T(3), 1))  # 3♠ on the 4♣
    refused(pos, Move(T(0), T(1), 5), "Only a run")  # K♥ is not part of the run
    refused(pos, Move(T(3), T(1), 3), "Only a run")  # 9♠ 5♥ 4♣ is not a run
    refused(pos, Move(T(3), T(1), 2), "cannot go on the 10♦")  # 5♥ 4♣ is a run, but
    refused(pos, Move(T(0), T(1), 3), "cannot go on the 10♦")  # 8♥ on 10♦


def test_double_rail_has_no_group_limit() -> None:
    run = "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS"
    pos = make("double-rail", [run, "2C", "3C", "4C", ""])
    after = allowed(pos, Move(T(0), T(4), 13))
    assert len(after.tableau[4]) == 13
    allowed(pos, Move(T(0), T(4), 7))  # any tail of it, to an empty pile


# ------------------------------------------------------------------------- FreeCell supermoves

RUN = "KS QH JS TH 9S 8H 7S 6H 5S"  # nine cards, alternating colours
FILL = ["2D", "2D", "3C", "3C", "4D", "4D", "2H", "2H", "3S"]  # unrelated cards


def fc(columns: list[str], cells: list[str | None]) -> Position:
    return make("double-freecell", columns, cells=cells)


def test_supermove_limit_with_free_cells_only() -> None:
    # 6 free cells, no empty column: (6 + 1) × 2^0 = 7
    pos = fc([RUN, "KC", "QD", "9C", "TD", *FILL[:5]], [])
    assert pos.group_limit(False) == 7
    allowed(pos, Move(T(0), T(2), 7))  # J♠ … 5♠ on the Q♦
    reason = refused(pos, Move(T(0), T(1), 8), "at most 7 cards")  # Q♥ … 5♠ on the K♣
    assert "6 free cells and 0 empty columns" in reason


def test_supermove_limit_with_some_cells_taken() -> None:
    # 3 free cells: 4 cards
    pos = fc([RUN, "KC", "QD", "9C", "TD", *FILL[:5]], ["AD", "AD", "AC"])
    assert pos.group_limit(False) == 4
    allowed(pos, Move(T(0), T(3), 4))  # 8♥ 7♠ 6♥ 5♠ on the 9♣
    refused(pos, Move(T(0), T(4), 5), "at most 4 cards")  # 9♠ … on the 10♦
    refused(pos, Move(T(0), T(2), 7), "at most 4 cards")


def test_supermove_empty_columns_double_the_limit() -> None:
    full = ["AD", "AD", "AC", "AC", "AH", "AH"]
    # no free cell, one empty column that is not the destination: 1 × 2^1 = 2
    pos = fc([RUN, "7C", "9C", "TD", "", *FILL[:5]], full)
    assert pos.group_limit(False) == 2
    assert pos.group_limit(True) == 1
    allowed(pos, Move(T(0), T(1), 2))  # 6♥ 5♠ on the 7♣
    refused(pos, Move(T(0), T(2), 4), "at most 2 cards")
    refused(pos, Move(T(0), T(3), 5), "at most 2 cards")
    # two empty columns: 1 × 2^2 = 4
    pos = fc([RUN, "7C", "9C", "TD", "", "", *FILL[:4]], full)
    assert pos.group_limit(False) == 4
    allowed(pos, Move(T(0), T(2), 4))
    refused(pos, Move(T(0), T(3), 5), "at most 4 cards")
    # 6 free cells and 2 empty columns: 7 × 4 = 28; the whole nine-card run moves
    pos = fc([RUN, "", "", *FILL[:7]], [])
    assert pos.group_limit(False) == 28
    assert pos.group_limit(True) == 14
    allowed(pos, Move(T(0), T(1), 9))


def test_supermove_destination_empty_column_does_not_count() -> None:
    full = ["AD", "AD", "AC", "AC", "AH", "AH"]
    # one empty column, the destination: 1 × 2^0 = 1 card
    pos = fc(["9S 8H", "", *FILL[:8]], full)
    assert pos.group_limit(True) == 1
    allowed(pos, Move(T(0), T(1), 1))
    reason = refused(pos, Move(T(0), T(1), 2), "at most 1 cards")
    assert "0 free cells and 0 empty columns" in reason
    # two empty columns, one the destination: 1 × 2^1 = 2
    pos = fc(["7S 6H 5S", "", "", *FILL[:7]], full)
    allowed(pos, Move(T(0), T(1), 2))
    refused(pos, Move(T(0), T(1), 3), "at most 2 cards")
    # one free cell, one empty column (the destination): 2 × 2^0 = 2
    pos = fc(["7S 6H 5S", "", *FILL[:8]], full[:5])
    allowed(pos, Move(T(0), T(1), 2))
    refused(pos, Move(T(0), T(1), 3), "at most 2 cards")
    # to a non-empty column the same position allows 2 × 2^1 = 4
    pos = fc(["7S 6H 5S", "", "8D", *FILL[:7]], full[:5])
    allowed(pos, Move(T(0), T(2), 3))


def test_freecell_groups_must_be_runs() -> None:
    pos = fc(["9S 8H 7H", "8D", "TD", *FILL[:7]], [])
    refused(pos, Move(T(0), T(2), 3), "Only a run")  # 7♥ on 8♥ breaks the colours
    refused(pos, Move(T(0), T(2), 2), "Only a run")
    pos = fc(["9S 8H 7S", "TD", "9C", *FILL[:7]], [])
    allowed(pos, Move(T(0), T(1), 3))
    allowed(pos, Move(T(0), T(2), 2))


def test_supermove_lists_exactly_the_allowed_counts() -> None:
    full = ["AD", "AD", "AC", "AC", "AH", "AH"]
    pos = fc([RUN, "", "", *FILL[:7]], full)  # no free cell, 2 empty: 4 (2 to an empty one)
    to_empty = {m.count for m in pos.legal_moves() if m.source == T(0) and m.target == T(1)}
    assert to_empty == {1, 2}


# ------------------------------------------------------------------------- empty piles


@pytest.mark.parametrize("game", RUSSIAN_GAMES)
def test_russian_empty_pile_takes_only_a_king(game: str) -> None:
    pos = make(game, ["#4D KS 3H 7C", "", "QH", "#5D JC"])
    after = allowed(pos, Move(T(0), T(1), 3))  # K♠ with whatever is on it
    assert after.down[0] == 0
    assert len(after.tableau[0]) == 1
    allowed(pos, Move(T(0), T(4), 3))  # to any empty pile
    refused(pos, Move(T(2), T(1)), "Only a King can go to an empty pile.")  # Q♥
    refused(pos, Move(T(0), T(1), 2), "Only a King")  # 3♥ 7♣
    refused(pos, Move(T(0), T(1), 1), "Only a King")
    refused(pos, Move(T(3), T(1)), "Only a King")


def test_double_rail_empty_pile_takes_anything() -> None:
    pos = make("double-rail", ["5H", "", "9S 8H 7C", "QD", "JC"], waste="2S 4C")
    allowed(pos, Move(T(0), T(1)))
    allowed(pos, Move(T(2), T(1), 3))
    allowed(pos, Move(T(2), T(1), 2))
    allowed(pos, Move(WASTE, T(1)))
    refused(pos, Move(WASTE, T(1), 2), "Only the top card of the waste moves.")


def test_double_freecell_empty_column_takes_anything_within_the_limit() -> None:
    pos = fc(["5H", "", "9S 8H 7C", *FILL[:7]], [None, "QD"])
    allowed(pos, Move(T(0), T(1)))
    allowed(pos, Move(CELL[1], T(1)))
    allowed(pos, Move(T(2), T(1), 2))  # 6 free cells (5 + …): well within the limit
    assert pos.group_limit(True) == 6


# ------------------------------------------------------------------------- turning


@pytest.mark.parametrize("game", RUSSIAN_GAMES)
def test_uncovered_card_turns_as_part_of_the_move(game: str) -> None:
    pos = make(game, ["#2C #5H 9S", "TS", "#AD 7D"])
    assert pos.down == (2, 0, 1) + (0,) * (len(pos.tableau) - 3)
    after = allowed(pos, Move(T(0), T(1)))
    assert after.down[0] == 1
    assert after.tableau[0] == (parse_card("2C"), parse_card("5H"))
    # one step in a game, and one undo turns it back down
    game_ = Game(pos, automove=False)
    step = game_.play(Move(T(0), T(1)))
    assert step == [Move(T(0), T(1))]
    assert game_.move_count == 1
    assert game_.position.down[0] == 1
    game_.undo()
    assert game_.position.down[0] == 2
    assert game_.position == pos


@pytest.mark.parametrize("game", RUSSIAN_GAMES)
def test_turning_after_a_move_to_a_foundation(game: str) -> None:
    pos = make(game, ["#2C AS", "#3D #4D KH 8H", "9H"])
    after = allowed(pos, Move(T(0), FOUNDATION[0]))
    assert after.down[0] == 0
    assert after.tableau[0] == (parse_card("2C"),)
    # a group that leaves only face-down cards turns the new top
    after = allowed(pos, Move(T(1), T(5), 2))
    assert after.down[1] == 1
    assert len(after.tableau[1]) == 2
    # no turn while a face-up card is still on top
    after = allowed(pos, Move(T(1), T(2), 1))
    assert after.down[1] == 2


def test_no_face_down_cards_in_the_other_games() -> None:
    for game in ("double-rail", "double-freecell"):
        pos = Game.new(game, 3).position
        assert set(pos.down) == {0}
