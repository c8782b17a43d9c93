"""One click loses nothing: Restart, New deal, a chosen deal and a link are undone by Ctrl+Z or
the Undo button in their toast (with a mouse, and with taps on a phone); a link keeps the game
it replaced ("Continue deal N"); a fresh profile gets winnable Russian deals and the status
line says so; the clock stands still while a dialog is open and can be hidden; hints are
counted in the win dialog; the Hint button keeps its size while the solver thinks; "Copy link
to this deal" copies the page's own address with the deal."""

from __future__ import annotations

import json
from typing import Any

import ui_helpers as ui
from harness import ROOT, open_game, screenshot
from playwright.sync_api import Page, expect
from ui_helpers import board, click_move, tableau_move, wait_table

from solitaire import Game, Move, Position
from solitaire.piles import TABLEAU
from solitaire.web.tap_moves import tap_moves

SOLVER_TIMEOUT_MS = 60_000  # a first hint boots the worker's own Pyodide


def play_tableau_moves(page: Page, game: Game, count: int) -> None:
    for _ in range(count):
        move = tableau_move(game.position)
        click_move(page, game.position, move)
        game.play(move)
        expect(page.locator("#st-moves")).to_have_text(str(game.move_count))


def expect_table(page: Page, game: Game) -> None:
    expect(page.locator("#board")).to_have_attribute("data-deal", str(game.deal))
    expect(page.locator("#st-moves")).to_have_text(str(game.move_count))
    wait_table(page, game.position)


def test_restart_new_deal_and_chosen_deal_are_undone_by_ctrl_z(page: Page) -> None:
    open_game(page, "double-freecell", 4242)
    game = Game.new("double-freecell", 4242, automove=True)
    play_tableau_moves(page, game, 2)
    toast = page.locator("#toast")

    page.locator("#btn-restart").click()
    expect(page.locator("#st-moves")).to_have_text("0")
    expect(toast).to_contain_text("Restarted deal 4242.")
    expect(page.locator("#toast-action")).to_have_text("Undo")
    screenshot(page, "/tmp/flow-restart-toast.png")
    page.keyboard.press("Control+z")
    expect_table(page, game)
    expect(page.locator("#btn-redo")).to_be_disabled()

    page.locator("#btn-new").click()
    expect(page.locator("#board")).not_to_have_attribute("data-deal", "4242")
    deal = board(page)["deal"]
    expect(toast).to_contain_text(f"New deal {deal}.")
    expect(page.locator("#btn-undo")).to_be_enabled()  # at move 0: it undoes the new deal
    page.keyboard.press("Control+z")
    expect_table(page, game)
    assert page.evaluate("location.hash") == "#double-freecell/4242"

    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Choose deal number…").click()
    page.fill("#deal-input", "99")
    page.locator("#form-deal button[type=submit]").click()
    expect(page.locator("#board")).to_have_attribute("data-deal", "99")
    page.keyboard.press("Control+z")
    expect_table(page, game)


def test_new_deal_undone_by_the_toast_button_with_taps_on_a_phone(phone_page: Page) -> None:
    page = phone_page
    open_game(page, "russian", 7)
    game = Game.new("russian", 7, automove=True)
    play_tableau_moves(page, game, 2)
    stats = ui.storage(page, ui.stats_key("russian"))
    assert stats["played"] == 1
    page.locator("#btn-new").tap()
    expect(page.locator("#board")).not_to_have_attribute("data-deal", "7")
    button = page.locator("#toast-action")
    expect(button).to_be_visible()
    screenshot(page, "/tmp/flow-phone-new-deal-toast.png")
    button.tap()
    expect_table(page, game)
    expect(page.locator("#toast")).not_to_have_class("toast info show has-action")
    assert (
        ui.storage(page, ui.stats_key("russian")) == stats
    )  # neither a played game nor the streak


#: Where the focus lands when the toast's button is asked to take it.
FOCUS_TOAST_BUTTON = """() => { const b = document.getElementById('toast-action'); b.focus();
  const took = document.activeElement === b; b.blur(); return took; }"""


def test_the_toasts_button_leaves_the_keyboard_with_the_toast(page: Page) -> None:
    """While "New deal N. [Undo]" shows, its Undo takes the focus; once the toast has gone (its
    8 s) the toast is inert, so that no focusable button is left inside an aria-hidden
    region (axe: aria-hidden-focus)."""
    open_game(page, "russian", 7)
    toast = page.locator("#toast")
    assert toast.evaluate("(t) => t.inert")  # none shown yet
    page.locator("#btn-new").click()
    expect(page.locator("#toast-action")).to_have_text("Undo")
    assert not toast.evaluate("(t) => t.inert")
    assert page.evaluate(FOCUS_TOAST_BUTTON)
    page.wait_for_function(
        "!document.getElementById('toast').classList.contains('show')", timeout=20_000
    )
    assert toast.get_attribute("aria-hidden") == "true"
    assert toast.evaluate("(t) => t.inert")
    assert not page.evaluate(FOCUS_TOAST_BUTTON)


