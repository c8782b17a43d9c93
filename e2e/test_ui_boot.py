"""Starting up: a browser that cannot run Python gets a clear message instead of a blank page;
after a first visit the game starts and plays offline (service worker, no server, no network)."""

from __future__ import annotations

import json

from conftest import OfflineSite
from harness import ROOT, Watch, open_game, wait_ready
from playwright.sync_api import Page, expect
from ui_helpers import board, click_pile, dom_piles, engine_piles

from solitaire import Game, Move
from solitaire.piles import STOCK, WASTE


def test_no_webassembly_gets_a_message(page: Page, watch: Watch) -> None:
    # PyScript itself fails loudly without WebAssembly; that is expected here
    watch.allow_console(r"WebAssembly|wasm|pyodide|Pyodide|undefined|not defined")
    page.add_init_script("delete globalThis.WebAssembly")
    page.goto("./#russian/1", wait_until="domcontentloaded")
    page.wait_for_function("document.documentElement.dataset.app === 'failed'")
    error = page.locator("#boot-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("cannot run the game")
    expect(error).to_contain_text("WebAssembly")
    expect(page.get_by_role("button", name="Try again")).to_be_visible()


def test_plays_offline_after_the_first_visit(offline_site: OfflineSite) -> None:
    page = offline_site.page
    open_game(page, "double-rail", 3)
    offline_site.go_offline()
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert board(page)["game"] == "double-rail"
    assert board(page)["deal"] == "3"
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    game = Game.new("double-rail", 3)
    click_pile(page, "stock")
    game.play(Move(STOCK, WASTE))
    assert dom_piles(page) == engine_piles(game.position)
    assert page.locator("#st-moves").inner_text() == "1"

    # The solver's worker boots offline too (its runtime files come from the same cache).
    page.keyboard.press("h")
    page.wait_for_function(
        "['winning', 'heuristic'].includes(document.getElementById('btn-hint').dataset.hint)",
        timeout=60_000,
    )
    # and "Winnable deals only" reads its list from the cache.
    page.locator("#game-select").select_option("russian")
    expect(page.locator("#board")).to_have_attribute("data-game", "russian")
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Settings").click()
    page.locator("#set-winnable").check()
    page.locator("#dlg-settings button[type=submit]").click()
    before = board(page)["deal"]
    page.locator("#btn-new").click()
    page.wait_for_function(f"document.getElementById('board').dataset.deal !== '{before}'")
    winnable = json.loads((ROOT / "web/winnable/russian.json").read_text("utf-8"))
    assert int(board(page)["deal"]) in winnable
