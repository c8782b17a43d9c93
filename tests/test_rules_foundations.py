"""rules.md: foundations, free cells, stock and waste."""

from __future__ import annotations

import pytest
from engine_support import make
from rulecheck import C, F, T, allowed, refused

from solitaire import GAMES, STOCK, WASTE, Move, Position, parse_card

ALL_GAMES = ["russian", "double-russian", "double-rail", "double-freecell"]
SPADES = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
FILL = ["2D", "2D", "3C", "3C", "4D", "4D", "2H", "2H", "3S"]


# ------------------------------------------------------------------------- starting


@pytest.mark.parametrize("game", ALL_GAMES)
def test_any_ace_starts_any_empty_foundation(game: str) -> None:
    for ace in ("AS", "AH", "AD", "AC"):
        pos = make(game, [ace, "5D"])
        for f in range(GAMES[game].foundations):
            after = allowed(pos, Move(T(0), F(f)))
            assert after.foundations[f] == (parse_card(ace),)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_only_an_ace_starts_a_foundation(game: str) -> None:
    for card in ("2S", "KH", "TD"):
        pos = make(game, [card])
        refused(pos, Move(T(0), F(0)), "Only an Ace can start a foundation.")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_foundations_build_up_by_suit(game: str) -> None:
    pos = make(game, ["2S", "2H", "3S", "2C"], foundations=["AS"])
    allowed(pos, Move(T(0), F(0)))
    refused(pos, Move(T(1), F(0)), "foundations build up by suit")  # 2♥ on A♠
    refused(pos, Move(T(3), F(0)), "The 2♣ cannot go on the A♠")
    refused(pos, Move(T(2), F(0)), "The 3♠ cannot go on the A♠")  # skips a rank
    after = pos.play(Move(T(0), F(0))).play(Move(T(2), F(0)))
    assert after.foundations[0] == tuple(parse_card(c) for c in ("AS", "2S", "3S"))


@pytest.mark.parametrize("game", ALL_GAMES)
def test_one_card_at_a_time(game: str) -> None:
    # a two-card group whose bottom card would fit the foundation
    pile = {"russian": "2S 5H", "double-russian": "2S 5H", "double-rail": "3H 2S"}.get(
        game, "3H 2S"
    )
    pos = make(game, [pile], foundations=["AS"])
    refused(pos, Move(T(0), F(0), 2), "one at a time")


@pytest.mark.parametrize("game", ALL_GAMES)
def test_nothing_comes_back_off_a_foundation(game: str) -> None:
    pos = make(game, ["", "3H", "2D"], foundations=["AS 2S", "AH 2H"])
    for target in (T(0), T(1), T(2), F(1), F(3)):
        refused(pos, Move(F(0), target), "Cards never come back off a foundation.")
    if GAMES[game].cells:
        refused(pos, Move(F(0), C(0)), "never come back")
    if GAMES[game].stock:
        refused(pos, Move(F(0), WASTE), "never come back")
    assert not any(m.source.kind == "foundation" for m in pos.legal_moves())


def test_a_full_foundation_takes_nothing_one_lap_games() -> None:
    for game in ("double-russian", "double-rail"):
        pos = make(game, ["AS", "KS"], foundations=[SPADES])
        refused(pos, Move(T(0), F(0)), "That foundation is complete.")
        allowed(pos, Move(T(0), F(1)))
    # one deck: 13 cards per pile at most
    assert {GAMES[g].foundation_size for g in ("russian", "double-russian", "double-rail")} == {13}


def test_double_freecell_second_lap() -> None:
    pos = make("double-freecell", ["AS", "2S", "AH", *FILL[:7]], foundations=[SPADES])
    assert GAMES["double-freecell"].foundation_size == 26
    refused(pos, Move(T(1), F(0)), "The 2♠ cannot go on the K♠")
    after = allowed(pos, Move(T(0), F(0)))  # after the King, an Ace of the same suit
    assert len(after.foundations[0]) == 14
    refused(pos, Move(T(2), F(0)), "cannot go on the K♠")  # another suit's Ace
    after = allowed(after, Move(T(1), F(0)))
    assert [c % 13 for c in after.foundations[0]] == [*range(13), 0, 1]


def test_double_freecell_full_foundation_holds_26() -> None:
    pos = make("double-freecell", ["AH", "3D"], foundations=[SPADES + " " + SPADES])
    assert len(pos.foundations[0]) == 26
    refused(pos, Move(T(0), F(0)), "That foundation is complete.")
    allowed(pos, Move(T(0), F(1)))


def test_double_freecell_one_foundation_per_suit() -> None:
    # 4 foundations, one per suit: the second A♠ may not start another pile
    pos = make("double-freecell", ["AS", "AS", "AH", *FILL[:7]])
    after = allowed(pos, Move(T(0), F(2)))
    reason = refused(after, Move(T(1), F(0)), "spades already have their foundation")
    assert "after the King" in reason
    allowed(after, Move(T(2), F(0)))
    assert Move(T(1), F(0)) not in after.legal_moves()
    # … but it is still safe to send up once the King is there
    lap = make("double-freecell", ["AS", *FILL[:8]], foundations=[SPADES])
    assert lap.safe_automoves() == [Move(T(0), F(0))]


def test_double_russian_two_foundations_per_suit() -> None:
    pos = make("double-russian", ["AS", "AS"])
    after = allowed(pos, Move(T(0), F(0)))
    after = allowed(after, Move(T(1), F(5)))
    assert after.foundations[0][0] % 52 == after.foundations[5][0] % 52 == 0


