"""Cards as ints, and their names."""

from __future__ import annotations

import pytest

from solitaire import card_name, card_symbol, is_red, long_name, parse_card, rank, suit
from solitaire.cards import face


def test_card_ints() -> None:
    assert parse_card("AS") == 0
    assert parse_card("KS") == 12
    assert parse_card("AH") == 13
    assert parse_card("AD") == 26
    assert parse_card("KC") == 51
    assert parse_card("QS", deck=1) == 52 + 11
    for c in range(104):
        assert card_name(c) == card_name(c % 52)
        assert parse_card(card_name(c), deck=c // 52) == c
        assert rank(c) == c % 13 + 1
        assert suit(c) == (c % 52) // 13
        assert face(c) == c % 52
    assert [is_red(parse_card(x)) for x in ("QS", "QH", "QD", "QC")] == [False, True, True, False]


def test_names() -> None:
    assert card_name(parse_card("TD")) == "TD"
    assert card_symbol(parse_card("TD")) == "10♦"
    assert card_symbol(parse_card("QS")) == "Q♠"
    assert long_name(parse_card("QS")) == "Queen of spades"
    assert long_name(parse_card("AH", 1)) == "Ace of hearts"
    assert parse_card("qs") == parse_card("QS")


@pytest.mark.parametrize("bad", ["", "Q", "QSS", "1S", "QX", "10D", None, 5, ["Q", "S"]])
def test_parse_card_refuses_with_a_sentence(bad: object) -> None:
    with pytest.raises(ValueError, match=r"is not a card \(.*\)\.$"):
        parse_card(bad)  # type: ignore[arg-type]
