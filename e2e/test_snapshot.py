"""The Pyodide memory snapshot (web/pyodide-boot.mjs, web/pyodide-snapshot-worker.mjs): a first
visit boots normally and, once the service worker controls the page, saves a snapshot in Cache
Storage; later visits boot from it, play, and deal differently each time; a snapshot that cannot
be restored is deleted and the page boots normally, with no console error."""

from __future__ import annotations

from pathlib import Path

import build_site
import pytest
from conftest import OfflineSite
from harness import Watch, open_game, wait_ready
from playwright.sync_api import Page
from ui_helpers import board, click_pile, dom_piles, engine_piles, wait_still

from solitaire import Game, Move
from solitaire.piles import STOCK, WASTE

#: Making the snapshot starts a second interpreter in a worker: slow on a loaded machine.
SNAPSHOT_TIMEOUT_MS = 180_000

#: Where pyodide-boot.mjs keeps the snapshot (cache "pyodide-snapshot-<Pyodide version>").
SNAPSHOT_ENTRY = """async () => {
  const names = (await caches.keys()).filter(n => n.startsWith('pyodide-snapshot-'));
  const key = new URL('vendor/pyodide/memory-snapshot', location.href).href;
  for (const name of names) {
    const hit = await (await caches.open(name)).match(key);
    if (hit) {
      const stated = hit.headers.get('Content-Length');
      return {cache: name, size: (await hit.arrayBuffer()).byteLength, stated};
    }
  }
  return null;
}"""


@pytest.fixture(scope="module")
def offline_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site without the build's snapshot: a first visit starts CPython and saves one."""
    out = tmp_path_factory.mktemp("site-no-boot-snapshot")
    build_site.build(out, require_index=False, boot_snapshot=False)
    return out


def boot_kind(page: Page) -> str | None:
    return page.evaluate("document.documentElement.dataset.boot ?? null")  # type: ignore[no-any-return]


def new_deal(page: Page) -> int:
    before = board(page)["deal"]
    page.locator("#btn-new").click()
    page.wait_for_function(f"document.getElementById('board').dataset.deal !== '{before}'")
    return int(board(page)["deal"])


def plays_from_the_stock(page: Page) -> None:
    """Double Rail deal 3 is on the table as dealt, and a click on the stock deals a card."""
    game = Game.new("double-rail", 3)
    assert dom_piles(page) == engine_piles(game.position)
    click_pile(page, "stock")
    game.play(Move(STOCK, WASTE))
    wait_still(page)
    assert dom_piles(page) == engine_piles(game.position)
    assert page.locator("#st-moves").inner_text() == "1"


def test_later_visits_boot_from_the_snapshot_and_play(offline_site: OfflineSite) -> None:
    page = offline_site.page
    open_game(page, "double-rail", 3)
    assert boot_kind(page) == "fresh"
    offline_site.wait_controlled()
    page.wait_for_function(
        "['saved', 'failed'].includes(document.documentElement.dataset.snapshot)",
        timeout=SNAPSHOT_TIMEOUT_MS,
    )
    assert page.evaluate("document.documentElement.dataset.snapshot") == "saved"
    entry = page.evaluate(SNAPSHOT_ENTRY)
    assert entry is not None
    assert entry["size"] > 1_000_000, entry
    # stored with its size, from which the next start sizes Pyodide's memory while it reads it
    assert entry["stated"] == str(entry["size"])
    # noted, so that the next start looks in Cache Storage (a cold start does not)
    version = page.evaluate("import('./vendor/pyodide/pyodide.mjs').then((m) => m.version)")
    assert page.evaluate("localStorage.getItem('pyodide-snapshot')") == version

    # Second visit: restored from the snapshot, and the game plays (a click move).
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert boot_kind(page) == "snapshot"
    assert board(page)["game"] == "double-rail"
    assert board(page)["deal"] == "3"
    plays_from_the_stock(page)
    first = new_deal(page)

    # Third visit: from the snapshot again; the random generator was reseeded, so "New deal"
    # does not repeat the deal of the previous visit (the snapshot holds one fixed seed).
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert boot_kind(page) == "snapshot"
    second = new_deal(page)
    assert second != first

    # A snapshot kept without its size (as the page stored them before) is read first, then
    # restored.
    page.evaluate(WITHOUT_SIZE)
    assert page.evaluate(SNAPSHOT_ENTRY)["stated"] is None
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert boot_kind(page) == "snapshot"
    assert new_deal(page) != second


