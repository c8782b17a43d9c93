"""Thumb-sized targets and readable tables, at every screen the page is made for: three upright
phones (360x740, 390x844, 430x932), a phone on its side (844x390), a tablet (820x1180) and a
desktop (1280x800). For each and every game, at the deal: every visible toolbar, banner and
dialog-bar control is at least 44x44 px and 8 px from its neighbours, toolbar labels do not
wrap, Restart is one tap away; each covered face-up card shows a strip of 36 px (30 px on the
phone on its side) and each face-down card 8 px; the corner marks never shrink as the card
grows. The menu of the phone on its side reaches "Sounds"; "Large cards" makes the cards
bigger and survives a reload. Screenshots go to $SOLITAIRE_SHOTS when it is set."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import Screen, open_game, screenshot
from playwright.sync_api import Page, expect
from ui_helpers import fresh_table, wait_still

from solitaire import GAMES

GAME_IDS = list(GAMES)

#: (width, height, touch): the screens measured.
SIZES: list[Screen] = [
    (360, 740, True),
    (390, 844, True),
    (430, 932, True),
    (844, 390, True),
    (820, 1180, True),
    (1280, 800, False),
]


def size_id(size: Screen) -> str:
    return f"{size[0]}x{size[1]}"


#: The visible controls of the toolbar, the stuck banner, the toast and an open dialog's
#: button bar, by group (a control's neighbours are those of its group), with their boxes.
CONTROLS = """() => {
  const groups = {
    toolbar: '.toolbar > .btn, .toolbar select',
    banner: '#stuck .btn',
    toast: '#toast.show .btn',
    dialog: 'dialog[open] .dialog-actions .btn',
  };
  const out = {};
  for (const [name, sel] of Object.entries(groups)) {
    out[name] = [...document.querySelectorAll(sel)]
      .filter((el) => el.checkVisibility() && el.getClientRects().length)
      .map((el) => {
        const r = el.getBoundingClientRect();
        const label = el.querySelector('.label');
        return {id: el.id || el.textContent.trim().slice(0, 20),
                box: [r.left, r.top, r.right, r.bottom],
                // a label on two lines is twice its font size tall, or more
                labelLines: label && label.checkVisibility()
                  ? (label.getBoundingClientRect().height >
                     1.9 * parseFloat(getComputedStyle(label).fontSize) ? 2 : 1) : 0};
      });
  }
  return out;
}"""

#: Over every tableau pile: the shown strip of each covered face-up card and each face-down
#: card (the top of the next card less its own top).
STRIPS = """() => {
  const up = [], down = [];
  for (const pile of document.querySelectorAll('#board .tableau .pile')) {
    const cards = [...pile.querySelectorAll('.card')];
    for (let i = 0; i + 1 < cards.length; i++) {
      const shown = cards[i + 1].getBoundingClientRect().top - cards[i].getBoundingClientRect().top;
      (cards[i].dataset.face === 'down' ? down : up).push(shown);
    }
  }
  return {up, down};
}"""

#: The width of the face-up cards and the font sizes of their top-left rank and suit marks.
MARKS = """() => [...document.querySelectorAll('#board .card[data-card]')].slice(0, 8).map((c) => {
  const r = c.querySelector('.ix .r'), s = c.querySelector('.ix .s');
  return [c.getBoundingClientRect().width, parseFloat(getComputedStyle(r).fontSize),
          parseFloat(getComputedStyle(s).fontSize)];
})"""


def apart(a: list[float], b: list[float]) -> float:
    """The distance between two boxes (0 where they touch or overlap)."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return max(dx, dy)


def check_controls(page: Page, where: str) -> None:
    groups = page.evaluate(CONTROLS)
    for name, controls in groups.items():
        for c in controls:
            left, top, right, bottom = c["box"]
            assert right - left >= 44 - 0.01, (where, name, c)
            assert bottom - top >= 44 - 0.01, (where, name, c)
            assert c["labelLines"] <= 1, (where, name, c)  # "New deal" never wraps
        for i, a in enumerate(controls):
            for b in controls[i + 1 :]:
                assert apart(a["box"], b["box"]) >= 8 - 0.01, (where, name, a, b)


