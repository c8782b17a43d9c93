"""The table's looks: card backs and table colours from the settings (computed style, kept
over a reload), the card art, the win celebration (it runs on a win, a tap or a key skips it
to the dialog, reduced motion has none), the optional sounds (none while off, none before a
gesture; a move plays one once they are on) and the buttons' hover and press."""

from __future__ import annotations

from typing import Any

from harness import open_game
from playwright.sync_api import Page, expect
from ui_helpers import (
    KEY_SETTINGS,
    card,
    coarse_pointer,
    game_key,
    play_by_click,
    saved_doc,
    seed_storage,
    storage,
    tableau_move,
    wait_still,
)

from solitaire import Game, Position

#: Counts AudioContexts made and notes started (py/solitaire/web/sound.py), and records whether
#: the celebration's canvas ever appeared.
WATCH_SCRIPT = """
window.__looks = {contexts: 0, notes: 0, celebration: false};
if (window.AudioContext) {
  const Original = window.AudioContext;
  window.AudioContext = class extends Original {
    constructor(...args) { super(...args); window.__looks.contexts += 1; }
  };
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__looks.notes += 1;
    return start.apply(this, args);
  };
}
new MutationObserver(() => {
  if (document.getElementById('celebration')) window.__looks.celebration = true;
}).observe(document, {childList: true, subtree: true});
"""


def looks(page: Page) -> dict[str, int]:
    return page.evaluate("window.__looks")  # type: ignore[no-any-return]


def one_card_left(left: str = "KH") -> Game:
    """Russian with every card home but ``left``, alone on the first pile: one move wins."""
    ranks, suits = "A23456789TJQK", "SHDC"
    doc = {
        "format": 1,
        "game": "russian",
        "deal": 7,
        "tableau": [{"down": [], "up": [left]}] + [{"down": [], "up": []}] * 6,
        "foundations": [[r + s for r in ranks if r + s != left] for s in suits],
    }
    return Game(Position.from_json(doc))


def style_of(page: Page, selector: str, prop: str) -> str:
    return page.evaluate(  # type: ignore[no-any-return]
        "([s, p]) => getComputedStyle(document.querySelector(s))[p]", [selector, prop]
    )


def open_settings(page: Page) -> None:
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Settings").click()


def test_card_back_and_table_follow_the_settings_and_persist(page: Page) -> None:
    open_game(page, "russian", 1)
    down = '#board .card[data-face="down"]'
    assert "back-blue.svg" in style_of(page, down, "backgroundImage")
    assert style_of(page, "body", "backgroundColor") == "rgb(27, 107, 69)"  # green felt
    open_settings(page)
    page.select_option("#set-cardback", "red")
    page.select_option("#set-table", "blue")
    page.keyboard.press("Escape")
    assert "back-red.svg" in style_of(page, down, "backgroundImage")
    assert style_of(page, "body", "backgroundColor") == "rgb(29, 90, 140)"
    assert style_of(page, ".toolbar", "backgroundColor") == "rgb(15, 47, 77)"
    settings = storage(page, KEY_SETTINGS)
    assert (settings["cardBack"], settings["table"]) == ("red", "blue")

    page.reload(wait_until="domcontentloaded")
    page.wait_for_function("document.documentElement.dataset.app === 'ready'")
    assert "back-red.svg" in style_of(page, down, "backgroundImage")
    assert style_of(page, "body", "backgroundColor") == "rgb(29, 90, 140)"

    # the dark theme has its own blue, and darkens the back a little
    open_settings(page)
    page.locator("#set-theme-dark").check()
    page.select_option("#set-cardback", "green")
    page.keyboard.press("Escape")
    assert style_of(page, "body", "backgroundColor") == "rgb(20, 50, 79)"
    back = style_of(page, down, "backgroundImage")
    assert "back-green.svg" in back
    assert "rgba(0, 0, 0, 0.2)" in back


def test_faces_show_the_card_art(page: Page) -> None:
    """A face-up card carries its sprite face; the four-colour deck recolours the art."""
    open_game(page, "russian", 1)
    top = "#board .pile.tableau > .card:last-child"
    name = page.eval_on_selector(top, "el => el.dataset.card")
    href = page.eval_on_selector(f"{top} .art.full use", "el => el.getAttribute('href')")
    assert href == f"web/cards/faces.svg#f-{name}"
    # the sprite is served and holds every face
    text = page.evaluate("fetch('web/cards/faces.svg').then(r => r.text())")
    assert text.count('<symbol id="f-') == 52
    open_settings(page)
    page.locator("#set-fourcolor").check()
    page.keyboard.press("Escape")
    diamond = page.locator('#board .card[data-suit="D"]').first
    if diamond.count():
        colour = diamond.evaluate("el => getComputedStyle(el.querySelector('.art')).fill")
        assert colour == "rgb(20, 87, 200)"  # --blue


