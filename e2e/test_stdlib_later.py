"""The standard library after the start (web/pyodide-boot.mjs, STDLIB_LATER_URL): a page that
restores the build's snapshot gives Pyodide an empty zip at once and fetches the trimmed zip
only once the page is ready, so that the wasm and the snapshot have the link to themselves; the
zip is written into the file system when it arrives ("pyodide-boot:stdlib").
The snapshot holds every module the page imports, so the page plays every feature before the
zip is in, and a zip that never comes costs nothing but the modules nobody imported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import STDLIB_INSTALLED, Watch, open_game
from playwright.sync_api import Page, Route, expect
from test_ui_solver import ANSWERED, SOLVER_TIMEOUT_MS, hinted
from ui_helpers import open_and_close_menu_dialogs, wait_table

from solitaire import Game, Move
from solitaire.rules import GAMES

STDLIB = "vendor/pyodide/python_stdlib_trimmed.zip"

#: Runs Python in the page's interpreter (PyScript runs a <script type="py"> added to the
#: document there): modules of the zip that the snapshot does not hold, and the zip's size as
#: the interpreter's file system has it, into <html data-probe>.
PROBE = """() => {
  const script = document.createElement("script");
  script.type = "py";
  script.textContent = [
    "import html, ipaddress, sys, urllib.parse",
    "from js import document",
    "zip_path = next(p for p in sys.path if p.endswith('.zip'))",
    "with open(zip_path, 'rb') as f: size = len(f.read())",
    "document.documentElement.dataset.probe = html.escape('<ok>') + ' ' + str(size)",
  ].join("\\n");
  document.body.append(script);
}"""


class PageStdlibFetch:
    """The page's fetch of the zip (the first) answered by ``answer``, or held until
    ``release()`` without one; later fetches (the solver worker's, its own Pyodide) pass."""

    def __init__(self, page: Page, answer: Callable[[Route], None] | None = None) -> None:
        self.answer = answer
        self.held: list[Route] = []
        self.seen = 0
        page.route(f"**/{STDLIB}*", self._route)

    def _route(self, route: Route) -> None:
        self.seen += 1
        if self.seen > 1:
            route.continue_()
        elif self.answer is None:
            self.held.append(route)
        else:
            self.answer(route)

    def wait_held(self, page: Page, timeout_ms: int = 15_000) -> bool:
        """Whether the page's fetch of the zip arrives within ``timeout_ms``: the page asks
        for it once it is ready, in a task of its own, so on a loaded machine the request can
        come a little after ``data-app="ready"`` is seen."""
        waited = 0
        while not self.held and waited < timeout_ms:
            page.wait_for_timeout(50)  # lets Playwright deliver the route
            waited += 50
        return bool(self.held)

    def release(self) -> None:
        for route in self.held:
            route.continue_()
        self.held.clear()


def assert_zip_installed(page: Page, site_dir: Path) -> None:
    """Modules of the zip import in the page (PROBE), and the file system has the zip's size."""
    page.evaluate(PROBE)
    expect(page.locator("html")).to_have_attribute(
        "data-probe", f"&lt;ok&gt; {(site_dir / STDLIB).stat().st_size}"
    )


def resource(page: Page, name: str) -> dict[str, Any]:
    entry: dict[str, Any] = page.evaluate(
        """(name) => {
          const e = performance.getEntriesByType("resource").find((r) => r.name.includes(name));
          return e ? { start: e.startTime, end: e.responseEnd } : null;
        }""",
        name,
    )
    assert entry is not None, f"no request of {name}"
    return entry


#: Notes in window.appReadyAt when <html data-app> becomes "ready" (app.py).
NOTE_READY = """new MutationObserver((_, observer) => {
  if (document.documentElement.dataset.app !== "ready") return;
  window.appReadyAt = performance.now();
  observer.disconnect();
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-app"] });"""


def test_the_zip_is_fetched_once_the_page_is_ready_and_installed(
    page: Page, watch: Watch, site_dir: Path
) -> None:
    page.add_init_script(NOTE_READY)
    open_game(page, "russian", 1)
    assert page.evaluate("document.documentElement.dataset.boot") == "build-snapshot"
    page.wait_for_function(STDLIB_INSTALLED)
    snapshot = resource(page, "boot-snapshot-")
    stdlib = resource(page, STDLIB)
    ready = page.evaluate("window.appReadyAt")
    assert stdlib["start"] >= ready >= snapshot["end"], (stdlib, ready, snapshot)
    assert_zip_installed(page, site_dir)
    watch.assert_clean()


def test_every_feature_plays_before_the_zip_is_in(page: Page, watch: Watch, site_dir: Path) -> None:
    held = PageStdlibFetch(page)
    open_game(page, "double-russian", 2)
    assert page.evaluate("document.documentElement.dataset.boot") == "build-snapshot"
    assert held.wait_held(page), "the page fetched no zip"

    # A hint from the solver's worker (whose own fetch of the zip passes).
    position = Game.new("double-russian", 2).position
    page.locator("#btn-hint").click()
    page.wait_for_function(ANSWERED, timeout=SOLVER_TIMEOUT_MS)
    state = hinted(page)[0]
    assert state["hint"] in ("winning", "heuristic"), state
    assert position.why_illegal(Move.parse(state["hintMove"])) is None

    # Every game of the table, the statistics and settings dialogs, a new deal.
    for game_id in GAMES:
        page.locator("#game-select").select_option(game_id)
        page.wait_for_function("(id) => location.hash.startsWith(`#${id}/`)", arg=game_id)
        deal = int(page.evaluate("location.hash").rpartition("/")[2])
        wait_table(page, Game.new(game_id, deal).position)
    open_and_close_menu_dialogs(page)
    before = page.evaluate("document.getElementById('board').dataset.deal")
    page.locator("#btn-new").click()
    page.wait_for_function(f"document.getElementById('board').dataset.deal !== '{before}'")
    assert not page.evaluate(STDLIB_INSTALLED), "the zip came in while it was held"
    assert held.held

    held.release()
    page.wait_for_function(STDLIB_INSTALLED)
    assert_zip_installed(page, site_dir)
    watch.assert_clean()


@pytest.mark.parametrize("how", ["404", "aborted"])
def test_a_zip_that_never_comes_leaves_the_page_playing(page: Page, watch: Watch, how: str) -> None:
    def refuse(route: Route) -> None:
        if how == "404":
            route.fulfill(status=404, body=b"gone")
        else:
            route.abort("failed")

    PageStdlibFetch(page, refuse)
    watch.allow_console(r"404 \(Not Found\)|net::ERR_FAILED")
    open_game(page, "russian", 1)
    assert page.evaluate("document.documentElement.dataset.boot") == "build-snapshot"
    page.wait_for_timeout(500)
    assert not page.evaluate(STDLIB_INSTALLED)
    wait_table(page, Game.new("russian", 1).position)
    page.locator("#btn-new").click()  # a new deal, dealt by the page's Python
    page.wait_for_function("document.getElementById('board').dataset.deal !== '1'")
    watch.http_errors = [e for e in watch.http_errors if STDLIB not in e]
    watch.assert_clean()
