"""The keyboard and the marks a player sees: the picked-up cards and the focus show together
and differ (light and dark theme), a focused legal target keeps its mark, the focus ring is
a card's size wherever the focus lands (a pile's tall empty area too), the shortcuts work with
the game picker focused, ? opens the help at the shortcuts table; dialog controls readable in
the dark theme; a dragged card passes above the toast, the status bar, the toolbar and the
notice bar (phone upright, phone on its side, desktop). Screenshots go to /tmp/keys-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from harness import open_game, screenshot
from playwright.sync_api import Page, expect
from test_ui_touch import finger, touch
from ui_helpers import card, click_move, find_deal, pile_el, tableau_move, wait_still

from solitaire import Game, Position
from solitaire.piles import FOUNDATION

SELECT = "rgb(255, 212, 0)"  # --select
TARGET = "rgb(127, 227, 255)"  # --target


def _two_card_move(position: Position) -> bool:
    """A tableau move of two cards or more onto a non-empty pile (the first tableau move)."""
    moves = [
        m
        for m in position.legal_moves()
        if m.source.kind == m.target.kind == "tableau" and position.pile(m.target)
    ]
    return bool(moves) and min(m.count for m in moves) >= 2


DEAL = find_deal("russian", _two_card_move)

#: The marks of an element: its outline, box-shadow and filter as computed.
MARKS = """(el) => { const s = getComputedStyle(el);
  return {outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth),
          offset: parseFloat(s.outlineOffset), shadow: s.boxShadow, filter: s.filter}; }"""


def marks(page: Page, selector: str) -> dict[str, Any]:
    return page.eval_on_selector(selector, MARKS)  # type: ignore[no-any-return]


def focused_card_selector(page: Page) -> str:
    pile, index = page.evaluate(
        """() => { const el = document.activeElement; const p = el.closest('[data-pile]');
        return [p.dataset.pile, [...p.querySelectorAll('.card')].indexOf(el)]; }"""
    )
    return f'#board [data-pile="{pile}"] > .card:nth-child({index + 1})'


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_picked_up_cards_and_the_focus_show_together(page: Page, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_game(page, "russian", DEAL)
    position = Position.deal_of("russian", DEAL)
    move = tableau_move(position)
    n = len(position.pile(move.source))
    lead = n - move.count
    card(page, move.source, lead).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#board .card.selected")).to_have_count(move.count)
    wait_still(page)
    lead_sel = f'#board [data-pile="{move.source}"] > .card:nth-child({lead + 1})'
    other_sel = f'#board [data-pile="{move.source}"] > .card:nth-child({n})'
    assert focused_card_selector(page) == lead_sel
    both, selected = marks(page, lead_sel), marks(page, other_sel)
    # the selection: a yellow ring and glow (box-shadow), on the focused card too
    assert SELECT in selected["shadow"]
    assert selected["outline"] == "none"
    assert SELECT in both["shadow"]
    # the focus: an outline ring outside the card, with a dark edge; a different channel
    assert both["outline"] == "solid"
    assert both["outlineWidth"] >= 3
    assert both["offset"] >= 2
    assert "drop-shadow" in both["filter"]
    screenshot(page, f"/tmp/keys-focus-selected-{scheme}.png")
    screenshot(page, f"/tmp/keys-focus-selected-{scheme}-crop.png", clip=around(page, move))
    # walk to the target: it keeps its "can go here" ring while focused
    key = "ArrowRight" if move.target.index > move.source.index else "ArrowLeft"
    for _ in range(abs(move.target.index - move.source.index)):
        page.keyboard.press(key)
    top = len(position.pile(move.target))
    target_sel = f'#board [data-pile="{move.target}"] > .card:nth-child({top})'
    assert focused_card_selector(page) == target_sel
    expect(pile_el(page, move.target)).to_have_class("pile tableau target")
    target = marks(page, target_sel)
    assert TARGET in target["shadow"]
    assert target["outline"] == "solid"
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    screenshot(page, f"/tmp/keys-focus-target-{scheme}.png")


def around(page: Page, move: Any) -> Any:
    """The part of the page that shows the move's two piles (for a small screenshot)."""
    boxes = [pile_el(page, p).bounding_box() for p in (move.source, move.target)]
    lead = page.locator("#board .card.selected").last.bounding_box()
    assert lead is not None
    assert None not in boxes
    left = min(b["x"] for b in boxes if b) - 16
    right = max(b["x"] + b["width"] for b in boxes if b) + 16
    top = min(b["y"] for b in boxes if b) - 16
    return {
        "x": left,
        "y": top,
        "width": right - left,
        "height": lead["y"] + lead["height"] + 24 - top,
    }


