"""The four games as data: one generic engine reads these descriptions.

Adding a game means adding a ``GameRules`` value here (and its tests), not new engine code:
the page's game list and rules pages (tools/build_site.py), the board's card size, the solver,
the tools and the benchmarks all read ``GAMES``.
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
class RulesText:
    """A game's rules as the rules page tells them (tools/build_site.py renders them into
    index.html under the game's ``name``, with the headings "The deal", "Play" and "Where other
    programs differ").

    Plain text, rendered escaped, with three inline marks: ``**bold**``, ``*italic*`` and
    ``^superscript^``.
    """

    #: What the game is: decks, goal, foundations (a paragraph).
    intro: str = ""
    #: The deal: piles, cards face down and up, stock (a paragraph).
    deal: str = ""
    #: How cards move (list items).
    play: tuple[str, ...] = ()
    #: How other programs' versions of the game differ from ours (a paragraph; may be empty).
    other_programs: str = ""


@dataclass(frozen=True)
class GameRules:
    """A game's layout and rules.

    ``tableau`` gives, per pile, how many cards are dealt face down and then face up.
    Cards not dealt to the tableau form the stock (when ``stock`` is true), dealt one at a
    time onto the waste with no redeal.

    Everything else about a game hangs off this record too: its names (``name``, and
    ``short_name`` where space is tight), how the page sizes its cards (``card_plan``: the
    pile sizes, face down and face up, that the card size is planned for), which solver family
    searches it (``solver``: a module of ``solitaire.solver``), what that solver sees that
    the player does not (``solver_sees``, said with hints) and the rules page's text
    (``rules_text``).
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
    rules_text: RulesText = RulesText()
    #: the status line's one-line rule chip on a game's first deals (docs/ui-input.md, "Lessons")
    rule_line: str = ""

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
    rule_line="Build down in suit · any face-up card moves with the cards on it",
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
    rules_text=RulesText(
        intro="One deck. The goal is to build all 52 cards onto the four foundations, up by suit"
        " from Ace to King.",
        deal="Seven tableau piles. The first pile gets one card, face up. Each other pile *k*"
        " (2 to 7) gets *k*−1 cards face down and then five face up: 21 cards face down,"
        " 31 face up. There is no stock.",
        play=(
            (
                "Foundations: any Ace starts any empty foundation; each is built up in its suit to"
                " the King. Only the top card of a pile goes to a foundation, one card at a time,"
                " and nothing comes back."
            ),
            "Tableau: a card goes on a card **one rank higher of the same suit** (7♠ on 8♠).",
            (
                "**Any face-up card** may be moved together with all the cards on top of it, in"
                " whatever order they are, provided that card fits where it goes."
            ),
            "Only a King, with whatever is on top of it, may fill an empty pile.",
            "A face-down card left on top of a pile turns face up at once, as part of the move.",
        ),
    ),
)

DOUBLE_RUSSIAN = GameRules(
    rule_line="Build down in suit · any face-up card moves with the cards on it",
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
    rules_text=RulesText(
        intro="Two decks (104 cards). Build all of them onto eight foundations, each up by suit"
        " from Ace to King.",
        deal="Ten tableau piles. The first gets five cards, all face up. Each other pile *k*"
        " (2 to 10) gets *k*−1 cards face down and then six face up: 45 face down, 59 face up."
        " There is no stock.",
        play=(
            (
                "Exactly as Russian Solitaire: build down in the same suit; any face-up card moves"
                " with everything on top of it; only a King fills an empty pile."
            ),
            "Any Ace starts any empty foundation; no foundation holds more than 13 cards.",
            "The two copies of a card play identically.",
        ),
        other_programs="PySolFC deals Double Russian with six face-up cards on the first pile"
        " and eight face-down cards on the tenth, and fixes two foundations per suit.",
    ),
)

DOUBLE_RAIL = GameRules(
    rule_line="Build down in any suit · the stock is dealt once, one card at a time",
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
    rules_text=RulesText(
        intro="Two decks. Build all 104 cards onto eight foundations, each up by suit from Ace"
        " to King.",
        deal="Five tableau piles of one face-up card each. The other 99 cards form the stock,"
        " face down; the waste starts empty.",
        play=(
            (
                "Click the stock to deal **one** card face up onto the waste, at any time. There"
                " is **no redeal**: an empty stock stays empty."
            ),
            "Only the top card of the waste plays, to a foundation or a tableau pile.",
            "Tableau: a card goes on a card **one rank higher, of any suit**.",
            (
                "A card moves with the cards on top of it only if they descend one rank at a time"
                " (any suits); any such run, whole or its top part, may move."
            ),
            "**Any** card or run may fill an empty pile.",
        ),
        other_programs="PySolFC's Double Rail turns the first stock card face up at the start"
        " and lets foundation cards be played back to the tableau.",
    ),
)

DOUBLE_FREECELL = GameRules(
    rule_line="Alternate colours · 6 free cells · each foundation goes A to K twice",
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
    rules_text=RulesText(
        intro="Two decks. Build all 104 cards onto four foundations, one per suit, each built"
        " from Ace to King **twice** (after the King, an Ace of the same suit, then 2 to King"
        " again: 26 cards).",
        deal="Ten columns, all face up: columns 1 to 4 get 11 cards, columns 5 to 10 get 10."
        " Six free cells start empty; nothing starts on the foundations.",
        play=(
            (
                "Tableau: a card goes on a card one rank higher **of the other colour** (red on"
                " black, black on red)."
            ),
            (
                "Free cells: any top card may go to an empty cell; a cell's card may go to a"
                " foundation or onto a column where it fits."
            ),
            (
                "A run (descending, alternating colours) moves as one move of up to (empty free"
                " cells + 1) × 2^empty columns^ cards; when the run goes to an empty column, that"
                " column does not count."
            ),
            "Any card, or any run within that limit, may fill an empty column.",
        ),
        other_programs="PySolFC (game 264) and Pretty Good Solitaire's Double FreeCell put four"
        " Aces on the foundations at the start and deal ten columns of ten cards; their “Double"
        " FreeCell (Traditional)” uses this deal with eight cells and eight foundations.",
    ),
)

GAMES: dict[str, GameRules] = {
    g.id: g for g in (RUSSIAN, DOUBLE_RUSSIAN, DOUBLE_RAIL, DOUBLE_FREECELL)
}
