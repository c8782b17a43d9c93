"""The page against hostile or failing storage: poisoned keys (deeply nested JSON that stops
Pyodide's parser), two deployments of the site on one origin, two tabs of one game, a full
localStorage and a blocked one. Nothing of the player's may be lost for good."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import ui_helpers as ui
from harness import open_game, origin, screenshot, wait_ready
from playwright.sync_api import BrowserContext, Page, expect
from serve import SiteServer
from ui_helpers import KEY_LAST, KEY_SETTINGS, board, card, game_key, stats_key

from solitaire import Game, Position

DEEP = "[" * 10000 + "]" * 10000  # fatal in Pyodide's json.loads when parsed unmeasured
SHOTS = Path("/tmp/storage-shots")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    screenshot(page, str(SHOTS / f"{name}.png"))


def played(game_id: str, deal: int, moves: int) -> Game:
    game = Game.new(game_id, deal)
    for _ in range(moves):
        game.play(ui.tableau_move(game.position))
    return game


def moves_shown(page: Page) -> str:
    return page.locator("#st-moves").inner_text()


def quarantine(name: str) -> str:
    return f"/solitaire.quarantine.{name}"


# ----------------------------------------------------------------------------- poisoned keys


def test_poisoned_unscoped_keys_are_set_aside_and_the_good_save_survives(page: Page) -> None:
    """The issue's case, with the keys as an older page wrote them (without a scope): the
    Double Rail save, the settings and the statistics nested 10,000 deep, the last game
    pointing at Double Rail, a good Russian save beside them."""
    good = ui.saved_doc(played("russian", 21, 2), counted=True)
    ui.seed_storage(
        page,
        {
            "solitaire.game.double-rail": DEEP,
            "solitaire.last": json.dumps({"game": "double-rail"}),
            "solitaire.settings": DEEP,
            "solitaire.stats.russian": DEEP,
            "solitaire.game.russian": good,
        },
    )
    page.goto("./", wait_until="domcontentloaded")
    wait_ready(page)
    assert board(page)["game"] == "double-rail"
    assert board(page)["status"] == "playing"
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    for words in ("Double Rail game", "settings", "Russian Solitaire statistics", "set aside"):
        expect(notice).to_contain_text(words)
    shot(page, "poisoned-desktop")
    for name in ("game.double-rail", "settings", "stats.russian"):
        assert page.evaluate("k => localStorage.getItem(k)", quarantine(name)) == DEEP
    # the good save was adopted into the page's scope and survives a reload and a pagehide
    page.select_option("#game-select", "russian")
    # Russian draws from its winnable list by default: the switch waits for that list
    expect(page.locator("#board")).to_have_attribute("data-game", "russian")
    assert board(page)["deal"] == "21"
    assert moves_shown(page) == "2"
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    expect(notice).to_be_hidden()  # nothing unreadable is left
    assert board(page)["game"] == "russian"
    assert moves_shown(page) == "2"
    assert len(ui.storage(page, game_key("russian"))["save"]["steps"]) == 2


def test_a_poisoned_last_game_key_is_set_aside(page: Page) -> None:
    ui.seed_storage(page, {KEY_LAST: DEEP, KEY_SETTINGS: '{"automove": false, "x": NaN}'})
    page.goto("./", wait_until="domcontentloaded")
    wait_ready(page)
    assert board(page)["game"] == "russian"  # the default game
    notice = page.locator("#notice")
    expect(notice).to_contain_text("The name of the game played last")
    expect(notice).to_contain_text("NaN")
    assert page.evaluate("k => localStorage.getItem(k)", quarantine("last")) == DEEP
    assert ui.storage(page, KEY_LAST) == {"v": 1, "game": "russian"}


def test_a_newer_versions_save_is_left_alone(page: Page) -> None:
    newer = json.dumps({"v": 2, "rev": 40, "save": {"future": True}})
    ui.seed_storage(page, {game_key("russian"): newer})
    open_game(page, "russian", 3)
    expect(page.locator("#notice")).to_contain_text("newer version of this page")
    game = Game.new("russian", 3)
    ui.play_by_click(page, game, ui.tableau_move(game.position))
    page.reload(wait_until="domcontentloaded")  # saves on the way out: not over the newer one
    wait_ready(page)
    assert page.evaluate("k => localStorage.getItem(k)", game_key("russian")) == newer


# ----------------------------------------------------------------------------- deployments


@pytest.fixture
def two_deployments(site_dir: Path, tmp_path: Path) -> Iterator[str]:
    """The one built site served under /a/ and /b/ of one server (one origin)."""
    (tmp_path / "a").symlink_to(site_dir.resolve(), target_is_directory=True)
    (tmp_path / "b").symlink_to(site_dir.resolve(), target_is_directory=True)
    with SiteServer(tmp_path) as server:
        yield server.url


def test_two_deployments_on_one_origin_keep_their_own_games(
    page: Page, two_deployments: str, watch: object
) -> None:
    root = two_deployments
    watch.origins.add(origin(root))  # type: ignore[attr-defined]
    page.goto(f"{root}a/#russian/21", wait_until="domcontentloaded")
    wait_ready(page)
    game = Game.new("russian", 21)
    ui.play_by_click(page, game, ui.tableau_move(game.position))
    page.wait_for_function("k => localStorage.getItem(k) !== null", arg="/a/solitaire.game.russian")

    page.goto(f"{root}b/#russian/21", wait_until="domcontentloaded")
    wait_ready(page)
    assert moves_shown(page) == "0"  # /a/'s game is not /b/'s
    other = Game.new("russian", 21)
    for _ in range(2):
        ui.play_by_click(page, other, ui.tableau_move(other.position))
    page.wait_for_function(
        "k => (JSON.parse(localStorage.getItem(k) || 'null')?.save?.steps || []).length === 2",
        arg="/b/solitaire.game.russian",
    )

    page.goto(f"{root}a/", wait_until="domcontentloaded")
    wait_ready(page)
    assert board(page)["deal"] == "21"
    assert moves_shown(page) == "1"
    keys = page.evaluate("Object.keys(localStorage)")
    assert "/a/solitaire.game.russian" in keys
    assert "/b/solitaire.game.russian" in keys
    assert not [k for k in keys if k.startswith("solitaire.")]  # nothing unscoped written


# ----------------------------------------------------------------------------- two tabs


def test_two_tabs_follow_each_other_and_never_go_back(page: Page, context: BrowserContext) -> None:
    open_game(page, "russian", 21)
    other = context.new_page()
    open_game(other, "russian", 21)
    game = Game.new("russian", 21)
    for _ in range(2):
        ui.play_by_click(page, game, ui.tableau_move(game.position))
    # the other tab shows the newer game, and says why
    ui.wait_table(other, game.position)
    expect(other.locator("#st-moves")).to_have_text("2")
    expect(other.locator("#toast")).to_contain_text("another tab")
    shot(other, "followed-desktop")
    # and plays on from there; the first tab follows in turn
    ui.play_by_click(other, game, ui.tableau_move(game.position))
    ui.wait_table(page, game.position)
    expect(page.locator("#st-moves")).to_have_text("3")
    # closing either tab (its pagehide save) never brings the game back
    other.close()
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert moves_shown(page) == "3"
    assert len(ui.storage(page, game_key("russian"))["save"]["steps"]) == 3


# ----------------------------------------------------------------------------- full and blocked

FILL = """() => {
  // fill localStorage to the last character: big blocks first, then smaller ones
  let n = 0;
  for (let size = 1 << 20; size >= 1; size >>= 1) {
    const block = 'x'.repeat(size);
    for (;;) {
      try { localStorage.setItem('filler-' + n, block); n += 1; } catch (e) { break; }
    }
  }
  return n;
}"""


def test_a_full_storage_is_told_and_the_game_goes_on(page: Page) -> None:
    open_game(page, "russian", 21)
    bar = page.locator("#save-problem")
    expect(bar).to_be_hidden()
    assert page.evaluate(FILL) > 0
    game = Game.new("russian", 21)
    ui.play_by_click(page, game, ui.tableau_move(game.position))
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("storage for this site is full")
    shot(page, "full-desktop")
    ui.play_by_click(page, game, ui.tableau_move(game.position))  # still playing
    assert moves_shown(page) == "2"
    expect(bar).to_be_visible()
    page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('filler-'))"
        ".forEach(k => localStorage.removeItem(k))"
    )
    ui.play_by_click(page, game, ui.tableau_move(game.position))
    expect(bar).to_be_hidden()  # saving works again
    page.wait_for_function(
        "k => (JSON.parse(localStorage.getItem(k) || 'null')?.save?.steps || []).length === 3",
        arg=game_key("russian"),
    )


BLOCK = """Object.defineProperty(window, 'localStorage', {
  configurable: true,
  get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
});"""


def test_blocked_storage_is_told_and_the_game_plays(page: Page) -> None:
    page.context.add_init_script(BLOCK)
    open_game(page, "russian", 21)
    bar = page.locator("#save-problem")
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("private browsing")
    game = Game.new("russian", 21)
    ui.play_by_click(page, game, ui.tableau_move(game.position))
    assert moves_shown(page) == "1"
    expect(bar).to_be_visible()
    shot(page, "blocked-desktop")


def tap_a_move(page: Page, position: Position) -> None:
    """A finger's tap on a card that can move (on a phone a tap plays it at once)."""
    move = ui.tableau_move(position)
    index = len(position.pile(move.source)) - move.count
    box = card(page, move.source, index).bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 8)