#: The box of the focus ring a player sees: the outline of the focused element or, for a
#: focused pile, of its top card (or of its empty slot, ::before); with the ring's own width.
RING_BOX = """() => {
  const el = document.activeElement;
  const pile = el.matches('.pile') ? el : null;
  const ringEl = pile ? (pile.querySelector('.card:last-child') || pile) : el;
  const pseudo = ringEl === pile ? '::before' : null;
  const s = getComputedStyle(ringEl, pseudo);
  const r = ringEl.getBoundingClientRect();
  const w = pseudo ? parseFloat(s.width) : r.width, h = pseudo ? parseFloat(s.height) : r.height;
  const grow = 2 * (parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth));
  const own = getComputedStyle(el);
  return {tag: el.className, visible: el.matches(':focus-visible'), ring: s.outlineStyle,
          width: w + grow, height: h + grow, ownOutline: own.outlineStyle,
          ownShadow: own.boxShadow};
}"""

CARD_SIZE = """() => { const c = document.querySelector('#board .card').getBoundingClientRect();
  return [c.width, c.height]; }"""


def assert_card_sized_ring(page: Page) -> None:
    ring = page.evaluate(RING_BOX)
    width, height = page.evaluate(CARD_SIZE)
    assert ring["visible"], ring
    assert ring["ring"] == "solid", ring
    assert ring["ownOutline"] == "none" or "card" in ring["tag"], ring
    # the ring stands 6 px (offset 3 + width 3) outside the card on each side
    assert abs(ring["width"] - (width + 12)) <= 3, (ring, width)
    assert abs(ring["height"] - (height + 12)) <= 3, (ring, height)


@pytest.mark.parametrize("key", ["Escape", "ArrowDown"])
def test_the_focus_ring_is_a_card_after_a_click_under_a_pile(page: Page, key: str) -> None:
    open_game(page, "russian", DEAL)
    wait_still(page)
    pile = pile_el(page, "tableau-3")
    box = pile.bounding_box()
    assert box is not None
    assert box["height"] > 400  # the pile's click area: the whole height left
    pile.click(position={"x": box["width"] / 2, "y": box["height"] - 20})
    page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.pile") == "tableau-3"
    assert_card_sized_ring(page)
    screenshot(page, "/tmp/keys-pile-focus.png")
    # an empty pile (a foundation at the deal): the ring is its slot's
    pile_el(page, FOUNDATION[0]).click(position={"x": 10, "y": 10})
    page.keyboard.press("Escape")  # (ArrowDown would go on to the tableau)
    assert page.evaluate("document.activeElement.dataset.pile") == str(FOUNDATION[0])
    assert_card_sized_ring(page)


def test_shortcuts_work_with_the_game_picker_focused(page: Page) -> None:
    open_game(page, "russian", DEAL)
    game = Game.new("russian", DEAL)
    click_move(page, game.position, tableau_move(game.position))
    expect(page.locator("#st-moves")).to_have_text("1")
    picker = page.locator("#game-select")
    picker.focus()
    page.keyboard.press("Control+z")
    expect(page.locator("#st-moves")).to_have_text("0")
    page.keyboard.press("Control+y")
    expect(page.locator("#st-moves")).to_have_text("1")
    expect(picker).to_be_focused()
    expect(picker).to_have_value("russian")  # the letters did not pick another game
    page.keyboard.press("h")
    expect(page.locator("#btn-hint")).not_to_have_attribute("data-hint", "")
    # with a dialog open, N is the dialog's
    page.locator("#btn-menu").click()
    page.locator('#menu [data-action="deal"]').click()
    expect(page.locator("#dlg-deal")).to_be_visible()
    page.keyboard.press("n")
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-deal")).to_be_hidden()
    assert page.locator("#board").get_attribute("data-deal") == str(DEAL)
    picker.focus()
    page.keyboard.press("n")
    expect(page.locator("#board")).not_to_have_attribute("data-deal", str(DEAL))
    expect(page.locator("#st-moves")).to_have_text("0")
    expect(picker).to_have_value("russian")


def test_question_mark_opens_the_help_at_the_shortcuts(page: Page) -> None:
    open_game(page, "russian", DEAL)
    page.locator("#btn-undo").focus()  # a button has the focus
    page.keyboard.press("?")
    dialog = page.locator("#dlg-rules")
    expect(dialog).to_be_visible()
    table = page.locator("#shortcuts")
    expect(table).to_be_in_viewport()
    keys = table.locator("tbody td:first-child").all_inner_texts()
    for want in ("Ctrl+Z", "Ctrl+Y", "H", "N", "?", "F", "Esc"):
        assert any(want in k for k in keys), (want, keys)
    screenshot(page, "/tmp/keys-help.png")
    page.keyboard.press("?")  # in the dialog: nothing more
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


