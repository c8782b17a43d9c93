"""Start-up options, measured side by side: the site as built against variants of it, each
rebuilt by tools/build_site.py from a copy of the sources with one proposed change.

    .venv/bin/python bench/bench_boot_options.py [--runs 3] [--only as-built,snapshot,...]

For every variant: cold boot (fresh context) and warm boot (new tab of the same context once
the service worker controls the page, and, for the variants that load Pyodide through
web/pyodide-boot.mjs, as built, once the memory snapshot is saved), navigation start ->
<html data-app="ready">. Variants and bare page take turns in every round; the table gives
medians and each variant's ratio to the as-built site of the same rounds. "no-snapshot" is the
site as it was before the snapshot (pyscript.json loading Pyodide itself); "before-early-start"
the site before the early start (Pyodide started by PyScript's loadPyodide() call, the page's
files fetched by PyScript's files map once Pyodide is up, every PyScript plugin loaded);
"early-start-only" and "all-plugins" take back one part of it each; "sources-only" ships our
Python sources without their precompiled bytecode (``build_site.build(bytecode=False)``);
"before-board-html"
is the site with the board built element by element as before (BEFORE_BOARD_HTML);
"lock+error-plugin" the site as before 2026-11-21 21:00, when the page still fetched Pyodide's
lock file and PyScript's error plugin at boot (BEFORE_BOOT_TRIMS); "snapshot-lookup" looks for a
memory snapshot in Cache Storage at every start, as before 2026-11-21 21:00 (not only once the
page noted that one was saved); "no-modulepreload" leaves out index.html's modulepreload of
Pyodide's loader; "pyscript-package-at-boot" lets PyScript import its ``pyscript`` package on
the main thread at every boot, as published (build_site.PYSCRIPT_LAZY_PACKAGE off);
"bobbing-boot-card" puts back the loading screen's endless card animation (and
"stepped-boot-card" the same in steps(4)); "app-display-none" hides the page's frame with
``display: none`` instead of ``visibility: hidden`` until ready;
"before-boot-trims" is the boot of git HEAD's index.html and
web/pyodide-boot.mjs with those three changes undone (run it before they are committed).
The text edits that make each variant's sources are benchlib/pageedits.py.
See docs/performance.md.
`--cold-only` skips the warm boots (about 3x faster).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchlib import boottime, chrome, moveplay, siteserve, stats
from benchlib.pageedits import (
    BEFORE_BOARD_HTML,
    BOARD_HTML_FILES,
    _always_looking_for_snapshot,
    _app_display_none,
    _at,
    _bobbing_boot_card,
    _fetching_lock_file,
    _index,
    _style,
    _with_error_plugin,
    _with_preloads,
    _without_early_start,
    _without_modulepreload,
    _without_mpy_config,
    _without_pyscript,
)

from solitaire.rules import GAMES

REAL = "./#russian/1"

#: PyScript's files map fetches the page's files once Pyodide is up, and every PyScript plugin
#: is loaded (before the early start).
PYSCRIPT_FILES_ALL_PLUGINS = {"PYSCRIPT_PLUGINS_OFF": ()}
#: The page loads Pyodide itself, as before web/pyodide-boot.mjs (no memory snapshot).
NO_SNAPSHOT = {"MAIN_INTERPRETER_URL": "./vendor/pyodide/pyodide.mjs"}
#: The site built with our Python sources only (siteserve.variant_site sets these names on
#: build_site while it builds: here build() itself, with its keyword).
SOURCES_ONLY = {"build": functools.partial(siteserve.build_site.build, bytecode=False)}
#: The variants whose page gets its Python files from pyscript.json's ``files`` map, fetched by
#: PyScript once Pyodide is up, as before the early start (the build writes them into
#: pyodide-files.json, for web/pyodide-boot.mjs): _files_in_pyscript_json after the build.
FILES_IN_PYSCRIPT_JSON = frozenset({"no-snapshot", "before-early-start", "early-start-only"})
SNAPSHOT_SAVED = boottime.SNAPSHOT_SAVED


#: The page as before its boot stopped fetching pyodide-lock.json (web/pyodide-boot.mjs hands
#: Pyodide its package index) and PyScript's error plugin (turned off, its import removed from
#: PyScript's core chunk): the plugin on, the core chunk as published, Pyodide's own lock fetch.
BEFORE_BOOT_TRIMS = {
    "PYSCRIPT_PLUGINS_OFF": (
        "deprecations-manager",
        "donkey",
        "py-editor",
        "py-game",
        "py-terminal",
    ),
    "PYSCRIPT_CORE_PATCH": (
        *siteserve.build_site.PYSCRIPT_CORE_PATCH[:3],
        siteserve.build_site.PYSCRIPT_CORE_PATCH[2],
    ),
}


def _files_in_pyscript_json(site: Path) -> None:
    """The built ``site`` with the page's files map moved from pyodide-files.json (left empty)
    into pyscript.json. Same files, so sw.js's precache list still holds; its cache version is
    not recomputed (each variant is served from an origin of its own)."""
    boot_files = site / siteserve.build_site.BOOT_FILES
    config_file = site / "pyscript.json"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["files"] = json.loads(boot_files.read_text(encoding="utf-8"))
    config_file.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    boot_files.write_text("{}\n", encoding="utf-8")


def variants() -> dict[str, Callable[[], tuple[dict[str, str | None], dict[str, Any], str | None]]]:
    """name -> () -> (changed files, build_site constants, extra JS condition before warm)."""
    return {
        "as-built": lambda: ({}, {}, SNAPSHOT_SAVED),
        "sources-only": lambda: ({}, SOURCES_ONLY, SNAPSHOT_SAVED),
        "before-board-html": lambda: (
            {path: _at(BEFORE_BOARD_HTML, path) for path in BOARD_HTML_FILES},
            {},
            SNAPSHOT_SAVED,
        ),
        "no-snapshot": lambda: (
            {"index.html": _without_early_start(_index())},
            NO_SNAPSHOT,
            None,
        ),
        "preload": lambda: ({"index.html": _with_preloads(_index())}, {}, SNAPSHOT_SAVED),
        "snapshot-lookup": lambda: (
            {
                "web/pyodide-boot.mjs": _always_looking_for_snapshot(
                    (siteserve.ROOT / "web" / "pyodide-boot.mjs").read_text(encoding="utf-8")
                ),
            },
            {},
            SNAPSHOT_SAVED,
        ),
        "lock+error-plugin": lambda: (
            {
                "index.html": _with_error_plugin(_index()),
                "web/pyodide-boot.mjs": _fetching_lock_file(
                    (siteserve.ROOT / "web" / "pyodide-boot.mjs").read_text(encoding="utf-8")
                ),
            },
            BEFORE_BOOT_TRIMS,
            SNAPSHOT_SAVED,
        ),
        "before-early-start": lambda: (
            {"index.html": _without_mpy_config(_without_early_start(_index()))},
            PYSCRIPT_FILES_ALL_PLUGINS,
            SNAPSHOT_SAVED,
        ),
        "early-start-only": lambda: (
            {"index.html": _without_mpy_config(_index())},
            PYSCRIPT_FILES_ALL_PLUGINS,
            SNAPSHOT_SAVED,
        ),
        "all-plugins": lambda: (
            {"index.html": _without_mpy_config(_index())},
            {"PYSCRIPT_PLUGINS_OFF": ()},
            SNAPSHOT_SAVED,
        ),
        "no-modulepreload": lambda: (
            {"index.html": _without_modulepreload(_index())},
            {},
            SNAPSHOT_SAVED,
        ),
        "before-boot-trims": lambda: (
            {
                "index.html": _at("HEAD", "index.html"),
                "web/pyodide-boot.mjs": _at("HEAD", "web/pyodide-boot.mjs")
                + f"\n{siteserve.build_site.LOCKFILE_INFO_LINE} // unused: the site before it\n",
            },
            BEFORE_BOOT_TRIMS,
            SNAPSHOT_SAVED,
        ),
        "pyscript-package-at-boot": lambda: ({}, {"PYSCRIPT_LAZY_PACKAGE": False}, SNAPSHOT_SAVED),
        "bobbing-boot-card": lambda: (
            {"index.html": _bobbing_boot_card(_index())},
            {},
            SNAPSHOT_SAVED,
        ),
        "stepped-boot-card": lambda: (
            {"index.html": _bobbing_boot_card(_index(), steps=4)},
            {},
            SNAPSHOT_SAVED,
        ),
        "app-display-none": lambda: (
            {"web/style.css": _app_display_none(_style())},
            {},
            SNAPSHOT_SAVED,
        ),
        "no-pyscript": lambda: (
            {
                "index.html": _without_pyscript(
                    _without_early_start(_index()), "vendor/pyodide/pyodide.mjs"
                )
            },
            {},
            None,
        ),
        "no-pyscript+snapshot": lambda: (
            {"index.html": _without_pyscript(_index(), "web/pyodide-boot.mjs")},
            {},
            SNAPSHOT_SAVED,
        ),
    }


# Where a cold boot's time went, from the page's own clocks (ms since navigation start): when
# Pyodide began fetching its wasm (i.e. loadPyodide() really started), when it was up
# (web/pyodide-boot.mjs's "pyodide-boot:started", bench/pages/bare.html's "bare:started").
PHASES_JS = """() => {
  const t = {};
  for (const m of performance.getEntriesByType('mark')) t[m.name] = m.startTime;
  const wasm = performance.getEntriesByType('resource')
    .find((e) => e.name.endsWith('/pyodide.asm.wasm'));
  if (wasm) t['wasm:fetch'] = wasm.startTime;
  return t;
}"""
PHASES = ("to Pyodide start", "Pyodide start-up", "after Pyodide")
#: "after Pyodide" split at PyScript's "Loaded Pyodide" progress event: PyScript's JS side (and,
#: with its files map, the fetching of the files), then its Python side, our imports, main().
AFTER = ("PyScript JS", "Python + main()")


def cold_boot(
    browser: Any, base_url: str, path: str, service_worker: bool, throttle: Any
) -> tuple[boottime.Boot, dict[str, float]]:
    """A cold boot only, like boottime.measure_boot's, plus its phases (PHASES)."""
    ctx = chrome.new_context(browser, base_url, service_workers=service_worker)
    errors: list[str] = []
    ctx.on("console", lambda m: errors.append(m.text[:300]) if m.type == "error" else None)
    ctx.on("weberror", lambda e: errors.append(str(e.error)[:300]))
    try:
        page, marks, task, _ = boottime.open_timed(ctx, path, None, throttle)
        t = page.evaluate(PHASES_JS)
    finally:
        ctx.close()
    ready = marks["app:ready"]
    up = t.get("pyodide-boot:started", t.get("bare:started", float("nan")))
    start = t.get("wasm:fetch", float("nan"))
    phases = dict(zip(PHASES, (start, up - start, ready - up), strict=True))
    if "Loaded Pyodide" in marks:
        phases[AFTER[0]] = marks["Loaded Pyodide"] - up
        phases[AFTER[1]] = ready - marks["Loaded Pyodide"]
    return boottime.Boot(ready, None, marks, {}, [], errors, task, None), phases