#: The kept snapshot stored again without its size (the Content-Length header).
WITHOUT_SIZE = """async () => {
  for (const name of await caches.keys()) {
    if (!name.startsWith('pyodide-snapshot-')) continue;
    const cache = await caches.open(name);
    const key = new URL('vendor/pyodide/memory-snapshot', location.href).href;
    const hit = await cache.match(key);
    if (hit) await cache.put(key, new Response(await hit.arrayBuffer()));
  }
}"""


@pytest.mark.parametrize("stated", [None, "its own", "the build's"])
def test_corrupted_snapshot_is_deleted_and_the_page_boots_normally(
    page: Page, watch: Watch, stated: str | None
) -> None:
    """Junk where the kept snapshot should be, stored with no size, with its own size, or with
    the size of a real snapshot (that Pyodide sizes its memory from before the bytes are in)."""
    # Service workers are blocked in this context: no snapshot is made in the background, so
    # the cache holds exactly what the test puts there. The site has the build's snapshot: the
    # page starts from it, and from it again once the bad cached one is deleted.
    open_game(page, "russian", 1)
    assert boot_kind(page) == "build-snapshot"
    page.evaluate(
        """async (stated) => {
          const version = (await import('./vendor/pyodide/pyodide.mjs')).version;
          const cache = await caches.open(`pyodide-snapshot-${version}`);
          const key = new URL('vendor/pyodide/memory-snapshot', location.href).href;
          const junk = new Uint8Array(1 << 20).map((_, i) => (i * 7919) & 255);
          const size = { "its own": junk.length, "the build's": 31457888 }[stated];
          const headers = size ? { "Content-Length": String(size) } : {};
          await cache.put(key, new Response(junk, { headers }));
          // what the page notes when it saved one (web/pyodide-boot.mjs)
          const { SNAPSHOT_ID } = await import('./web/pyodide-boot.mjs');
          localStorage.setItem('pyodide-snapshot', SNAPSHOT_ID);
        }""",
        stated,
    )
    assert page.evaluate(SNAPSHOT_ENTRY)["size"] == 1 << 20

    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert boot_kind(page) == "build-snapshot"
    assert page.evaluate(SNAPSHOT_ENTRY) is None
    assert page.evaluate("localStorage.getItem('pyodide-snapshot')") is None
    game = Game.new("russian", 1)
    assert dom_piles(page) == engine_piles(game.position)
    watch.assert_clean()  # no console error, no page error


def test_a_snapshot_saved_for_another_deploy_is_not_restored(page: Page, watch: Watch) -> None:
    # A snapshot fits only the standard library zip and the page modules it was made with: one
    # noted for another build's snapshot (here: the note of a site without one, Pyodide's
    # version) is not even read. The page starts from this build's snapshot and leaves the old
    # entry alone (service workers are blocked here, so nothing replaces it).
    open_game(page, "russian", 1)
    page.evaluate(
        """async () => {
          const version = (await import('./vendor/pyodide/pyodide.mjs')).version;
          const cache = await caches.open(`pyodide-snapshot-${version}`);
          const key = new URL('vendor/pyodide/memory-snapshot', location.href).href;
          await cache.put(key, new Response(new Uint8Array(1 << 20)));
          localStorage.setItem('pyodide-snapshot', version);
        }"""
    )
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert boot_kind(page) == "build-snapshot"
    assert page.evaluate(SNAPSHOT_ENTRY)["size"] == 1 << 20  # never opened, so never deleted
    game = Game.new("russian", 1)
    assert dom_piles(page) == engine_piles(game.position)
    watch.assert_clean()
