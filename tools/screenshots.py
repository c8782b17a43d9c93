#!/usr/bin/env python3
"""Screenshots of the built site: every game at phone, landscape-phone, tablet and desktop
sizes, light and dark, for looking at the layout (docs/ui.md keeps the ones that matter).

Usage: ``PYTHONPATH=e2e .venv/bin/python tools/screenshots.py [--site _site] [--out screenshots]
[--games russian,double-rail] [--sizes 390x844,1440x900] [--themes light,dark]``.
Phone sizes (width < 900) use a mobile, touch-enabled context at device scale 2. Also
prints, per shot, the card width and the smallest visible strip of a face-up tableau card.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harness import CHROMIUM_ARGS, DEBIAN_CHROMIUM
from playwright.sync_api import sync_playwright
from serve import SiteServer
from ui_helpers import measure_table

from solitaire.rules import GAMES

ROOT = Path(__file__).resolve().parent.parent

SIZES = ("360x640", "390x844", "844x390", "768x1024", "1440x900")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--site", type=Path, default=ROOT / "_site")
    ap.add_argument("--out", type=Path, default=ROOT / "screenshots")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--themes", default="light,dark")
    ap.add_argument("--deal", type=int, default=1)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    server = SiteServer(args.site).start()
    with sync_playwright() as pw:
        exe = DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).exists() else None
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        for size in args.sizes.split(","):
            width, height = (int(v) for v in size.split("x"))
            phone = width < 900
            for theme in args.themes.split(","):
                ctx = browser.new_context(
                    viewport={"width": width, "height": height},
                    is_mobile=phone,
                    has_touch=phone,
                    device_scale_factor=2 if phone else 1,
                    base_url=server.url,
                    color_scheme="dark" if theme == "dark" else "light",
                    service_workers="block",
                )
                page = ctx.new_page()
                for game in args.games.split(","):
                    page.goto(f"./#{game}/{args.deal}", wait_until="domcontentloaded")
                    page.wait_for_function(
                        "document.documentElement.dataset.app === 'ready'", timeout=120_000
                    )
                    page.wait_for_timeout(400)
                    name = f"{game}-{size}-{theme}.png"
                    page.screenshot(path=str(args.out / name))
                    print(name, json.dumps(measure_table(page)))
                ctx.close()
        browser.close()
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
