"""PileRef: the one parser and the one formatter of pile names, and the shared constants."""

from __future__ import annotations

import pytest

from solitaire import (
    CELL,
    FOUNDATION,
    GAMES,
    STOCK,
    TABLEAU,
    WASTE,
    Move,
    PileRef,
    Position,
)
from solitaire.piles import MAX_PILES

CANONICAL = [
    *(f"tableau-{i}" for i in range(MAX_PILES)),
    *(f"foundation-{i}" for i in range(MAX_PILES)),
    *(f"cell-{i}" for i in range(MAX_PILES)),
    "stock",
    "waste",
]


@pytest.mark.parametrize("name", CANONICAL)
def test_every_canonical_name_parses_to_its_constant(name: str) -> None:
    ref = PileRef.parse(name)
    kind, _, index = name.partition("-")
    constant = {"tableau": TABLEAU, "foundation": FOUNDATION, "cell": CELL}.get(kind)
    expected = constant[int(index)] if constant is not None else {"stock": STOCK}.get(kind, WASTE)
    assert ref is expected  # the same object: no allocation per parse
    assert ref == PileRef(kind, int(index) if index else 0)  # type: ignore[arg-type]
    assert str(ref) == name  # round trip


def test_the_constants_name_their_piles() -> None:
    assert TABLEAU[4] == PileRef("tableau", 4)
    assert (FOUNDATION[0].kind, FOUNDATION[0].index) == ("foundation", 0)
    assert (STOCK.kind, STOCK.index, WASTE.kind, WASTE.index) == ("stock", 0, "waste", 0)
    assert str(CELL[5]) == "cell-5"


def test_indexes_past_the_constants_parse_too() -> None:
    ref = PileRef.parse("tableau-64")
    assert ref == PileRef("tableau", 64)
    assert str(ref) == "tableau-64"
    assert str(PileRef.parse("foundation-123456")) == "foundation-123456"


@pytest.mark.parametrize(
    "bad",
    [
        "tableau-01",
        "tableau--1",
        "tableau-",
        "tableau",
        "foo",
        "",
        "Tableau-0",
        "tableau-٣",
        "tableau-²",
        " tableau-0",
        "tableau-0 ",
        "stock-0",
        "waste-1",
        "cell-1234567",
        5,
        None,
        ("tableau", 0),
        TABLEAU[0],
    ],
)
def test_anything_else_is_refused_with_a_sentence(bad: object) -> None:
    with pytest.raises(ValueError, match="is not a pile") as error:
        PileRef.parse(bad)
    assert str(error.value).endswith(".")


def test_a_long_refusal_is_cut_short() -> None:
    with pytest.raises(ValueError) as error:
        PileRef.parse("x" * 10_000)
    assert len(str(error.value)) < 200


def test_position_pile_takes_a_ref() -> None:
    pos = Position.deal_of("double-rail", 3)
    assert pos.pile(TABLEAU[0]) == pos.tableau[0]
    assert pos.pile(FOUNDATION[7]) == ()
    assert pos.pile(STOCK) == pos.stock
    assert pos.pile(WASTE) == ()
    for missing in (TABLEAU[5], FOUNDATION[8], CELL[0], PileRef("tableau", -1), TABLEAU[63]):
        with pytest.raises(KeyError):
            pos.pile(missing)
    with pytest.raises(TypeError):
        pos.pile("tableau-0")  # type: ignore[arg-type]
    russian = Position.deal_of("russian", 3)
    assert russian.pile_refs() == [*TABLEAU[:7], *FOUNDATION[:4]]
    freecell = Position.deal_of("double-freecell", 3)
    assert freecell.pile(CELL[5]) == ()
    assert freecell.pile_refs() == [*TABLEAU[:10], *FOUNDATION[:4], *CELL[:6]]
    assert Position.deal_of("double-rail", 1).pile_refs()[-2:] == [STOCK, WASTE]
    assert {len(Position.deal_of(g, 1).pile_refs()) for g in GAMES} == {11, 18, 20, 15}


def test_moves_hold_refs_and_read_and_write_text() -> None:
    move = Move(TABLEAU[3], TABLEAU[5], 3)
    assert str(move) == "3:tableau-3>tableau-5"
    assert Move.parse("3:tableau-3>tableau-5") == move
    assert Move.parse("3:tableau-3>tableau-5").source is TABLEAU[3]
    assert repr(move) == "Move.parse('3:tableau-3>tableau-5')"
    assert repr(Move(STOCK, WASTE)) == "Move.parse('stock>waste')"
    assert eval(repr(move), {"Move": Move}) == move
    assert "source='x'" in repr(Move("x", WASTE))  # type: ignore[arg-type]
    for bad in ("tableau-01>tableau-1", "2:tableau-1>nowhere", "stock>waste-0"):
        with pytest.raises(ValueError, match=r"is not a move: .* is not a pile"):
            Move.parse(bad)


def test_a_made_up_ref_gets_a_sentence() -> None:
    pos = Position.deal_of("double-freecell", 3)
    huge = PileRef("cell", 10**5000)  # too long to print
    assert pos.why_illegal(Move(huge, WASTE)) == (
        "There is no pile called “cell-…” in Double FreeCell."
    )
    assert pos.why_illegal(Move(TABLEAU[0], PileRef("cell", 10**50))).endswith(
        "...” in Double FreeCell."
    )
    assert pos.why_illegal(Move("tableau-0", TABLEAU[1])) == "That is not a move."  # type: ignore[arg-type]
