"""What a player does, in the browser engines other than Chromium that Debian ships: Firefox ESR
(over WebDriver BiDi) and WebKitGTK (MiniBrowser through WebKitWebDriver, under Xvfb).

In each engine: the start to ``data-app="ready"``; a move by click and one by drag in Russian
deal 1; undo and redo by button and by Ctrl+Z / Ctrl+Shift+Z; the same position after a
reload; a hint marking a card; the menu and each of its dialogs opened and closed; the toolbar
at 360, 390, 430 and 820 px wide (inside the viewport, no overlap, each control 44x44 px or
more); a picture of each game at 390x844 in test-results/engines/. After every test: no
console error, uncaught error or Content-Security-Policy violation, and no request that left
127.0.0.1. See docs/browsers.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_drivers import (
    FIREFOX,
    MINIBROWSER,
    WEBKIT_DRIVER,
    XVFB,
    Driver,
    FirefoxDriver,
    WebKitDriver,
    is_local,
)
from engine_page import (
    BOOT_TIMEOUT,
    TOOLBAR,
    box,
    click_element,
    click_move,
    drag_move,
    open_game,
    switch_game,
    toolbar_faults,
    wait_ready,
    wait_still,
    wait_table,
)
from harness import ARTIFACTS
from serve import SiteServer
from ui_helpers import tableau_move

from solitaire import GAMES, Game

pytestmark = pytest.mark.engines

SHOTS = ARTIFACTS / "engines"
DESKTOP = (1280, 800)
#: (width, height) of the screens whose toolbar is measured: three upright phones, a tablet.
SCREENS = [(360, 740), (390, 844), (430, 932), (820, 1180)]
#: WebDriver's key values (https://w3c.github.io/webdriver/#keyboard-actions).
CONTROL, SHIFT = "\ue009", "\ue008"

#: What each engine needs, with the Debian package that has it.
NEEDS = {
    "firefox": [(FIREFOX, "firefox-esr")],
    "webkit": [
        (WEBKIT_DRIVER, "webkit2gtk-driver"),
        (MINIBROWSER, "webkit2gtk-driver"),
        (XVFB, "xvfb"),
    ],
}


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def driver(request: pytest.FixtureRequest) -> Iterator[Driver]:
    """One browser of the engine for the whole module (each test opens the pages it needs)."""
    missing = [
        f"{path} (Debian: {pkg})" for path, pkg in NEEDS[request.param] if not Path(path).exists()
    ]
    if missing:
        reason = f"{request.param}: not installed: {', '.join(missing)}; make engines installs it"
        if os.environ.get("SOLITAIRE_ENGINES_REQUIRED") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    d: Driver = FirefoxDriver() if request.param == "firefox" else WebKitDriver()
    try:
        d.set_viewport(*DESKTOP)
        yield d
    finally:
        d.close()


@pytest.fixture
def player(
    request: pytest.FixtureRequest, driver: Driver, site_server: SiteServer
) -> Iterator[Driver]:
    """The engine's browser, checked after the test: no error in the page, nothing requested
    but from 127.0.0.1. A failed test leaves a picture in test-results/engines/."""
    driver.reset()
    yield driver
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = [f"request that left 127.0.0.1: {u}" for u in driver.requested() if not is_local(u)]
    problems += driver.errors()
    driver.reset()
    if problems:
        name = request.node.name.replace("[", "-").replace("]", "")
        driver.screenshot(SHOTS / f"failed-{name}.png")
        pytest.fail(f"{driver.name}:\n  " + "\n  ".join(problems), pytrace=False)


def test_boots_plays_undoes_redoes_and_resumes(player: Driver, site_server: SiteServer) -> None:
    d = player
    d.set_viewport(*DESKTOP)
    open_game(d, site_server.url, "russian", 1)
    game = Game.new("russian", 1)
    wait_table(d, game.position)
    start = game.position

    move = tableau_move(game.position)
    click_move(d, game.position, move)
    game.play(move)
    wait_table(d, game.position)
    after_click = game.position

    move = tableau_move(game.position)
    drag_move(d, game.position, move)
    game.play(move)
    wait_table(d, game.position)
    after_drag = game.position

    click_element(d, "#btn-undo")
    wait_table(d, after_click)
    click_element(d, "#btn-redo")
    wait_table(d, after_drag)
    d.keys(CONTROL, "z")
    wait_table(d, after_click)
    d.keys(CONTROL, "z")
    wait_table(d, start)
    d.keys(CONTROL, SHIFT, "z")
    wait_table(d, after_click)
    d.keys(CONTROL, SHIFT, "z")
    wait_table(d, after_drag)

    d.reload()
    wait_ready(d)
    wait_table(d, after_drag)


#: Whether the hint button shows the solver's answer (e2e/test_ui_solver.py's ANSWERED).
ANSWERED = """() => ['winning', 'heuristic', 'lost', 'error']
    .includes(document.getElementById('btn-hint').dataset.hint)"""
MARKED = "() => [...document.querySelectorAll('#board .card.hint')].map(c => c.dataset.card)"


def test_a_hint_marks_a_card(player: Driver, site_server: SiteServer) -> None:
    d = player
    open_game(d, site_server.url, "russian", 29)  # a deal the solver answers at once
    d.wait_for(
        "() => { const b = document.getElementById('btn-hint'); "
        "return b.checkVisibility() && !b.disabled; }",
        BOOT_TIMEOUT,
    )
    click_element(d, "#btn-hint")
    d.wait_for(ANSWERED, BOOT_TIMEOUT)
    state = d.call("() => ({...document.getElementById('btn-hint').dataset})")
    assert state["hint"] == "winning", f"{d.name}: the hint's answer: {state}"
    marked = d.call(MARKED)
    assert marked, f"{d.name}: the hint ({state}) marked no card"


#: The menu's items that open a dialog, with the dialog.
DIALOGS = [
    ("deal", "#dlg-deal"),
    ("rules", "#dlg-rules"),
    ("stats", "#dlg-stats"),
    ("settings", "#dlg-settings"),
]
MENU_OPEN = "() => document.getElementById('menu').matches(':popover-open')"
MENU_CLOSED = "() => !document.getElementById('menu').matches(':popover-open')"
NO_DIALOG = "() => !document.querySelector('dialog[open]')"


def test_the_menu_and_each_dialog_open_and_close(player: Driver, site_server: SiteServer) -> None:
    d = player
    open_game(d, site_server.url, "russian", 1)
    click_element(d, "#btn-menu")
    d.wait_for(MENU_OPEN, 5)
    d.keys("\ue00c")  # Escape
    d.wait_for(MENU_CLOSED, 5)
    for action, dialog in DIALOGS:
        click_element(d, "#btn-menu")
        d.wait_for(MENU_OPEN, 5)
        click_element(d, f'#menu [data-action="{action}"]')
        d.wait_for(f"() => document.querySelector('{dialog}').open", 5)
        assert d.call(MENU_CLOSED), f"{d.name}: the menu stayed open over {dialog}"
        d.keys("\ue00c")
        d.wait_for(NO_DIALOG, 5)


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_toolbar_fits_the_screen(
    player: Driver, site_server: SiteServer, width: int, height: int
) -> None:
    d = player
    d.set_viewport(width, height)
    if d.call("() => document.documentElement.dataset.app") != "ready":
        open_game(d, site_server.url, "russian", 1)
    wait_still(d)
    d.call("() => new Promise(r => setTimeout(r, 300))")  # the layout's resize handler
    controls = d.call(TOOLBAR)
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.screenshot(SHOTS / f"{d.name}-toolbar-{width}x{height}.png")
    assert len(controls) >= 4, f"{d.name}: toolbar controls seen: {controls}"
    faults = toolbar_faults(controls, width, height)
    assert not faults, f"{d.name} at {width}x{height}:\n  " + "\n  ".join(faults)
    assert box(d, "#board")["width"] <= width


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_at_390x844(player: Driver, site_server: SiteServer, game: str) -> None:
    d = player
    d.set_viewport(390, 844)
    if d.call("() => document.documentElement.dataset.app") != "ready":
        open_game(d, site_server.url, game, 2)
    switch_game(d, game, 2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.screenshot(SHOTS / f"{d.name}-{game}-390x844.png")
