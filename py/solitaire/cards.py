"""Cards as small ints, so positions are tuples of ints: cheap to copy, hash and compare.

A card is ``deck * 52 + suit * 13 + (rank - 1)``. Two-deck games keep the two copies of a card
as different ints, so the page can give each physical card its own element, while every rule
looks only at rank and suit.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "Ace",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
)


def rank(card: int) -> int:
    """Rank 1 (Ace) to 13 (King)."""
    return card % 13 + 1


def suit(card: int) -> int:
    """Suit index in the order of ``SUITS``: spades, hearts, diamonds, clubs."""
    return (card % 52) // 13


def follows_up(card: int, top: int) -> bool:
    """Is ``card`` the next rank above ``top`` on a foundation (an Ace follows a King, for
    the two-deck games' foundations that go round)? The suit is checked apart."""
    return rank(card) == rank(top) + 1 or (rank(top) == 13 and rank(card) == 1)


def face(card: int) -> int:
    """The card with its deck forgotten: equal for the two copies of a two-deck game."""
    return card % 52


def is_red(card: int) -> bool:
    return (card % 52) // 13 in (1, 2)


def card_name(card: int) -> str:
    """Two-character notation: rank ``A23456789TJQK`` then suit ``SHDC`` ("TD")."""
    return RANKS[card % 13] + SUITS[(card % 52) // 13]


def card_symbol(card: int) -> str:
    """Short form for messages: "10♦", "Q♠"."""
    r = card % 13
    return ("10" if r == 9 else RANKS[r]) + SUIT_SYMBOLS[(card % 52) // 13]


def long_name(card: int) -> str:
    """What a screen reader says: "Queen of spades"."""
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[(card % 52) // 13]}"


def parse_card(text: str, deck: int = 0) -> int:
    """Read the two-character notation; raises ValueError with the offending text."""
    if not isinstance(text, str) or len(text) != 2:
        try:
            shown = repr(text) if len(repr(text)) <= 20 else repr(text)[:17] + "..."
        except ValueError:  # an int too long to print
            shown = "a number"
        raise ValueError(f"{shown} is not a card (expected two characters such as 'QS').")
    r = RANKS.find(text[0].upper())
    s = SUITS.find(text[1].upper())
    if r < 0 or s < 0:
        raise ValueError(f"{text!r} is not a card (rank A23456789TJQK, then suit SHDC).")
    return deck * 52 + s * 13 + r
