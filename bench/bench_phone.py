"""The page on a phone and on a desktop, each figure next to its baseline measured in the same
run: first visit, return visit, first hint, move latency, bytes, Lighthouse. See
docs/performance.md, "Phone profile".

    .venv/bin/python bench/bench_phone.py [--profiles desktop,phone] [--runs 3] [--moves 40]
        [--games russian] [--loads 3] [--later 3] [--only boot,hint,moves,lighthouse] [--json F]

Needs the built site (``_site/`` or ``SOLITAIRE_SITE=dir``), the project's .venv (Playwright),
Chromium (/usr/bin/chromium, or ``CHROMIUM=...``) and, for Lighthouse, ``npx`` (it fetches
lighthouse@12.2.3 once). The site is served by tools/serve.py with gzip, as GitHub Pages serves
it (text, JavaScript, JSON, SVG and WebAssembly compressed; images and archives as they are).

Profiles (bench/_benchlib.py ``PROFILES``):

- "phone": a 390x844 mobile context (is_mobile, has_touch, device scale factor 2), CPU slowed
  down 4x (CDP ``Emulation.setCPUThrottlingRate``), network 10 Mbit/s each way with a 40 ms
  round trip (CDP ``Network.emulateNetworkConditions``) for the page and, through
  ``Target.setAutoAttach`` on the page's session, for its service worker and workers, whose
  requests are their own (the service worker's precache). Each target gets its own emulated
  link: the page and its service worker do not share one 10 Mbit/s.
- "phone-wifi": the same phone on a 100 Mbit/s link with a 10 ms round trip (not in the default
  run).
- "desktop": 1280x800, no slow-down (the e2e tests' context).

Measured, per profile:

- First visit: navigation start -> ``<html data-app="ready">`` in a fresh context, the real
  page at the address a new player opens (``VISIT``: no deal in it, so the page paints one of
  the build's first-visit tables before Python, web/table-preview.js) against
  bench/pages/bare.html (loadPyodide(), print(1)), taking turns (A B, B A); the ratio is the
  median of the per-round ratios. Target: real <= 0.60x bare. Also when the table was shown
  (the page's "table-preview" mark) and the first contentful paint, first and return visit.
- Return visit: in the real page's context, once the service worker controls the page, the
  Pyodide memory snapshot is saved and the solver's worker has started (``VISIT_SETTLED``: the
  first visit's background work done, as it is when a player comes back), a new tab; as a
  ratio of the same round's bare first visit. Target: <= 0.20x. A later visit follows.
- Bytes of the first visit until ready, as received (CDP ``encodedDataLength``: gzip bodies
  plus headers) for the requests sent before the page was ready (``app:ready``; what the page
  asks for at ready, such as the standard library zip, does not count, however soon it ends),
  runtime (vendor/) and own files; the service worker's own downloads until then shown apart.
  Target: page <= 4.5 MB.
- First hint after ready against the median later hint: bench/bench_first_hint.py's visits
  (its own context: the same phone viewport and CPU 4x, no network emulation: the returning
  visitor's files come from the service worker). Target: <= 1.2x.
- Move latency: bench/bench_page.py's click-to-move on the real page and on
  bench/pages/js_board.html in the profile's context. Target: p95 <= 1.5x the JS page.
- Lighthouse 12.2.3 on the served site: the default mobile preset (its own throttling: slow
  4G, CPU 4x) for "phone", ``--preset=desktop`` for "desktop". Four category scores, TBT, LCP
  and the failing Accessibility / Best Practices audits. Targets: Performance >= 85,
  Accessibility 100, Best Practices >= 95.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import bench_first_hint
import bench_page
from benchlib import boottime, chrome, siteserve, stats

LIGHTHOUSE = "lighthouse@12.2.3"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
MB = 1_000_000
TARGETS = {
    "first": 0.60,  # first visit, real / bare
    "bytes": 4.5 * MB,  # first visit's bytes until ready, gzip
    "return": 0.20,  # return visit / bare first visit
    "hint": bench_first_hint.TARGET_RATIO,  # first hint / median later hint
    "moves": 1.5,  # move p95, real / JS page
}
LH_TARGETS = {"performance": 85, "accessibility": 100, "best-practices": 95}

Verdict = tuple[str, bool, str]

#: The address of every visit of the real page: the one a new player opens (its first visit
#: deals one of the build's first-visit tables; later visits go on with the game left).
VISIT = "./"

# ----------------------------------------------------------------------------- visits


def bench_visits(browser: Any, url: str, profile: chrome.Profile, runs: int) -> dict[str, Any]:
    real, bare = stats.alternate(
        runs,
        [
            lambda: boottime.measure_boot(
                browser,
                url,
                VISIT,
                warm=True,
                service_worker=True,
                warm_ready_js=boottime.VISIT_SETTLED,
                profile=profile,
                later=1,
            ),
            lambda: boottime.measure_boot(
                browser, url, bench_page.BARE, warm=False, service_worker=False, profile=profile
            ),
        ],
    )
    first = real[0]
    return {
        # when web/table-preview.js wrote the table (NaN: no table before Python), and the
        # first contentful paint
        "real_first_table": [b.marks.get("table-preview", math.nan) for b in real],
        "real_return_table": [b.warm_marks.get("table-preview", math.nan) for b in real],
        "real_first_fcp": [b.marks.get("first-contentful-paint", math.nan) for b in real],
        "real_return_fcp": [b.warm_marks.get("first-contentful-paint", math.nan) for b in real],
        "real_first_blocking": [b.marks["blocking"] for b in real],
        "real_return_blocking": [b.warm_marks["blocking"] for b in real],
        "real_first": [b.cold_ms for b in real],
        "real_return": [b.warm_ms for b in real],
        "real_later": [b.later_ms[0] for b in real],
        "bare_first": [b.cold_ms for b in bare],
        "real_first_task": [b.cold_task_ms for b in real],
        "bare_first_task": [b.cold_task_ms for b in bare],
        "page_bytes": [b.page_bytes for b in real],
        "worker_bytes": [b.worker_bytes for b in real],
        "workers": first.workers,
        "worker_replies": first.worker_replies,
        "errors": [e for b in real + bare for e in b.errors],
    }


def split_bytes(by_url: dict[str, int], base_url: str) -> dict[str, int]:
    runtime = sum(n for u, n in by_url.items() if u.startswith(base_url + "vendor/"))
    return {"runtime": runtime, "own": sum(by_url.values()) - runtime, "requests": len(by_url)}


def report_visits(r: dict[str, Any], base_url: str) -> tuple[str, list[Verdict]]:
    first_ratio = stats.median(
        [a / b for a, b in zip(r["real_first"], r["bare_first"], strict=True)]
    )
    return_ratio = stats.median(
        [a / b for a, b in zip(r["real_return"], r["bare_first"], strict=True)]
    )
    later_ratio = stats.median(
        [a / b for a, b in zip(r["real_later"], r["bare_first"], strict=True)]
    )
    task_ratio = stats.median(
        [a / b for a, b in zip(r["real_first_task"], r["bare_first_task"], strict=True)]
    )

    def spread(xs: list[float]) -> str:
        return f"{min(xs):,.0f}–{max(xs):,.0f}"

    keys = ("real_first", "bare_first", "real_return", "real_later")
    med = {k: stats.fmt_ms(stats.median(r[k])) for k in keys}
    rows = [
        ["first visit: real page", med["real_first"], spread(r["real_first"])],
        ["first visit: bare Pyodide page", med["bare_first"], spread(r["bare_first"])],
        ["first visit: real / bare", f"{first_ratio:.2f}x", f"main-thread task {task_ratio:.2f}x"],
        ["return visit: real page", med["real_return"], spread(r["real_return"])],
        ["return visit / bare first visit", f"{return_ratio:.2f}x", ""],
        ["later visit: real page", med["real_later"], spread(r["real_later"])],
        ["later visit / bare first visit", f"{later_ratio:.2f}x", "wasm code cached"],
    ]
    for visit in ("first", "return"):
        table, fcp = r[f"real_{visit}_table"], r[f"real_{visit}_fcp"]
        shown = [t for t in table if not math.isnan(t)]
        rows.append(
            [
                f"{visit} visit: table shown before Python (table-preview)",
                stats.fmt_ms(stats.median(shown)) if shown else "none",
                f"{len(shown)} of {len(table)} visits; first contentful paint "
                + (stats.fmt_ms(stats.median(fcp)) if not any(map(math.isnan, fcp)) else "n/a"),
            ]
        )
    for visit in ("first", "return"):
        blocking = r[f"real_{visit}_blocking"]
        rows.append(
            [
                f"{visit} visit: main-thread blocking, first paint to ready",
                stats.fmt_ms(stats.median(blocking)),
                f"{spread(blocking)}; long tasks beyond 50 ms (measured; Lighthouse simulates)",
            ]
        )
    pages = [split_bytes(b, base_url) for b in r["page_bytes"]]
    workers = [split_bytes(b, base_url) for b in r["worker_bytes"]]
    total = stats.median([float(p["runtime"] + p["own"]) for p in pages])
    for label, key in (("runtime (vendor/)", "runtime"), ("own files", "own")):
        rows.append(
            [
                f"bytes until ready, page: {label}",
                f"{stats.median([float(p[key]) for p in pages]) / 1000:,.1f} KB",
                f"{pages[0]['requests']} requests in all",
            ]
        )
    rows.append(["bytes until ready, page: total", f"{total / 1000:,.1f} KB", ""])
    rows.append(
        [
            "bytes until ready, workers (service worker precache)",
            f"{stats.median([float(w['runtime'] + w['own']) for w in workers]) / 1000:,.1f} KB",
            f"{workers[0]['requests']} requests",
        ]
    )
    text = stats.table(rows, ["", "median", "range / note"])
    text += f"\nemulated workers: {r['workers'] or 'none'}"
    text += f"\nworkers' replies: { {k: sorted(set(v)) for k, v in r['worker_replies'].items()} }"
    verdicts = [
        (
            f"first visit real <= {TARGETS['first']:.2f}x bare",
            first_ratio <= TARGETS["first"],
            f"{first_ratio:.2f}x",
        ),
        (
            f"first-visit bytes <= {TARGETS['bytes'] / MB:.1f} MB gzip",
            total <= TARGETS["bytes"],
            f"{total / MB:.2f} MB",
        ),
        (
            f"return visit <= {TARGETS['return']:.2f}x bare first visit",
            return_ratio <= TARGETS["return"],
            f"{return_ratio:.2f}x",
        ),
        (
            f"later visit <= {TARGETS['return']:.2f}x bare first visit",
            later_ratio <= TARGETS["return"],
            f"{later_ratio:.2f}x",
        ),
    ]
    return text, verdicts


# ----------------------------------------------------------------------------- hints, moves


def bench_hints(
    browser: Any, url: str, site: Path, profile: str, args: argparse.Namespace
) -> tuple[str, list[Verdict], dict[str, Any]]:
    errors: list[str] = []
    background = (site / bench_first_hint.BACKGROUND_WORKER).is_file()
    hint_args = argparse.Namespace(
        loads=args.loads, later=args.later, think=args.think, deal=args.deal
    )
    result = bench_first_hint.run_site(browser, url, background, profile, hint_args, errors)
    row = bench_first_hint.summary("site", profile, result["loads"])
    header = ["site", "profile", "loads", "first median s", "first p90 s", "later median s"]
    header += ["later p90 s", "first / later", "worker ready after page s", "long tasks"]
    header += ["long tasks ms"]
    text = stats.table([row], header)
    if errors:
        text += "\nPROBLEMS: " + "; ".join(errors)
    ratio = float(row[7])
    verdict = (
        f"first hint <= {TARGETS['hint']:g}x median later hint",
        ratio <= TARGETS["hint"] and not errors,
        f"{ratio:.2f}x",
    )
    return text, [verdict], result | {"errors": errors}


def moves_verdicts(r: dict[str, Any]) -> list[Verdict]:
    out = []
    for game, d in r.items():
        p95r = stats.percentile(d["real"]["move"], 95)
        p95j = stats.percentile(d["js"]["move"], 95)
        out.append(
            (
                f"move p95 {game} <= {TARGETS['moves']:g}x JS page",
                p95r <= TARGETS["moves"] * p95j,
                f"{p95r:.1f} ms vs {p95j:.1f} ms, {p95r / p95j:.2f}x",
            )
        )
    return out


# ----------------------------------------------------------------------------- Lighthouse


def lighthouse(url: str, profile: str) -> dict[str, Any]:
    """One Lighthouse run (``npx``) of ``url``; its JSON report, parsed."""
    with tempfile.TemporaryDirectory(prefix="solitaire-lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        cmd = [
            "npx",
            "--yes",
            LIGHTHOUSE,
            url,
            "--output=json",
            f"--output-path={out}",
            "--quiet",
            "--chrome-flags=--headless=new --no-sandbox",
            "--only-categories=" + ",".join(CATEGORIES),
        ]
        if profile == "desktop":
            cmd.append("--preset=desktop")
        env = os.environ | {"CHROME_PATH": os.environ.get("CHROMIUM", chrome.DEBIAN_CHROMIUM)}
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
        if not out.is_file():
            raise RuntimeError(f"lighthouse failed ({done.returncode}): {done.stderr[-2000:]}")
        report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
        return report


def where(audit: dict[str, Any], most: int = 3) -> str:
    """What a failing audit points at: its first items (element, URL or message)."""
    found = []
    for item in (audit.get("details") or {}).get("items", [])[:most]:
        node = item.get("node") or {}
        source = item.get("source") or {}
        text = item.get("value") or node.get("snippet") or item.get("url") or source.get("url")
        text = text or item.get("scriptUrl")  # valid-source-maps
        if isinstance(text, dict):  # a deprecation's message is {"type": "text", "value": ...}
            text = text.get("value") or text.get("formattedDefault")
        found.append(str(text or item)[:120])
    return " | ".join(found) or "-"


def summarize_lighthouse(report: dict[str, Any]) -> dict[str, Any]:
    audits = report["audits"]
    failing: dict[str, list[str]] = {}
    for cat in ("accessibility", "best-practices"):
        for ref in report["categories"][cat]["auditRefs"]:
            audit = audits[ref["id"]]
            if audit.get("scoreDisplayMode") in ("binary", "numeric") and (audit["score"] or 0) < 1:
                failing.setdefault(cat, []).append(
                    f"{ref['id']} ({audit['title']}): {where(audit)}"
                )
    return {
        "scores": {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES},
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "failing": failing,
        "runtime_error": report.get("runtimeError"),
        "warnings": report.get("runWarnings", []),
        "version": report.get("lighthouseVersion"),
        "form_factor": report.get("configSettings", {}).get("formFactor"),
        "throttling": report.get("configSettings", {}).get("throttling"),
    }


def report_lighthouse(s: dict[str, Any]) -> tuple[str, list[Verdict]]:
    rows = [[c, str(s["scores"][c])] for c in CATEGORIES]
    rows += [["TBT", stats.fmt_ms(s["tbt_ms"])], ["LCP", stats.fmt_ms(s["lcp_ms"])]]
    rows += [["FCP", stats.fmt_ms(s["fcp_ms"])]]
    text = stats.table(rows, [f"Lighthouse {s['version']}, {s['form_factor']}", "score / time"])
    text += f"\nthrottling: {s['throttling']}"
    for cat, items in s["failing"].items():
        text += f"\nfailing {cat} audits: " + "; ".join(items)
    if not s["failing"]:
        text += "\nno failing Accessibility / Best Practices audit"
    if s["runtime_error"]:
        text += f"\nruntime error: {s['runtime_error']}"
    if s["warnings"]:
        text += f"\nwarnings: {s['warnings']}"
    verdicts = [
        (
            f"Lighthouse {c} >= {want}",
            s["scores"][c] >= want,
            str(s["scores"][c]),
        )
        for c, want in LH_TARGETS.items()
    ]
    return text, verdicts


# ----------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--profiles", default="desktop,phone", help="of " + ",".join(chrome.PROFILES))
    ap.add_argument("--runs", type=int, default=3, help="first visits of each page (default 3)")
    ap.add_argument("--moves", type=int, default=40, help="moves per game (default 40)")
    ap.add_argument("--games", default="russian")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loads", type=int, default=3, help="hint visits (default 3)")
    ap.add_argument("--later", type=int, default=3, help="later hints per visit (default 3)")
    ap.add_argument("--think", type=float, default=3.0, help="seconds from ready to the hint")
    ap.add_argument("--deal", default="double-russian/1", help="GAME/DEAL of the hint visits")
    ap.add_argument("--only", default="boot,hint,moves,lighthouse")
    ap.add_argument("--json", type=Path, help="also write every raw figure to this file")
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    profiles = [chrome.PROFILES[p] for p in args.profiles.split(",") if p]
    site = siteserve.site_dir()
    info = stats.machine()
    print(f"# bench_phone  {info['date']}")
    print(f"site {site}; Pyodide {info['pyodide']}, PyScript {info['pyscript']}")
    print(f"machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}")
    print(f"load average at start: {stats.loadavg()}", flush=True)
    raw: dict[str, Any] = {"machine": info, "args": vars(args) | {"json": str(args.json)}}
    raw["load_start"] = stats.loadavg()
    verdicts: dict[str, list[Verdict]] = {p.name: [] for p in profiles}
    with (
        siteserve.served_root(site) as served,
        siteserve.SiteServer(served) as server,
        chrome.chromium() as br,
    ):
        url = server.url
        raw["chromium"] = br.version
        print(f"Chromium {br.version}; served by tools/serve.py with gzip at {url}", flush=True)
        for profile in profiles:
            name = profile.name
            net = "none" if not profile.network else "{:g} Mbit/s, {:g} ms RTT"
            print(
                f"\n# Profile {name}: {profile.context}, CPU {profile.cpu_rate:g}x, network "
                + net.format(*(profile.network or ())),
                flush=True,
            )
            out: dict[str, Any] = {}
            if "boot" in only:
                out["visits"] = bench_visits(br, url, profile, args.runs)
                text, v = report_visits(out["visits"], url)
                verdicts[name] += v
                print(
                    f"\n## First and return visit, {args.runs} runs of each page, alternated "
                    f"({name})\n\n{text}",
                    flush=True,
                )
            if "hint" in only:
                print(f"\n## First hint ({name}, {args.deal})", flush=True)
                text, v, out["hint"] = bench_hints(br, url, site, name, args)
                verdicts[name] += v
                print(f"\n{text}", flush=True)
            if "moves" in only:
                games = [g for g in args.games.split(",") if g]
                moves = bench_page.bench_moves(br, url, args.moves, args.seed, games, profile)
                out["moves"] = moves
                text, _ = bench_page.report_moves(moves)
                verdicts[name] += moves_verdicts(moves)
                print(
                    f"\n## Move latency, click-to-move, {args.moves} moves per game "
                    f"(seed {args.seed}, {name})\n\n{text}",
                    flush=True,
                )
            if "lighthouse" in only:
                report = lighthouse(url, name)
                out["lighthouse"] = summarize_lighthouse(report)
                text, v = report_lighthouse(out["lighthouse"])
                verdicts[name] += v
                print(f"\n## Lighthouse ({name}) of {url}\n\n{text}", flush=True)
            raw[name] = out
    raw["load_end"] = stats.loadavg()
    print(f"\nload average at end: {raw['load_end']}")
    print("\n## Targets\n")
    rows = [
        [name, target, "met" if ok else "NOT MET", fig]
        for name, vs in verdicts.items()
        for target, ok, fig in vs
    ]
    print(stats.table(rows, ["profile", "target", "", "measured"]))
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
