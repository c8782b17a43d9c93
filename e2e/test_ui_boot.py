"""Starting up: a browser that cannot run Python gets a clear message instead of a blank page;
a runtime file that cannot be downloaded is named at once, and "Try again" works; the service
worker's damaged cache entries are repaired; after a first visit the game starts and plays
offline (service worker, no server, no network); the page runs under its
Content-Security-Policy."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import OfflineSite
from harness import ROOT, STDLIB_INSTALLED, Watch, open_game, screenshot, wait_ready
from playwright.sync_api import Page, Route, expect
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


#: The loading screen reports a failed download within this many seconds (Pyodide itself
#: waits forever; the page's last resort is 90 s). An unloaded machine reports in about 1-3 s;
#: the bound leaves room for a busy 2-core test machine.
REPORT_WITHIN_S = 12


@pytest.mark.parametrize(
    ("device", "failing", "how"),
    [
        ("page", "vendor/pyodide/pyodide.asm.wasm", "aborted"),
        ("phone_page", "vendor/pyodide/pyodide.asm.wasm", "aborted"),
        # The page's bytecode archive (tools/build_site.py PAGE_ARCHIVE), fetched while Pyodide
        # starts: lost, or answered with bytes that are no gzipped tar.
        ("phone_page", "py/page.tar.gz", "aborted"),
        ("page", "py/page.tar.gz", "damaged"),
    ],
)
def test_failed_runtime_download_is_reported_at_once_and_try_again_works(
    request: pytest.FixtureRequest, device: str, failing: str, how: str, watch: Watch
) -> None:
    page: Page = request.getfixturevalue(device)
    watch.allow_console(
        r"pyodide\.asm\.wasm|page\.tar\.gz|wasm|Failed to fetch|net::ERR|Pyodide|pyodide"
    )
    # the wasm: its packed copy too (build_site.PACKED_WASM), which a first visit asks for first
    files = f"**/{failing}*"
    if how == "aborted":
        page.route(files, lambda route: route.abort("failed"))
    else:
        page.route(files, lambda route: route.fulfill(status=200, body=b"\x1f\x8bnot gzip"))
    started = time.monotonic()
    page.goto("./#russian/1", wait_until="domcontentloaded")
    page.wait_for_function(
        "document.documentElement.dataset.app === 'failed'", timeout=REPORT_WITHIN_S * 1000
    )
    assert time.monotonic() - started < REPORT_WITHIN_S
    error = page.locator("#boot-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text(failing)
    if how == "damaged":
        expect(error).to_contain_text("cannot unpack")
    expect(page.locator("#boot-bar")).to_be_hidden()
    screenshot(page, f"/tmp/boot-failed-{device}-{failing.rpartition('/')[2]}-{how}.png")

    page.unroute(files)
    retry = page.get_by_role("button", name="Try again")
    with page.expect_navigation():
        if device == "phone_page":
            retry.tap()
        else:
            retry.click()
    wait_ready(page)
    expect(page.locator("#boot-error")).to_be_hidden()
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)


def test_every_page_runs_under_the_content_security_policy(page: Page, watch: Watch) -> None:
    open_game(page, "russian", 1)
    # An inline script is refused, and the refusal reaches the test (what fails any other test).
    watch.allow_console(r"Content Security Policy")
    page.evaluate(
        """() => {
          const script = document.createElement('script');
          script.textContent = "document.documentElement.dataset.inline = 'ran'";
          document.head.append(script);
        }"""
    )
    deadline = time.monotonic() + 5
    while not watch.csp_violations and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert page.evaluate("document.documentElement.dataset.inline ?? null") is None
    assert any("script-src" in v for v in watch.csp_violations), watch.csp_violations
    watch.csp_violations.clear()


#: The cache of this site's service worker and the entry of one runtime file in it.
CACHE_ENTRY = """async (file) => {
  const scope = (await navigator.serviceWorker.getRegistration()).scope;
  const name = (await caches.keys()).find((n) => n.startsWith(`solitaire ${scope} `));
  const cache = await caches.open(name);
  const url = new URL(file, scope).href;
  return {name, url, size: (await (await cache.match(url)).arrayBuffer()).byteLength};
}"""


def damage_cache_entry(page: Page, file: str, size: int) -> None:
    """Write `size` bytes of garbage into the cached copy of `file` (headers kept)."""
    page.evaluate(
        """async ([entry, size]) => {
          const cache = await caches.open(entry.name);
          const old = await cache.match(entry.url);
          const junk = new Uint8Array(size).map((_, i) => (i * 7919 + 13) & 255);
          await cache.put(entry.url, new Response(junk, {headers: old.headers}));
        }""",
        [page.evaluate(CACHE_ENTRY, file), size],
    )
    assert page.evaluate(CACHE_ENTRY, file)["size"] == size


def test_damaged_cache_entries_are_detected_and_repaired(
    offline_site: OfflineSite, site_dir: Path
) -> None:
    page = offline_site.page
    offline_site.watch.allow_console(r"wasm|WebAssembly|CompileError|Pyodide|pyodide")
    open_game(page, "russian", 2)
    offline_site.wait_controlled()
    stdlib = "vendor/pyodide/python_stdlib_trimmed.zip"
    wasm = "vendor/pyodide/pyodide.asm.wasm"
    real = {f: (site_dir / f).stat().st_size for f in (stdlib, wasm)}

    # A damaged entry of another size: the worker notices when it serves it, downloads the
    # file again, checks it against the build's SHA-256 and stores it; the page just starts.
    # The page asks for the zip once it is ready (docs/performance.md, "The standard library
    # after the start"): the entry is repaired once the zip is in ("pyodide-boot:stdlib").
    damage_cache_entry(page, stdlib, 1000)
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    page.wait_for_function(STDLIB_INSTALLED)
    assert page.evaluate(CACHE_ENTRY, stdlib)["size"] == real[stdlib]

    # Damaged with the right size: the wasm does not compile, which the page reports at once;
    # "Try again" has the worker check every file's SHA-256 and repair this one.
    damage_cache_entry(page, wasm, real[wasm])
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function(
        "document.documentElement.dataset.app === 'failed'", timeout=REPORT_WITHIN_S * 1000
    )
    expect(page.locator("#boot-error")).to_contain_text(wasm)
    with page.expect_navigation():  # once the worker has checked its cache
        page.get_by_role("button", name="Try again").click()
    wait_ready(page)
    assert page.evaluate(CACHE_ENTRY, wasm)["size"] == real[wasm]
    assert dom_piles(page) == engine_piles(Game.new("russian", 2).position)


def test_a_first_install_that_fails_is_tried_again(offline_site: OfflineSite) -> None:
    """One file of the precache that does not download fails the whole first install; the page
    registers the worker again a few seconds later (web/register-sw.js, RETRY_MS), so that this
    visit still ends playing offline."""
    page = offline_site.page
    failing = "web/winnable/double-rail.json"  # fetched by the service worker's precache only
    refused: list[str] = []

    def once(route: Route) -> None:
        if route.request.service_worker is not None and not refused:
            refused.append(route.request.url)
            route.fulfill(status=503, body=b"busy")
        else:
            route.fallback()

    offline_site.context.route(f"**/{failing}", once)
    offline_site.watch.allow_console(r"503")
    open_game(page, "russian", 3)
    offline_site.go_offline()  # waits until a worker controls the page
    assert refused, "the service worker's precache did not ask for the file"
    infos = [m for m in offline_site.watch.console if "not saved; trying again" in m]
    assert len(infos) == 1, infos
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert dom_piles(page) == engine_piles(Game.new("russian", 3).position)
    offline_site.watch.http_errors = [e for e in offline_site.watch.http_errors if failing not in e]
