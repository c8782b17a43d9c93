"""axe-core (the pinned npm devDependency) over the page in the states a player meets, on a
phone (390x844, touch, light) and on a desktop (1280x800, dark): every game's table, the
menu, each dialog, a selected card, a hint, a stuck game's banner and its answer, the win
dialog. Lighthouse checks only the page as it loads; these states come later.

Rules: WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices, except
``label-content-name-mismatch`` (marked experimental by axe): a card's visible index is an
abbreviation ("Q♥", hidden from assistive technology) of the name its label spells out
("Queen of hearts"), which is what a screen reader should say.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from harness import ROOT, open_game
from playwright.sync_api import Page, expect
from ui_helpers import NEXT_FRAMES, game_key, saved_doc, seed_storage, skip_celebration

from solitaire import GAMES

AXE_SOURCE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# A colour measured mid-fade is a blend no player reads (a toast fades in over 0.2 s as a
# game opens): axe looks at the page once every finite transition and animation has ended,
# those the next frame starts included.
RUN_AXE = """async () => {
  const finite = document.getAnimations().filter(
    a => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
  await Promise.race([
    Promise.all(finite.map(a => a.finished.catch(() => null))),
    new Promise(resolve => setTimeout(resolve, 5000)),
  ]);
  const result = await axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa',
                                    'best-practice']},
    rules: {'label-content-name-mismatch': {enabled: false}},
  });
  return result.violations.map(v => ({
    rule: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary),
  }));
}"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe's findings on the page as it is now (its source is evaluated through the
    DevTools protocol, which the page's Content Security Policy does not govern)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        if not AXE_SOURCE.is_file():
            pytest.fail(f"{AXE_SOURCE.relative_to(ROOT)} is missing: run `npm ci`")
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    page.evaluate(NEXT_FRAMES)
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return found


def check(page: Page, state: str) -> None:
    found = axe_violations(page)
    assert found == [], f"{state}: {json.dumps(found, indent=1, ensure_ascii=False)}"


def is_phone(page: Page) -> bool:
    size = page.viewport_size
    return size is not None and size["width"] < 500


def dark_on_desktop(page: Page) -> None:
    """The phone's page stays light, the desktop's turns dark: both themes are checked."""
    if not is_phone(page):
        page.emulate_media(color_scheme="dark")


def test_every_table_the_menu_and_the_dialogs(any_page: Page) -> None:
    page = any_page
    dark_on_desktop(page)
    for game_id in GAMES:
        open_game(page, game_id, 12)
        check(page, f"{game_id} deal 12")
    page.locator("#btn-menu").click()
    expect(page.locator("#menu")).to_be_visible()
    check(page, "menu open")
    page.keyboard.press("Escape")
    for item, dialog_id in [
        ("Choose deal number…", "dlg-deal"),
        ("Rules of this game", "dlg-rules"),
        ("Statistics", "dlg-stats"),
        ("Settings", "dlg-settings"),
    ]:
        page.locator("#btn-menu").click()
        page.get_by_role("menuitem", name=item).click()
        expect(page.locator(f"#{dialog_id}")).to_be_visible()
        check(page, dialog_id)
        page.keyboard.press("Escape")
        expect(page.locator(f"#{dialog_id}")).to_be_hidden()


def test_a_selected_card_and_a_hint(any_page: Page) -> None:
    page = any_page
    dark_on_desktop(page)
    open_game(page, "double-freecell", 12)
    page.locator("#board [tabindex='0']").focus()
    page.keyboard.press("ArrowDown")  # from the top row to a tableau pile's card
    page.keyboard.press("Enter")  # picks it up
    expect(page.locator("#board .card.selected").first).to_be_visible()
    check(page, "a card picked up by the keyboard")
    page.keyboard.press("Escape")
    page.locator("#btn-hint").click()
    page.wait_for_function(
        "() => ['winning', 'heuristic', 'lost'].includes("
        "document.getElementById('btn-hint').dataset.hint)",
        timeout=90_000,
    )
    check(page, "a hint shown")


def test_a_stuck_game_and_its_answer(any_page: Page) -> None:
    from test_ui_storage import stuck_russian

    page = any_page
    dark_on_desktop(page)
    seed_storage(page, {game_key("russian"): saved_doc(stuck_russian())})
    open_game(page, "russian", 6)
    expect(page.locator("#stuck")).to_be_visible()
    check(page, "stuck banner")
    page.locator("#btn-was-winnable").click()
    expect(page.locator("#stuck-verdict")).to_contain_text("could not be won", timeout=90_000)
    check(page, "stuck banner with its answer")


def test_the_win_dialog(any_page: Page) -> None:
    from test_ui_storage import near_won_russian

    page = any_page
    dark_on_desktop(page)
    game = near_won_russian()
    seed_storage(page, {game_key("russian"): saved_doc(game, counted=True)})
    open_game(page, "russian", game.deal or 5)
    king = page.locator("#board .tableau .card").first
    if is_phone(page):
        king.tap()  # "tap a card to move it" sends it home
    else:
        king.dblclick()
    skip_celebration(page)
    expect(page.locator("#dlg-won")).to_be_visible()
    check(page, "win dialog")


def test_the_check_finds_a_violation(page: Page) -> None:
    """An empty button (no name) put on the table: axe must report it."""
    open_game(page, "russian", 12)
    page.evaluate(
        "document.getElementById('table').append(Object.assign("
        "document.createElement('button'), {id: 'nameless'}))"
    )
    rules = [v["rule"] for v in axe_violations(page)]
    assert "button-name" in rules, rules