#: The contrast ratio (WCAG) of the checked radio's colour against the dialog's background.
CONTRAST = """(sel) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map(v => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const on = getComputedStyle(document.querySelector(sel)).accentColor;
  const bg = getComputedStyle(document.getElementById('dlg-settings')).backgroundColor;
  const [a, b] = [lum(on), lum(bg)].sort((x, y) => y - x);
  return [(a + 0.05) / (b + 0.05), on, bg];
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_dialog_controls_show_their_state_in_both_themes(page: Page, theme: str) -> None:
    open_game(page, "russian", 1)
    page.locator("#btn-menu").click()
    page.locator('#menu [data-action="settings"]').click()
    page.locator(f"#set-theme-{theme}").check()
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    for sel in (f"#set-theme-{theme}", "#set-automove"):
        ratio, on, bg = page.evaluate(CONTRAST, sel)
        assert ratio >= 3, (sel, on, bg, ratio)
    screenshot(page.locator("#dlg-settings"), f"/tmp/keys-settings-{theme}.png")


# ----------------------------------------------------------------------------- drags on top

#: What is drawn at a point: whether it is the dragged card (or inside it). The toast and the
#: folded status line (phone on its side) let the pointer through (pointer-events: none), and
#: hit testing skips such elements: they take it for the test, so that elementFromPoint
#: answers by what is painted on top.
ON_TOP = """([x, y]) => {
  const through = [...document.querySelectorAll('#toast, #status')];
  through.forEach(e => { e.style.pointerEvents = 'auto'; });
  const el = document.elementFromPoint(x, y);
  through.forEach(e => { e.style.pointerEvents = ''; });
  return el ? [!!el.closest('.card.dragging'), el.id || el.className] : [false, 'nothing']; }"""

#: A toast and the notice bar on screen, as a refused move and a new version show them.
SHOW_TOAST = """() => { const t = document.getElementById('toast');
  t.textContent = 'A toast to drag a card over'; t.className = 'toast show';
  document.getElementById('notice-text').textContent = 'A notice to drag a card over';
  document.getElementById('notice').hidden = false; }"""


def drag_over_everything(page: Page, press: Any, move: Any, size: tuple[int, int]) -> None:
    """Pick up the top card of the first tableau pile and hold its centre over the toast, the
    status bar, the toolbar and the notice bar, checking each time that the card is what is
    drawn there; ``press`` / ``move`` drive the pointer (finger or mouse)."""
    wait_still(page)
    page.evaluate(SHOW_TOAST)
    box = card(page, "tableau-0", len(Position.deal_of("russian", 1).tableau[0]) - 1)
    b = box.bounding_box()
    assert b is not None
    x0, y0 = b["x"] + b["width"] / 2, b["y"] + min(12.0, b["height"] / 4)
    grab = (x0 - (b["x"] + b["width"] / 2), y0 - (b["y"] + b["height"] / 2))
    press(x0, y0)
    move(x0 + 10, y0 + 10)
    for sel in ("#toast", "#status", ".toolbar", "#notice"):
        t = page.locator(sel).bounding_box()
        assert t is not None, sel
        assert t["width"] > 0, sel
        cx, cy = t["x"] + min(t["width"] / 2, 60), t["y"] + t["height"] / 2
        move(cx + grab[0], cy + grab[1])
        page.wait_for_timeout(50)
        on_top, what = page.evaluate(ON_TOP, [cx, cy])
        assert on_top, (size, sel, what)
        if sel == "#toast":
            screenshot(page, f"/tmp/keys-drag-{size[0]}x{size[1]}.png")
    move(x0, y0)


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["upright", "on-its-side"])
def test_a_finger_drag_passes_above_the_toast_status_and_toolbar(
    phone_page: Page, size: tuple[int, int]
) -> None:
    page = phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_game(page, "russian", 1)
    cdp = finger(page)
    drag_over_everything(
        page,
        lambda x, y: touch(cdp, "touchStart", x, y),
        lambda x, y: touch(cdp, "touchMove", x, y),
        size,
    )
    touch(cdp, "touchEnd", 0, 0)
    cdp.detach()


def test_a_mouse_drag_passes_above_the_toast_status_and_toolbar(page: Page) -> None:
    open_game(page, "russian", 1)

    def press(x: float, y: float) -> None:
        page.mouse.move(x, y)
        page.mouse.down()

    drag_over_everything(page, press, lambda x, y: page.mouse.move(x, y, steps=4), (1280, 800))
    page.mouse.up()
