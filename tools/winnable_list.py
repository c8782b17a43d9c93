"""Write web/winnable/GAME.json, the proved-winnable deal numbers the page's "winnable deals
only" setting draws from, from the solver survey output (survey/GAME.jsonl and any
survey/GAME-*.jsonl, written by ``python -m solitaire survey``).

    python tools/winnable_list.py                 # every game with a survey file
    python tools/winnable_list.py russian --max 3000

Only deals the solver returned a winning line for are listed (never "unknown" ones), in
increasing order, as a compact JSON list.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from solitaire.rules import GAMES

ROOT = Path(__file__).resolve().parent.parent


def winnable_deals(survey: Path) -> list[int]:
    deals: set[int] = set()
    with survey.open(encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a torn last line of an interrupted survey
            if rec.get("result") == "winnable":
                deals.add(int(rec["deal"]))
    return sorted(deals)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES), metavar="GAME")
    ap.add_argument("--survey-dir", type=Path, default=ROOT / "survey")
    ap.add_argument("--out-dir", type=Path, default=ROOT / "web" / "winnable")
    ap.add_argument("--max", type=int, default=5000, help="keep at most this many (lowest) deals")
    args = ap.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for game in args.games:
        surveys = sorted(args.survey_dir.glob(f"{game}.jsonl")) + sorted(
            args.survey_dir.glob(f"{game}-*.jsonl")
        )
        if not surveys:
            print(f"{game}: no survey in {args.survey_dir}, skipped", file=sys.stderr)
            continue
        deals = sorted({d for survey in surveys for d in winnable_deals(survey)})[: args.max]
        out = args.out_dir / f"{game}.json"
        out.write_text(json.dumps(deals, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{game}: {len(deals)} winnable deals -> {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