def play_a_little(page: Any) -> None:
    """The warm page must play: 15 moves of each game (raises if the board does not follow)."""
    for game in GAMES:
        moveplay.play_in_page(page, moveplay.plan_moves(game, 15, 7), False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--runs", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--only", default="", help="comma-separated variant names (default: all)")
    ap.add_argument(
        "--throttle",
        default="",
        help="emulate a network for the pages' requests: MBITS,RTT_MS (e.g. 20,40)",
    )
    ap.add_argument(
        "--cold-only", action="store_true", help="measure cold boots only (no warm boot)"
    )
    args = ap.parse_args(argv)
    throttle = tuple(float(x) for x in args.throttle.split(",")) if args.throttle else None
    table = variants()
    names = [n for n in (args.only.split(",") if args.only else table) if n]
    if "as-built" not in names:
        names.insert(0, "as-built")
    info = stats.machine()
    print(
        f"# bench_boot_options  {info['date']}"
        + (f"  network: {args.throttle}" if throttle else "")
    )
    print(
        f"machine: {info['cpu']}, {info['cores']} cores; Pyodide {info['pyodide']}, "
        f"PyScript {info['pyscript']}; load average at start: {stats.loadavg()}",
        flush=True,
    )
    results: dict[str, list[boottime.Boot]] = {n: [] for n in [*names, "bare"]}
    phases: dict[str, list[dict[str, float]]] = {n: [] for n in [*names, "bare"]}
    import contextlib

    with contextlib.ExitStack() as stack:
        br = stack.enter_context(chrome.chromium())
        servers: dict[str, tuple[str, str | None]] = {}
        for name in names:
            changes, constants, warm_js = table[name]()
            site = stack.enter_context(siteserve.variant_site(changes, constants))
            if name in FILES_IN_PYSCRIPT_JSON:
                _files_in_pyscript_json(site)
            server = stack.enter_context(siteserve.SiteServer(site))
            servers[name] = (server.url, warm_js)
        bare_url = servers["as-built"][0]
        for rnd in range(args.runs):
            order = [*names, "bare"]
            if rnd % 2:
                order.reverse()
            for name in order:
                if args.cold_only:
                    url = bare_url if name == "bare" else servers[name][0]
                    path = "bench/bare.html" if name == "bare" else REAL
                    boot, ph = cold_boot(br, url, path, name != "bare", throttle)
                    phases[name].append(ph)
                elif name == "bare":
                    boot = boottime.measure_boot(
                        br,
                        bare_url,
                        "bench/bare.html",
                        warm=not args.cold_only,
                        service_worker=False,
                        throttle=throttle,
                    )
                else:
                    url, warm_js = servers[name]
                    boot = boottime.measure_boot(
                        br,
                        url,
                        REAL,
                        warm=not args.cold_only,
                        service_worker=True,
                        warm_ready_js=warm_js,
                        check_warm=play_a_little if rnd == 0 and not args.cold_only else None,
                        throttle=throttle,
                    )
                results[name].append(boot)
                errors = [e for e in boot.errors if "favicon.ico" not in e]
                print(
                    f"  round {rnd + 1} {name:22} cold {boot.cold_ms:7,.0f} ms  "
                    + (
                        f"task {boot.cold_task_ms:7,.0f} ms"
                        + "".join(f"  {k} {v:6,.0f}" for k, v in ph.items())
                        if args.cold_only
                        else f"warm {boot.warm_ms or 0:7,.0f} ms"
                    )
                    + (f"  {len(errors)} console errors: {errors[:3]}" if errors else ""),
                    flush=True,
                )
    base_cold = [b.cold_ms for b in results["as-built"]]
    base_warm = [b.warm_ms or 0 for b in results["as-built"]]
    bare_cold = [b.cold_ms for b in results["bare"]]
    bare_task = [b.cold_task_ms for b in results["bare"]]

    def ratio(xs: list[float], ys: list[float]) -> str:
        return f"{stats.median([x / y for x, y in zip(xs, ys, strict=True)]):.2f}x"

    rows = []
    for name in [*names, "bare"]:
        cold = [b.cold_ms for b in results[name]]
        warm = [b.warm_ms or 0 for b in results[name]]
        cold_task = [b.cold_task_ms for b in results[name]]
        warm_task = [b.warm_task_ms or 0 for b in results[name]]
        row = [
            name if name != "bare" else "bare Pyodide page (warm: HTTP cache)",
            stats.fmt_ms(stats.median(cold)),
            ratio(cold, bare_cold),
            ratio(cold_task, bare_task),
            ratio(cold, base_cold),
        ]
        if not args.cold_only:
            row += [
                stats.fmt_ms(stats.median(warm)),
                ratio(warm, cold),
                ratio(warm_task, cold_task),
                ratio(warm, base_warm),
            ]
        rows.append(row)
    print(
        f"\n## Start-up options, {args.runs} rounds, medians (ratios: median of per-round ratios)\n"
    )
    header = [
        "variant",
        "cold",
        "cold/bare",
        "(task)",
        "cold/as-built",
        "warm",
        "warm/cold",
        "(task)",
        "warm/as-built warm",
    ]
    print(stats.table(rows, header[: len(rows[0])]))
    print(
        "(task): the same ratio for main-thread task time (CDP TaskDuration), which other "
        "processes competing for the CPU inflate much less than wall time"
    )
    if args.cold_only:
        print(
            "\n## Cold boot phases, medians (ms since navigation start; Pyodide's own start-up, "
            "the same code on every page, is where the machine's load shows most)\n"
        )
        rows = []
        for name in [*names, "bare"]:
            meds = [stats.median([p[k] for p in phases[name]]) for k in PHASES]
            # The page's cost over the bare page without the noisy common part: its boot with
            # the bare page's median Pyodide start-up instead of its own.
            bare_meds = [stats.median([p[k] for p in phases["bare"]]) for k in PHASES]
            est = (meds[0] + bare_meds[1] + meds[2]) / sum(bare_meds)
            after = [
                stats.fmt_ms(stats.median([p[k] for p in phases[name]]))
                if all(k in p for p in phases[name])
                else ""
                for k in AFTER
            ]
            rows.append([name, *(stats.fmt_ms(m) for m in meds), *after, f"{est:.2f}x"])
        print(stats.table(rows, ["variant", *PHASES, *AFTER, "same start-up: / bare"]))
    print(f"\nload average at end: {stats.loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