def test_win_cascade_then_a_key_skips_to_the_dialog(page: Page) -> None:
    page.context.add_init_script(WATCH_SCRIPT)
    seed_storage(page, {game_key("russian"): saved_doc(one_card_left())})
    open_game(page, "russian", 7)
    card(page, "tableau-0", 0).dblclick()
    canvas = page.locator("#celebration")
    expect(canvas).to_be_visible()
    expect(page.locator("#dlg-won")).not_to_be_visible()
    # the cards are drawn: some pixels of the canvas are no longer transparent
    page.wait_for_function(
        """() => {
          const c = document.getElementById('celebration');
          if (!c) return true;
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          for (let i = 3; i < d.length; i += 4 * 97) if (d[i]) return true;
          return false;
        }"""
    )
    page.keyboard.press("Escape")
    expect(canvas).to_have_count(0)
    expect(page.locator("#dlg-won")).to_be_visible()
    assert page.evaluate("document.getElementById('board').dataset.status") == "won"


def test_win_cascade_on_a_phone_a_tap_skips_it(phone_page: Page) -> None:
    page = phone_page
    page.context.add_init_script(WATCH_SCRIPT)
    seed_storage(page, {game_key("russian"): saved_doc(one_card_left("KC"))})
    open_game(page, "russian", 7)
    box = card(page, "tableau-0", 0).bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 10)
    canvas = page.locator("#celebration")
    expect(canvas).to_be_visible()
    page.touchscreen.tap(195, 400)
    expect(canvas).to_have_count(0)
    expect(page.locator("#dlg-won")).to_be_visible()


