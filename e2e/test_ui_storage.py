"""What the page keeps in localStorage: the game in progress (a reload resumes it, undo history
included), settings, statistics after a win; a corrupted or tampered entry is dropped with a
notice and the page still starts; a stuck game says so and offers a way on."""

from __future__ import annotations

import json

from harness import open_game, wait_ready
from playwright.sync_api import Locator, Page, expect
from ui_helpers import (
    KEY_SETTINGS,
    board,
    card,
    click_move,
    dom_piles,
    engine_piles,
    game_key,
    play_by_click,
    saved_doc,
    seed_storage,
    skip_celebration,
    stats_key,
    storage,
    tableau_move,
    wait_table,
)

from solitaire import Game, Position

SUITS = "SHDC"
RANKS = "A23456789TJQK"


def near_won_russian() -> Game:
    """Russian, deal 5's number but a custom start: everything home but the King of spades."""
    doc = {
        "format": 1,
        "game": "russian",
        "deal": 5,
        "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
        "foundations": [[r + s for r in (RANKS[:-1] if s == "S" else RANKS)] for s in SUITS],
    }
    return Game(Position.from_json(doc))


def near_won_freecell() -> Game:
    """Double FreeCell: two cards left, playable by foundation moves alone (auto-finish)."""
    doc = {
        "format": 1,
        "game": "double-freecell",
        "deal": 8,
        "tableau": [{"up": ["KS"]}, {"up": ["QS"]}] + [{"up": []}] * 8,
        "cells": [None] * 6,
        "foundations": [[r + s for r in RANKS * 2][: 24 if s == "S" else 26] for s in SUITS],
    }
    return Game(Position.from_json(doc))


def stuck_russian() -> Game:
    """Russian: the 2 of spades on a pile of face-down spades, the Ace among them: no move."""
    spades = [r + "S" for r in RANKS]
    doc = {
        "format": 1,
        "game": "russian",
        "deal": 6,
        "tableau": [{"down": [spades[0], *spades[2:]], "up": ["2S"]}] + [{"up": []}] * 6,
        "foundations": [[], *[[r + s for r in RANKS] for s in SUITS[1:]]],
    }
    return Game(Position.from_json(doc))


def test_reload_resumes_with_history(page: Page) -> None:
    open_game(page, "russian", 21)
    game = Game.new("russian", 21)
    for _ in range(2):
        play_by_click(page, game, tableau_move(game.position))
    after_two = engine_piles(game.position)
    page.locator("#btn-undo").click()
    game.undo()
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert board(page)["deal"] == "21"
    assert dom_piles(page) == engine_piles(game.position)
    assert page.locator("#st-moves").inner_text() == "1"
    assert not page.locator("#btn-undo").is_disabled()
    assert not page.locator("#btn-redo").is_disabled()
    page.locator("#btn-redo").click()
    game.redo()
    wait_table(page, game.position)
    assert dom_piles(page) == after_two
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    assert dom_piles(page) == engine_piles(Position.deal_of("russian", 21))


def test_settings_persist(page: Page) -> None:
    open_game(page, "russian", 3)
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Settings").click()
    expect(page.locator("#dlg-settings")).to_be_visible()
    assert page.locator("#set-automove").is_checked()
    assert page.locator("#set-theme-system").is_checked()
    page.locator("#set-fourcolor").check()
    page.locator("#set-automove").uncheck()
    page.locator("#set-theme-dark").check()
    page.locator("#dlg-settings button[type=submit]").click()
    expect(page.locator("#dlg-settings")).to_be_hidden()
    assert storage(page, KEY_SETTINGS) == {
        "automove": False,
        "fourColor": True,
        "theme": "dark",
        # "winnableOnly" is absent until the player sets it (on for Russian, off elsewhere)
        # a desktop context: "Tap a card to move it" and vibration follow the mouse (off)
        "tapMove": False,
        "vibrate": False,
        "cardBack": "blue",
        "table": "green",
        "sound": False,
        "showTimer": True,
        "largeCards": False,
        "v": 1,  # the version of the page's documents (docs/save-format.md)
    }

    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert "four-color" in (page.locator("#board").get_attribute("class") or "")
    # four colours: a diamond and a heart no longer share a colour
    colours = page.evaluate(
        """() => {
          const el = document.createElement('div');
          el.className = 'card'; el.dataset.suit = 'D';
          const hl = document.createElement('div');
          hl.className = 'card'; hl.dataset.suit = 'H';
          const pile = document.querySelector('#board [data-pile="foundation-0"]');
          pile.append(el, hl);
          const out = [getComputedStyle(el).color, getComputedStyle(hl).color];
          el.remove(); hl.remove();
          return out;
        }"""
    )
    assert colours[0] != colours[1]
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Settings").click()
    assert not page.locator("#set-automove").is_checked()
    assert page.locator("#set-fourcolor").is_checked()
    assert page.locator("#set-theme-dark").is_checked()
    page.locator("#set-theme-system").check()
    page.keyboard.press("Escape")
    assert page.evaluate("document.documentElement.dataset.theme") is None


