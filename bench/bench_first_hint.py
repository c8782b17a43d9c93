"""The first hint after the page is ready against the later ones, over several page loads, on a
desktop and on a phone profile; one or more builds of the site side by side (e.g. the build
before a change and after it). See docs/performance.md, "First hint".

    .venv/bin/python bench/bench_first_hint.py [--site NAME=DIR ...] [--loads 7] [--later 5]
        [--think 3] [--deal double-russian/1] [--profiles desktop,phone] [--json out]

Needs built sites (default: ``_site/`` or ``SOLITAIRE_SITE=dir``, named "site"), the project's
.venv (Playwright) and Chromium, as bench/bench_page.py. Nothing is written into the sites.

- The returning visitor: for each site and profile, one browser context with the service worker
  allowed; visits are made (new tabs) until the page boots from its Pyodide memory snapshot and,
  for a build whose solver keeps one, the solver's worker restores its own
  (``<html data-solver-snapshot="restored">``); then ``--loads`` measured visits, each a new tab.
- One visit: open ``#GAME/DEAL`` (``--deal``), wait for ``<html data-app="ready">``, wait
  ``--think`` seconds (the player looks at the deal), click Hint and time it until
  ``#btn-hint[data-hint]`` leaves "thinking" (the first hint); then ``--later`` more hints on
  the same position, one after another (the later hints). Same position, same budget: the
  later hints are what the first one would cost with the worker already running.
- Also per visit: how long after ready the worker was ready (``data-solver="ready"``: a build
  that starts it in the background), the worker's boot as it reports it, and the long tasks
  (PerformanceObserver "longtask", > 50 ms of main thread) from ready to the first answer.
- Profiles: "desktop" (1280x800 as the e2e tests) and "phone" (390x844, touch, device scale
  factor 2, CPU slowed down 4x with CDP ``Emulation.setCPUThrottlingRate``, set on the page).
- Every non-local request is blocked; console errors or page errors fail the run.

Figures: the first hint's median and p90 over the loads, the median later hint (the median of
every later hint of every load), and their ratio (target: first <= 1.2 x later, both profiles).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench_hint import ANSWER_TIMEOUT_MS, HINT_JS
from benchlib import chrome, siteserve, stats

TARGET_RATIO = 1.2
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2}
PHONE_CPU_RATE = 4
#: A build with this file starts the solver's worker by itself and keeps its memory snapshot.
BACKGROUND_WORKER = "web/solver-worker.mjs"
#: Visits allowed to reach the returning visitor's state (snapshots saved, then restored).
WARM_UP_VISITS = 5

# Installed before the page's scripts: when <html data-app> became "ready" and <html
# data-solver> "ready", and every long task.
TIMES_SCRIPT = """
window.__first = { ready: null, solver: null, longtasks: [] };
new MutationObserver(() => {
  const root = document.documentElement;
  if (!root) return;
  if (root.dataset.app === 'ready' && window.__first.ready === null)
    window.__first.ready = performance.now();
  if (root.dataset.solver === 'ready' && window.__first.solver === null)
    window.__first.solver = performance.now();
}).observe(document, { subtree: true, attributes: true,
                       attributeFilter: ['data-app', 'data-solver'] });
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__first.longtasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
} catch (e) {}
"""

#: Bytes of every entry of the Pyodide snapshot caches (the page's and the solver's snapshots).
SNAPSHOT_SIZES_JS = """async () => {
  const sizes = {};
  for (const name of await caches.keys()) {
    if (!name.startsWith('pyodide-snapshot-')) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const path = new URL(request.url).pathname.split('/').pop();
      sizes[path] = (await (await cache.match(request)).arrayBuffer()).byteLength;
    }
  }
  return sizes;
}"""

RETURNING_JS = """() => {
  const d = document.documentElement.dataset;
  return { boot: d.boot || null, snapshot: d.snapshot || null, solver: d.solver || null,
           solverSnapshot: d.solverSnapshot || null,
           controlled: navigator.serviceWorker.controller !== null };
}"""


def open_visit(ctx: Any, phone: bool, url: str) -> Any:
    page = ctx.new_page()
    if phone:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU_RATE})
    page.goto(url, wait_until="commit")
    chrome.wait_ready(page)
    return page


def returning(state: dict[str, Any], background: bool) -> bool:
    """The page booted from its snapshot, and the solver (if it keeps one) from its own."""
    if state["boot"] != "snapshot":
        return False
    return not background or state["solverSnapshot"] == "restored"


def warm_up(ctx: Any, phone: bool, url: str, background: bool) -> list[dict[str, Any]]:
    """Visit until the next visit is a returning visitor's; the states seen. ``background``:
    the build starts the solver's worker by itself (and keeps its snapshot)."""
    seen = []
    for _ in range(WARM_UP_VISITS):
        page = open_visit(ctx, phone, url)
        page.wait_for_function(
            "() => navigator.serviceWorker.controller !== null", timeout=chrome.BOOT_TIMEOUT_MS
        )
        # the snapshots are made in the background: the page's once controlled, the solver's
        # when its worker starts on a controlled page
        page.wait_for_function(
            """(background) => { const d = document.documentElement.dataset;
                       return (d.boot === 'snapshot' || d.snapshot) && (!background
                         || d.solver === 'ready' || d.solver === 'failed'); }""",
            arg=background,
            timeout=chrome.BOOT_TIMEOUT_MS,
        )
        state = page.evaluate(RETURNING_JS) | {"snapshot_bytes": page.evaluate(SNAPSHOT_SIZES_JS)}
        seen.append(state)
        page.close()
        if returning(state, background):
            break
    return seen


