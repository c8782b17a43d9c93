"""The position document (docs/save-format.md): a :class:`Position` as a JSON-able dict, and
reading one back with every check, each failure a ``PositionError`` with a sentence
(``Position.to_json`` and ``Position.from_json`` call these). It reads a position through
:class:`solitaire.moves.PositionView` and hands back a position's fields, so it imports nothing
from :mod:`solitaire.position`."""

from __future__ import annotations

from typing import Any

from .cards import SUIT_NAMES, card_name, follows_up, parse_card, rank, suit
from .deals import MAX_DEAL
from .moves import Pile, PositionError, PositionView, short_repr
from .rules import GAMES, GameRules
from .tables import rule_tables

POSITION_FORMAT = 1

#: ``Position``'s arguments, in order: rules, tableau, down, foundations, cells, stock, waste,
#: deal.
PositionFields = tuple[
    GameRules,
    tuple[Pile, ...],
    tuple[int, ...],
    tuple[Pile, ...],
    tuple[int | None, ...],
    Pile,
    Pile,
    int | None,
]


def position_document(position: PositionView) -> dict[str, Any]:
    """The position document of docs/save-format.md.

    Both copies of a card are written the same ("QS"); loading numbers them in reading
    order. When that would not give back this position's numbering, the document also
    carries ``"copies"``: the deck (0 or 1) of every card in reading order."""
    doc: dict[str, Any] = {
        "format": POSITION_FORMAT,
        "game": position.rules.id,
        "deal": position.deal,
        "tableau": [
            {
                "down": [card_name(c) for c in p[: position.down[i]]],
                "up": [card_name(c) for c in p[position.down[i] :]],
            }
            for i, p in enumerate(position.tableau)
        ],
        "foundations": [[card_name(c) for c in p] for p in position.foundations],
    }
    if position.rules.cells:
        doc["cells"] = [None if c is None else card_name(c) for c in position.cells]
    if position.rules.stock:
        doc["stock"] = [card_name(c) for c in position.stock]
        doc["waste"] = [card_name(c) for c in position.waste]
    if position.rules.decks > 1:
        order = position.all_cards()
        seen: dict[int, int] = {}
        canonical = True
        for c in order:
            copy = seen.get(c % 52, 0)
            seen[c % 52] = copy + 1
            if c // 52 != copy:
                canonical = False
                break
        if not canonical:
            doc["copies"] = "".join(str(c // 52) for c in order)
    return doc


def read_document(doc: Any) -> PositionFields:
    """Read a position document into ``Position``'s arguments; anything malformed or
    impossible raises PositionError saying what is wrong."""
    if not isinstance(doc, dict):
        raise PositionError("A position must be a JSON object.")
    version = doc.get("format")
    if type(version) is not int or version != POSITION_FORMAT:
        raise PositionError(
            (
                "A position document needs a format number"
                if version is None
                else f"Unknown position format {short_repr(version)}"
            )
            + f"; this version reads format {POSITION_FORMAT}."
        )
    game = doc.get("game")
    rules = GAMES.get(game) if isinstance(game, str) else None
    if rules is None:
        raise PositionError(f"Unknown game {short_repr(game)}; the games are {', '.join(GAMES)}.")
    deal = doc.get("deal")
    if deal is not None and (type(deal) is not int or not 1 <= deal <= MAX_DEAL):
        raise PositionError(f"Bad deal number {short_repr(deal)}: deals run from 1 to {MAX_DEAL}.")
    allowed = {
        "format",
        "game",
        "deal",
        "tableau",
        "foundations",
        "cells",
        "stock",
        "waste",
        "copies",
    }
    extra = set(doc) - allowed
    if extra:
        raise PositionError(f"Unexpected keys: {', '.join(sorted(map(repr, extra)))}.")
    copies = doc.get("copies")
    if copies is not None and (
        not isinstance(copies, str)
        or len(copies) != rules.cards
        or not set(copies) <= set("0123456789"[: rules.decks])
    ):
        raise PositionError(
            f"“copies” must be a string of {rules.cards} digits, each below {rules.decks}."
        )
    seen: dict[int, int] = {}
    taken: set[int] = set()

    def card(text: Any, where: str) -> int:
        try:
            c = parse_card(text)
        except ValueError as error:
            raise PositionError(f"{where}: {error}") from None
        count = seen.get(c, 0)
        if count >= rules.decks:
            raise PositionError(
                f"{where}: the card {text} appears too many times "
                f"({rules.name} has {rules.decks} of each card)."
            )
        seen[c] = count + 1
        if copies is None:
            return count * 52 + c
        number = int(copies[len(taken)]) * 52 + c
        if number in taken:
            raise PositionError(f"{where}: “copies” gives two {text} the same deck.")
        taken.add(number)
        return number

    def card_list(value: Any, where: str) -> list[int]:
        if not isinstance(value, list):
            raise PositionError(f"{where} must be a list of cards.")
        return [card(v, where) for v in value]

    tableau_doc = doc.get("tableau")
    if not isinstance(tableau_doc, list) or len(tableau_doc) != len(rules.tableau):
        raise PositionError(f"{rules.name} has {len(rules.tableau)} tableau piles.")
    tableau: list[Pile] = []
    down: list[int] = []
    for i, pile_doc in enumerate(tableau_doc):
        where = f"Tableau pile {i + 1}"
        if not isinstance(pile_doc, dict) or set(pile_doc) - {"down", "up"}:
            raise PositionError(f"{where} must be an object with 'down' and 'up'.")
        d = card_list(pile_doc.get("down", []), where)
        u = card_list(pile_doc.get("up", []), where)
        if d and not u:
            raise PositionError(f"{where}: its top card must be face up.")
        tableau.append(tuple(d + u))
        down.append(len(d))
    f_doc = doc.get("foundations")
    if not isinstance(f_doc, list) or len(f_doc) != rules.foundations:
        raise PositionError(f"{rules.name} has {rules.foundations} foundations.")
    foundations = [tuple(card_list(p, f"Foundation {k + 1}")) for k, p in enumerate(f_doc)]
    cells: list[int | None] = []
    cells_doc = doc.get("cells", [] if not rules.cells else None)
    if rules.cells:
        if not isinstance(cells_doc, list) or len(cells_doc) != rules.cells:
            raise PositionError(f"{rules.name} has {rules.cells} free cells.")
        cells = [
            None if c is None else card(c, f"Free cell {k + 1}") for k, c in enumerate(cells_doc)
        ]
    elif cells_doc:
        raise PositionError(f"{rules.name} has no free cells.")
    stock: list[int] = []
    waste: list[int] = []
    if rules.stock:
        stock = card_list(doc.get("stock", []), "The stock")
        waste = card_list(doc.get("waste", []), "The waste")
    elif doc.get("stock") or doc.get("waste"):
        raise PositionError(f"{rules.name} has no stock or waste.")
    missing = rules.cards - sum(seen.values())
    if missing:
        absent = [card_name(c) for c in range(52) for _ in range(rules.decks - seen.get(c, 0))]
        listed = ", ".join(absent[:8]) + (f" and {len(absent) - 8} more" if len(absent) > 8 else "")
        raise PositionError(f"{missing} card{'s are' if missing > 1 else ' is'} missing: {listed}.")
    started: dict[int, int] = {}
    for k, pile in enumerate(foundations):
        for n, c in enumerate(pile):
            top = pile[n - 1] if n else None
            if top is None:
                ok = rank(c) == 1
            else:
                ok = suit(top) == suit(c) and follows_up(c, top)
            if not ok or n >= rules.foundation_size:
                raise PositionError(
                    f"Foundation {k + 1} is not built up by suit from an Ace "
                    f"(at most {rules.foundation_size} cards)."
                )
        if pile:
            started[suit(pile[0])] = started.get(suit(pile[0]), 0) + 1
    per_suit = rule_tables(rules).per_suit
    for s, n in started.items():
        if n > per_suit:
            raise PositionError(
                f"{rules.name} has {per_suit} foundation{'s' if per_suit > 1 else ''} "
                f"per suit, not {n} of {SUIT_NAMES[s]}."
            )
    return (
        rules,
        tuple(tableau),
        tuple(down),
        tuple(foundations),
        tuple(cells),
        tuple(stock),
        tuple(waste),
        deal,
    )
