"""Numbered deals that are the same everywhere, forever.

Python's ``random`` promises no stream across versions, so the shuffle is written here:

1. The unshuffled deck is the list of card ints ``0 … 52*decks-1``: deck 0 then deck 1, each in
   suit order spades, hearts, diamonds, clubs and rank order Ace … King.
2. The generator is the Microsoft C runtime linear congruential generator used by MS FreeCell:
   ``state = (state * 214013 + 2531011) mod 2**31``, output ``state >> 16`` (0 … 32767), with
   ``state`` starting at the deal number.
3. Fisher-Yates from the end: for ``i`` from ``n-1`` down to 1, ``j = output % (i + 1)``, swap
   items ``i`` and ``j``.
4. The shuffled list is dealt from its start, row by row: row 0 puts one card on each tableau
   pile left to right, row 1 one card on each pile that takes two or more, and so on; the first
   ``down`` cards of a pile are face down. What is left becomes the stock, in list order, so its
   last card is the top.
"""

from __future__ import annotations

MAX_DEAL = 2**31 - 1


def shuffled(cards: int, deal: int) -> list[int]:
    if not 1 <= deal <= MAX_DEAL:
        raise ValueError(f"deal numbers run from 1 to {MAX_DEAL}, not {deal}")
    order = list(range(cards))
    state = deal
    for i in range(cards - 1, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        j = (state >> 16) % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def deal_piles(
    tableau: tuple[tuple[int, int], ...], cards: list[int]
) -> tuple[list[list[int]], list[int]]:
    """Lay ``cards`` out row by row; returns the tableau piles and the leftover cards."""
    heights = [down + up for down, up in tableau]
    piles: list[list[int]] = [[] for _ in heights]
    it = iter(cards)
    for row in range(max(heights)):
        for pile, height in zip(piles, heights, strict=True):
            if row < height:
                pile.append(next(it))
    return piles, list(it)
