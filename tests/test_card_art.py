"""The card art generator (tools/make_cards.py): every card drawn, valid SVG, the classic pip
counts and positions, distinct courts, and the committed files up to date; and the face
markup the page writes (py/solitaire/web/faces.py) points at symbols that exist."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import make_cards
import pytest

from solitaire.cards import card_name
from solitaire.web.faces import SPRITE, face_html

ROOT = Path(__file__).resolve().parent.parent

SVG = "{http://www.w3.org/2000/svg}"
NAMES = [r + s for s in "SHDC" for r in "A23456789TJQK"]


@pytest.fixture(scope="module")
def sprite() -> ET.Element:
    return ET.fromstring(make_cards.faces_svg())


def symbols(root: ET.Element) -> dict[str, ET.Element]:
    return {el.attrib["id"]: el for el in root.iter(f"{SVG}symbol")}


def suit_uses(symbol: ET.Element) -> list[ET.Element]:
    """The pips of a face: ``<use>`` of a suit shape, directly in the symbol."""
    return [u for u in symbol.findall(f"{SVG}use") if u.attrib["href"].startswith("#s-")]


def test_every_card_has_a_full_and_a_small_face(sprite: ET.Element) -> None:
    ids = symbols(sprite)
    for name in NAMES:
        assert f"f-{name}" in ids, name
        assert f"m-{name}" in ids, name
    assert {f"s-{s}" for s in "SHDC"} <= ids.keys()
    assert len(ids) == 2 * 52 + 4


def test_every_reference_resolves(sprite: ET.Element) -> None:
    ids = {el.attrib["id"] for el in sprite.iter() if "id" in el.attrib}
    refs = {u.attrib["href"] for u in sprite.iter(f"{SVG}use")}
    assert refs
    assert {r.removeprefix("#") for r in refs} <= ids


@pytest.mark.parametrize("rank", range(1, 11))
def test_number_cards_have_their_rank_in_pips(sprite: ET.Element, rank: int) -> None:
    ids = symbols(sprite)
    for suit in "SHDC":
        name = "A23456789T"[rank - 1] + suit
        pips = suit_uses(ids[f"f-{name}"])
        assert len(pips) == rank, name
        assert {p.attrib["href"] for p in pips} == {f"#s-{suit}"}
    # classic layouts: symmetric about the vertical axis, in at most three columns, and the
    # pips below the middle upside down
    spots = make_cards.pip_positions(rank)
    assert len(set(spots)) == rank
    xs = sorted({x for x, _ in spots})
    assert set(xs) <= {make_cards.LEFT, make_cards.MID, make_cards.RIGHT}
    assert sorted(make_cards.W - x for x, _ in spots) == sorted(x for x, _ in spots)
    for pip in suit_uses(ids[f"f-{'A23456789T'[rank - 1]}S"]):
        y = float(pip.attrib["y"]) + float(pip.attrib["height"]) / 2
        assert ("rotate(180" in pip.attrib.get("transform", "")) == (y > make_cards.H / 2 + 0.5)


def test_pips_stay_inside_the_card_and_clear_of_each_other() -> None:
    size = make_cards.PIP
    for rank in range(2, 11):
        spots = make_cards.pip_positions(rank)
        for x, y in spots:
            assert size / 2 < x < make_cards.W - size / 2
            assert size / 2 < y < make_cards.H - size / 2
        for i, (x1, y1) in enumerate(spots):
            for x2, y2 in spots[i + 1 :]:
                assert abs(x1 - x2) >= size * 0.9 or abs(y1 - y2) >= size * 0.7, (rank, x1, y1)


def test_courts_are_portraits_told_apart_by_rank(sprite: ET.Element) -> None:
    ids = symbols(sprite)
    for suit in "SHDC":
        drawn = {}
        for rank in "JQK":
            symbol = ids[f"f-{rank}{suit}"]
            half = symbol.find(f"{SVG}g")
            assert half is not None
            assert half.attrib["id"] == f"h-{rank}{suit}"
            # double-ended: the half drawn again upside down
            turned = [
                u for u in symbol.findall(f"{SVG}use") if u.attrib["href"] == f"#h-{rank}{suit}"
            ]
            assert len(turned) == 1
            assert "rotate(180" in turned[0].attrib["transform"]
            drawn[rank] = ET.tostring(half).replace(suit.encode(), b"")
        assert len(set(drawn.values())) == 3, suit
    # the same rank differs between suits only by the suit
    assert make_cards.court_half("K", "S").replace("#s-S", "#s-H") == make_cards.court_half(
        "K", "H"
    )


def test_backs_are_svg_and_differ() -> None:
    backs = {name: make_cards.back_svg(name) for name in make_cards.BACKS}
    assert set(backs) == {"blue", "red", "green"}
    for text in backs.values():
        root = ET.fromstring(text)
        assert root.tag == f"{SVG}svg"
        assert root.attrib["viewBox"] == f"0 0 {make_cards.W} {make_cards.H}"
    assert len(set(backs.values())) == 3


def test_committed_files_are_up_to_date() -> None:
    assert make_cards.main(["--check"]) == 0
    assert sorted(p.name for p in (ROOT / "web" / "cards").iterdir()) == sorted(make_cards.files())


def test_face_markup_points_at_the_sprite(sprite: ET.Element) -> None:
    ids = symbols(sprite)
    for c in (0, 9, 12, 25, 38, 51, 52 + 10):
        root = ET.fromstring(f"<div>{face_html(c)}</div>")
        hrefs = [u.attrib["href"] for u in root.iter("use")]
        name = card_name(c)
        assert hrefs == [f"{SPRITE}#f-{name}", f"{SPRITE}#m-{name}"]
        assert all(h.split("#")[1] in ids for h in hrefs)
        corners = [el for el in root.iter("span") if "ix" in el.attrib.get("class", "")]
        assert len(corners) == 2
        assert all(el.attrib["aria-hidden"] == "true" for el in corners)
    assert (ROOT / SPRITE).is_file()
