"""First visit from a memory snapshot made at build time, against the site as built and the bare
page, on a phone profile and on the desktop.

    .venv/bin/python bench/bench_build_snapshot.py [--runs 3] [--profiles phone,desktop]

Builds the site twice from this checkout: as built, whose web/pyodide-boot.mjs, on a first
visit (no snapshot in Cache Storage), restores the interpreter from the build's snapshot
(``build_site.BOOT_SNAPSHOT_FILE``, made by ``node tools/make_boot_snapshot.mjs``), fetched
while Pyodide's own files download (``data-boot="build-snapshot"``); and without it
(``build_site.build(boot_snapshot=False)``: a first visit starts CPython, as before).

Every file is served gzip-compressed (``gzip -9``, as GitHub Pages would; .gz, .zst and .png
as they are) by a server of this script, since tools/serve.py sends files as they are; Chromium's
network emulation then limits the compressed bytes. Profiles: "phone" = CPU throttled 4x
(CDP ``Emulation.setCPUThrottlingRate``) and 10 Mbit/s down / 40 ms RTT
(``Network.emulateNetworkConditions``); "desktop" = no throttling. First visit = a fresh
browser context, navigation start -> ``<html data-app="ready">``. The three pages take turns
(A B C, C B A, ...) in every round; the table gives medians. See docs/performance.md,
"Build-time snapshot".
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import io
import sys
import tempfile
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import build_site
from benchlib import chrome, siteserve, stats
from serve import QuietHandler

REAL = "./#russian/1"
BARE = "./bench/bare.html"

PROFILES: dict[str, dict[str, Any]] = {
    "phone": {"cpu": 4, "mbps": 10, "rtt": 40},
    "desktop": {"cpu": 1, "mbps": None, "rtt": 0},
}

NO_GZIP = (".gz", ".zst", ".png")


class GzipHandler(QuietHandler):
    """Serves every file gzip -9 compressed (compressed once, kept in memory)."""

    packed: dict[str, bytes] = {}  # noqa: RUF012  (shared on purpose: one cache per run)

    def send_head(self) -> Any:
        path = Path(self.translate_path(self.path))
        if not path.is_file() or path.suffix in NO_GZIP:
            return super().send_head()
        key = str(path.resolve())
        if key not in self.packed:
            self.packed[key] = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
        body = self.packed[key]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def pack_all(root: Path) -> None:
    """Compress every file of ``root`` now, not during a measured first visit."""
    for path in root.rglob("*"):
        if path.is_file() and path.suffix not in NO_GZIP:
            key = str(path.resolve())
            if key not in GzipHandler.packed:
                GzipHandler.packed[key] = gzip.compress(path.read_bytes(), 9, mtime=0)


@contextlib.contextmanager
def gzip_server(root: Path) -> Iterator[str]:
    pack_all(root)

    httpd = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(GzipHandler, directory=str(root))
    )
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def first_visit(browser: Any, base: str, path: str, profile: dict[str, Any]) -> dict[str, Any]:
    ctx = chrome.new_context(browser, base, service_workers=True)
    errors: list[str] = []
    ctx.on("console", lambda m: errors.append(m.text[:200]) if m.type == "error" else None)
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        if profile["cpu"] != 1:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
        if profile["mbps"]:
            cdp.send("Network.enable")
            rate = profile["mbps"] * 1e6 / 8
            cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": profile["rtt"],
                    "downloadThroughput": rate,
                    "uploadThroughput": rate,
                },
            )
        page.goto(path, wait_until="commit")
        marks = chrome.wait_ready(page)
        boot = page.evaluate("document.documentElement.dataset.boot || ''")
        return {"ms": marks["app:ready"], "boot": boot, "errors": errors}
    finally:
        ctx.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profiles", default="phone,desktop")
    args = ap.parse_args()
    profiles = [p for p in args.profiles.split(",") if p]
    info = stats.machine()
    print(f"# bench_build_snapshot {info['date']} {info['cpu']} x{info['cores']}")
    with contextlib.ExitStack() as stack:
        base = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="solitaire-snap-")))
        build_site.build(base / "plain", boot_snapshot=False)
        build_site.build(base / "site")
        (base / "plain" / "bench").symlink_to(siteserve.PAGES)
        for packed in (base / "site").glob("vendor/pyodide/boot-snapshot-*"):
            size = len(build_site.unpack_snapshot(packed.read_bytes()))
            print(f"{packed.name}: {size:,} bytes raw, {packed.stat().st_size:,} packed")
        plain = stack.enter_context(gzip_server(base / "plain"))
        snapped = stack.enter_context(gzip_server(base / "site"))
        pages = {
            "no build snapshot": (plain, REAL),
            "build snapshot": (snapped, REAL),
            "bare page": (plain, BARE),
        }
        browser = stack.enter_context(chrome.chromium())
        for name in profiles:
            profile = PROFILES[name]
            load_before = stats.loadavg()
            results = stats.alternate(
                args.runs,
                [functools.partial(first_visit, browser, b, p, profile) for b, p in pages.values()],
            )
            rows = []
            ref = stats.median([r["ms"] for r in results[0]])
            for label, runs in zip(pages, results, strict=True):
                ms = [r["ms"] for r in runs]
                boots = sorted({r["boot"] for r in runs})
                errs = sum(len(r["errors"]) for r in runs)
                rows.append(
                    [
                        label,
                        stats.fmt_ms(stats.median(ms)),
                        " ".join(f"{x:.0f}" for x in ms),
                        f"{stats.median(ms) / ref:.2f}x",
                        ",".join(boots) or "-",
                        str(errs),
                    ]
                )
            print(f"\n## {name} {profile} (load {load_before} -> {stats.loadavg()})\n")
            print(
                stats.table(
                    rows,
                    ["page", "first visit (median)", "runs ms", "/ no snapshot", "boot", "errors"],
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
