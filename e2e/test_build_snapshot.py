"""The build's memory snapshot (tools/make_boot_snapshot.mjs, build_site.BOOT_SNAPSHOT_FILE): a
first visit restores the interpreter from it (``data-boot="build-snapshot"``) and plays, with no
background snapshot; reseeded, so two visits deal differently; one a server sends already
unpacked is restored too, and so is a gzipped one (a build without zstd); a corrupted or
cut-short one is ignored and the page starts CPython normally, with no console error; it is
unpacked (zstd) in a worker, or on the page's thread where a blob worker is refused, and a
worker that fails leaves a normal start."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import build_site
import pytest
from conftest import OfflineSite
from harness import Watch, open_game, wait_ready
from playwright.sync_api import Browser, Page, Route
from test_snapshot import SNAPSHOT_ENTRY, plays_from_the_stock
from ui_helpers import board, dom_piles, engine_piles

from solitaire import Game

SNAPSHOT_URLS = "**/vendor/pyodide/boot-snapshot-*"


def boot_kind(page: Page) -> str | None:
    return page.evaluate("document.documentElement.dataset.boot ?? null")  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _has_snapshot(site_dir: Path) -> None:
    if not list((site_dir / "vendor" / "pyodide").glob("boot-snapshot-*")):
        pytest.fail(f"{site_dir}: built without {build_site.BOOT_SNAPSHOT_FILE}")


def test_first_visit_boots_from_the_build_snapshot_and_plays(page: Page, watch: Watch) -> None:
    open_game(page, "double-rail", 3)
    assert boot_kind(page) == "build-snapshot"
    plays_from_the_stock(page)
    # no second interpreter in the background, no Cache Storage snapshot
    assert page.evaluate("document.documentElement.dataset.snapshot ?? null") is None
    page.locator("#btn-new").click()
    page.wait_for_function("document.getElementById('board').dataset.deal !== '3'")
    first = board(page)["deal"]
    page.reload(wait_until="domcontentloaded")
    open_game(page, "double-rail", 3)
    assert boot_kind(page) == "build-snapshot"
    page.locator("#btn-new").click()
    page.wait_for_function("document.getElementById('board').dataset.deal !== '3'")
    assert board(page)["deal"] != first  # random reseeded after the restore
    watch.assert_clean()  # no console error, no page error


def test_the_build_snapshot_is_asked_for_once_the_wasm_is_under_way(
    page: Page, watch: Watch
) -> None:
    """Told the snapshot's size, Pyodide compiles, instantiates and links the wasm without it;
    the page asks for the snapshot only once most of the wasm is in, so that the wasm ends
    first and that work overlaps the snapshot's download."""
    open_game(page, "russian", 1)
    assert boot_kind(page) == "build-snapshot"
    times = page.evaluate(
        """() => {
        const start = (part) => performance.getEntriesByType("resource")
            .find((e) => e.name.includes(part)).startTime;
        const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
        return {wasm: start("/pyodide.asm.wasm"), snapshot: start("/boot-snapshot-"),
                asked: mark("pyodide-boot:snapshot-fetch"), started: mark("pyodide-boot:started")};
    }"""
    )
    assert times["asked"] is not None, times
    assert times["wasm"] < times["asked"] <= times["snapshot"] < times["started"], times
    watch.assert_clean()


#: Counts the bytes DecompressionStream gives out on the page's thread (a worker has its own,
#: uncounted), in window.inflatedOnPage.
COUNT_PAGE_INFLATE = """
window.inflatedOnPage = 0;
const Native = DecompressionStream;
window.DecompressionStream = class extends Native {
  get readable() {
    this.counted ??= super.readable.pipeThrough(new TransformStream({
      transform(chunk, out) { window.inflatedOnPage += chunk.byteLength; out.enqueue(chunk); },
    }));
    return this.counted;
  }
};
"""
#: Blob workers refused, as a Content-Security-Policy without blob: in worker-src would.
NO_BLOB_WORKERS = """
const NativeWorker = Worker;
window.Worker = function (url, options) {
  if (String(url).startsWith("blob:")) throw new DOMException("refused", "SecurityError");
  return new NativeWorker(url, options);
};
"""
#: Every blob worker answers with an error instead of the bytes.
FAILING_BLOB_WORKERS = """
const nativeObjectURL = URL.createObjectURL;
URL.createObjectURL = (blob) => nativeObjectURL(
  blob.type === "text/javascript"
    ? new Blob(['onmessage = () => postMessage({ error: "test failure" });'], { type: blob.type })
    : blob);
"""