def test_a_link_keeps_the_game_and_offers_to_continue_it(page: Page) -> None:
    """Deal 7 with moves, then a link to deal 9 typed into the address bar: Undo brings deal
    7 back; after a move in deal 9, the menu's "Continue deal 7" does."""
    open_game(page, "russian", 7)
    game = Game.new("russian", 7, automove=True)
    play_tableau_moves(page, game, 2)
    page.evaluate("location.hash = '#russian/9'")
    expect(page.locator("#board")).to_have_attribute("data-deal", "9")
    expect(page.locator("#toast")).to_contain_text("Deal 9 from the link.")
    page.locator("#toast-action").click()
    expect_table(page, game)

    page.evaluate("location.hash = '#russian/9'")
    expect(page.locator("#board")).to_have_attribute("data-deal", "9")
    nine = Game.new("russian", 9, automove=True)
    play_tableau_moves(page, nine, 1)
    page.locator("#btn-menu").click()
    item = page.locator("#menu-continue")
    expect(item).to_have_text("Continue deal 7 (2 moves)")
    screenshot(page, "/tmp/flow-menu-continue.png")
    item.click()
    expect_table(page, game)
    page.locator("#btn-menu").click()
    expect(item).to_have_text("Continue deal 9 (1 move)")


def test_a_link_opening_the_page_keeps_the_saved_game(page: Page) -> None:
    game = Game.new("russian", 7, automove=True)
    for _ in range(3):
        game.play(tableau_move(game.position))
    ui.seed_storage(page, {ui.game_key("russian"): ui.saved_doc(game, counted=True)})
    open_game(page, "russian", 9)
    expect(page.locator("#board")).to_have_attribute("data-deal", "9")
    expect(page.locator("#toast")).to_contain_text("Deal 9 from the link.")
    page.keyboard.press("Control+z")
    expect_table(page, game)


def test_a_fresh_profile_gets_winnable_russian_deals_and_the_status_says_so(page: Page) -> None:
    winnable = set(json.loads((ROOT / "web/winnable/russian.json").read_text("utf-8")))
    open_game(page, "russian", 2)  # Russian 2 cannot be won
    expect(page.locator("#st-winnable")).to_be_hidden()
    for _ in range(2):
        before = board(page)["deal"]
        page.locator("#btn-new").click()
        expect(page.locator("#board")).not_to_have_attribute("data-deal", before)
        assert int(board(page)["deal"]) in winnable
        expect(page.locator("#st-winnable")).to_be_visible()
    screenshot(page, "/tmp/flow-winnable-status.png")
    page.locator("#btn-menu").click()
    page.locator("#menu [data-action=settings]").click()
    expect(page.locator("#set-winnable")).to_be_checked()
    expect(page.locator("#set-winnable-note")).to_contain_text("93.5 %")


def clock_seconds(page: Page) -> int:
    minutes, seconds = page.locator("#st-time").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_clock_stands_still_while_a_dialog_is_open_and_can_be_hidden(page: Page) -> None:
    open_game(page, "russian", 7)
    game = Game.new("russian", 7, automove=True)
    play_tableau_moves(page, game, 1)
    page.wait_for_function("document.getElementById('st-time').textContent !== '0:00'")
    page.locator("#btn-menu").click()
    page.locator("#menu [data-action=stats]").click()
    expect(page.locator("#dlg-stats")).to_be_visible()
    shown = clock_seconds(page)
    page.wait_for_timeout(3500)
    assert clock_seconds(page) <= shown + 1  # a tick may land as the dialog opens
    page.locator("#dlg-stats button[type=submit]").click()
    page.wait_for_function(  # running again
        """s => {
          const [m, x] = document.getElementById('st-time').textContent.split(':');
          return Number(m) * 60 + Number(x) >= s;
        }""",
        arg=shown + 1,
        timeout=5000,
    )
    saved = ui.storage(page, ui.game_key("russian"))["save"]["elapsed"]
    assert saved < shown + 4

    page.locator("#btn-menu").click()
    page.locator("#menu [data-action=settings]").click()
    page.locator("#set-timer").uncheck()
    page.locator("#dlg-settings button[type=submit]").click()
    expect(page.locator("#st-clock")).to_be_hidden()
    page.reload()
    page.wait_for_function("document.documentElement.dataset.app === 'ready'")
    expect(page.locator("#st-clock")).to_be_hidden()


