"""The page in headless Chromium: boot time, move latency and payload, each against a baseline
measured in the same run (pages alternated, medians). See docs/performance.md.

    .venv/bin/python bench/bench_page.py [--runs 5] [--moves 200] [--only boot,moves,payload]

Needs the built site (``make site``, ``make test`` or ``make play`` builds ``_site/``; or
``SOLITAIRE_SITE=dir``), the project's .venv (Playwright) and Chromium (/usr/bin/chromium, or
``CHROMIUM=...``). Nothing is written into the site: it is served from a temporary folder that
links to it, with bench/pages/ at /bench/.

- Cold boot: navigation start -> ``<html data-app="ready">`` in a fresh browser context, for
  the real page (./#russian/1) and for bench/pages/bare.html (the same Pyodide, loadPyodide(),
  print(1)). Target: real <= 1.10 x bare.
- Warm boot: the same context once the service worker controls the page and the Pyodide memory
  snapshot is saved, in a new tab (the returning visitor). Target: real warm <= 0.6 x real
  cold. Bare page: HTTP cache only.
- Move latency: click-to-move (two clicks) in a random game of each kind, ``--moves`` moves
  each, on the real page and on bench/pages/js_board.html (same CSS and elements, plain JS);
  time of the click that makes the move, from the pointerdown being dispatched to the DOM
  updated and laid out. Target: p95 <= 1.5 x the JS page and < 16 ms.
- Payload: every request of a cold boot, bytes raw and gzip -9 (brotli too when the module is
  installed), runtime (vendor/) and our own files; files the game does not need are flagged.
  Target: own files < 200 KB compressed (benchlib/payload.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from benchlib import boottime, chrome, moveplay, siteserve, stats
from benchlib.payload import bench_payload, report_payload

from solitaire.rules import GAMES

REAL = "./#russian/1"
BARE = "bench/bare.html"
JS_BOARD = "bench/js_board.html"
CHUNK = 20  # moves played on one page before the other page takes its turn

# ----------------------------------------------------------------------------- boot


def bench_boot(browser: Any, url: str, runs: int) -> tuple[dict[str, Any], list[str]]:
    real, bare = stats.alternate(
        runs,
        [
            lambda: boottime.measure_boot(
                browser,
                url,
                REAL,
                warm=True,
                service_worker=True,
                warm_ready_js=boottime.SNAPSHOT_SAVED,
            ),
            lambda: boottime.measure_boot(browser, url, BARE, warm=True, service_worker=False),
        ],
    )

    def phases(boots: list[boottime.Boot], key: str) -> dict[str, float]:
        """Where the boot went, from web/pyodide-boot.mjs's marks: Pyodide is started from the
        page's head (before PyScript asks for it), so PyScript's own progress events no longer
        bracket the interpreter's start-up."""
        out: dict[str, list[float]] = {}
        for b in boots:
            m = getattr(b, key)
            if "pyodide-boot:start" in m and "pyodide-boot:started" in m:
                out.setdefault("to Pyodide start", []).append(m["pyodide-boot:start"])
                out.setdefault("Pyodide start-up", []).append(
                    m["pyodide-boot:started"] - m["pyodide-boot:start"]
                )
                out.setdefault("PyScript + our files + main()", []).append(
                    m["app:ready"] - m["pyodide-boot:started"]
                )
        return {k: stats.median(v) for k, v in out.items()}

    result = {
        "runs": runs,
        "real_cold": [b.cold_ms for b in real],
        "real_warm": [b.warm_ms for b in real],
        "bare_cold": [b.cold_ms for b in bare],
        "bare_warm": [b.warm_ms for b in bare],
        "real_cold_task": [b.cold_task_ms for b in real],
        "real_warm_task": [b.warm_task_ms for b in real],
        "bare_cold_task": [b.cold_task_ms for b in bare],
        "bare_warm_task": [b.warm_task_ms for b in bare],
        "real_cold_phases": phases(real, "marks"),
        "real_warm_phases": phases(real, "warm_marks"),
    }
    return result, real[0].requests