def visit(ctx: Any, phone: bool, url: str, think_s: float, later: int) -> dict[str, Any]:
    page = open_visit(ctx, phone, url)
    try:
        page.wait_for_timeout(think_s * 1000)
        state = page.evaluate(RETURNING_JS)
        first = page.evaluate(HINT_JS, ANSWER_TIMEOUT_MS)
        if first["ms"] is None:
            raise RuntimeError("the first hint got no answer in time")
        times = page.evaluate(
            """() => { const t = window.__first, end = performance.now();
                       const long = t.longtasks.filter(([s]) => s >= t.ready && s <= end);
                       return { ready: t.ready, solver: t.solver, end,
                                long: long.length,
                                long_ms: long.reduce((n, [, d]) => n + d, 0) }; }"""
        )
        boot_ms = page.evaluate("document.documentElement.dataset.solverBootMs || null")
        after = page.evaluate(RETURNING_JS)
        laters = []
        for _ in range(later):
            page.wait_for_timeout(200)
            answer = page.evaluate(HINT_JS, ANSWER_TIMEOUT_MS)
            if answer["ms"] is None:
                raise RuntimeError("a later hint got no answer in time")
            laters.append(answer["ms"])
        solver_after = None if times["solver"] is None else times["solver"] - times["ready"]
        return {
            "solver_at_click": state["solver"],
            "boot": after["boot"],
            "solver_snapshot": after["solverSnapshot"],
            "solver_boot_ms": None if boot_ms is None else float(boot_ms),
            "solver_ready_after_ready_ms": solver_after,
            "first_ms": first["ms"],
            "first_kind": first["kind"],
            "later_ms": laters,
            "long_tasks": times["long"],
            "long_tasks_ms": times["long_ms"],
        }
    finally:
        page.close()


def run_site(
    browser: Any,
    url: str,
    background: bool,
    profile: str,
    args: argparse.Namespace,
    errors: list[str],
) -> dict[str, Any]:
    phone = profile.startswith("phone")  # "phone", "phone-wifi"
    options: dict[str, Any] = {"is_mobile": True, "has_touch": True, **PHONE} if phone else {}
    ctx = browser.new_context(
        base_url=url,
        service_workers="allow",
        **(options or {"viewport": chrome.VIEWPORT}),
    )
    local = url.rstrip("/")

    def route(r: Any) -> None:
        if r.request.url.startswith((local, "data:", "blob:")):
            r.continue_()
        else:
            errors.append(f"blocked non-local request: {r.request.url}")
            r.abort("blockedbyclient")

    ctx.route("**/*", route)
    ctx.add_init_script(chrome.INIT_SCRIPT)
    ctx.add_init_script(TIMES_SCRIPT)
    ctx.on("console", lambda m: errors.append(m.text[:300]) if m.type == "error" else None)
    ctx.on("weberror", lambda e: errors.append(str(e.error)[:300]))
    address = f"./#{args.deal}"
    try:
        warm = warm_up(ctx, phone, address, background)
        print(f"    warm-up visits: {warm}", flush=True)
        loads = []
        for i in range(args.loads):
            row = visit(ctx, phone, address, args.think, args.later)
            loads.append(row)
            later = stats.median(row["later_ms"])
            solver_after = row["solver_ready_after_ready_ms"]
            print(
                f"    load {i + 1}: first {row['first_ms']:7.0f} ms ({row['first_kind']}), "
                f"later median {later:6.0f} ms; worker {row['solver_at_click']} at the click, "
                f"ready {stats.fmt_ms(solver_after)} after the page, boot "
                f"{stats.fmt_ms(row['solver_boot_ms'])} ({row['solver_snapshot']}); "
                f"long tasks {row['long_tasks']} ({row['long_tasks_ms']:.0f} ms)",
                flush=True,
            )
        return {"warm_up": warm, "loads": loads}
    finally:
        ctx.close()