@pytest.mark.parametrize("game", ALL_GAMES)
def test_foundation_moves_are_listed_for_every_accepting_pile(game: str) -> None:
    pos = make(game, ["AD", "3C"])
    n = GAMES[game].foundations
    assert [m for m in pos.legal_moves() if m.target.kind == "foundation"] == [
        Move(T(0), F(f)) for f in range(n)
    ]


# ------------------------------------------------------------------------- free cells


def fc(piles: list[str], cells: list[str | None], foundations: list[str] | None = None) -> Position:
    return make("double-freecell", piles, cells=cells, foundations=foundations)


def test_any_top_card_goes_to_any_empty_cell() -> None:
    pos = fc(["9S 8H", "KD", *FILL[:8]], [])
    for k in range(6):
        after = allowed(pos, Move(T(0), C(k)))
        assert after.cells[k] == parse_card("8H")
        assert after.tableau[0] == (parse_card("9S"),)
    refused(pos, Move(T(0), C(0), 2), "A free cell holds one card.")
    refused(pos, Move(T(0), C(6)), "There is no pile called “cell-6” in Double FreeCell.")


def test_a_taken_cell_takes_nothing() -> None:
    pos = fc(["9S 8H", *FILL[:9]], ["QC"])
    refused(pos, Move(T(0), C(0)), "That free cell is taken.")
    allowed(pos, Move(T(0), C(1)))


def test_cell_to_foundation_and_to_tableau() -> None:
    pos = fc(["9S", "", *FILL[:8]], ["AH", "8H", "8S", "2S"], foundations=["AS"])
    allowed(pos, Move(C(0), F(1)))  # an Ace from a cell
    allowed(pos, Move(C(3), F(0)))  # 2♠ on the A♠
    refused(pos, Move(C(2), F(0)), "The 8♠ cannot go on the A♠")
    allowed(pos, Move(C(1), T(0)))  # 8♥ on 9♠
    refused(pos, Move(C(2), T(0)), "alternating colours")  # 8♠ on 9♠
    allowed(pos, Move(C(2), T(1)))  # to an empty column
    refused(pos, Move(C(2), T(1), 2), "only 1 card")


def test_no_cell_to_cell() -> None:
    pos = fc(FILL, ["QC"])
    refused(pos, Move(C(0), C(1)), "A card cannot move from one free cell to another.")
    refused(pos, Move(C(0), C(0)), "already there")
    refused(pos, Move(C(1), T(0)), "There is no card there to move.")


@pytest.mark.parametrize("game", ["russian", "double-russian", "double-rail"])
def test_games_without_cells(game: str) -> None:
    pos = make(game, ["9S 8H"])
    refused(pos, Move(T(0), C(0)), f"There is no pile called “cell-0” in {GAMES[game].name}.")
    assert not any(m.target.kind == "cell" for m in pos.legal_moves())


# ------------------------------------------------------------------------- stock and waste


def rail(
    piles: list[str], stock: str = "", waste: str = "", foundations: list[str] | None = None
) -> Position:
    return make("double-rail", piles, stock=stock, waste=waste, foundations=foundations)


def test_the_stock_deals_one_card_onto_the_waste() -> None:
    pos = rail(["9S"], stock="3C 7D KH")
    after = allowed(pos, Move(STOCK, WASTE))
    assert after.stock == tuple(parse_card(c) for c in ("3C", "7D"))
    assert after.waste == (parse_card("KH"),)
    after = allowed(after, Move(STOCK, WASTE))
    assert after.waste == tuple(parse_card(c) for c in ("KH", "7D"))
    refused(pos, Move(STOCK, WASTE, 2), "The stock deals one card at a time.")
    refused(pos, Move(STOCK, T(0)), "Cards from the stock go to the waste")
    refused(pos, Move(STOCK, F(0)), "Cards from the stock go to the waste")


def test_no_redeal() -> None:
    pos = rail(["9S"], stock="3C", waste="4H 5H")
    pos = allowed(pos, Move(STOCK, WASTE))
    assert pos.stock == ()
    assert len(pos.waste) == 3
    refused(pos, Move(STOCK, WASTE), "The stock is empty, and there is no redeal.")
    refused(pos, Move(WASTE, STOCK), "Nothing can be put on the stock.")
    assert Move(STOCK, WASTE) not in pos.legal_moves()


def test_only_the_waste_top_is_playable() -> None:
    pos = rail(["9S", "5C", "", "JD", "QD"], waste="8H 2S 4D", foundations=["AS"])
    allowed(pos, Move(WASTE, T(1)))  # 4♦ on 5♣: any suit
    allowed(pos, Move(WASTE, T(2)))  # to an empty pile
    refused(pos, Move(WASTE, T(1), 2), "Only the top card of the waste moves.")
    refused(pos, Move(WASTE, F(0)), "The 4♦ cannot go on the A♠")  # the 2♠ is under it
    refused(pos, Move(WASTE, T(0), 3), "Only the top card of the waste moves.")
    pos = rail(["9S"], waste="8H 2S", foundations=["AS"])
    allowed(pos, Move(WASTE, F(0)))
    refused(pos, Move(T(0), WASTE), "Only the stock deals onto the waste.")
    refused(rail(["9S"]), Move(WASTE, T(0)), "There is no card there to move.")


@pytest.mark.parametrize("game", ["russian", "double-russian", "double-freecell"])
def test_games_without_stock(game: str) -> None:
    pos = make(game, ["9S 8H"])
    name = GAMES[game].name
    refused(pos, Move(STOCK, WASTE), f"There is no pile called “stock” in {name}.")
    refused(pos, Move(T(0), WASTE), f"There is no pile called “waste” in {name}.")
    assert STOCK not in pos.pile_refs()
    assert WASTE not in pos.pile_refs()
