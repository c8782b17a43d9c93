"""Deals: their shapes, the documented PRNG and shuffle, and pinned deals so that any change
to dealing is caught (rules.md, "Deal numbers")."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from solitaire import GAMES, MAX_DEAL, Game, Position
from solitaire.cards import card_name
from solitaire.deals import shuffled

# every game, pile by pile: (face-down, face-up) cards, and the stock size
SHAPES = {
    "russian": ([(0, 1)] + [(k, 5) for k in range(1, 7)], 0),
    "double-russian": ([(0, 5)] + [(k, 6) for k in range(1, 10)], 0),
    "double-rail": ([(0, 1)] * 5, 99),
    "double-freecell": ([(0, 11)] * 4 + [(0, 10)] * 6, 0),
}
FOUNDATIONS = {"russian": 4, "double-russian": 8, "double-rail": 8, "double-freecell": 4}
CELLS = {"russian": 0, "double-russian": 0, "double-rail": 0, "double-freecell": 6}
DEALS = [
    *range(1, 151),
    617,
    1000,
    32000,
    32767,
    32768,
    65536,
    10**6,
    2**30,
    MAX_DEAL - 1,
    MAX_DEAL,
]


def test_rules_md_totals() -> None:
    # the counts rules.md states in words
    russian, double_russian = SHAPES["russian"][0], SHAPES["double-russian"][0]
    assert sum(d for d, _ in russian) == 21
    assert sum(u for _, u in russian) == 31
    assert sum(d for d, _ in double_russian) == 45
    assert sum(u for _, u in double_russian) == 59
    assert set(GAMES) == set(SHAPES)


@pytest.mark.parametrize("game", sorted(SHAPES))
def test_deal_shapes(game: str) -> None:
    piles, stock_size = SHAPES[game]
    rules = GAMES[game]
    for number in DEALS:
        pos = Position.deal_of(game, number)
        assert pos.deal == number
        assert [len(p) for p in pos.tableau] == [d + u for d, u in piles]
        assert list(pos.down) == [d for d, _ in piles]
        assert len(pos.stock) == stock_size
        assert pos.waste == ()
        assert pos.foundations == ((),) * FOUNDATIONS[game]
        assert pos.cells == (None,) * CELLS[game]
        cards = pos.all_cards()
        assert sorted(cards) == list(range(52 * rules.decks)), "each physical card exactly once"
        faces = Counter(c % 52 for c in cards)
        assert set(faces.values()) == {rules.decks}
        assert not pos.is_won()


def test_double_rail_stock_is_99() -> None:
    assert len(Position.deal_of("double-rail", 5).stock) == 99
    assert len(Position.deal_of("double-rail", 5).tableau) == 5


@pytest.mark.parametrize("game", sorted(SHAPES))
def test_deals_differ_and_repeat(game: str) -> None:
    a, b = Position.deal_of(game, 7), Position.deal_of(game, 8)
    assert a != b
    assert a == Position.deal_of(game, 7) == Position.deal_of(GAMES[game], 7)
    assert Game.new(game, 7).position == a


@pytest.mark.parametrize("number", [0, -1, MAX_DEAL + 1, 2**31, 2**40])
def test_bad_deal_numbers(number: int) -> None:
    with pytest.raises(ValueError, match="deal numbers run from 1 to"):
        Position.deal_of("russian", number)


def test_unknown_game() -> None:
    with pytest.raises(KeyError, match="unknown game 'klondike'; known: russian, "):
        Position.deal_of("klondike", 1)
    with pytest.raises(KeyError, match="unknown game 'klondike'"):
        Game.new("klondike", 1)


# ------------------------------------------------------------------------- the PRNG


class MsRand:
    """The Microsoft C runtime rand(), written independently of deals.py."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def __call__(self) -> int:
        self.state = (self.state * 214013 + 2531011) % 2**31
        return self.state // 65536


def test_ms_lcg_known_values() -> None:
    rand = MsRand(1)
    assert [rand(), rand(), rand()] == [41, 18467, 6334]


