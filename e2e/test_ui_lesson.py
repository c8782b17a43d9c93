"""The lessons (docs/ui-input.md, "Lessons") in a real Chromium: on the first visit of each
game a short lesson ([data-tutorial]) on a fixed position, played with the mouse on a desktop
and with real touch events on a 390x844 phone; never shown again once finished or skipped,
back with the menu's "How to play"; the player's game unchanged after a skip; Escape skips;
the rule chip (#st-rule) on a game's first deals only."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from harness import Screen, open_game, screenshot, wait_ready
from playwright.sync_api import Page, expect
from test_ui_touch import finger_drag, pile_point
from ui_helpers import KEY_SETTINGS, dom_piles, drag, seed_storage, wait_still, with_lessons

from solitaire import GAMES, Move, Position
from solitaire.web.lesson import PLANS, RULE_CHIP_DEALS

PANEL = "[data-tutorial]"
SHOTS = "/work/wt/shots/lesson"


def lesson_moves(game_id: str) -> list[Move]:
    """The first legal move of each step, as the engine plays the plan."""
    position: Position = PLANS[game_id].start()
    out = []
    for step in PLANS[game_id].steps:
        legal = {str(m) for m in position.legal_moves()}
        move = Move.parse(next(m for m in step.moves if m in legal))
        out.append(move)
        position = position.play(move)
    return out


def play_lesson(page: Page, game_id: str, fingers: bool, shots: str = "") -> None:
    """Play the lesson shown with the player's own input paths: the stock tapped or clicked,
    every other move dragged (mouse or finger)."""
    steps = PLANS[game_id].steps
    position = PLANS[game_id].start()
    for k, move in enumerate(lesson_moves(game_id)):
        expect(page.locator("#tutorial-counter")).to_have_text(f"{k + 1} / {len(steps)}")
        expect(page.locator("#tutorial-text")).to_have_text(steps[k].text)
        if shots and k == 1:
            screenshot(page, f"{SHOTS}/{shots}.png")
        wait_still(page)
        if move.source.kind == "stock":
            x, y = pile_point(page, "stock")
            if fingers:
                page.touchscreen.tap(x, y)
            else:
                page.mouse.click(x, y)
        else:
            index = len(position.pile(move.source)) - move.count
            if fingers:
                finger_drag(page, str(move.source), index, str(move.target))
            else:
                drag(page, str(move.source), index, str(move.target))
        position = position.play(move)
    expect(page.locator("#tutorial-counter")).to_have_text("✓")
    expect(page.locator("#tutorial-skip")).to_have_text("Back to my game")


def back_to_the_game(page: Page, game_id: str, fingers: bool) -> None:
    if fingers:
        page.locator("#tutorial-skip").tap()
    else:
        page.locator("#tutorial-skip").click()
    expect(page.locator(PANEL)).to_be_hidden()
    expect(page.locator("#board")).to_have_attribute("data-game", game_id)
    expect(page.locator("#board")).to_have_attribute("data-deal", "1")
    expect(page.locator("#st-moves")).to_have_text("0")


def each_games_lesson(page: Page) -> Iterator[str]:
    """Open deal 1 of each game in turn (the first by a fresh boot, the rest by the URL)
    and yield its id once its lesson panel shows."""
    for n, game_id in enumerate(GAMES):
        if n == 0:
            open_game(page, game_id, 1)
        else:
            page.goto(f"./#{game_id}/1")
        expect(page.locator(PANEL)).to_be_visible()
        yield game_id


def test_a_desktop_mouse_plays_every_games_lesson_once(page: Page) -> None:
    with_lessons(page)
    for game_id in each_games_lesson(page):
        expect(page.locator("#board")).to_have_attribute("data-deal", "")
        play_lesson(page, game_id, fingers=False, shots=f"lesson-desktop-{game_id}")
        back_to_the_game(page, game_id, fingers=False)
        page.reload()
        wait_ready(page)
        expect(page.locator("#board")).to_have_attribute("data-game", game_id)
        expect(page.locator(PANEL)).to_be_hidden()
    done = json.loads(page.evaluate("k => localStorage.getItem(k)", KEY_SETTINGS))
    assert sorted(done["lessonsDone"]) == sorted(GAMES)


def test_fingers_play_the_russian_and_double_rail_lessons(phone_page: Page) -> None:
    page = phone_page
    with_lessons(page)
    open_game(page, "russian", 1)
    expect(page.locator(PANEL)).to_be_visible()
    play_lesson(page, "russian", fingers=True, shots="lesson-phone-russian")
    back_to_the_game(page, "russian", fingers=True)
    page.goto("./#double-rail/1")
    expect(page.locator(PANEL)).to_be_visible()
    play_lesson(page, "double-rail", fingers=True, shots="lesson-phone-double-rail")
    back_to_the_game(page, "double-rail", fingers=True)
    page.reload()
    wait_ready(page)
    expect(page.locator(PANEL)).to_be_hidden()


def test_skip_escape_and_how_to_play_leave_the_players_game_as_it_was(page: Page) -> None:
    with_lessons(page)
    open_game(page, "russian", 1)
    expect(page.locator(PANEL)).to_be_visible()
    page.keyboard.press("Escape")  # the keyboard skips
    expect(page.locator(PANEL)).to_be_hidden()
    # a move of the player's own, then the lesson again from the menu
    position = Position.deal_of("russian", 1)
    move = next(m for m in position.legal_moves() if m.source.kind == "tableau")
    drag(page, str(move.source), len(position.pile(move.source)) - move.count, str(move.target))
    expect(page.locator("#st-moves")).to_have_text("1")
    wait_still(page)
    before = dom_piles(page)
    saved = page.evaluate("() => localStorage.getItem('/solitaire.game.russian')")
    page.locator("#btn-menu").click()
    page.locator('[data-action="how-to-play"]').click()
    expect(page.locator(PANEL)).to_be_visible()
    play_lesson_step_by_keys(page)
    page.locator("#tutorial-skip").click()
    expect(page.locator(PANEL)).to_be_hidden()
    wait_still(page)
    assert dom_piles(page) == before
    expect(page.locator("#st-moves")).to_have_text("1")
    assert page.evaluate("() => localStorage.getItem('/solitaire.game.russian')") == saved
    page.locator("#btn-undo").click()  # the player's own undo history
    expect(page.locator("#st-moves")).to_have_text("0")
    # Settings' "Show the lessons again": the lesson is back at the next open
    page.locator("#btn-menu").click()
    page.locator('#menu [data-action="settings"]').click()
    page.locator("#set-lessons-again").click()
    expect(page.locator("#dlg-settings")).not_to_be_visible()
    page.reload()
    wait_ready(page)
    expect(page.locator(PANEL)).to_be_visible()


def play_lesson_step_by_keys(page: Page) -> None:
    """The first Russian step with the keyboard: focus the J♥, Enter, Left to the Q♥, Enter."""
    first = lesson_moves("russian")[0]
    page.locator(f'#board [data-pile="{first.source}"] .card').last.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.locator("#tutorial-counter")).to_have_text("2 / 4")


def test_the_rule_chip_shows_on_the_first_deals_and_not_after(page: Page) -> None:
    with_lessons(page)
    seed_storage(page, {KEY_SETTINGS: json.dumps({"v": 1, "lessonsDone": list(GAMES)})})
    open_game(page, "double-freecell", 1)
    expect(page.locator(PANEL)).to_be_hidden()
    chip = page.locator("#st-rule")
    expect(chip).to_have_text(GAMES["double-freecell"].rule_line)
    screenshot(page, f"{SHOTS}/lesson-rule-chip.png")
    for _deal in range(RULE_CHIP_DEALS):
        expect(chip).to_be_visible()
        wait_still(page)
        position = Position.deal_of(
            "double-freecell", int(page.locator("#board").get_attribute("data-deal") or 0)
        )
        move = next(
            m for m in position.legal_moves() if m.source.kind == "tableau" and m.count == 1
        )
        drag(page, str(move.source), len(position.pile(move.source)) - 1, str(move.target))
        expect(page.locator("#st-moves")).to_have_text("1")
        page.locator("#btn-new").click()
        expect(page.locator("#st-moves")).to_have_text("0")
    expect(chip).to_be_hidden()


NO_SCROLL = "() => document.scrollingElement.scrollHeight <= innerHeight + 1"


def test_the_lesson_fits_a_phone_upright_and_on_its_side(
    screen_page: Callable[[Screen], Page],
) -> None:
    """Every game's lesson position, with its panel, fits 390x844 and 844x390 unscrolled."""
    for width, height in ((390, 844), (844, 390)):
        page = screen_page((width, height, True))
        with_lessons(page)
        for game_id in each_games_lesson(page):
            wait_still(page)
            assert page.evaluate(NO_SCROLL), (game_id, width, height)
            panel = page.locator(PANEL).bounding_box()
            board = page.locator("#board .card").first.bounding_box()
            assert panel is not None
            assert board is not None
            screenshot(page, f"{SHOTS}/lesson-{width}x{height}-{game_id}.png")
            page.keyboard.press("Escape")
            expect(page.locator(PANEL)).to_be_hidden()
