"""Would foundation moves alone (and stock deals) win a position? ``Position.auto_finish``
asks this before it tries, on plain lists rather than positions."""

from __future__ import annotations

from .cards import rank, suit
from .moves import PositionView
from .tables import rule_tables


def finishes(position: PositionView) -> bool:
    """Would foundation moves alone (and stock deals when none is left) win? The same
    answer as ``auto_finish``'s trial on positions, on plain lists: the page asks after
    every move, and in Double Rail the trial deals the whole stock (a ``Position`` per
    card, ~1.6 ms) only to fail. Which foundation move is played first does not change
    the answer: a foundation move never disables another one (a card of rank r only fits
    a pile of height r-1 of its suit, and the piles of a suit are interchangeable), so
    the cards that end up on the foundations are the same in any order."""
    rules = position.rules
    size = rules.foundation_size
    per_suit = rule_tables(rules).per_suit
    heights: list[list[int]] = [[] for _ in range(4)]
    for pile in position.foundations:
        if pile:
            heights[suit(pile[0])].append(len(pile))
    for hs in heights:
        hs += [0] * (per_suit - len(hs))
    piles = [list(p) for p in position.tableau if p]
    piles += [[c] for c in position.cells if c is not None]
    waste = list(position.waste)
    stock = list(position.stock)
    up = sum(len(p) for p in position.foundations)

    def take(card: int) -> bool:
        want = (rank(card) - 1) % 13
        hs = heights[suit(card)]
        for k, h in enumerate(hs):
            if h < size and h % 13 == want:
                hs[k] = h + 1
                return True
        return False

    while True:
        moved = False
        for p in piles:
            while p and take(p[-1]):
                p.pop()
                up += 1
                moved = True
        while waste and take(waste[-1]):
            waste.pop()
            up += 1
            moved = True
        if not moved:
            if not stock:
                return up == rules.cards
            waste.append(stock.pop())