def summary(name: str, profile: str, loads: list[dict[str, Any]]) -> list[str]:
    firsts = [r["first_ms"] / 1000 for r in loads]
    laters = [ms / 1000 for r in loads for ms in r["later_ms"]]
    later = stats.median(laters)
    ratio = stats.median(firsts) / later if later else float("nan")
    ready = [r["solver_ready_after_ready_ms"] for r in loads]
    ready_s = [x / 1000 for x in ready if x is not None]
    return [
        name,
        profile,
        str(len(loads)),
        f"{stats.median(firsts):.2f}",
        f"{stats.percentile(firsts, 90):.2f}",
        f"{later:.2f}",
        f"{stats.percentile(laters, 90):.2f}",
        f"{ratio:.2f}",
        f"{stats.median(ready_s):.2f}" if len(ready_s) == len(ready) else "at the click",
        f"{stats.median([float(r['long_tasks']) for r in loads]):.0f}",
        f"{stats.median([r['long_tasks_ms'] for r in loads]):.0f}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument(
        "--site", action="append", default=[], help="NAME=DIR, a built site (repeatable)"
    )
    ap.add_argument("--loads", type=int, default=7, help="measured page loads (default 7)")
    ap.add_argument("--later", type=int, default=5, help="later hints per load (default 5)")
    ap.add_argument("--think", type=float, default=3.0, help="seconds from ready to the hint")
    ap.add_argument("--deal", default="double-russian/1", help="GAME/DEAL the page opens")
    ap.add_argument("--profiles", default="desktop,phone")
    ap.add_argument("--json", type=Path, help="also write every raw figure to this file")
    args = ap.parse_args(argv)
    sites = [tuple(s.split("=", 1)) for s in args.site] or [("site", str(siteserve.site_dir()))]
    info = stats.start_report("bench_first_hint")
    print(
        f"{args.deal}: hint {args.think:g} s after ready, then {args.later} more; "
        f"{args.loads} loads per site and profile",
        flush=True,
    )
    errors: list[str] = []
    raw: dict[str, Any] = {"machine": info, "args": vars(args) | {"json": str(args.json)}}
    rows = []
    with chrome.chromium() as browser:
        raw["chromium"] = browser.version
        for name, profile, url in siteserve.each_site_served(sites, args.profiles):
            background = (Path(dict(sites)[name]) / BACKGROUND_WORKER).is_file()
            result = run_site(browser, url, background, profile, args, errors)
            raw[f"{name}/{profile}"] = result
            rows.append(summary(name, profile, result["loads"]))
    raw["load_end"] = stats.loadavg()
    print(f"\nChromium {raw['chromium']}; load average at end: {raw['load_end']}\n")
    header = [
        "site",
        "profile",
        "loads",
        "first median s",
        "first p90 s",
        "later median s",
        "later p90 s",
        "first / later",
        "worker ready after page s",
        "long tasks",
        "long tasks ms",
    ]
    print(stats.table(rows, header))
    print(f"\nTarget: first hint <= {TARGET_RATIO:g} x the median later hint")
    for row in rows:
        verdict = "met" if float(row[7]) <= TARGET_RATIO else "NOT MET"
        print(f"  {row[0]}, {row[1]}: {row[7]} x: {verdict}")
    if args.json:
        raw["errors"] = errors
        args.json.write_text(json.dumps(raw, indent=1, default=str) + "\n", encoding="utf-8")
    if errors:
        print("\nPROBLEMS:\n" + "\n".join(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
