"""pyodide.asm.wasm packed (build_site.PACKED_WASM): a page that no service worker answers (a
first visit) downloads the wasm's zstd copy and compiles it as it is decoded, and so does the
solver's worker it starts; the service worker unpacks the copy into its cache as the wasm
itself, which later visits compile (web/sw.js, PACKED). A packed copy that is missing or does
not decode leaves the page fetching the wasm itself, with no console error."""

from __future__ import annotations

from pathlib import Path

import build_site
import pytest
from conftest import OfflineSite
from harness import Watch, open_game, wait_ready
from playwright.sync_api import Page, Response, Route
from test_ui_solver import SOLVER_SETTLED, SOLVER_TIMEOUT_MS
from ui_helpers import dom_piles, engine_piles

from solitaire import Game

PLAIN, PACKED = build_site.PACKED_WASM

#: The size of the service worker's cached copy of the wasm (null: none).
CACHED_WASM_SIZE = """async (url) => {
  for (const name of await caches.keys()) {
    if (!name.startsWith("solitaire ")) continue;
    const hit = await (await caches.open(name)).match(url);
    if (hit) return (await hit.arrayBuffer()).byteLength;
  }
  return null;
}"""


@pytest.fixture(autouse=True)
def _has_packed_wasm(site_dir: Path) -> None:
    if not (site_dir / PACKED).is_file():
        pytest.fail(f"{site_dir}: built without {PACKED} (no zstd module?)")


def responses(page: Page) -> list[tuple[str, bool]]:
    """(site path, answered by the service worker) of the page's responses from now on."""
    seen: list[tuple[str, bool]] = []

    def record(response: Response) -> None:
        path = response.url.split("://", 1)[-1].partition("/")[2].split("?")[0]
        seen.append((path, response.from_service_worker))

    page.on("response", record)
    return seen


def test_a_first_visit_downloads_the_wasm_packed_and_later_visits_the_unpacked_wasm(
    offline_site: OfflineSite, site_dir: Path
) -> None:
    page = offline_site.page
    seen = responses(page)
    open_game(page, "russian", 1)
    assert (PACKED, False) in seen
    assert not [path for path, _ in seen if path == PLAIN]
    offline_site.wait_controlled()
    wasm_url = page.evaluate("(path) => new URL(path, location.href).href", PLAIN)
    size = page.evaluate(CACHED_WASM_SIZE, wasm_url)
    assert size == (site_dir / PLAIN).stat().st_size  # unpacked by the service worker

    seen.clear()
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert (PLAIN, True) in seen  # from the service worker's cache
    assert not [path for path, _ in seen if path == PACKED]
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    offline_site.watch.assert_clean()


def test_the_solver_s_worker_of_a_first_visit_downloads_the_wasm_packed_too(
    page: Page, watch: Watch
) -> None:
    seen = responses(page)
    open_game(page, "russian", 1)
    page.wait_for_function(SOLVER_SETTLED, timeout=SOLVER_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.solver") == "ready"
    fetched = [path for path, _ in seen]
    assert fetched.count(PACKED) == 2  # the page's and the worker's (from the HTTP cache)
    assert PLAIN not in fetched
    watch.assert_clean()


def test_without_its_packed_copy_the_page_fetches_the_wasm_itself(page: Page, watch: Watch) -> None:
    page.route(f"**/{PACKED}", lambda route: route.fulfill(status=404, body=b"gone"))
    watch.allow_console(r"404 \(Not Found\)")
    open_game(page, "russian", 1)
    assert page.evaluate("document.documentElement.dataset.boot") == "build-snapshot"
    assert PLAIN in watch.local_paths()
    watch.http_errors = [e for e in watch.http_errors if not e.endswith(PACKED)]
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()


@pytest.mark.parametrize("damage", ["junk after the zstd magic", "cut short", "not zstd"])
def test_a_packed_wasm_that_does_not_decode_is_replaced_by_the_wasm_itself(
    page: Page, watch: Watch, site_dir: Path, damage: str
) -> None:
    packed = (site_dir / PACKED).read_bytes()
    body = {
        "junk after the zstd magic": build_site.ZSTD_MAGIC + b"damaged" * 5000,
        "cut short": packed[: len(packed) // 2],
        "not zstd": b"\0asm" + b"junk" * 5000,
    }[damage]

    def damaged(route: Route) -> None:
        route.fulfill(status=200, body=body, content_type="application/zstd")

    page.route(f"**/{PACKED}", damaged)
    open_game(page, "russian", 1)
    assert page.evaluate("document.documentElement.dataset.boot") == "build-snapshot"
    assert PLAIN in watch.local_paths()
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()  # console.info only
