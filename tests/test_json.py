"""The position document: round trips, and what is refused with which message."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from engine_support import is_sentence, make

from solitaire import GAMES, Position, PositionError


@pytest.mark.parametrize("game", sorted(GAMES))
def test_deals_round_trip_exactly(game: str) -> None:
    for number in (1, 2, 99, 617, 2**31 - 1):
        pos = Position.deal_of(game, number)
        doc = pos.to_json()
        again = Position.from_json(json.loads(json.dumps(doc)))
        assert again == pos
        assert again.deal == number
        assert again.tableau == pos.tableau  # the very same card ints, copies included
        assert again.to_json() == doc


def test_document_shape() -> None:
    doc = Position.deal_of("double-rail", 3).to_json()
    assert set(doc) == {"format", "game", "deal", "tableau", "foundations", "stock", "waste"} | (
        {"copies"} if "copies" in doc else set()
    )
    assert doc["format"] == 1
    assert doc["game"] == "double-rail"
    assert doc["deal"] == 3
    assert doc["tableau"][0] == {"down": [], "up": [doc["tableau"][0]["up"][0]]}
    assert len(doc["stock"]) == 99
    assert doc["waste"] == []
    fc = Position.deal_of("double-freecell", 3).to_json()
    assert fc["cells"] == [None] * 6
    assert "stock" not in fc
    russian = Position.deal_of("russian", 3).to_json()
    assert "cells" not in russian
    assert "copies" not in russian
    assert [len(p["down"]) for p in russian["tableau"]] == [0, 1, 2, 3, 4, 5, 6]


def test_copies_in_reading_order_need_no_copies_key() -> None:
    pos = make("double-rail", ["KS", "KS"], fill=True)  # copies numbered in reading order
    doc = pos.to_json()
    assert "copies" not in doc
    assert Position.from_json(doc) == pos
    swapped = Position(
        pos.rules,
        (pos.tableau[1], pos.tableau[0], *pos.tableau[2:]),
        pos.down,
        pos.foundations,
        pos.cells,
        pos.stock,
        pos.waste,
    )
    doc = swapped.to_json()
    assert doc["copies"].startswith("10")
    assert Position.from_json(doc) == swapped
    doc.pop("copies")
    assert Position.from_json(doc) == pos  # without it: reading order


def good() -> dict[str, Any]:
    return Position.deal_of("double-freecell", 11).to_json()


def russian() -> dict[str, Any]:
    return Position.deal_of("russian", 11).to_json()


def _edit(base: Any, change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(base())
    change(doc)
    return doc


def _set(key: str, value: Any) -> Any:
    return lambda d: d.__setitem__(key, value)


def _up(pile: int, value: Any) -> Any:
    return lambda d: d["tableau"][pile].__setitem__("up", value)


def _no_copies(change: Any) -> Any:
    def run(d: dict[str, Any]) -> None:
        d.pop("copies", None)
        change(d)

    return run


BAD = {
    "format 2": (good, _set("format", 2), "Unknown position format 2"),
    "format text": (good, _set("format", "1"), "Unknown position format '1'"),
    "format true": (good, _set("format", True), "Unknown position format True"),
    "no format": (good, lambda d: d.pop("format"), "needs a format number"),
    "unknown game": (good, _set("game", "freecell"), "Unknown game 'freecell'"),
    "game list": (good, _set("game", ["russian"]), "Unknown game"),
    "game object": (good, _set("game", {}), "Unknown game"),
    "deal zero": (good, _set("deal", 0), "Bad deal number 0"),
    "deal text": (good, _set("deal", "11"), "Bad deal number"),
    "deal bool": (good, _set("deal", True), "Bad deal number"),
    "deal huge": (good, _set("deal", 10**5000), "Bad deal number a number with too many"),
    "card huge": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].__setitem__(0, 10**5000)),
        "a number is not a card",
    ),
    "extra key": (good, _set("score", 5), "Unexpected keys: 'score'"),
    "tableau short": (good, lambda d: d["tableau"].pop(), "has 10 tableau piles"),
    "tableau object": (good, _set("tableau", {}), "has 10 tableau piles"),
    "pile not object": (good, lambda d: d["tableau"].__setitem__(0, ["AS"]), "must be an object"),
    "pile extra key": (good, lambda d: d["tableau"][0].__setitem__("x", []), "must be an object"),
    "pile up text": (good, _up(0, "AS KS"), "Tableau pile 1 must be a list of cards"),
    "card number": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].__setitem__(0, 5)),
        "is not a card",
    ),
    "card null": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].__setitem__(0, None)),
        "is not a card",
    ),
    "card bad rank": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].__setitem__(0, "1S")),
        "'1S' is not a card",
    ),
    "card bad suit": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].__setitem__(0, "QX")),
        "'QX' is not a card",
    ),
    "card long": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].__setitem__(0, "QSS")),
        "is not a card",
    ),
    "card missing": (
        good,
        _no_copies(lambda d: d["tableau"][0]["up"].pop()),
        "1 card is missing: ",
    ),
    "cards missing": (good, _no_copies(_up(0, [])), "11 cards are missing"),
    "card three times": (
        good,
        _no_copies(lambda d: d["tableau"][1]["up"].extend([d["tableau"][0]["up"][0]] * 2)),
        "appears too many times (Double FreeCell has 2 of each card)",
    ),
    "card twice one deck": (
        russian,
        lambda d: d["tableau"][0]["up"].append(d["tableau"][1]["up"][0]),
        "appears too many times (Russian Solitaire has 1 of each card)",
    ),
    "down without up": (
        russian,
        lambda d: d["tableau"][1].__setitem__("up", []),
        "Tableau pile 2: its top card must be face up.",
    ),
    "foundations count": (good, _set("foundations", [[]] * 8), "has 4 foundations"),
    "foundations text": (good, _set("foundations", "none"), "has 4 foundations"),
    "cells count": (good, _set("cells", [None] * 4), "has 6 free cells"),
    "cells missing": (good, lambda d: d.pop("cells"), "has 6 free cells"),
    "cells in russian": (russian, _set("cells", [None]), "has no free cells"),
    "stock in russian": (russian, _set("stock", ["AS"]), "has no stock or waste"),
    "stock text": (
        lambda: Position.deal_of("double-rail", 2).to_json(),
        _no_copies(_set("stock", "AS")),
        "The stock must be a list of cards.",
    ),
    "copies short": (good, _set("copies", "01"), "“copies” must be a string of 104 digits"),
    "copies digits": (good, _set("copies", "2" * 104), "“copies” must be"),
    "copies list": (good, _set("copies", [0] * 104), "“copies” must be"),
    "copies clash": (good, _set("copies", "0" * 104), "gives two"),
    "not an object": (lambda: [1], lambda d: None, "A position must be a JSON object."),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_documents(name: str) -> None:
    base, change, fragment = BAD[name]
    doc = _edit(base, change)
    with pytest.raises(PositionError) as error:
        Position.from_json(doc)
    message = str(error.value)
    assert fragment in message, message
    assert is_sentence(message), message


def _with_foundations(game: str, piles: list[list[str]], tableau: list[str]) -> dict[str, Any]:
    doc = make(game, [], fill=True).to_json()
    doc["foundations"] = piles + [[]] * (len(doc["foundations"]) - len(piles))
    doc["tableau"][0]["up"] = tableau
    doc.pop("copies", None)
    return doc


SPADES = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]
HEARTS = [c[0] + "H" for c in SPADES]
DIAMONDS = [c[0] + "D" for c in SPADES]
CLUBS = [c[0] + "C" for c in SPADES]


def test_foundations_must_be_built_from_an_ace_by_suit() -> None:
    rest = HEARTS + DIAMONDS + CLUBS
    ok = _with_foundations("russian", [SPADES[:3]], SPADES[3:] + rest)
    Position.from_json(ok)
    for piles in ([SPADES[1:3]], [["AS", "3S"]], [["AS", "2H"]], [SPADES[2::-1]]):
        used = {c for p in piles for c in p}
        tableau = [c for c in SPADES + rest if c not in used]
        with pytest.raises(PositionError, match="Foundation 1 is not built up by suit from an Ace"):
            Position.from_json(_with_foundations("russian", piles, tableau))


def test_second_lap_only_in_double_freecell() -> None:
    # A♠ … K♠ A♠ 2♠ on one pile: fine in Double FreeCell, impossible in Double Russian
    pile = [*SPADES, "AS", "2S"]
    rest = SPADES[2:] + HEARTS * 2 + DIAMONDS * 2 + CLUBS * 2
    Position.from_json(_with_foundations("double-freecell", [pile], rest))
    with pytest.raises(PositionError, match="at most 13 cards"):
        Position.from_json(_with_foundations("double-russian", [pile], rest))


def test_double_freecell_one_foundation_per_suit() -> None:
    rest = SPADES[1:] * 2 + HEARTS * 2 + DIAMONDS * 2 + CLUBS * 2
    doc = _with_foundations("double-freecell", [["AS"], ["AS"]], rest)
    with pytest.raises(PositionError, match="1 foundation per suit, not 2 of spades"):
        Position.from_json(doc)


def test_positions_with_no_deal_number() -> None:
    doc = make("russian", [], fill=True).to_json()
    assert doc["deal"] is None
    doc.pop("deal")
    assert Position.from_json(doc).is_won()
