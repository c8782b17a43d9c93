"""The table before Python (web/table-preview.js): while Python's start is held back (the wasm
kept from the page), a first visit already shows a dealt table, still, with the loading bar on a
small panel over it, and Python then deals exactly that deal; a later visit shows the table as
it was left; a link shows no preview; a damaged or foreign stored table is ignored. On a phone
(touch) and on a desktop."""

from __future__ import annotations

import json
from typing import Any

import pytest
from harness import wait_ready
from playwright.sync_api import Page, expect
from test_ui_loading import HeldStart
from ui_helpers import (
    SCOPE,
    card,
    coarse_pointer,
    dom_piles,
    engine_piles,
    first_move,
    game_key,
    play_by_click,
    saved_doc,
    seed_storage,
    storage,
    tableau_move,
    wait_table,
)

from solitaire import Game, Position

TABLE_KEY = f"{SCOPE}solitaire.table"

#: What the page shows while held: the preview's kind, the app frame's state, the cards.
STATE_JS = """() => {
  const app = document.getElementById('app');
  const boot = document.getElementById('boot').getBoundingClientRect();
  return {preview: document.documentElement.dataset.preview || null,
          boardPreview: document.getElementById('board').dataset.preview || null,
          inert: app.inert, appVisible: getComputedStyle(app).visibility === 'visible',
          cards: document.querySelectorAll('#board .card').length,
          game: document.getElementById('board').dataset.game,
          deal: document.getElementById('board').dataset.deal,
          stDeal: document.getElementById('st-deal').textContent,
          bootHeight: boot.height, viewHeight: innerHeight}
}"""


#: Records each value html's and #board's data-preview take (the preview is gone once ready).
PREVIEW_RECORDER = """
window.__previews = [];
new MutationObserver((records) => {
  for (const r of records) {
    const v = r.target.getAttribute('data-preview');
    if (v && r.target === document.documentElement) window.__previews.push('HTML:' + v);
  }
}).observe(document, {subtree: true, attributeFilter: ['data-preview']});
"""


#: The layout shift of the page so far (the sum Lighthouse's CLS takes, inputs included).
SHIFT_JS = """() => new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    observer.disconnect();
    resolve(list.getEntries().reduce((sum, e) => sum + e.value, 0));
  }).observe({type: 'layout-shift', buffered: true});
  setTimeout(() => resolve(0), 1000);  // no shift at all: no entries, no callback
})"""

#: The state of a page that paints no table before Python (the loading screen alone).
NONE = {"preview": None, "cards": 0, "appVisible": False}


def pick(state: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: state[k] for k in keys}


def held_at(page: Page, address: str) -> HeldStart:
    """Open ``address`` with Python's start held back, once the page has been parsed."""
    held = HeldStart(page)
    page.goto(address, wait_until="domcontentloaded")
    page.wait_for_function("document.getElementById('boot-msg').dataset.step !== 'page'")
    return held


def tap_card(page: Page, index: int) -> None:
    """A finger (phone) or a click (desktop) on the ``index``-th card of the board."""
    box = page.locator("#board .card").nth(index).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + 8
    if coarse_pointer(page):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def test_a_first_visit_shows_its_deal_before_python(any_page: Page) -> None:
    page = any_page
    held = held_at(page, "./")
    state = page.evaluate(STATE_JS)
    assert pick(state, "preview", "boardPreview", "game", "inert", "appVisible", "cards") == {
        "preview": "first",
        "boardPreview": "first",
        "game": "russian",
        "inert": True,
        "appVisible": True,
        "cards": 52,
    }
    assert state["deal"].isdigit(), state
    assert state["stDeal"] == state["deal"], state
    # the loading screen is a small panel now, its bar still moving, the table around it
    assert state["bootHeight"] < state["viewHeight"] / 4, state
    expect(page.locator("#boot-bar")).to_be_visible()
    expect(page.locator("#boot .boot-title")).to_be_hidden()
    # every first-visit deal is a proved-winnable one, and the status line says so already
    expect(page.locator("#st-winnable")).to_be_visible()
    deal = int(state["deal"])
    want = engine_piles(Position.deal_of("russian", deal))
    assert dom_piles(page) == want
    # still: a press on a card does nothing until the game is ready
    tap_card(page, 30)
    assert dom_piles(page) == want
    page.evaluate("document.querySelectorAll('#board .card').forEach(c => { c.__shown = 1; })")
    held.release()
    wait_ready(page)
    # Python's first board kept the elements painted before it (no second parse and paint)
    kept = "[...document.querySelectorAll('#board .card')].every(c => c.__shown === 1)"
    assert page.evaluate(kept)
    # Python dealt that very deal: the same cards, where they were; the frame is live now
    assert page.evaluate("document.getElementById('board').dataset.deal") == str(deal)
    assert dom_piles(page) == want
    state = page.evaluate(STATE_JS)
    assert pick(state, "preview", "inert") == {"preview": None, "inert": False}
    expect(page.locator("#boot")).to_be_hidden()
    expect(page.locator("#st-moves")).to_have_text("0")
    # nothing moved on the way, not even the status line's figures: the first paint had the
    # small loading panel, the frame came whole with the cards (shown while the page was
    # still being parsed, an upright phone's toolbar went from the top to the bottom: 0.107),
    # and the "Winnable" mark stayed (going and coming back at Python's start: 0.0014)
    assert page.evaluate(SHIFT_JS) == 0
    # and it plays
    game = Game.new("russian", deal)
    move = first_move(game.position, lambda m: m.source.kind == "tableau")
    play_by_click(page, game, move)
    wait_table(page, game.position)


