#!/usr/bin/env python3
"""Draw the card art (SVG, pure standard library), written into web/cards/.

- ``faces.svg``: one sprite of ``<symbol>`` elements, read by the page through
  ``<use href="web/cards/faces.svg#ID">`` (py/solitaire/web/faces.py):
  ``s-S s-H s-D s-C`` the four suit shapes; ``f-AS`` … ``f-KC`` each card's full face (the
  classic pip positions for A-10, a double-ended framed portrait for J, Q, K); ``m-AS`` …
  ``m-KC`` the simplified face of a small card (one big pip; a court's bust). Everything is
  drawn in ``currentColor`` except the courts' skin, hair and gold, so the card element's CSS
  colour (red, black, or the four-colour deck's blue and green) colours the art.
- ``back-blue.svg``, ``back-red.svg``, ``back-green.svg``: the card backs (CSS background).

The files are committed; run ``python tools/make_cards.py`` again only to change the design
(``--check`` exits 1 when the committed files differ from what the script draws).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "web" / "cards"

RANKS = "A23456789TJQK"
SUITS = "SHDC"
#: Card coordinates: the viewBox of a whole card (its 5:7 shape).
W, H = 200, 280
#: Pip columns and the top and bottom rows of the classic layouts.
LEFT, MID, RIGHT = 65.0, 100.0, 135.0
TOP, BOTTOM = 58.0, 222.0
PIP = 38.0  # a layout pip's size (its 100x100 suit box scaled)
ACE = 84.0

#: Suit shapes in a 100x100 box, pointing up (the tip of a heart at the bottom).
SUIT_SHAPES = {
    "S": (
        '<path d="M50 3C38 24 6 39 6 61c0 14 10 24 23 24 8 0 14-4 17-9-1 10-5 16-13 21h34'
        'c-8-5-12-11-13-21 3 5 9 9 17 9 13 0 23-10 23-24C94 39 62 24 50 3z"/>'
    ),
    "H": (
        '<path d="M50 92C22 66 4 50 4 29 4 14 15 4 29 4c10 0 17 6 21 15 4-9 11-15 21-15'
        ' 14 0 25 10 25 25 0 21-18 37-46 63z"/>'
    ),
    "D": '<path d="M50 2 88 50 50 98 12 50z"/>',
    "C": (
        '<circle cx="50" cy="27" r="20"/><circle cx="27" cy="60" r="20"/>'
        '<circle cx="73" cy="60" r="20"/><circle cx="50" cy="55" r="11"/>'
        '<path d="M46 56c0 18-4 30-14 41h36c-10-11-14-23-14-41z"/>'
    ),
}


def _n(x: float) -> str:
    """A coordinate, short: no trailing zeros."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def pip_positions(rank: int) -> list[tuple[float, float]]:
    """The centres of the pips of a number card (rank 1-10), in the classic layouts."""
    mid_y = (TOP + BOTTOM) / 2
    step = (BOTTOM - TOP) / 3
    four = [TOP, TOP + step, BOTTOM - step, BOTTOM]
    sides = {
        1: [],
        2: [],
        3: [],
        4: [TOP, BOTTOM],
        5: [TOP, BOTTOM],
        6: [TOP, mid_y, BOTTOM],
        7: [TOP, mid_y, BOTTOM],
        8: [TOP, mid_y, BOTTOM],
        9: four,
        10: four,
    }[rank]
    centre = {
        1: [mid_y],
        2: [TOP, BOTTOM],
        3: [TOP, mid_y, BOTTOM],
        4: [],
        5: [mid_y],
        6: [],
        7: [(TOP + mid_y) / 2],
        8: [(TOP + mid_y) / 2, (mid_y + BOTTOM) / 2],
        9: [mid_y],
        10: [(TOP + four[1]) / 2, (four[2] + BOTTOM) / 2],
    }[rank]
    spots = [(x, y) for y in sides for x in (LEFT, RIGHT)]
    spots += [(MID, y) for y in centre]
    return sorted(spots, key=lambda p: (p[1], p[0]))


def _pip(suit: str, x: float, y: float, size: float) -> str:
    """A suit shape centred on (x, y); below the middle it is upside down, as on real cards."""
    h = size / 2
    box = f'x="{_n(x - h)}" y="{_n(y - h)}" width="{_n(size)}" height="{_n(size)}"'
    use = f'<use href="#s-{suit}" {box}'
    if y > H / 2 + 0.5:
        return f'{use} transform="rotate(180 {_n(x)} {_n(y)})"/>'
    return use + "/>"


def number_face(rank: int, suit: str) -> str:
    size = ACE if rank == 1 else PIP
    return "".join(_pip(suit, x, y, size) for x, y in pip_positions(rank))


# ------------------------------------------------------------------------------ courts

