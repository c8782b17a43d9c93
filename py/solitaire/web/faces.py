"""A face-up card's inner HTML: the corner indices (text, so that they stay sharp and large at
any size) and the card's art from the sprite that ``tools/make_cards.py`` draws
(``web/cards/faces.svg``): the full face (pip layout or court portrait) and the simplified face
of a small card; CSS shows one of the two by the card's width (web/style.css, "card art").

The art is drawn in ``currentColor``, so the card element's colour (suit colour, four-colour
deck) colours it. Runs under CPython: no ``js`` import.
"""

from __future__ import annotations

from ..cards import SUIT_SYMBOLS, card_name, suit
from .text import rank_text

#: Where the page finds the sprite (relative to index.html); the build copies web/ as it is.
SPRITE = "web/cards/faces.svg"


def face_html(card: int) -> str:
    """Inner HTML of a face-up card (hidden from assistive technology: the card element
    carries the accessible name)."""
    name = card_name(card)
    rank = rank_text(card)
    kind = "r ten" if len(rank) == 2 else "r"  # two digits: narrower on a narrow card
    ix = f'<span class="{kind}">{rank}</span><span class="s">{SUIT_SYMBOLS[suit(card)]}</span>'
    return (
        f'<span class="ix" aria-hidden="true">{ix}</span>'
        f'<svg class="art full" aria-hidden="true"><use href="{SPRITE}#f-{name}"/></svg>'
        f'<svg class="art small" aria-hidden="true">'
        f'<use href="{SPRITE}#m-{name}"/></svg>'
        f'<span class="ix br" aria-hidden="true">{ix}</span>'
    )