def test_corrupted_entries_are_dropped_with_a_notice(page: Page) -> None:
    tampered = Game.new("double-rail", 4).to_json()
    tampered["steps"] = [["stock>tableau-0"]]  # never a legal move
    seed_storage(
        page,
        {
            game_key("russian"): "{not json",
            KEY_SETTINGS: json.dumps({"automove": "yes"}),
            stats_key("russian"): json.dumps({"played": -1}),
            game_key("double-rail"): json.dumps({"v": 1, "save": tampered}),
        },
    )
    open_game(page, "russian", 5)
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    text = notice.inner_text()
    assert "Russian Solitaire game" in text
    assert "settings" in text
    assert "statistics" in text
    assert board(page)["status"] == "playing"
    assert dom_piles(page) == engine_piles(Position.deal_of("russian", 5))
    assert storage(page, stats_key("russian")) is None
    # still playable
    game = Game.new("russian", 5)
    move = tableau_move(game.position)
    click_move(page, game.position, move)
    assert page.locator("#st-moves").inner_text() == "1"
    step = [str(m) for m in game.play(move)]
    # the page saves just after the move's handler (a zero-delay timer): wait for it
    page.wait_for_function(
        "k => (JSON.parse(localStorage.getItem(k) || 'null')?.save?.steps || []).length === 1",
        arg=game_key("russian"),
    )
    assert storage(page, game_key("russian"))["save"]["steps"] == [step]

    # the tampered Double Rail save: refused when that game is opened
    page.locator("[data-action=dismiss-notice]").click()
    page.select_option("#game-select", "double-rail")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Double Rail game")
    assert board(page)["game"] == "double-rail"
    assert board(page)["status"] == "playing"


def test_win_and_auto_finish_record_statistics(page: Page) -> None:
    seed_storage(
        page,
        {
            game_key("russian"): saved_doc(near_won_russian()),
            game_key("double-freecell"): saved_doc(near_won_freecell()),
        },
    )
    open_game(page, "russian", 5)
    assert board(page)["status"] == "playing"
    card(page, "tableau-0", 0).dblclick()
    page.wait_for_function("document.getElementById('board').dataset.status === 'won'")
    skip_celebration(page)
    won = page.locator("#dlg-won")
    expect(won).to_be_visible()
    expect(won).to_contain_text("You won!")
    expect(won.locator("[data-k=moves]")).to_contain_text("1")
    stats = storage(page, stats_key("russian"))
    assert stats["played"] == 1
    assert stats["won"] == 1
    assert stats["streak"] == 1
    assert stats["bestStreak"] == 1
    assert stats["fewestMoves"] == 1
    assert isinstance(stats["bestTime"], (int, float))
    expect(page.locator("#live")).to_contain_text("You won")
    won.get_by_role("button", name="Look at the table").click()

    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Statistics").click()

    def cell(key: str) -> Locator:
        return page.locator(f'#stats-body tr[data-k="{key}"] td[data-stats="russian"]')

    expect(cell("played")).to_have_text("1")
    expect(cell("won")).to_have_text("1")
    expect(cell("rate")).to_have_text("100%")
    expect(cell("streak")).to_have_text("1")
    expect(cell("fewest-moves")).to_have_text("1")
    page.keyboard.press("Escape")

    # auto-finish, offered by a button on a position that foundation moves alone win
    page.select_option("#game-select", "double-freecell")
    finish = page.locator("#btn-finish")
    expect(finish).to_be_visible()
    finish.click()
    page.wait_for_function("document.getElementById('board').dataset.status === 'won'")
    skip_celebration(page)
    expect(won).to_be_visible()
    stats = storage(page, stats_key("double-freecell"))
    assert stats["won"] == 1
    assert stats["played"] == 1
    # a new deal from the celebration
    won.get_by_role("button", name="New deal").click()
    assert board(page)["status"] == "playing"
    assert storage(page, stats_key("double-freecell"))["streak"] == 1


def played_until_stuck() -> Game:
    """Russian deal 1 played until no move is left (first legal move each time)."""
    game = Game.new("russian", 1, automove=False)
    while not game.position.is_stuck():
        game.play(game.position.legal_moves()[0])
    return game


def test_stuck_game_says_so_and_offers_a_way_on(page: Page) -> None:
    game = played_until_stuck()
    seed_storage(page, {game_key("russian"): saved_doc(game)})
    open_game(page, "russian", 1)
    assert board(page)["status"] == "stuck"
    banner = page.locator("#stuck")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No moves left")
    for name in ("Was it winnable?", "Undo", "Restart", "New deal"):
        expect(banner.get_by_role("button", name=name)).to_be_visible()
    banner.get_by_role("button", name="Undo").click()
    assert board(page)["status"] == "playing"
    expect(banner).to_be_hidden()
    expect(page.locator("#st-moves")).to_have_text(str(game.move_count - 1))


def test_a_deal_stuck_before_its_first_move_offers_only_what_can_act(page: Page) -> None:
    """No move was made: Undo and Restart would do nothing, so the banner leaves them out."""
    seed_storage(page, {game_key("russian"): saved_doc(stuck_russian())})
    open_game(page, "russian", 6)
    assert board(page)["status"] == "stuck"
    banner = page.locator("#stuck")
    expect(banner).to_be_visible()
    for name in ("Was it winnable?", "New deal"):
        expect(banner.get_by_role("button", name=name)).to_be_visible()
    for name in ("Undo", "Restart"):
        expect(banner.get_by_role("button", name=name)).to_be_hidden()
    banner.get_by_role("button", name="New deal").click()
    assert board(page)["status"] == "playing"
    expect(banner).to_be_hidden()
    deal = board(page)["deal"]
    assert page.evaluate("location.hash") == f"#russian/{deal}"
