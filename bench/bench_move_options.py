"""Move latency of proposed changes to the UI code, side by side with the code as it is.

    .venv/bin/python bench/bench_move_options.py [--moves 150] [--games russian,...]
        [--only VARIANTS] [--baseline OLD_APP_PY] [--baseline-rev GIT_REV] [--no-js]

Each variant is the site rebuilt from a copy of the sources with a textual change to the move
path's files (solitaire/web/app.py, solitaire/web/board.py, web/style.css); a variant whose
anchor text is no longer there is skipped, with a message. All pages are open at once and take
turns every 15 moves of the same random games; the click that makes a move is timed as in
bench_page.py (pointerdown dispatched -> DOM updated and laid out), with the handler alone in a
second column.
With ``--baseline-rev REV`` a page built from those files as they were at git revision REV
(e.g. ``HEAD``: the code before the uncommitted change) comes first and the ratios are taken
against it; ``--baseline FILE`` does the same with FILE as solitaire/web/app.py only. The
pure-JS board
(bench/pages/js_board.html, the bench_page.py yardstick) takes its turns too unless ``--no-js``;
The JS page does its FLIP "last" reads and animations in the next animation frame, as the real
page's ``FLIP_IN_FRAME`` does (since 2026-11-21 19:15; before, both did them in the handler).
The last column counts each page's card-size changes over the game (the board's ``resizing``
class added: a change of the planned pile size outside a new deal, solitaire/web/board.py ``_fit``).
See docs/performance.md.
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchlib import chrome, moveplay, siteserve, stats

CHUNK = 15
#: The files of the move path a variant may change (paths in the repository).
FILES = ("py/solitaire/web/app.py", "py/solitaire/web/board.py", "web/style.css")
JS = "js-page"
#: Counts the card-size changes of the page's board: the class "resizing" added (a plan change
#: outside a new deal: py/solitaire/web/board.py ``_fit``; several in one frame count once).
COUNT_RESIZES_JS = """() => {
  const board = document.getElementById('board');
  window.__resizes = 0;
  new MutationObserver((records) => {
    let was = records.length ? (records[0].oldValue || '').split(' ').includes('resizing') : false;
    for (let i = 0; i < records.length; i++) {
      const next = i + 1 < records.length ? records[i + 1].oldValue : board.className;
      const now = (next || '').split(' ').includes('resizing');
      if (now && !was) window.__resizes++;
      was = now;
    }
  }).observe(board, { attributes: true, attributeFilter: ['class'], attributeOldValue: true });
}"""

Files = dict[str, str]


def flip_in_handler(files: Files) -> Files:
    """BoardView.render reads the FLIP "last" rectangles and starts the animations in the
    input handler (a forced style + layout there), as before 2026-11-21 18:30, instead of in
    the next animation frame."""
    return _replace(
        files, "py/solitaire/web/board.py", "FLIP_IN_FRAME = True\n", "FLIP_IN_FRAME = False\n"
    )


def _replace(files: Files, path: str, old: str, new: str) -> Files:
    if old not in files[path]:
        raise LookupError(f"{path} no longer contains {old.strip().splitlines()[0]!r}")
    return {**files, path: files[path].replace(old, new, 1)}


def board_layout_contained(files: Files) -> Files:
    """The board with layout containment too (it already has size containment, as a size
    container): a relayout boundary, so that a move does not lay out the rest of the page."""
    return _replace(
        files,
        "web/style.css",
        "  container-type: size;\n  user-select: none;",
        "  container-type: size;\n  contain: layout;\n  user-select: none;",
    )


VARIANTS: dict[str, Callable[[Files], Files]] = {
    "as-built": lambda f: f,
    "flip-in-handler": flip_in_handler,
    "board-contain-layout": board_layout_contained,
}


def at_revision(rev: str) -> Files:
    out = {}
    for path in FILES:
        out[path] = subprocess.run(
            ["git", "show", f"{rev}:{path}"],
            cwd=siteserve.ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--games", default="russian,double-russian,double-rail,double-freecell")
    ap.add_argument(
        "--baseline", type=Path, help="an older py/solitaire/web/app.py to compare against"
    )
    ap.add_argument("--baseline-rev", help="compare against the move path's files at this rev")
    ap.add_argument("--only", default="", help="comma-separated variants to run (default: all)")
    ap.add_argument("--no-js", action="store_true", help="leave out the pure-JS board")
    args = ap.parse_args(argv)
    siteserve.site_dir()  # the same check as the other benchmarks: node_modules and a build work
    current = {p: (siteserve.ROOT / p).read_text(encoding="utf-8") for p in FILES}
    info = stats.machine()
    print(f"# bench_move_options  {info['date']}; {info['cores']} cores; load {stats.loadavg()}")
    sources: dict[str, Files] = {}
    if args.baseline_rev:
        sources[f"baseline ({args.baseline_rev})"] = at_revision(args.baseline_rev)
    elif args.baseline:
        sources["baseline"] = {
            **current,
            "py/solitaire/web/app.py": args.baseline.read_text("utf-8"),
        }
    only = {v for v in args.only.split(",") if v}
    for name, patch in VARIANTS.items():
        if only and name not in only:
            continue
        try:
            sources[name] = patch(current)
        except LookupError as exc:
            print(f"  skipped {name}: {exc}")
    results: dict[str, dict[str, dict[str, list[float]]]] = {}
    with contextlib.ExitStack() as stack:
        br = stack.enter_context(chrome.chromium())
        pages: dict[str, tuple[Any, bool]] = {}
        url = ""
        for name, files in sources.items():
            changed = {p: t for p, t in files.items() if t != current[p] or name == "as-built"}
            site = stack.enter_context(siteserve.variant_site(changed))
            server = stack.enter_context(siteserve.SiteServer(site))
            url = url or server.url
            ctx = chrome.new_context(br, server.url, service_workers=False)
            page = ctx.new_page()
            page.goto("./#russian/1")
            chrome.wait_ready(page)
            pages[name] = (page, False)
        if not args.no_js:  # served next to the last site built (bench/ is linked into each)
            ctx = chrome.new_context(br, server.url, service_workers=False)
            page = ctx.new_page()
            page.goto("bench/js_board.html")
            chrome.wait_ready(page)
            pages[JS] = (page, True)
        for page, _ in pages.values():
            page.evaluate(COUNT_RESIZES_JS)
        for game in [g for g in args.games.split(",") if g]:
            actions = moveplay.plan_moves(game, args.moves, args.seed)
            chunks: list[list[dict[str, Any]]] = [[]]
            for a in actions:
                if a["type"] == "move" and len(chunks[-1]) >= CHUNK:
                    chunks.append([])
                chunks[-1].append(a)
            for i, chunk in enumerate(chunks):
                order = list(pages) if i % 2 == 0 else list(pages)[::-1]
                for name in order:
                    page, is_js = pages[name]
                    r = moveplay.play_in_page(page, chunk, is_js)
                    slot = results.setdefault(game, {}).setdefault(name, {})
                    for k in ("move", "handler"):
                        slot.setdefault(k, []).extend(r[k])
            for name, (page, _) in pages.items():
                count = page.evaluate(
                    "() => { const n = window.__resizes; window.__resizes = 0; return n; }"
                )
                results[game][name]["resizes"] = [float(count)]

    def pp(xs: list[float]) -> str:
        return f"{stats.percentile(xs, 50):.2f} / {stats.percentile(xs, 95):.2f}"

    rows = []
    first = ""
    for game, by_name in results.items():
        first = next(iter(by_name))
        base = by_name[first]
        js = by_name.get(JS)
        for name, r in by_name.items():
            vs_js = "–"
            if js is not None:
                p50 = stats.median(r["move"]) / stats.median(js["move"])
                p95 = stats.percentile(r["move"], 95) / stats.percentile(js["move"], 95)
                vs_js = f"{p50:.2f}x / {p95:.2f}x"
            rows.append(
                [
                    game if name == first else "",
                    name,
                    pp(r["move"]),
                    pp(r["handler"]),
                    f"{stats.median(r['move']) / stats.median(base['move']):.2f}x",
                    vs_js,
                    f"{r['resizes'][0]:.0f}",
                ]
            )
    print(f"\n## Move latency of UI variants, {args.moves} moves per game (seed {args.seed})\n")
    header = ["game", "variant", "move p50 / p95 ms", "handler p50 / p95 ms", f"p50 / {first}"]
    print(stats.table(rows, [*header, "move p50 / p95 vs JS page", "card-size changes"]))
    print(f"\nload average at end: {stats.loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
