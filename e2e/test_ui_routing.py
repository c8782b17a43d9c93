"""The address says what is on the table: a deep link opens that deal; changing game, dealing
anew, choosing a deal number and the back button keep the address and the table in step; a bad
address is explained on the page and the player still gets a playable game."""

from __future__ import annotations

from harness import open_game
from playwright.sync_api import Page, expect
from ui_helpers import (
    board,
    card,
    click_move,
    coarse_pointer,
    dom_piles,
    engine_piles,
    tableau_move,
    wait_still,
    wait_table,
)

from solitaire import Game, Position
from solitaire.web.tap_moves import tap_moves


def hash_of(page: Page) -> str:
    return str(page.evaluate("location.hash"))


def wait_hash(page: Page, value: str) -> None:
    page.wait_for_function("h => location.hash === h", arg=value)


def test_deep_link_and_address_follow_the_table(page: Page) -> None:
    open_game(page, "double-rail", 123)
    assert board(page)["game"] == "double-rail"
    assert board(page)["deal"] == "123"
    assert dom_piles(page) == engine_piles(Position.deal_of("double-rail", 123))
    assert hash_of(page) == "#double-rail/123"

    # another game from the picker: the address names it and its deal
    page.select_option("#game-select", "double-freecell")
    deal = board(page)["deal"]
    assert board(page)["game"] == "double-freecell"
    assert deal.isdigit()
    wait_hash(page, f"#double-freecell/{deal}")
    assert dom_piles(page) == engine_piles(Position.deal_of("double-freecell", int(deal)))

    # a new deal changes the address; Back returns to the previous deal
    page.locator("#btn-new").click()
    new = board(page)["deal"]
    assert new != deal
    wait_hash(page, f"#double-freecell/{new}")
    page.go_back()
    page.wait_for_function("d => document.getElementById('board').dataset.deal === d", arg=deal)
    assert dom_piles(page) == engine_piles(Position.deal_of("double-freecell", int(deal)))

    # choosing a deal by number, from the menu
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Choose deal number…").click()
    dialog = page.locator("#dlg-deal")
    expect(dialog).to_be_visible()
    page.fill("#deal-input", "0")
    page.locator("#form-deal button[type=submit]").click()
    expect(page.locator("#deal-error")).to_contain_text("1 to 2147483647")
    page.fill("#deal-input", "4242")
    page.locator("#form-deal button[type=submit]").click()
    expect(dialog).to_be_hidden()
    wait_hash(page, "#double-freecell/4242")
    assert dom_piles(page) == engine_piles(Position.deal_of("double-freecell", 4242))

    # restart: a move, then back to the deal
    game = Game.new("double-freecell", 4242)
    click_move(page, game.position, tableau_move(game.position))
    assert page.locator("#st-moves").inner_text() == "1"
    page.locator("#btn-restart").click()
    assert page.locator("#st-moves").inner_text() == "0"
    assert dom_piles(page) == engine_piles(game.position)

    # typing an address while the page is open
    page.evaluate("location.hash = '#russian/77'")
    page.wait_for_function("document.getElementById('board').dataset.game === 'russian'")
    assert board(page)["deal"] == "77"
    assert dom_piles(page) == engine_piles(Position.deal_of("russian", 77))
    assert page.locator("#game-select").input_value() == "russian"


def test_bad_address_is_explained_and_the_game_is_playable(page: Page) -> None:
    page.goto("./#nonsense/abc", wait_until="domcontentloaded")
    page.wait_for_function("document.documentElement.dataset.app === 'ready'")
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("#nonsense/abc")
    state = board(page)
    assert state["game"] == "russian"
    assert state["status"] == "playing"
    assert state["deal"].isdigit()
    assert hash_of(page) == f"#russian/{state['deal']}"
    # playable: a move by click
    game = Game.new("russian", int(state["deal"]))
    click_move(page, game.position, tableau_move(game.position))
    assert page.locator("#st-moves").inner_text() == "1"
    page.locator("[data-action=dismiss-notice]").click()
    expect(notice).to_be_hidden()

    # a bad deal number of a real game, typed while playing
    page.evaluate("location.hash = '#double-rail/99999999999'")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("deal number")
    page.wait_for_function("document.getElementById('board').dataset.game === 'double-rail'")
    deal = board(page)["deal"]
    assert deal.isdigit()
    wait_hash(page, f"#double-rail/{deal}")


def test_back_after_a_new_deal_brings_back_the_game_in_progress(any_page: Page) -> None:
    """A move (a finger's tap on a phone, a click-to-move with the mouse), then New deal (a
    tap; the N key on a desktop), then the browser's Back: the deal comes back with its move,
    not from its start; Forward (the menu open) brings the new deal again and closes the
    menu, which then offers the game."""
    page = any_page
    phone = coarse_pointer(page)
    open_game(page, "russian", 21)
    game = Game.new("russian", 21)
    move = tableau_move(game.position)
    if phone:
        start = len(game.position.pile(move.source)) - move.count
        box = card(page, move.source, start).bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 8)
        move = tap_moves(game.position, move.source, start)[0]
    else:
        click_move(page, game.position, move)
    game.play(move)
    wait_table(page, game.position)
    wait_still(page)
    if phone:
        page.locator("#btn-new").tap()
    else:
        page.keyboard.press("n")
    page.wait_for_function("document.getElementById('board').dataset.deal !== '21'")
    new = board(page)["deal"]
    wait_hash(page, f"#russian/{new}")

    page.go_back()
    wait_hash(page, "#russian/21")
    wait_table(page, game.position)
    expect(page.locator("#st-moves")).to_have_text("1")
    expect(page.locator("#toast-text")).to_have_text("Back to deal 21, 1 move.")

    page.locator("#btn-menu").click()
    expect(page.locator("#menu")).to_be_visible()
    page.go_forward()  # with the menu open: the table changes, the menu closes
    wait_hash(page, f"#russian/{new}")
    wait_table(page, Position.deal_of("russian", int(new)))
    expect(page.locator("#menu")).to_be_hidden()
    expect(page.locator("#st-moves")).to_have_text("0")
    page.locator("#btn-menu").click()
    expect(page.get_by_role("menuitem", name="Continue deal 21 (1 move)")).to_be_visible()