def report_boot(r: dict[str, Any]) -> tuple[str, list[tuple[str, bool, str]]]:
    rc, rw = stats.median(r["real_cold"]), stats.median(r["real_warm"])
    bc, bw = stats.median(r["bare_cold"]), stats.median(r["bare_warm"])
    # ratios per run (pages alternated within a run), then their median
    cold_ratio = stats.median([a / b for a, b in zip(r["real_cold"], r["bare_cold"], strict=True)])
    warm_ratio = stats.median([w / c for w, c in zip(r["real_warm"], r["real_cold"], strict=True)])

    def spread(xs: list[float]) -> str:
        return f"{min(xs):,.0f}–{max(xs):,.0f}"

    def task(key: str) -> str:
        return stats.fmt_ms(stats.median(r[key]))

    cold_task_ratio = stats.median(
        [a / b for a, b in zip(r["real_cold_task"], r["bare_cold_task"], strict=True)]
    )
    warm_task_ratio = stats.median(
        [w / c for w, c in zip(r["real_warm_task"], r["real_cold_task"], strict=True)]
    )
    rows = [
        [
            "cold: real page (./#russian/1)",
            stats.fmt_ms(rc),
            spread(r["real_cold"]),
            task("real_cold_task"),
            "",
        ],
        [
            "cold: bare Pyodide page",
            stats.fmt_ms(bc),
            spread(r["bare_cold"]),
            task("bare_cold_task"),
            "",
        ],
        [
            "cold: real / bare",
            "",
            "",
            "",
            f"{cold_ratio:.2f}x wall, {cold_task_ratio:.2f}x task (target <= 1.10x)",
        ],
        [
            "warm: real page, service worker",
            stats.fmt_ms(rw),
            spread(r["real_warm"]),
            task("real_warm_task"),
            "",
        ],
        [
            "warm: bare page, HTTP cache",
            stats.fmt_ms(bw),
            spread(r["bare_warm"]),
            task("bare_warm_task"),
            "",
        ],
        [
            "warm / cold, real page",
            "",
            "",
            "",
            f"{warm_ratio:.2f}x wall, {warm_task_ratio:.2f}x task (target <= 0.60x)",
        ],
    ]
    for label, key in (("cold", "real_cold_phases"), ("warm", "real_warm_phases")):
        for phase, ms in r[key].items():
            rows.append([f"  {label} real, {phase}", stats.fmt_ms(ms), "", "", ""])
    text = stats.table(
        rows,
        ["boot (nav start -> data-app=ready)", "median", "range", "main-thread task", "ratio"],
    )
    verdicts = [
        (
            "cold boot real <= 1.10x bare (wall clock)",
            cold_ratio <= 1.10,
            f"{cold_ratio:.2f}x (main-thread task time: {cold_task_ratio:.2f}x)",
        ),
        (
            "warm boot <= 0.60x cold (wall clock)",
            warm_ratio <= 0.60,
            f"{warm_ratio:.2f}x (main-thread task time: {warm_task_ratio:.2f}x)",
        ),
    ]
    return text, verdicts


# ----------------------------------------------------------------------------- moves


def bench_moves(
    browser: Any,
    url: str,
    moves: int,
    seed: int,
    games: list[str],
    profile: chrome.Profile | None = None,
) -> dict[str, Any]:
    """``profile``: a device (bench/bench_phone.py), its CPU rate applied to both pages."""
    real_ctx = chrome.new_context(browser, url, service_workers=False, profile=profile)
    js_ctx = chrome.new_context(browser, url, service_workers=False, profile=profile)
    try:
        real = real_ctx.new_page()
        js = js_ctx.new_page()
        if profile is not None:
            if profile.context.get("has_touch"):
                moveplay.click_to_move_settings(real_ctx)
            chrome.Emulation(real_ctx.new_cdp_session(real), profile)
            chrome.Emulation(js_ctx.new_cdp_session(js), profile)
        real.goto(REAL)
        chrome.wait_ready(real)
        # the solver's worker starts by itself once the page is idle after ready, its own
        # interpreter competing for the CPU for a few seconds (bench_first_hint.py measures
        # that start): the moves are timed once it is up
        real.wait_for_function(
            "['ready', 'failed'].includes(document.documentElement.dataset.solver)",
            timeout=chrome.BOOT_TIMEOUT_MS,
        )
        js.goto(JS_BOARD)
        chrome.wait_ready(js)
        out: dict[str, Any] = {}
        for game in games:
            actions = moveplay.plan_moves(game, moves, seed)
            # the two pages take turns every CHUNK moves, so that both see the same load
            chunks: list[list[dict[str, Any]]] = [[]]
            for a in actions:
                if a["type"] == "move" and len(chunks[-1]) >= CHUNK:
                    chunks.append([])
                chunks[-1].append(a)
            res: dict[str, dict[str, list[float]]] = {"real": {}, "js": {}}
            for i, chunk in enumerate(chunks):
                pages = [(real, False, "real"), (js, True, "js")]
                if i % 2:
                    pages.reverse()
                for page, is_js, name in pages:
                    r = moveplay.play_in_page(page, chunk, is_js)
                    for k in ("select", "move", "handler"):
                        res[name].setdefault(k, []).extend(r[k])
            out[game] = {**res, "deals": sum(1 for a in actions if a["type"] == "deal")}
        return out
    finally:
        real_ctx.close()
        js_ctx.close()