SKIN = "#f3d3b0"
GOLD = "#e0a526"
INK = "#231f20"
HAIR = {"J": "#7a4a1c", "Q": "#e0b040", "K": "#e8e4da"}
#: The frame around a court's portrait, in card coordinates.
FRAME = (50.0, 30.0, 150.0, 250.0)


def _headwear(rank: str) -> str:
    """What tells the three courts apart at a glance: a crown, a tiara, a feathered cap."""
    if rank == "K":  # a tall crown with three points and jewels
        return (
            f'<path d="M78 70 76 44l10 12 14-18 14 18 10-12-2 26z" fill="{GOLD}"'
            f' stroke="{INK}" stroke-width="1.5"/>'
            '<circle cx="100" cy="52" r="3.5" fill="currentColor"/>'
            '<circle cx="86" cy="62" r="2.5" fill="currentColor"/>'
            '<circle cx="114" cy="62" r="2.5" fill="currentColor"/>'
        )
    if rank == "Q":  # a low tiara of pearls
        return (
            f'<path d="M80 68q20-22 40 0z" fill="{GOLD}" stroke="{INK}" stroke-width="1.5"/>'
            f'<circle cx="100" cy="50" r="4" fill="#fff" stroke="{INK}"/>'
            f'<circle cx="88" cy="57" r="3" fill="#fff" stroke="{INK}"/>'
            f'<circle cx="112" cy="57" r="3" fill="#fff" stroke="{INK}"/>'
        )
    # J: a beret in the suit's colour with a feather
    return (
        f'<path d="M76 70q2-22 26-22 22 0 24 18z" fill="currentColor" stroke="{INK}"'
        ' stroke-width="1.5"/>'
        f'<path d="M118 58q16-20 30-24-8 14-26 30z" fill="{GOLD}" stroke="{INK}"'
        ' stroke-width="1.2"/>'
    )


def _hair(rank: str) -> str:
    colour = HAIR[rank]
    if rank == "Q":  # long hair falling to the shoulders
        return (
            f'<path d="M80 70q-6 30-2 52h12q-6-22 2-44zM120 70q6 30 2 52h-12q6-22-2-44z"'
            f' fill="{colour}" stroke="{INK}" stroke-width="1.2"/>'
        )
    if rank == "K":  # a full beard
        return (
            f'<path d="M84 86q2 30 16 34 14-4 16-34-6 10-16 10-10 0-16-10z" fill="{colour}"'
            f' stroke="{INK}" stroke-width="1.2"/>'
        )
    return (
        f'<path d="M82 76q-2 12 2 20 2-12 4-18zM118 76q2 12-2 20-2-12-4-18z" fill="{colour}"'
        f' stroke="{INK}" stroke-width="1.2"/>'
    )


def court_half(rank: str, suit: str) -> str:
    """The upper half of a court's portrait: shoulders in the suit's colour, a face, its
    headwear and hair, and what it holds (K a sceptre, Q a flower, J a suit shield)."""
    robe = (
        f'<path d="M56 140q0-26 22-32l22 10 22-10q22 6 22 32z" fill="currentColor"'
        f' stroke="{INK}" stroke-width="1.5"/>'
        f'<path d="M78 108l22 10 22-10-4 10-18 8-18-8z" fill="{GOLD}" stroke="{INK}"'
        ' stroke-width="1.2"/>'
    )
    face = (
        f'<ellipse cx="100" cy="84" rx="17" ry="20" fill="{SKIN}" stroke="{INK}"'
        ' stroke-width="1.5"/>'
        f'<circle cx="93" cy="82" r="2" fill="{INK}"/><circle cx="107" cy="82" r="2" fill="{INK}"/>'
        f'<path d="M94 95q6 4 12 0" fill="none" stroke="{INK}" stroke-width="1.5"'
        ' stroke-linecap="round"/>'
    )
    if rank == "K":
        held = (
            f'<path d="M134 62v66" stroke="{GOLD}" stroke-width="4"/>'
            f'<circle cx="134" cy="60" r="6" fill="{GOLD}" stroke="{INK}"/>'
        )
    elif rank == "Q":
        held = (
            '<path d="M66 134q0-30 2-52" stroke="#2f7d32" stroke-width="3" fill="none"/>'
            f'<circle cx="68" cy="78" r="7" fill="currentColor" stroke="{INK}"/>'
            f'<circle cx="68" cy="78" r="2.5" fill="{GOLD}"/>'
        )
    else:
        held = (
            f'<path d="M124 112h22v14q0 10-11 14-11-4-11-14z" fill="#fff" stroke="{INK}"'
            ' stroke-width="1.5"/>'
            f'<use href="#s-{suit}" x="127" y="114" width="16" height="16"/>'
        )
    corner = f'<use href="#s-{suit}" x="54" y="34" width="20" height="20"/>'
    return robe + held + _hair(rank) + face + _headwear(rank) + corner


