"""The four games as data: one generic engine reads these descriptions.

Adding a game means adding a ``GameRules`` value here (and its tests), not new engine code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Build = Literal["same-suit", "alternate-colour", "any-suit"]
Group = Literal["any-face-up", "sequence"]
GroupLimit = Literal["none", "free-spaces"]
EmptyPile = Literal["king", "any"]


@dataclass(frozen=True)
class GameRules:
    """A game's layout and rules.

    ``tableau`` gives, per pile, how many cards are dealt face down and then face up.
    Cards not dealt to the tableau form the stock (when ``stock`` is true), dealt one at a
    time onto the waste with no redeal.
    """

    id: str
    name: str
    decks: int
    tableau: tuple[tuple[int, int], ...]
    foundations: int
    build: Build
    group: Group
    empty: EmptyPile
    group_limit: GroupLimit = "none"
    foundation_laps: int = 1
    cells: int = 0
    stock: bool = False
    summary: str = ""

    @property
    def cards(self) -> int:
        return 52 * self.decks

    @property
    def foundation_size(self) -> int:
        return 13 * self.foundation_laps

    def __post_init__(self) -> None:
        dealt = sum(down + up for down, up in self.tableau)
        if dealt > self.cards or (dealt < self.cards and not self.stock):
            raise ValueError(f"{self.id}: the tableau takes {dealt} of {self.cards} cards")
        if self.foundations * self.foundation_size != self.cards or self.foundations % 4:
            raise ValueError(f"{self.id}: foundations do not hold every card, suit by suit")
        if max(len(self.tableau), self.foundations, self.cells) > 64:
            raise ValueError(f"{self.id}: at most 64 piles of a kind")


RUSSIAN = GameRules(
    id="russian",
    name="Russian Solitaire",
    decks=1,
    tableau=((0, 1), *((k, 5) for k in range(1, 7))),
    foundations=4,
    build="same-suit",
    group="any-face-up",
    empty="king",
    summary="Yukon's cousin: build down by suit; any face-up card moves with all on top of it.",
)

DOUBLE_RUSSIAN = GameRules(
    id="double-russian",
    name="Double Russian Solitaire",
    decks=2,
    tableau=((0, 5), *((k, 6) for k in range(1, 10))),
    foundations=8,
    build="same-suit",
    group="any-face-up",
    empty="king",
    summary="Russian Solitaire with two decks, ten piles and eight foundations.",
)

DOUBLE_RAIL = GameRules(
    id="double-rail",
    name="Double Rail",
    decks=2,
    tableau=((0, 1),) * 5,
    foundations=8,
    build="any-suit",
    group="sequence",
    empty="any",
    stock=True,
    summary="Five piles and a stock dealt one card at a time, no redeal; build down in any suit.",
)

DOUBLE_FREECELL = GameRules(
    id="double-freecell",
    name="Double FreeCell",
    decks=2,
    tableau=((0, 11),) * 4 + ((0, 10),) * 6,
    foundations=4,
    foundation_laps=2,
    cells=6,
    build="alternate-colour",
    group="sequence",
    group_limit="free-spaces",
    empty="any",
    summary="Two decks, ten columns, six free cells; each foundation is built Ace to King twice.",
)

GAMES: dict[str, GameRules] = {
    g.id: g for g in (RUSSIAN, DOUBLE_RUSSIAN, DOUBLE_RAIL, DOUBLE_FREECELL)
}
