"""A card dragged across the table: the frames while it follows the finger (or the mouse), on a
phone profile and a desktop, one or more builds of the site side by side.

    .venv/bin/python bench/bench_drag.py [--site NAME=DIR ...] [--games russian,double-russian]
        [--drags 3] [--steps 40] [--profiles desktop,phone] [--json out]

Needs built sites (default: ``_site/`` or ``SOLITAIRE_SITE=dir``, named "site"), the project's
.venv (Playwright) and Chromium, as bench/bench_page.py. Nothing is written into the sites.

- One drag: open ``#GAME/1``, wait until ready and the solver's worker has started, then press
  the top card of the tallest tableau pile and move it ``--steps`` times by (-3, +6) px, one
  move every 16 ms, and let go over its own pile (nothing is played). A finger on the phone
  (CDP ``Input.dispatchTouchEvent``), the mouse on the desktop.
- Measured in the page from the press to the release: the intervals between animation frames
  (``requestAnimationFrame``; 16.7 ms when none is dropped) and the long tasks (> 50 ms of main
  thread, PerformanceObserver "longtask").
- Profiles: "desktop" (1280x800) and "phone" (390x844, touch, device scale factor 2, CPU
  slowed down 4x with CDP ``Emulation.setCPUThrottlingRate``).

Target: on every profile, the p90 frame interval of a drag at most 33.4 ms (at most one frame
dropped in ten) and no long task.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from benchlib import chrome, siteserve, stats

TARGET_P90_MS = 33.4

WATCH_JS = """() => {
  window.__drag = { frames: [], longtasks: [] };
  let last = null;
  const frame = (t) => {
    if (last !== null) window.__drag.frames.push(t - last);
    last = t;
    window.__drag.raf = requestAnimationFrame(frame);
  };
  window.__drag.raf = requestAnimationFrame(frame);
  window.__drag.observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__drag.longtasks.push(e.duration);
  });
  window.__drag.observer.observe({ type: 'longtask' });
}"""

STOP_JS = """() => {
  cancelAnimationFrame(window.__drag.raf);
  window.__drag.observer.disconnect();
  return { frames: window.__drag.frames, longtasks: window.__drag.longtasks };
}"""

#: The top card of the tallest tableau pile: its pile and the point to press (CSS px).
GRIP_JS = """() => {
  const piles = [...document.querySelectorAll('#board .tableau .pile')];
  const pile = piles.reduce((a, b) => (b.children.length > a.children.length ? b : a));
  const r = pile.lastElementChild.getBoundingClientRect();
  return { pile: pile.dataset.pile, x: r.left + r.width / 2, y: r.top + 12 };
}"""


def drag(page: Any, cdp: Any, touch: bool, steps: int) -> dict[str, Any]:
    grip = page.evaluate(GRIP_JS)
    x, y = grip["x"], grip["y"]
    page.evaluate(WATCH_JS)
    if touch:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        )
    else:
        page.mouse.move(x, y)
        page.mouse.down()
    for i in range(1, steps + 1):
        px, py = x - 3 * i, y + 6 * i
        if touch:
            point = {"type": "touchMove", "touchPoints": [{"x": px, "y": py}]}
            cdp.send("Input.dispatchTouchEvent", point)
        else:
            page.mouse.move(px, py)
        time.sleep(0.016)
    # back over its own pile before letting go: nothing is played
    if touch:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        page.mouse.move(x, y)
        page.mouse.up()
    result: dict[str, Any] = page.evaluate(STOP_JS)
    page.wait_for_timeout(400)  # the glide home
    return result


def run(browser: Any, url: str, profile_name: str, args: argparse.Namespace) -> dict[str, Any]:
    profile = chrome.PROFILES[profile_name]
    touch = bool(profile.context.get("has_touch"))
    out: dict[str, Any] = {}
    for game in args.games.split(","):
        ctx = chrome.new_context(browser, url, service_workers=False, profile=profile)
        page = ctx.new_page()
        page.goto(f"./#{game}/1")
        chrome.wait_ready(page)
        page.wait_for_function(
            "() => ['ready', 'failed'].includes(document.documentElement.dataset.solver)",
            timeout=chrome.BOOT_TIMEOUT_MS,
        )
        cdp = ctx.new_cdp_session(page)
        if profile.cpu_rate != 1:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile.cpu_rate})
        out[game] = [drag(page, cdp, touch, args.steps) for _ in range(args.drags)]
        ctx.close()
    return out


def summary(site: str, profile: str, games: dict[str, Any]) -> list[str]:
    frames = [f for drags in games.values() for d in drags for f in d["frames"]]
    longs = [t for drags in games.values() for d in drags for t in d["longtasks"]]
    return [
        site,
        profile,
        str(sum(len(d) for d in games.values())),
        f"{stats.median(frames):.1f}",
        f"{stats.percentile(frames, 90):.1f}",
        f"{max(frames):.1f}",
        str(len(longs)),
        f"{sum(longs):.0f}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument(
        "--site", action="append", default=[], help="NAME=DIR, a built site (repeatable)"
    )
    ap.add_argument("--games", default="russian,double-russian")
    ap.add_argument("--drags", type=int, default=3, help="drags per game (default 3)")
    ap.add_argument("--steps", type=int, default=40, help="pointer moves per drag (default 40)")
    ap.add_argument("--profiles", default="desktop,phone")
    ap.add_argument("--json", type=Path, help="also write every raw figure to this file")
    args = ap.parse_args(argv)
    sites = [tuple(s.split("=", 1)) for s in args.site] or [("site", str(siteserve.site_dir()))]
    info = stats.start_report("bench_drag")
    raw: dict[str, Any] = {"machine": info, "args": vars(args) | {"json": str(args.json)}}
    rows = []
    with chrome.chromium() as browser:
        raw["chromium"] = browser.version
        for name, profile, url in siteserve.each_site_served(sites, args.profiles):
            result = run(browser, url, profile, args)
            raw[f"{name}/{profile}"] = result
            rows.append(summary(name, profile, result))
    raw["load_end"] = stats.loadavg()
    print(f"\nChromium {raw['chromium']}; load average at end: {raw['load_end']}\n")
    header = [
        "site",
        "profile",
        "drags",
        "frame median ms",
        "frame p90 ms",
        "frame max ms",
        "long tasks",
        "long tasks ms",
    ]
    print(stats.table(rows, header))
    print(f"\nTarget: frame p90 <= {TARGET_P90_MS:g} ms and no long task, every profile")
    for row in rows:
        met = float(row[4]) <= TARGET_P90_MS and row[6] == "0"
        verdict = "met" if met else "NOT MET"
        print(f"  {row[0]}, {row[1]}: p90 {row[4]} ms, {row[6]} long tasks: {verdict}")
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