def pick(page: Page, game_id: str) -> None:
    page.locator("#game-select").select_option(game_id)
    page.wait_for_function(f"document.getElementById('board').dataset.game === '{game_id}'")
    wait_still(page)


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("SOLITAIRE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        screenshot(page, str(Path(folder) / f"{name}.png"))


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_controls_and_strips_fit_a_thumb_in_every_game(
    shared_screen_page: Callable[[Screen], Page], size: Screen
) -> None:
    page = shared_screen_page(size)
    fresh_table(page, "russian", 1)
    landscape = size[0] > size[1] and size[1] <= 500
    for game_id in GAME_IDS:
        pick(page, game_id)
        where = f"{game_id} at {size_id(size)}"
        shot(page, f"{game_id}-{size_id(size)}")
        check_controls(page, where)
        expect(page.locator("#btn-restart")).to_be_visible()  # one tap, on every screen
        strips = page.evaluate(STRIPS)
        least_up = 30 if landscape else 36
        if strips["up"]:  # Double Rail deals one card a pile
            assert min(strips["up"]) >= least_up - 0.5, (where, sorted(strips["up"])[:5])
        if strips["down"]:
            assert min(strips["down"]) >= 8 - 0.5, (where, sorted(strips["down"])[:5])
    # the dialogs' button bars: the settings and the statistics
    for action, dialog in (("settings", "#dlg-settings"), ("stats", "#dlg-stats")):
        page.locator("#btn-menu").click()
        page.locator(f"#menu [data-action='{action}']").click()
        expect(page.locator(dialog)).to_be_visible()
        check_controls(page, f"{dialog} at {size_id(size)}")
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).to_be_hidden()


def test_corner_marks_never_shrink_as_the_card_grows(
    shared_screen_page: Callable[[Screen], Page],
) -> None:
    """Every game at every size: sorted by card width, the rank and suit marks never get
    smaller (74 px cards had 13 px ranks where 64 px cards had 19 px)."""
    marks: list[tuple[float, float, float, str]] = []
    for size in SIZES:
        page = shared_screen_page(size)
        fresh_table(page, "russian", 1)
        for game_id in GAME_IDS:
            pick(page, game_id)
            for width, rank, suit in page.evaluate(MARKS):
                marks.append((width, rank, suit, f"{game_id} at {size_id(size)}"))
    marks.sort()
    widths = {round(m[0]) for m in marks}
    assert len(widths) >= 5, widths  # the sizes give cards of many widths
    for smaller, bigger in itertools.pairwise(marks):
        if bigger[0] - smaller[0] < 0.5:
            continue  # the same card width
        assert bigger[1] >= smaller[1] - 0.01, (smaller, bigger)
        assert bigger[2] >= smaller[2] - 0.01, (smaller, bigger)


def test_the_landscape_menu_reaches_sounds_and_shows_that_it_scrolls(phone_page: Page) -> None:
    page = phone_page
    page.set_viewport_size({"width": 844, "height": 390})
    open_game(page, "russian", 1)
    page.locator("#btn-menu").tap()
    menu = page.locator("#menu")
    expect(menu).to_be_visible()
    got: dict[str, Any] = page.evaluate(
        """() => { const m = document.getElementById('menu'); const r = m.getBoundingClientRect();
                   return {bottom: r.bottom, top: r.top, scrolls: m.scrollHeight > m.clientHeight,
                           shadow: getComputedStyle(m).backgroundImage}; }"""
    )
    assert got["top"] >= 0, got
    assert got["bottom"] <= 390, got
    if got["scrolls"]:  # a menu taller than the screen shows its edge shadows
        assert "radial-gradient" in got["shadow"], got
    sound = page.locator("#menu-sound")
    sound.scroll_into_view_if_needed()
    box = sound.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 390, box
    sound.tap()
    expect(sound).to_have_attribute("aria-checked", "true")


def test_large_cards_make_the_cards_bigger_and_survive_a_reload(page: Page) -> None:
    """On a screen whose height sets the card size (a desktop), "Large cards" makes the cards
    bigger; the setting is saved ("largeCards") and holds after a reload."""
    open_game(page, "russian", 1)
    width = "document.querySelector('#board .card').getBoundingClientRect().width"
    before = page.evaluate(width)
    page.locator("#btn-menu").click()
    page.locator("#menu [data-action='settings']").click()
    page.locator("#set-largecards").check()
    page.keyboard.press("Escape")
    page.wait_for_function(f"{width} > {before} + 4")
    bigger = page.evaluate(width)
    saved = page.evaluate("JSON.parse(localStorage.getItem('/solitaire.settings'))")
    assert saved["largeCards"] is True, saved
    page.reload()
    page.wait_for_function("document.documentElement.dataset.app === 'ready'")
    assert abs(page.evaluate(width) - bigger) < 0.5
    page.locator("#btn-menu").click()
    page.locator("#menu [data-action='settings']").click()
    expect(page.locator("#set-largecards")).to_be_checked()