def test_ms_lcg_is_the_real_one_ms_freecell_deal_1() -> None:
    # MS FreeCell's own deal algorithm over this generator gives the well-known deal #1
    rand = MsRand(1)
    deck = [r * 4 + s for r in range(13) for s in range(4)]  # AC AD AH AS 2C ... (MS order)
    dealt = []
    while deck:
        j = rand() % len(deck)
        deck[j], deck[-1] = deck[-1], deck[j]
        dealt.append(deck.pop())
    name = ["A23456789TJQK"[c // 4] + "CDHS"[c % 4] for c in dealt]
    assert name[:8] == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]


def independent_shuffle(cards: int, number: int) -> list[int]:
    rand = MsRand(number)
    order = list(range(cards))
    for i in range(cards - 1, 0, -1):
        j = rand() % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("number", [1, 2, 3, 617, 11982, 2**31 - 1])
@pytest.mark.parametrize("cards", [52, 104])
def test_shuffle_matches_documented_algorithm(cards: int, number: int) -> None:
    assert shuffled(cards, number) == independent_shuffle(cards, number)


@pytest.mark.parametrize("game", sorted(SHAPES))
def test_deal_lays_the_shuffle_out_row_by_row(game: str) -> None:
    rules = GAMES[game]
    order = independent_shuffle(rules.cards, 617)
    heights = [d + u for d, u in rules.tableau]
    piles: list[list[int]] = [[] for _ in heights]
    k = 0
    for row in range(max(heights)):
        for pile, height in zip(piles, heights, strict=True):
            if row < height:
                pile.append(order[k])
                k += 1
    pos = Position.deal_of(game, 617)
    assert [list(p) for p in pos.tableau] == piles
    assert list(pos.stock) == order[k:]


# ------------------------------------------------------------------------- pinned deals

# (game, deal, top card of each tableau pile left to right, first 5 cards the stock deals,
#  hash of the cards as ints). A "2" after a card is the second deck's copy.
PINNED = [
    ("russian", 1, "TH 5C QC TC AD 9D 3C", "", "b804707ece7a9570"),
    ("russian", 2, "4C 6D 6S 3C 5S TC 7C", "", "f1240f2b357a239e"),
    ("russian", 617, "2H JH 4S 2D 3D 4H KH", "", "c40861af2281bb75"),
    ("russian", 2147483647, "5D JC 4D JD 9H QH TD", "", "dc1efe6f0a0bc211"),
    ("double-russian", 1, "TC2 8D 2C AC2 KC TS2 JC 5D2 JS 3C", "", "fc348741e5dd3737"),
    ("double-russian", 2, "3D2 JD2 2D QD TD JH QH2 TC QH 7C", "", "aff5a95a05b78a51"),
    ("double-russian", 617, "3S2 9S TH 8D 7H2 6S2 KS2 9C2 5S KH2", "", "824f948f03331629"),
    ("double-russian", 2147483647, "JS2 KD2 3H2 2S2 4H2 2C2 3S JC 9S TD", "", "a7ff8e501146f890"),
    ("double-rail", 1, "AS 6H2 5H 4S2 2C2", "3C 5D JS KD 5H2", "11d1f6e6cc4a5661"),
    ("double-rail", 2, "6D2 4H2 8S QS2 3S", "7C 3H2 QH 7H 7D2", "66dc152dd2672edc"),
    ("double-rail", 617, "AH 6H 4D 5H2 8H", "KH2 8S2 5S 4C 4S2", "ffddc4e03bbe8fd5"),
    ("double-rail", 2147483647, "7H2 8S 4C 6H2 QD", "TD JH2 9S 6D JC2", "60500c13b8d4cc7e"),
    ("double-freecell", 1, "KD JS 5D 3C JC 8C2 KS2 KS 5D2 5H2", "", "8663c470fee414b8"),
    ("double-freecell", 2, "7H QH 3H2 7C QH2 JC 9C 9D2 TC 7D2", "", "0d433bdbe4235dc2"),
    ("double-freecell", 617, "4C 5S 8S2 KH2 KS2 2S2 9H2 KC2 9C2 4S2", "", "b12f675524b26145"),
    ("double-freecell", 2147483647, "6D 9S JH2 TD 3S 6H 8H 8S2 JC JC2", "", "156e0aacb0e3aa00"),
]


def _name(c: int) -> str:
    return card_name(c) + ("2" if c >= 52 else "")


@pytest.mark.parametrize(("game", "number", "tops", "stock", "digest"), PINNED)
def test_pinned_deals(game: str, number: int, tops: str, stock: str, digest: str) -> None:
    pos = Position.deal_of(game, number)
    assert " ".join(_name(p[-1]) for p in pos.tableau) == tops
    assert " ".join(_name(c) for c in pos.stock[::-1][:5]) == stock
    got = hashlib.sha256(repr((pos.tableau, pos.down, pos.stock)).encode()).hexdigest()[:16]
    assert got == digest


RUSSIAN_1 = [
    "TH",
    "#7S 8H 4C QS AC 5C",
    "#7D #9C 5S 2D 4H 7C QC",
    "#JH #4D #5D AH KS 8D 6C TC",
    "#JD #6D #KD #AS 9S KC 2S JC AD",
    "#3D #9H #3H #2H #3S 8S 7H 6H 5H 9D",
    "#TS #KH #QD #8C #4S #JS TD QH 2C 6S 3C",
]


def test_pinned_russian_deal_1_in_full() -> None:
    # one deal written out card by card (bottom → top, face-down cards marked #)
    pos = Position.deal_of("russian", 1)
    shown = [
        " ".join(("#" if k < pos.down[i] else "") + card_name(c) for k, c in enumerate(pile))
        for i, pile in enumerate(pos.tableau)
    ]
    assert shown == RUSSIAN_1