#: Appended to the zstd decoder as served: counts the bytes given to it in the global scope
#: that runs it (the page's window, or a worker's own), in zstdIn.
COUNT_ZSTD = """
const countedPush = Decompress.prototype.push;
Decompress.prototype.push = function (chunk, final) {
  globalThis.zstdIn = (globalThis.zstdIn ?? 0) + chunk.length;
  return countedPush.call(this, chunk, final);
};
"""


def count_zstd(page: Page, site_dir: Path) -> None:
    source = (site_dir / build_site.FZSTD_FILE).read_text("utf-8") + COUNT_ZSTD

    def counted(route: Route) -> None:
        route.fulfill(status=200, body=source, content_type="text/javascript")

    page.route(f"**/{build_site.FZSTD_FILE}", counted)


def packed_wasm_size(site_dir: Path) -> int:
    return (site_dir / build_site.PACKED_WASM[1]).stat().st_size


def inflated_on_page(page: Page) -> int:
    return page.evaluate("window.inflatedOnPage")  # type: ignore[no-any-return]


def zstd_on_page(page: Page) -> int:
    return page.evaluate("window.zstdIn ?? 0")  # type: ignore[no-any-return]


def test_the_snapshot_is_unpacked_off_the_page_thread(
    page: Page, watch: Watch, site_dir: Path
) -> None:
    """The 31 MB the snapshot unpacks to are a long task on the page's thread (~0.46 s on the
    phone profile, gzip): a worker decodes them, the page only inflates its own small
    archive. A worker decodes the packed wasm too, sent back as a stream for the streaming
    compile."""
    assert build_snapshot_bytes(site_dir)[:4] == build_site.ZSTD_MAGIC
    page.add_init_script(COUNT_PAGE_INFLATE)
    count_zstd(page, site_dir)
    open_game(page, "russian", 1)
    assert boot_kind(page) == "build-snapshot"
    assert zstd_on_page(page) == 0
    assert 0 < inflated_on_page(page) < 2_000_000  # py/page.tar.gz: ~0.4 MB
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()


def test_without_blob_workers_the_page_unpacks_the_snapshot_itself(
    page: Page, watch: Watch, site_dir: Path
) -> None:
    page.add_init_script(NO_BLOB_WORKERS)
    count_zstd(page, site_dir)
    open_game(page, "russian", 1)
    assert boot_kind(page) == "build-snapshot"
    # on the page's thread, with the packed wasm
    assert zstd_on_page(page) == len(build_snapshot_bytes(site_dir)) + packed_wasm_size(site_dir)
    watch.assert_clean()


def test_a_failing_unpacking_worker_falls_back_to_a_normal_start(page: Page, watch: Watch) -> None:
    page.add_init_script(FAILING_BLOB_WORKERS)
    open_game(page, "russian", 1)
    assert boot_kind(page) == "fresh"
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()  # reported with console.info only


def build_snapshot_bytes(site_dir: Path) -> bytes:
    return next((site_dir / "vendor" / "pyodide").glob("boot-snapshot-*")).read_bytes()


def test_a_build_snapshot_sent_unpacked_is_restored(
    page: Page, watch: Watch, site_dir: Path
) -> None:
    """A server (or proxy) that decodes the file on the way: the page unpacks only a zstd or
    gzip stream, and takes other bytes as they are."""
    unpacked = build_site.unpack_snapshot(build_snapshot_bytes(site_dir))

    def decoded(route: Route) -> None:
        route.fulfill(status=200, body=unpacked, content_type="application/octet-stream")

    page.route(SNAPSHOT_URLS, decoded)
    open_game(page, "russian", 1)
    assert boot_kind(page) == "build-snapshot"
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()


