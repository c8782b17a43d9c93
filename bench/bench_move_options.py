"""Move latency of proposed changes to the UI code, side by side with the code as it is.

    .venv/bin/python bench/bench_move_options.py [--moves 150] [--games russian,...]
        [--only VARIANTS] [--baseline OLD_APP_PY]

Each variant is the site rebuilt from a copy of the sources with one textual change to
py/web/app.py (a variant whose anchor text is no longer in app.py is skipped, with a message).
All pages are open at once and take turns every 15 moves of the same random games; the click
that makes a move is timed as in bench_page.py (pointerdown dispatched -> DOM updated and laid
out), with the handler alone in a second column. With ``--baseline FILE`` a page built with FILE as
py/web/app.py (e.g. ``git show HEAD:py/web/app.py``, the code before a change) comes first and
the ratios are taken against it. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # PYTHONSAFEPATH=1 leaves it out

import _benchlib as lib

CHUNK = 15


def clear_after_move(app: str) -> str:
    """App.activate: clear the selection after the move rather than before, so that the FLIP
    "first" rectangles in BoardView.render are read from the layout of the last frame instead
    of forcing a style recalc and layout of the selection change (one forced layout, not two).
    """
    old = (
        "            reason = position.why_illegal(move)\n"
        "            self.clear_selection()\n"
        "            if reason is None:\n"
        "                self.do_move(move)\n"
        "                return\n"
    )
    new = (
        "            reason = position.why_illegal(move)\n"
        "            if reason is None:\n"
        "                self.do_move(move)\n"
        "                self.clear_selection()\n"
        "                return\n"
        "            self.clear_selection()\n"
    )
    return _replace(app, old, new)


def persist_after_frame(app: str) -> str:
    """App.after_change: write the save (Game.to_json, json.dumps, localStorage.setItem) in a
    zero-delay timer after the handler, instead of inside it."""
    app = _replace(
        app,
        "                self.after_animation()\n"
        "        self.persist()\n        self.update_status()\n",
        "                self.after_animation()\n        self.update_status()\n"
        "        js.setTimeout(self._p_persist, 0)\n",
    )
    anchor = "        self._p_tick = self._proxy(self.on_tick)\n"
    return _replace(
        app, anchor, anchor + "        self._p_persist = self._proxy(lambda *a: self.persist())\n"
    )


def _replace(text: str, old: str, new: str) -> str:
    if old not in text:
        raise LookupError(old.strip().splitlines()[0])
    return text.replace(old, new, 1)


VARIANTS: dict[str, Callable[[str], str]] = {
    "as-built": lambda s: s,
    "clear-after-move": clear_after_move,
    "persist-after-frame": persist_after_frame,
    "both": lambda s: persist_after_frame(clear_after_move(s)),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--games", default="russian,double-russian,double-rail,double-freecell")
    ap.add_argument("--baseline", type=Path, help="an older py/web/app.py to compare against")
    ap.add_argument("--only", default="", help="comma-separated variants to run (default: all)")
    args = ap.parse_args(argv)
    lib.site_dir()  # the same check as the other benchmarks: node_modules and a build work
    app = (lib.ROOT / "py" / "web" / "app.py").read_text(encoding="utf-8")
    info = lib.machine()
    print(f"# bench_move_options  {info['date']}; {info['cores']} cores; load {lib.loadavg()}")
    sources: dict[str, str] = {}
    if args.baseline:
        sources["baseline"] = args.baseline.read_text(encoding="utf-8")
    only = {v for v in args.only.split(",") if v}
    for name, patch in VARIANTS.items():
        if only and name not in only:
            continue
        try:
            sources[name] = patch(app)
        except LookupError as exc:
            print(f"  skipped {name}: py/web/app.py no longer contains {exc}")
    results: dict[str, dict[str, dict[str, list[float]]]] = {}
    with contextlib.ExitStack() as stack:
        br = stack.enter_context(lib.chromium())
        pages: dict[str, Any] = {}
        for name, text in sources.items():
            site = stack.enter_context(lib.variant_site({"py/web/app.py": text}))
            server = stack.enter_context(lib.SiteServer(site))
            ctx = lib.new_context(br, server.url, service_workers=False)
            page = ctx.new_page()
            page.goto("./#russian/1")
            lib.wait_ready(page)
            pages[name] = page
        for game in [g for g in args.games.split(",") if g]:
            actions = lib.plan_moves(game, args.moves, args.seed)
            chunks: list[list[dict[str, Any]]] = [[]]
            for a in actions:
                if a["type"] == "move" and len(chunks[-1]) >= CHUNK:
                    chunks.append([])
                chunks[-1].append(a)
            for i, chunk in enumerate(chunks):
                order = list(pages) if i % 2 == 0 else list(pages)[::-1]
                for name in order:
                    r = lib.play_in_page(pages[name], chunk, False)
                    slot = results.setdefault(game, {}).setdefault(name, {})
                    for k in ("move", "handler"):
                        slot.setdefault(k, []).extend(r[k])

    def pp(xs: list[float]) -> str:
        return f"{lib.percentile(xs, 50):.2f} / {lib.percentile(xs, 95):.2f}"

    rows = []
    for game, by_name in results.items():
        first = next(iter(by_name))
        base = by_name[first]
        for name, r in by_name.items():
            rows.append(
                [
                    game if name == first else "",
                    name,
                    pp(r["move"]),
                    pp(r["handler"]),
                    f"{lib.median(r['move']) / lib.median(base['move']):.2f}x",
                ]
            )
    print(f"\n## Move latency of UI variants, {args.moves} moves per game (seed {args.seed})\n")
    print(
        lib.table(
            rows, ["game", "variant", "move p50 / p95 ms", "handler p50 / p95 ms", f"p50 / {first}"]
        )
    )
    print(f"\nload average at end: {lib.loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
