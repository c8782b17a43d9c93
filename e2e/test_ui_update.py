"""A new version that arrives while a game is played: the notice offers "Update", which saves
the game, lets the new service worker take over and reloads into the new version with the game
exactly as it was (table, moves, redo list, clock). Two builds of the site are served from one
folder: the second, with another release label, replaces the first while the page runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import build_site
import pytest
from harness import (
    BOOT_TIMEOUT_MS,
    VIEWPORT,
    Watch,
    guard,
    open_game,
    origin,
    screenshot,
    wait_ready,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect
from serve import SiteServer
from ui_helpers import board, click_pile, dom_piles, wait_still

#: Installing the new version downloads and checks the whole site (~15 MB).
INSTALL_TIMEOUT_MS = 120_000

RELEASE = "document.querySelector('meta[name=release]').content"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, SiteServer]]:
    out = tmp_path / "site"
    build_site.build(out, release="first")
    with SiteServer(out) as server:
        yield out, server


def new_context(browser: Browser, server: SiteServer, watch: Watch, phone: bool) -> BrowserContext:
    options: dict[str, object] = (
        {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
        if phone
        else {"viewport": VIEWPORT}
    )
    ctx = browser.new_context(base_url=server.url, service_workers="allow", **options)  # type: ignore[arg-type]
    watch.origins.add(origin(server.url))
    guard(ctx, watch)
    return ctx


def state(page: Page) -> dict[str, object]:
    """What the player sees of the game: table, moves, time, the undo and redo buttons."""
    return {
        "board": board(page),
        "piles": dom_piles(page),
        "moves": page.locator("#st-moves").inner_text(),
        "undo": page.locator("#btn-undo").is_enabled(),
        "redo": page.locator("#btn-redo").is_enabled(),
    }


def clock_seconds(page: Page) -> int:
    minutes, seconds = page.locator("#st-time").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_update_switches_to_the_new_version_and_keeps_the_game(
    browser: Browser, served: tuple[Path, SiteServer], watch: Watch, phone: bool
) -> None:
    out, server = served
    ctx = new_context(browser, server, watch, phone)
    try:
        page = ctx.new_page()
        open_game(page, "double-rail", 3)
        assert page.evaluate(RELEASE) == "first"
        page.wait_for_function(
            "navigator.serviceWorker.controller !== null", timeout=BOOT_TIMEOUT_MS
        )
        for _ in range(3):
            click_pile(page, "stock")
            wait_still(page)
        page.locator("#btn-undo").click()
        wait_still(page)
        page.wait_for_function("document.getElementById('st-time').textContent !== '0:00'")
        before = state(page)
        assert before["moves"] == "2", before
        assert before["redo"], before

        # The next deploy arrives on the server; the browser checks for it.
        build_site.build(out, release="second")
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        update = page.locator("#btn-update")
        expect(update).to_be_visible(timeout=INSTALL_TIMEOUT_MS)
        expect(page.locator("#notice")).to_contain_text("new version")
        screenshot(page, f"/tmp/update-notice-{'phone' if phone else 'desktop'}.png")
        assert page.evaluate(RELEASE) == "first"  # nothing switches under a running page
        clock = clock_seconds(page)

        with page.expect_navigation(timeout=BOOT_TIMEOUT_MS):
            if phone:
                update.tap()
            else:
                update.click()
        wait_ready(page)
        assert page.evaluate(RELEASE) == "second"
        assert state(page) == before
        assert clock <= clock_seconds(page) <= clock + 2
        expect(page.locator("#notice")).to_be_hidden()
        # the old version's cache is gone, the new one serves the page
        caches = page.evaluate(
            "caches.keys().then((ks) => ks.filter((k) => k.startsWith('solitaire ')))"
        )
        assert len(caches) == 1, caches
        page.locator("#btn-redo").click()
        wait_still(page)
        assert page.locator("#st-moves").inner_text() == "3"
    finally:
        ctx.close()