def king_over_its_queen() -> Game:
    """Russian, every card on the foundations but the Q♠ and K♠, the King on the Queen on
    tableau pile 1: the King must go to an empty pile before the spades can go up, so the
    game cannot be finished by foundation moves yet."""
    ranks = "A23456789TJQK"
    foundations = [[r + s for r in ranks] for s in "HDC"] + [[r + "S" for r in ranks[:-2]]]
    piles = [{"down": [], "up": ["QS", "KS"]}] + [{"down": [], "up": []}] * 6
    doc = {"format": 1, "game": "russian", "deal": 3, "tableau": piles, "foundations": foundations}
    return Game(Position.from_json(doc), automove=False)


def button_box(page: Page, selector: str) -> dict[str, Any]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box


def test_a_hint_is_counted_in_the_win_dialog(phone_page: Page) -> None:
    """A hint asked at 390 px: the Hint button and the toolbar do not move while it thinks.
    The hinted move played by a tap, Finish takes Hint's place on the narrow toolbar and a
    tap on it wins."""
    page = phone_page
    game = king_over_its_queen()
    assert game.position.auto_finish() is None
    ui.seed_storage(
        page,
        {
            ui.game_key("russian"): ui.saved_doc(game),
            ui.KEY_SETTINGS: json.dumps({"automove": False}),
        },
    )
    open_game(page, "russian", 3)
    expect(page.locator("#btn-finish")).to_be_hidden()
    hint, new = button_box(page, "#btn-hint"), button_box(page, "#btn-new")
    page.locator("#btn-hint").tap()
    expect(page.locator("#btn-hint")).to_have_attribute("aria-busy", "true")
    screenshot(page, "/tmp/flow-phone-hint-thinking.png")
    assert button_box(page, "#btn-hint") == hint
    assert button_box(page, "#btn-new") == new
    expect(page.locator("#btn-hint")).to_have_attribute(
        "data-hint", "winning", timeout=SOLVER_TIMEOUT_MS
    )
    hinted = Move.parse(page.locator("#btn-hint").get_attribute("data-hint-move") or "")
    assert hinted.source == TABLEAU[0]
    assert hinted.target in TABLEAU[1:]
    ui.card(page, TABLEAU[0], 1).tap()  # the K♠: a tap takes it to an empty pile
    game.play(tap_moves(game.position, TABLEAU[0], 1)[0])
    wait_table(page, game.position)
    expect(page.locator("#btn-finish")).to_be_visible()
    expect(page.locator("#btn-hint")).to_be_hidden()
    menu = button_box(page, "#btn-menu")
    assert menu["x"] + menu["width"] <= 390
    screenshot(page, "/tmp/flow-phone-finish.png")
    page.locator("#btn-finish").tap()
    ui.skip_celebration(page)
    dialog = page.locator("#dlg-won")
    expect(dialog).to_be_visible()
    expect(dialog.locator("[data-k=hints]")).to_have_text(
        "1 used — best time and fewest moves count only games won without hints"
    )
    screenshot(page, "/tmp/flow-phone-won-hints.png")
    stats = ui.storage(page, ui.stats_key("russian"))
    assert (stats["played"], stats["won"], stats["wonWithHints"]) == (1, 1, 1)
    assert (stats["bestTime"], stats["fewestMoves"]) == (None, None)
    # "Look at the table": the next deal is in view and focused, Hint has nothing to say
    dialog.get_by_role("button", name="Look at the table").tap()
    expect(dialog).to_be_hidden()
    new_deal = page.locator("#btn-new")
    expect(new_deal).to_be_focused()
    expect(new_deal).to_be_in_viewport()
    expect(page.locator("#btn-hint")).to_be_disabled()
    page.keyboard.press("Enter")  # the focused New deal
    expect(page.locator("#board")).to_have_attribute("data-status", "playing")
    expect(page.locator("#btn-hint")).to_be_enabled()


def test_the_hint_button_keeps_its_size_with_its_label(page: Page) -> None:
    open_game(page, "russian", 7)
    before = button_box(page, "#btn-hint")
    page.locator("#btn-hint").click()
    expect(page.locator("#btn-hint")).to_have_attribute("aria-busy", "true")
    expect(page.locator("#btn-hint .busy-label")).to_be_visible()
    assert button_box(page, "#btn-hint") == before
    screenshot(page, "/tmp/flow-desktop-hint-thinking.png")


def test_copy_link_to_this_deal(page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_game(page, "double-rail", 321)
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Copy link to this deal").click()
    expect(page.locator("#toast")).to_contain_text("Link copied.")
    url = page.evaluate("location.href")
    assert page.evaluate("navigator.clipboard.readText()") == url
    assert url.endswith("/#double-rail/321")