def test_a_gzipped_build_snapshot_is_restored(page: Page, watch: Watch, site_dir: Path) -> None:
    """What a build without zstd ships (build_site.pack_snapshot): the page inflates it."""
    unpacked = build_site.unpack_snapshot(build_snapshot_bytes(site_dir))
    packed = gzip.compress(unpacked, compresslevel=1)
    page.add_init_script(COUNT_PAGE_INFLATE)

    def gzipped(route: Route) -> None:
        route.fulfill(status=200, body=packed, content_type="application/octet-stream")

    page.route(SNAPSHOT_URLS, gzipped)
    open_game(page, "russian", 1)
    assert boot_kind(page) == "build-snapshot"
    assert inflated_on_page(page) < 2_000_000  # inflated by the worker, not on the page
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()


@pytest.mark.parametrize("damage", ["junk", "cut short"])
def test_corrupted_build_snapshot_falls_back_to_a_normal_start(
    page: Page, watch: Watch, site_dir: Path, damage: str
) -> None:
    """Junk (neither zstd nor gzip), or a zstd stream that ends halfway (a download cut
    short)."""
    if damage == "junk":
        body = bytes((i * 7919) & 255 for i in range(1 << 20))
    else:
        packed = build_snapshot_bytes(site_dir)
        body = packed[: len(packed) // 2]

    def garbage(route: Route) -> None:
        route.fulfill(status=200, body=body, content_type="application/octet-stream")

    page.route(SNAPSHOT_URLS, garbage)
    open_game(page, "russian", 1)
    assert boot_kind(page) == "fresh"
    game = Game.new("russian", 1)
    assert dom_piles(page) == engine_piles(game.position)
    watch.assert_clean()  # the fallback is reported with console.info only


def test_slow_link_starts_normally_without_fetching_the_snapshot(page: Page, watch: Watch) -> None:
    """On a slow link the snapshot's download would cost more than starting CPython saves:
    the page does not fetch it (navigator.connection follows the emulated link: "3g")."""
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url) if "boot-snapshot-" in r.url else None)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    speed = 1.6e6 / 8  # bytes per second
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 300, "downloadThroughput": speed, "uploadThroughput": speed},
    )
    open_game(page, "russian", 1, timeout_ms=180_000)
    assert page.evaluate("navigator.connection.effectiveType") == "3g"
    assert boot_kind(page) == "fresh"
    assert requested == []
    assert dom_piles(page) == engine_piles(Game.new("russian", 1).position)
    watch.assert_clean()


def test_later_visits_restore_the_kept_build_snapshot_and_the_compiled_wasm(
    offline_site: OfflineSite, browser: Browser
) -> None:
    """Once a service worker controls the page, the build's snapshot, unpacked, is kept in Cache
    Storage: the next visit restores it from there (data-boot="snapshot"), no download. The
    service worker answers with the cached responses themselves, so Chromium keeps the code it
    compiled for pyodide.asm.wasm next to the cached file: a later visit deserializes it
    instead of compiling 9.6 MB of wasm again (web/sw.js, fromCache)."""
    page = offline_site.page
    open_game(page, "russian", 2)
    assert boot_kind(page) == "build-snapshot"
    offline_site.wait_controlled()
    page.wait_for_function(
        "['saved', 'failed'].includes(document.documentElement.dataset.snapshot)",
        timeout=60_000,
    )
    assert page.evaluate("document.documentElement.dataset.snapshot") == "saved"
    entry = page.evaluate(SNAPSHOT_ENTRY)
    assert entry is not None
    assert entry["size"] > 1_000_000, entry  # unpacked
    assert entry["stated"] == str(entry["size"])  # Pyodide is sized from it on the next start
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url) if "boot-snapshot-" in r.url else None)
    page.reload(wait_until="domcontentloaded")
    wait_ready(page)
    assert boot_kind(page) == "snapshot"
    assert requested == []
    assert dom_piles(page) == engine_piles(Game.new("russian", 2).position)

    # Chromium stores a module's code once enough of it has been optimised, some seconds into
    # a visit that compiled it from the cached response (how many depends on the machine's
    # load: on a site just written to disk it took more than four visits 4 s apart).
    deserialized = False
    for _ in range(6):
        page.wait_for_timeout(6000)
        browser.start_tracing(categories=["v8.wasm", "disabled-by-default-v8.wasm.detailed"])
        page.reload(wait_until="domcontentloaded")
        wait_ready(page)
        events = json.loads(browser.stop_tracing())["traceEvents"]
        deserialized = any(e["name"] == "wasm.Deserialize" for e in events)
        if deserialized:
            break
    assert deserialized, "pyodide.asm.wasm was compiled again on every visit"
