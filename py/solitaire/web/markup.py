"""The board's HTML for a position, as one string: what ``BoardView.setup`` writes into
``#board``, and what the page shows before Python has started (the table preview,
``web/table-preview.js``): the build writes a few first-visit tables into index.html, and the
page keeps the table it showed last for the next visit (``table_preview``).

Runs under CPython (the build and the tests use it): no ``js`` import.
"""

from __future__ import annotations

from ..cards import card_name, long_name
from ..piles import PileRef
from ..position import Position
from ..rules import GameRules
from .documents import Settings
from .faces import face_html
from .layout import layout
from .text import clock, pile_label

#: The ``v`` of a table preview document (web/table-preview.js reads only this version).
PREVIEW_VERSION = 1


def attr(text: str) -> str:
    """``text`` as a double-quoted HTML attribute value."""
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def pile_html(pile: PileRef, position: Position) -> str:
    """A pile's element with its cards, bottom to top, as ``BoardView.render`` leaves them."""
    kind = pile.kind
    cards = position.pile(pile)
    down = position.face_down(pile)
    mark = ""
    if kind == "foundation":
        mark = ' data-mark="A"'
    elif kind == "tableau" and position.rules.empty == "king":
        mark = ' data-mark="K"'
    elif kind == "stock":
        mark = f' data-mark="∅" data-count="{len(cards)}"'
    head = (
        f'<div class="pile {kind}" data-pile="{pile}" role="group" tabindex="-1"{mark}'
        f' style="--nd:{down};--nu:{len(cards) - down}"'
        f' aria-label="{attr(pile_label(pile, cards, down))}">'
    )
    parts = [head]
    for j, c in enumerate(cards):
        tag = f'<div class="card" tabindex="-1" aria-roledescription="card" style="--i:{j}"'
        if j >= down:
            name = card_name(c)
            parts.append(
                f'{tag} data-card="{name}" data-suit="{name[1]}" role="button"'
                f' aria-label="{long_name(c)}">{face_html(c)}</div>'
            )
        else:
            parts.append(f'{tag} data-face="down" role="img" aria-label="Face-down card"></div>')
    parts.append("</div>")
    return "".join(parts)


def board_html(position: Position) -> str:
    """The inner HTML of ``#board`` showing ``position``: the top row (with its gaps), then
    the tableau; the piles in the order of ``layout(rules)``."""
    table = layout(position.rules)
    top = "".join(
        '<div class="pile gap" aria-hidden="true"></div>'
        if pile is None
        else pile_html(pile, position)
        for pile in table.top_slots
    )
    tableau = "".join(pile_html(pile, position) for pile in table.tableau)
    return f'<div class="row top">{top}</div><div class="row tableau">{tableau}</div>'


def board_vars(rules: GameRules) -> dict[str, str]:
    """The CSS custom properties of ``#board`` for a game (web/style.css sizes the cards from
    them and the screen): columns, tableau columns, the pile sizes the card size is planned
    for, the tallest pile of the deal (face-down, face-up: the strips it must show), and
    the rows of the side columns of a landscape phone."""
    table = layout(rules)
    return {
        "--cols": str(table.cols),
        "--tcols": str(len(table.tableau)),
        "--pd": str(rules.card_plan[0]),
        "--pu": str(rules.card_plan[1]),
        "--siderows": str((len(table.top) + 1) // 2),
        "--dd": str(max(down for down, _ in rules.tableau)),
        "--du": str(max(up for _, up in rules.tableau)),
    }


def preview_looks(settings: Settings) -> dict[str, str | bool]:
    """The looks the settings give the page, as :func:`table_preview` keeps them."""
    return {
        "back": settings.card_back,
        "table": settings.table,
        "theme": settings.theme,
        "four": settings.four_color,
        "timer": settings.show_timer,
        "large": settings.large_cards,
    }


def table_preview(
    position: Position,
    deal: int | None,
    moves: int,
    elapsed: float,
    looks: dict[str, str | bool],
    release: str,
    *,
    proved_winnable: bool,
) -> dict[str, object]:
    """The table as web/table-preview.js paints it before Python starts: the board's HTML and
    custom properties, the status line's texts, and the looks the settings give the page
    (``back``, ``table``, ``theme``: data attributes of <html>; ``four``: the four-colour deck;
    ``timer``: the clock shown; ``large``: the large cards). ``release``: the page's release
    (index.html's ``<meta name="release">``); a preview of another release is not shown,
    since its markup may not match this release's style sheet. ``proved_winnable``: the
    status line's "Winnable" mark shows (the deal is in the shipped winnable list), so that the
    line does not shift when Python shows it."""
    rules = position.rules
    return {
        "v": PREVIEW_VERSION,
        "release": release,
        "game": rules.id,
        "deal": deal,
        "html": board_html(position),
        "vars": board_vars(rules),
        "status": {
            "st-game-full": rules.name,
            "st-deal": "–" if deal is None else str(deal),
            "st-moves": str(moves),
            "st-time": clock(elapsed),
        },
        "winnable": proved_winnable,
        "looks": looks,
    }
