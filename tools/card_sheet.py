#!/usr/bin/env python3
"""Screenshots of the card art in the built page: all 52 faces and the three backs, at a given
card width, laid out on the table as the page draws them (its own CSS and card markup).

Usage: ``PYTHONPATH=e2e .venv/bin/python tools/card_sheet.py [--site _site] [--out screenshots]
[--widths 50,96] [--scale 2] [--four-color] [--theme light|dark]``.
Writes ``cards-W.png`` per width (``cards-W-4c.png`` with ``--four-color``); docs/ui-looks.md keeps
the ones that matter.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import CHROMIUM_ARGS, DEBIAN_CHROMIUM
from playwright.sync_api import sync_playwright
from serve import SiteServer

from solitaire.cards import SUITS, card_name
from solitaire.web.faces import face_html

ROOT = Path(__file__).resolve().parent.parent

#: Builds the sheet in the page: one row of 13 cards per suit, then the backs.
SHEET = """([rows, width, fourColor]) => {
  const gap = Math.round(width * 0.12);
  const sheet = document.createElement('div');
  sheet.className = 'board' + (fourColor ? ' four-color' : '');
  sheet.style.cssText = `position:fixed;inset:0;z-index:999;background:var(--felt);` +
    `--cw:${width}px;--ch:${width * 1.4}px`;
  rows.forEach((cards, r) => {
    cards.forEach(([name, html], c) => {
      const pile = document.createElement('div');
      pile.className = 'pile';
      pile.style.cssText = `position:absolute;left:${gap + c * (width + gap)}px;` +
        `top:${gap + r * (width * 1.4 + gap)}px`;
      pile.innerHTML = name === 'down'
        ? `<div class="card" data-face="down"></div>`
        : `<div class="card" data-card="${name}" data-suit="${name[1]}">${html}</div>`;
      sheet.appendChild(pile);
    });
  });
  document.body.appendChild(sheet);
  return [gap + 13 * (width + gap), gap + rows.length * (width * 1.4 + gap)];
}"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--site", type=Path, default=ROOT / "_site")
    ap.add_argument("--out", type=Path, default=ROOT / "screenshots")
    ap.add_argument("--widths", default="50,96")
    ap.add_argument("--scale", type=float, default=2)
    ap.add_argument("--four-color", action="store_true")
    ap.add_argument("--theme", default="light", choices=("light", "dark"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = [
        [(card_name(s * 13 + r), face_html(s * 13 + r)) for r in range(13)]
        for s in range(len(SUITS))
    ]
    server = SiteServer(args.site).start()
    with sync_playwright() as pw:
        exe = DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).exists() else None
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        for width in (int(w) for w in args.widths.split(",")):
            ctx = browser.new_context(
                viewport={"width": 13 * width * 2, "height": 900},
                device_scale_factor=args.scale,
                base_url=server.url,
                color_scheme=args.theme,
                service_workers="block",
            )
            page = ctx.new_page()
            page.goto("./#russian/1", wait_until="domcontentloaded")
            page.wait_for_function(
                "document.documentElement.dataset.app === 'ready'", timeout=120_000
            )
            backs = [("down", "")]
            right, bottom = page.evaluate(SHEET, [[*rows, backs], width, args.four_color])
            # one back per colour: three sheets' worth of backs side by side
            page.evaluate(
                """([width]) => {
                  const piles = [...document.querySelectorAll('body > .board > .pile')];
                  const last = piles[piles.length - 1];
                  ['red', 'green'].forEach((name, i) => {
                    const p = last.cloneNode(true);
                    p.style.left = (parseFloat(last.style.left) + (i + 1) * width * 1.12) + 'px';
                    p.firstChild.style.background =
                      `url(web/cards/back-${name}.svg) center / 100% 100%`;
                    last.parentNode.appendChild(p);
                  });
                }""",
                [width],
            )
            page.wait_for_timeout(500)
            suffix = "-4c" if args.four_color else ""
            name = f"cards-{width}{suffix}-{args.theme}.png"
            page.screenshot(
                path=str(args.out / name), clip={"x": 0, "y": 0, "width": right, "height": bottom}
            )
            print(name)
            ctx.close()
        browser.close()
    server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