def test_blocked_storage_on_a_phone(phone_page: Page) -> None:
    page = phone_page
    page.context.add_init_script(BLOCK)
    open_game(page, "russian", 21)
    bar = page.locator("#save-problem")
    expect(bar).to_be_visible()
    tap_a_move(page, Position.deal_of("russian", 21))
    expect(page.locator("#st-moves")).to_have_text("1")
    expect(bar).to_be_visible()
    shot(page, "blocked-phone")


def test_two_tabs_on_a_phone(phone_page: Page) -> None:
    page = phone_page
    open_game(page, "russian", 21)
    other = page.context.new_page()
    open_game(other, "russian", 21)
    tap_a_move(page, Position.deal_of("russian", 21))
    expect(page.locator("#st-moves")).to_have_text("1")
    expect(other.locator("#st-moves")).to_have_text("1")
    expect(other.locator("#toast")).to_contain_text("another tab")
    assert ui.dom_piles(other) == ui.dom_piles(page)
    shot(other, "followed-phone")
    other.close()


def test_stats_reset_mid_deal_then_a_win_stays_readable(page: Page) -> None:
    """Statistics reset while a counted deal is in progress, then that deal won."""
    from test_ui_storage import near_won_russian

    ui.seed_storage(
        page,
        {
            game_key("russian"): ui.saved_doc(near_won_russian(), counted=True),
            stats_key("russian"): json.dumps({"played": 1, "won": 0}),
        },
    )
    open_game(page, "russian", 5)
    page.once("dialog", lambda d: d.accept())
    page.locator("#btn-menu").click()
    page.get_by_role("menuitem", name="Statistics").click()
    page.locator("[data-action=reset-stats]").click()
    page.keyboard.press("Escape")
    assert ui.storage(page, stats_key("russian")) is None
    card(page, "tableau-0", 0).dblclick()
    page.wait_for_function("document.getElementById('board').dataset.status === 'won'")
    stats = ui.storage(page, stats_key("russian"))
    assert (stats["played"], stats["won"]) == (1, 1)
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    expect(page.locator("#notice")).to_be_hidden()  # readable: nothing set aside
