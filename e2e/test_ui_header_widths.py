"""The toolbar at every width from 320 px up (docs/ui-layout.md), by touch and by mouse, with
field-sizing and without it (Safari before 26.2 has none: forced off here by a style, so that
the game picker is as wide as its longest name, as WebKit draws it): no control is cut off by
the screen's edge or lies over another, and the picked game's name is never cut. The picker
draws itself (appearance: none) in every engine, its text legible on its box in every theme
and table colour."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from harness import Screen, open_game
from playwright.sync_api import Page
from ui_helpers import boxes_overlap

from solitaire import GAMES

WIDTHS = [320, 360, 390, 414, 421, 430, 440, 480, 540, 600, 601, 640, 700, 768, 819, 820, 1024]
#: The picker without field-sizing, as an inline style (the page's Content-Security-Policy
#: allows style attributes, not style elements).
NO_FIELD_SIZING = (
    "document.getElementById('game-select').style.setProperty('field-sizing', 'fixed', 'important')"
)

#: The visible toolbar controls' boxes, and how much of the picked name its box has room for.
CONTROLS_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {id: e.id, x: r.x, y: r.y, w: r.width, h: r.height}; };
  const shown = [...document.querySelectorAll('.toolbar > .btn, #game-select')]
    .filter((e) => e.getClientRects().length > 0);
  const select = document.getElementById('game-select');
  const style = getComputedStyle(select);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const name = select.options[select.selectedIndex].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {controls: shown.map(box), name, text: ctx.measureText(name).width, room};
}"""

SETTLED_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def check_widths(page: Page, label: str) -> None:
    for width in WIDTHS:
        # portrait at every width: the phone-on-its-side layout is e2e/test_ui_thumb_sizes.py's
        page.set_viewport_size({"width": width, "height": max(800, width + 60)})
        page.evaluate(SETTLED_JS)
        seen = page.evaluate(CONTROLS_JS)
        where = f"{label} at {width} px"
        controls = seen["controls"]
        assert {c["id"] for c in controls} >= {"game-select", "btn-undo", "btn-menu"}, where
        for c in controls:
            assert c["x"] >= -0.5, (where, c)
            assert c["x"] + c["w"] <= width + 0.5, (where, c)
        for i, a in enumerate(controls):
            for b in controls[i + 1 :]:
                assert not boxes_overlap(a, b), (where, a, b)
        assert seen["text"] <= seen["room"] + 1, (where, seen["name"], seen)


@pytest.mark.parametrize("touch", [True, False], ids=["touch", "mouse"])
@pytest.mark.parametrize("field_sizing", [True, False], ids=["field-sizing", "no-field-sizing"])
def test_no_control_is_cut_or_covered_at_any_width(
    screen_page: Callable[[Screen], Page], touch: bool, field_sizing: bool
) -> None:
    page = screen_page((390, 844, touch))
    open_game(page, "russian", 1)
    if not field_sizing:
        page.evaluate(NO_FIELD_SIZING)
    for game_id in ("russian", "double-freecell"):  # the shortest and a longest name
        page.locator("#game-select").select_option(game_id)
        page.wait_for_function(f"document.getElementById('board').dataset.game === '{game_id}'")
        check_widths(page, f"{GAMES[game_id].short_name}, touch={touch}, sizing={field_sizing}")


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


COLOURS_JS = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const select = document.getElementById('game-select');
  const s = getComputedStyle(select);
  const o = getComputedStyle(select.options[0]);
  return {appearance: s.appearance, fg: rgb(s.color), bg: rgb(s.backgroundColor),
          optionFg: rgb(o.color), optionBg: rgb(o.backgroundColor),
          chevron: s.backgroundImage.startsWith('url("data:image/svg+xml')};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_game_picker_is_legible_in_every_theme(page: Page, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    open_game(page, "russian", 1)
    for table in ("green", "blue", "red", "grey"):
        page.evaluate("(t) => { document.documentElement.dataset.table = t; }", table)
        seen = page.evaluate(COLOURS_JS)
        assert seen["appearance"] == "none", seen
        assert seen["chevron"], seen
        assert contrast(seen["fg"], seen["bg"]) >= 4.5, (scheme, table, seen)
        assert contrast(seen["optionFg"], seen["optionBg"]) >= 4.5, (scheme, table, seen)