def court_face(rank: str, suit: str) -> str:
    """A double-ended portrait in a frame, as on classic court cards."""
    x0, y0, x1, y1 = FRAME
    return (
        f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" rx="6"'
        ' fill="currentColor" fill-opacity="0.08" stroke="currentColor" stroke-width="2"/>'
        f'<g id="h-{rank}{suit}">{court_half(rank, suit)}</g>'
        f'<use href="#h-{rank}{suit}" transform="rotate(180 {_n(W / 2)} {_n(H / 2)})"/>'
        f'<path d="M{_n(x0)} {_n(H / 2)}H{_n(x1)}" stroke="currentColor" stroke-width="1.5"/>'
    )


def small_face(rank: str, suit: str) -> str:
    """A small card's centre (its viewBox is the lower two thirds of the card): one big pip,
    or a court's bust, large enough to read at 50 px wide."""
    if rank in "JQK":
        return f'<use href="#h-{rank}{suit}"/>'
    return f'<use href="#s-{suit}" x="54" y="38" width="92" height="92"/>'


#: The small face's viewBox: the court bust's box (its upper half, cut above the shoulders'
#: bottom) and the big pip both fit it.
SMALL_VIEWBOX = "50 30 100 110"


def faces_svg() -> str:
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg">',
        "<!-- Card faces, drawn by tools/make_cards.py: do not edit by hand. -->",
    ]
    for suit, shape in SUIT_SHAPES.items():
        parts.append(f'<symbol id="s-{suit}" viewBox="0 0 100 100">{shape}</symbol>')
    for suit in SUITS:
        for rank in RANKS:
            name = rank + suit
            if rank in "JQK":
                body = court_face(rank, suit)
            else:
                body = number_face(RANKS.index(rank) + 1, suit)
            parts.append(f'<symbol id="f-{name}" viewBox="0 0 {W} {H}">{body}</symbol>')
    for suit in SUITS:
        for rank in RANKS:
            name = rank + suit
            parts.append(
                f'<symbol id="m-{name}" viewBox="{SMALL_VIEWBOX}">{small_face(rank, suit)}</symbol>'
            )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# ------------------------------------------------------------------------------ backs

BACKS = {
    # name: (field, darker field, pattern lines)
    "blue": ("#2a4fae", "#1c367c", "#9fb6f0"),
    "red": ("#b3262e", "#7c1820", "#f0a5a0"),
    "green": ("#23794a", "#15502f", "#9fdcb5"),
}


def back_svg(name: str) -> str:
    """A card back: a white border, a field with a fine lattice, and a medallion of the four
    suits in the middle (the same picture both ways up)."""
    field, dark, line = BACKS[name]
    suits = "".join(
        f'<use href="#s{i}" x="{_n(x)}" y="{_n(y)}" width="22" height="22" fill="{line}"/>'
        for i, (x, y) in enumerate(((89, 111), (111, 129), (89, 147), (67, 129)))
    )
    shapes = "".join(
        f'<symbol id="s{i}" viewBox="0 0 100 100">{SUIT_SHAPES[s]}</symbol>'
        for i, s in enumerate(SUITS)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}"'
        ' preserveAspectRatio="none">\n'
        "<!-- A card back, drawn by tools/make_cards.py: do not edit by hand. -->\n"
        f"<defs>{shapes}"
        '<pattern id="p" width="16" height="16" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)">'
        f'<path d="M0 8h16M8 0v16" stroke="{line}" stroke-opacity="0.45" stroke-width="2"/>'
        f'<circle cx="8" cy="8" r="2.2" fill="{line}" fill-opacity="0.7"/></pattern>'
        f'<radialGradient id="g"><stop offset="0" stop-color="{field}"/>'
        f'<stop offset="1" stop-color="{dark}"/></radialGradient></defs>\n'
        f'<rect width="{W}" height="{H}" fill="#fff"/>'
        f'<rect x="12" y="12" width="{W - 24}" height="{H - 24}" rx="8" fill="url(#g)"/>'
        f'<rect x="12" y="12" width="{W - 24}" height="{H - 24}" rx="8" fill="url(#p)"/>'
        f'<rect x="20" y="20" width="{W - 40}" height="{H - 40}" rx="5" fill="none"'
        f' stroke="{line}" stroke-width="2.5"/>'
        f'<ellipse cx="100" cy="140" rx="52" ry="62" fill="{dark}" stroke="{line}"'
        ' stroke-width="3"/>'
        f'<ellipse cx="100" cy="140" rx="44" ry="54" fill="none" stroke="{line}"'
        ' stroke-width="1.5" stroke-dasharray="4 3"/>'
        f"{suits}\n</svg>\n"
    )


def files() -> dict[str, str]:
    """Every file of web/cards/: name -> text."""
    out = {"faces.svg": faces_svg()}
    for name in BACKS:
        out[f"back-{name}.svg"] = back_svg(name)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--out", type=Path, default=OUT, help="output folder (web/cards/)")
    args = parser.parse_args(argv)
    stale = []
    for name, text in files().items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if stale:
        print(f"make_cards: out of date: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