def test_reduced_motion_shows_the_dialog_without_a_cascade(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.context.add_init_script(WATCH_SCRIPT)
    seed_storage(page, {game_key("russian"): saved_doc(one_card_left())})
    open_game(page, "russian", 7)
    card(page, "tableau-0", 0).dblclick()
    expect(page.locator("#dlg-won")).to_be_visible()
    assert looks(page)["celebration"] is False


def test_sounds_off_by_default_on_from_the_menu(page: Page) -> None:
    page.context.add_init_script(WATCH_SCRIPT)
    open_game(page, "russian", 3)
    game = Game.new("russian", 3)
    play_by_click(page, game, tableau_move(game.position))
    assert looks(page) == {"contexts": 0, "notes": 0, "celebration": False}

    page.locator("#btn-menu").click()
    toggle = page.locator("#menu-sound")
    expect(toggle).to_have_text("Sounds: off")
    toggle.click()
    assert storage(page, KEY_SETTINGS)["sound"] is True
    after_toggle = looks(page)
    assert after_toggle["contexts"] == 1
    assert after_toggle["notes"] >= 1  # turning sounds on plays one
    play_by_click(page, game, tableau_move(game.position))
    assert looks(page)["notes"] > after_toggle["notes"]
    assert looks(page)["contexts"] == 1  # one context for the page

    page.locator("#btn-menu").click()
    expect(toggle).to_have_text("Sounds: on")
    expect(toggle).to_have_attribute("aria-checked", "true")
    toggle.click()
    silent = looks(page)["notes"]
    play_by_click(page, game, tableau_move(game.position))
    assert looks(page)["notes"] == silent
    assert storage(page, KEY_SETTINGS)["sound"] is False


def test_sound_setting_kept_but_silent_before_a_gesture(page: Page) -> None:
    """Sounds on from a previous visit: the page makes no AudioContext until the player acts."""
    page.context.add_init_script(WATCH_SCRIPT)
    seed_storage(page, {KEY_SETTINGS: '{"sound": true}'})
    open_game(page, "russian", 3)
    page.wait_for_timeout(300)
    assert looks(page)["contexts"] == 0
    game = Game.new("russian", 3)
    play_by_click(page, game, tableau_move(game.position))
    assert looks(page)["contexts"] == 1
    assert looks(page)["notes"] >= 1


BACKGROUND = "id => getComputedStyle(document.getElementById(id)).backgroundColor"


def test_a_tapped_button_does_not_stay_lit_a_hovered_or_pressed_one_does(
    any_page: Page,
) -> None:
    """A touch screen keeps ``:hover`` on the element last tapped: after its tap (and the
    moment of ``:active`` that follows it) the Hint button looks as before, on a phone; with a
    mouse, hovering and pressing light it."""
    page = any_page
    phone = coarse_pointer(page)
    open_game(page, "russian", 3)
    resting = page.evaluate(BACKGROUND, "btn-hint")
    box = page.locator("#btn-hint").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if phone:
        page.touchscreen.tap(x, y)
        assert page.evaluate("document.getElementById('btn-hint').matches(':hover')")
        page.wait_for_function(
            "([id, bg]) => getComputedStyle(document.getElementById(id)).backgroundColor === bg",
            arg=["btn-hint", resting],
            timeout=2000,
        )
        page.wait_for_timeout(300)
        assert page.evaluate(BACKGROUND, "btn-hint") == resting
    else:
        page.mouse.move(x, y)
        hovered = page.evaluate(BACKGROUND, "btn-hint")
        page.mouse.down()
        pressed = page.evaluate(BACKGROUND, "btn-hint")
        page.mouse.up()
        page.mouse.move(1, 700)
        assert resting not in (hovered, pressed)
        assert page.evaluate(BACKGROUND, "btn-hint") == resting


#: Every animation frame until ``window.__stacked.stop``: the cards on their way (FLIP, not the
#: cards' CSS transitions) not drawn or drawn without a shadow, and the frames where a
#: non-empty foundation's top card at rest is not drawn.
STACKED_PROBE = """() => {
  const seen = window.__stacked =
    {frames: 0, hiddenMoving: 0, bareMoving: 0, bareFoundation: 0, stop: false};
  const drawn = (el) => el.checkVisibility({visibilityProperty: true});
  const tick = () => {
    seen.frames += 1;
    const moving = new Set(document.getAnimations()
      .filter((a) => a.playState === 'running' && a.effect && a.effect.target &&
        !(a instanceof CSSTransition))
      .map((a) => a.effect.target));
    for (const el of moving) {
      if (!el.matches('.card')) continue;
      if (!drawn(el)) seen.hiddenMoving += 1;
      if (getComputedStyle(el).boxShadow === 'none') seen.bareMoving += 1;
    }
    for (const pile of document.querySelectorAll('#board .foundation')) {
      const resting = [...pile.children].filter((c) => !moving.has(c));
      if (resting.length && !drawn(resting[resting.length - 1])) {
        seen.bareFoundation += 1;
        seen.bareAt = [pile.dataset.pile, pile.children.length, resting.length];
      }
    }
    if (!seen.stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""

#: Per pile of the top row: its cards, which of them are drawn and which have an edge or a
#: shadow (indices from the bottom).
STACKED_DRAWN = """() => Object.fromEntries([...document.querySelectorAll('#board .top .pile')]
  .map((p) => {
    const cards = [...p.children];
    const drawn = cards.flatMap((c, i) =>
      c.checkVisibility({visibilityProperty: true}) ? [i] : []);
    const edged = drawn.filter((i) => {
      const s = getComputedStyle(cards[i]);
      return s.boxShadow !== 'none' || s.borderTopColor !== 'rgba(0, 0, 0, 0)';
    });
    return [p.dataset.pile, {cards: cards.length, drawn, edged}];
  }))"""


def drawn_on_top(pile: dict[str, Any]) -> None:
    """Only a few top cards of a stacked pile are drawn, and only its top two have edges."""
    n = pile["cards"]
    assert pile["drawn"] == list(range(n - len(pile["drawn"]), n)), pile
    assert min(n, 2) <= len(pile["drawn"]) <= 12, pile
    assert pile["edged"] == list(range(max(0, n - 2), n)), pile


def four_suits_to_finish() -> Game:
    """Double FreeCell with every suit once round and its second round on a pile of its own,
    Ace on top: 52 foundation moves win, several cards on their way to a pile at once."""
    ranks, suits = "A23456789TJQK", "SHDC"
    doc = {
        "format": 1,
        "game": "double-freecell",
        "deal": 8,
        "tableau": [{"up": [r + s for r in ranks[::-1]]} for s in suits] + [{"up": []}] * 6,
        "cells": [None] * 6,
        "foundations": [[r + s for r in ranks] for s in suits],
    }
    return Game(Position.from_json(doc))


def test_stacked_piles_draw_their_top_cards_and_every_card_on_its_way(
    phone_page: Page,
) -> None:
    """A pile of the top row lays its cards on one another: only its top cards are drawn, and
    only the top two with edges (a Double Rail stock's 99 edges and shadows made a thick
    black frame). A card on its way to such a pile is drawn all the way, with its shadow, and
    under it the pile's top card at rest: an auto-finish of 52 cards sends several to one
    foundation at once."""
    page = phone_page
    seed_storage(page, {game_key("double-freecell"): saved_doc(four_suits_to_finish())})
    open_game(page, "double-rail", 7)
    drawn = page.evaluate(STACKED_DRAWN)
    assert drawn["stock"]["cards"] == 99, drawn
    drawn_on_top(drawn["stock"])

    page.select_option("#game-select", "double-freecell")
    page.wait_for_function("document.getElementById('board').dataset.game === 'double-freecell'")
    drawn = page.evaluate(STACKED_DRAWN)
    assert drawn["foundation-0"]["cards"] == 13, drawn
    drawn_on_top(drawn["foundation-0"])
    page.evaluate(STACKED_PROBE)
    finish = page.locator("#btn-finish")
    expect(finish).to_be_visible()
    box = finish.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("document.getElementById('board').dataset.status === 'won'")
    wait_still(page)
    seen = page.evaluate("() => { window.__stacked.stop = true; return window.__stacked; }")
    assert seen["frames"] > 20, seen
    assert seen["hiddenMoving"] == 0, seen
    assert seen["bareMoving"] == 0, seen
    assert seen["bareFoundation"] == 0, seen
    drawn = page.evaluate(STACKED_DRAWN)
    for k in range(4):
        assert drawn[f"foundation-{k}"]["cards"] == 26, drawn
        drawn_on_top(drawn[f"foundation-{k}"])
