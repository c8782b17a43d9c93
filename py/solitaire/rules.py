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
SolverFamily = Literal["yukon", "rail", "freecell"]


@dataclass(frozen=True)
class GameRules:
    """A game's layout and rules.

    ``tableau`` gives, per pile, how many cards are dealt face down and then face up.
    Cards not dealt to the tableau form the stock (when ``stock`` is true), dealt one at a
    time onto the waste with no redeal.

    Everything else about a game hangs off this record too: its names (``name``, and
    ``short_name`` where space is tight), how the page sizes its cards (``card_plan``: the
    pile sizes, face down and face up, that the card size is planned for), which solver family
    searches it (``solver``: a module of ``solitaire.solver``) and what that solver sees that
    the player does not (``solver_sees``, said with hints).
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
    short_name: str = ""
    card_plan: tuple[int, int] = (6, 12)
    solver: SolverFamily = "yukon"
    solver_sees: str = "The solver sees the face-down cards."

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
    short_name="Russian",
    card_plan=(6, 12),
    solver="yukon",
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
    short_name="Double Russian",
    card_plan=(9, 14),
    solver="yukon",
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
    short_name="Double Rail",
    card_plan=(0, 14),
    solver="rail",
    solver_sees="The solver sees the order of the stock.",
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
    short_name="Double FreeCell",
    card_plan=(0, 16),
    solver="freecell",
    solver_sees="Every card is face up here; the solver sees what you see.",
)

GAMES: dict[str, GameRules] = {
    g.id: g for g in (RUSSIAN, DOUBLE_RUSSIAN, DOUBLE_RAIL, DOUBLE_FREECELL)
}