def report_moves(r: dict[str, Any]) -> tuple[str, list[tuple[str, bool, str]]]:
    def pp(xs: list[float]) -> str:
        return f"{stats.percentile(xs, 50):.2f} / {stats.percentile(xs, 95):.2f}"

    rows = []
    verdicts = []
    for game, d in r.items():
        real, js = d["real"], d["js"]
        p95r, p95j = stats.percentile(real["move"], 95), stats.percentile(js["move"], 95)
        rows.append(
            [
                game,
                str(len(real["move"])),
                pp(real["move"]),
                pp(js["move"]),
                f"{p95r / p95j:.2f}x",
                pp(real["handler"]),
                pp(js["handler"]),
                pp(real["select"]),
                pp(js["select"]),
            ]
        )
        ok = p95r <= 1.5 * p95j and p95r < 16
        verdicts.append(
            (f"move p95 {game}: <= 1.5x JS and < 16 ms", ok, f"{p95r:.2f} ms, {p95r / p95j:.2f}x")
        )
    text = stats.table(
        rows,
        [
            "p50 / p95, ms",
            "moves",
            "move: real",
            "move: JS",
            "p95 real/JS",
            "handler only: real",
            "handler only: JS",
            "select: real",
            "select: JS",
        ],
    )
    return text, verdicts


# ----------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--runs", type=int, default=5, help="boots of each page (default 5)")
    ap.add_argument("--moves", type=int, default=200, help="moves per game (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--only", default="boot,moves,payload", help="subset of boot,moves,payload")
    ap.add_argument("--json", type=Path, help="also write every raw figure to this file")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    if "payload" in only:
        only.add("boot")  # the payload is the first cold boot's requests
    site = siteserve.site_dir()
    info = stats.machine()
    print(f"# bench_page  {info['date']}")
    print(f"site {site}; Pyodide {info['pyodide']}, PyScript {info['pyscript']}")
    print(f"machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}")
    print(f"load average at start: {stats.loadavg()}", flush=True)
    raw: dict[str, Any] = {"machine": info, "load_start": stats.loadavg()}
    verdicts: list[tuple[str, bool, str]] = []
    with (
        siteserve.served_root(site) as served,
        siteserve.SiteServer(served) as server,
        chrome.chromium() as br,
    ):
        print(f"Chromium {br.version}", flush=True)
        raw["chromium"] = br.version
        url = server.url
        if "boot" in only:
            boot, requests = bench_boot(br, url, args.runs)
            raw["boot"] = boot
            text, v = report_boot(boot)
            verdicts += v
            print(f"\n## Boot, {args.runs} runs of each page, alternated\n\n{text}", flush=True)
            if "payload" in only:
                payload = bench_payload(served, requests, url)
                raw["payload"] = payload
                text, v = report_payload(payload)
                verdicts += v
                print(f"\n## Payload of a cold boot (first visit)\n\n{text}", flush=True)
        if "moves" in only:
            games = [g for g in args.games.split(",") if g]
            moves = bench_moves(br, url, args.moves, args.seed, games)
            raw["moves"] = moves
            text, v = report_moves(moves)
            verdicts += v
            print(
                f"\n## Move latency, click-to-move, {args.moves} moves per game "
                f"(seed {args.seed})\n\n{text}",
                flush=True,
            )
    raw["load_end"] = stats.loadavg()
    print(f"\nload average at end: {raw['load_end']}")
    print("\n## Targets\n")
    print(
        stats.table(
            [[name, "met" if ok else "NOT MET", fig] for name, ok, fig in verdicts],
            ["target", "", "measured"],
        )
    )
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
