"""Two deployments on one origin (like user.github.io/a/ and /b/): each service worker keeps
and deletes only its own scope's caches, so both play offline after a visit to each."""

from __future__ import annotations

from pathlib import Path

import build_site
from harness import BOOT_TIMEOUT_MS, VIEWPORT, Watch, guard, origin, wait_ready
from playwright.sync_api import Browser, Page
from serve import SiteServer
from ui_helpers import board, dom_piles, engine_piles

from solitaire import Game


def controlled(page: Page) -> None:
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=BOOT_TIMEOUT_MS)


def test_two_deployments_on_one_origin_both_play_offline(
    browser: Browser, tmp_path: Path, watch: Watch
) -> None:
    # two different versions (another release label), so two different cache versions
    build_site.build(tmp_path / "a", release="a")
    build_site.build(tmp_path / "b", release="b")
    server = SiteServer(tmp_path).start()
    ctx = browser.new_context(base_url=server.url, service_workers="allow", viewport=VIEWPORT)
    watch.origins.add(origin(server.url))
    guard(ctx, watch)
    try:
        page = ctx.new_page()
        page.goto("./a/#russian/4", wait_until="domcontentloaded")
        wait_ready(page)
        controlled(page)
        page.goto("./b/#double-russian/5", wait_until="domcontentloaded")
        wait_ready(page)
        controlled(page)
        names = page.evaluate(
            "caches.keys().then((ks) => ks.filter((k) => k.startsWith('solitaire')))"
        )
        assert sorted(names) == sorted(
            f"solitaire {server.url}{p}/ {v}"
            for p, v in (("a", _version(tmp_path / "a")), ("b", _version(tmp_path / "b")))
        ), names

        server.stop()
        ctx.set_offline(True)
        for path, game, deal in (("a", "russian", 4), ("b", "double-russian", 5)):
            page.goto(f"./{path}/#{game}/{deal}", wait_until="domcontentloaded")
            wait_ready(page)
            assert page.evaluate("document.querySelector('meta[name=release]').content") == path
            assert board(page)["game"] == game
            assert dom_piles(page) == engine_piles(Game.new(game, deal).position)
    finally:
        ctx.close()
        server.stop()


def _version(site: Path) -> str:
    text = (site / "sw.js").read_text(encoding="utf-8")
    return text.split('const CACHE_VERSION = "', 1)[1].split('"', 1)[0]