def test_the_next_visit_shows_the_table_as_it_was_left(any_page: Page) -> None:
    page = any_page
    page.goto("./#russian/7", wait_until="domcontentloaded")
    wait_ready(page)
    game = Game.new("russian", 7)
    move = first_move(game.position, lambda m: m.source.kind == "tableau")
    play_by_click(page, game, move)
    wait_table(page, game.position)
    page.goto("about:blank")  # leaving the page keeps its table
    held = held_at(page, "./")
    state = page.evaluate(STATE_JS)
    assert pick(state, "preview", "deal", "inert", "appVisible") == {
        "preview": "last",
        "deal": "7",
        "inert": True,
        "appVisible": True,
    }
    assert dom_piles(page) == engine_piles(game.position)
    expect(page.locator("#st-moves")).to_have_text("1")
    page.evaluate("document.querySelectorAll('#board .card').forEach(c => { c.__shown = 1; })")
    held.release()
    wait_ready(page)
    kept = "[...document.querySelectorAll('#board .card')].every(c => c.__shown === 1)"
    assert page.evaluate(kept)
    assert dom_piles(page) == engine_piles(game.position)
    assert page.evaluate(STATE_JS)["preview"] is None


def test_the_table_kept_from_before_python_plays_by_keyboard(page: Page) -> None:
    page.add_init_script(PREVIEW_RECORDER)
    page.goto("./", wait_until="domcontentloaded")
    wait_ready(page)
    assert page.evaluate("window.__previews") == ["HTML:first"]
    game = Game.new("russian", int(page.evaluate("document.getElementById('board').dataset.deal")))
    move = tableau_move(game.position)
    card(page, move.source, len(game.position.pile(move.source)) - move.count).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .card.selected")).to_have_count(move.count)
    key = "ArrowRight" if move.target.index > move.source.index else "ArrowLeft"
    for _ in range(abs(move.target.index - move.source.index)):
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    game.play(move)
    wait_table(page, game.position)
    expect(page.locator("#st-moves")).to_have_text("1")


#: When the card back was asked for, the table written, and Python's start began (page times).
ORDER_JS = """() => {
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  const backs = performance.getEntriesByType('resource').filter((e) => e.name.includes('/back-'));
  return {backs: backs.map((e) => [e.name.split('/').pop(), e.startTime]),
          preload: [...document.querySelectorAll('link[rel=preload][as=image]')]
            .map((l) => l.getAttribute('href')),
          table: mark('table-preview'), start: mark('pyodide-boot:start')};
}"""


def test_the_card_back_is_asked_for_early_and_python_starts_after_the_table(
    any_page: Page,
) -> None:
    """The back is preloaded from <head> (not first asked for when the cards appear at the end
    of parsing), and Pyodide's start waits for the frame that draws the table."""
    page = any_page
    page.goto("./", wait_until="domcontentloaded")
    wait_ready(page)
    order = page.evaluate(ORDER_JS)
    assert order["preload"] == ["web/cards/back-blue.svg"], order
    assert [name for name, _ in order["backs"]] == ["back-blue.svg"], order
    assert order["backs"][0][1] < order["table"] <= order["start"], order
    # a later visit preloads the back its table shows
    page.goto("about:blank")  # leaving the page keeps its table
    page.goto("./manifest.webmanifest")  # the site's origin, without the game
    doc = storage(page, TABLE_KEY)
    doc["looks"]["back"] = "red"
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [TABLE_KEY, json.dumps(doc)])
    page.goto("./", wait_until="domcontentloaded")
    wait_ready(page)
    order = page.evaluate(ORDER_JS)
    assert order["preload"] == ["web/cards/back-red.svg"], order
    assert order["table"] <= order["start"], order
    assert page.evaluate("document.documentElement.dataset.preview ?? null") is None


def test_a_link_shows_no_preview(page: Page) -> None:
    held = held_at(page, "./#russian/12")
    assert pick(page.evaluate(STATE_JS), *NONE) == NONE
    held.release()
    wait_ready(page)
    assert page.evaluate("document.getElementById('board').dataset.deal") == "12"


@pytest.mark.parametrize(
    "table",
    [
        "{not json",
        json.dumps({"v": 1, "release": "another", "game": "russian", "deal": 3, "html": ""}),
        json.dumps({"v": 2, "game": "russian"}),
        json.dumps(
            {
                "v": 1,
                "release": "dev",
                "game": "russian",
                "deal": 3,
                "html": "<p>not the board</p>",
                "vars": {},
                "status": {},
            }
        ),
    ],
    ids=["not-json", "other-release", "newer", "not-a-board"],
)
def test_a_damaged_stored_table_is_not_shown(page: Page, table: str) -> None:
    game = Game.new("double-rail", 5)
    seed_storage(
        page,
        {
            game_key("double-rail"): saved_doc(game),
            f"{SCOPE}solitaire.last": json.dumps({"v": 1, "game": "double-rail"}),
            TABLE_KEY: table,
        },
    )
    held = held_at(page, "./")
    assert pick(page.evaluate(STATE_JS), *NONE) == NONE
    held.release()
    wait_ready(page)
    # the saved game goes on, and leaving the page writes a good table over the damaged one,
    # which the next visit shows
    assert page.evaluate("document.getElementById('board').dataset.game") == "double-rail"
    wait_table(page, game.position)
    # (recorded as it happens: the wasm can come from the memory cache on a reload, and the
    # start is then too quick to look at)
    page.add_init_script(PREVIEW_RECORDER)
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert page.evaluate("window.__previews") == ["HTML:last"]
    doc = storage(page, TABLE_KEY)
    assert pick(doc, "v", "game", "deal") == {"v": 1, "game": "double-rail", "deal": 5}
