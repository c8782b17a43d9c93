"""Summarise solver surveys (survey/GAME.jsonl) as the Markdown table of docs/winnability.md.

    python tools/survey_stats.py [GAME ...]

For each game: deals surveyed, the share proved winnable with its 95 % Wilson interval,
the shares proved unwinnable and left unknown, the time per deal of the decided deals
(median, 90th percentile, max; from the record that decided it) and which solver versions
and node budgets produced the records. When a deal was solved more than once (a
``--retry-unknown`` pass with a bigger budget) its last record counts.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

from solitaire.cli.survey import read_survey
from solitaire.rules import GAMES

ROOT = Path(__file__).resolve().parent.parent


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def main(argv: list[str]) -> int:
    games = argv or list(GAMES)
    print(
        "| game | deals | proved winnable | 95 % CI (Wilson) | proved unwinnable | unknown "
        "| median s | p90 s | max s | node budgets | solver |"
    )
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---|---|")
    for game in games:
        path = ROOT / "survey" / f"{game}.jsonl"
        if not path.exists():
            continue
        recs = read_survey(str(path))
        n = len(recs)
        c = Counter(r["result"] for r in recs.values())
        w, u, k = c["winnable"], c["unwinnable"], c["unknown"]
        lo, hi = wilson(w, n)
        times = [r["seconds"] for r in recs.values() if r["result"] in ("winnable", "unwinnable")]
        budgets = sorted({r.get("max_nodes") or 0 for r in recs.values()})
        versions = sorted({r.get("solver", "pre-version") for r in recs.values()})
        deals = f"{min(recs)}–{max(recs)}" if recs else "-"
        print(
            f"| {game} | {n} ({deals}) | {w / n:.1%} | {lo:.1%} – {hi:.1%} | {u / n:.1%} "
            f"| {k / n:.1%} | {pct(times, 0.5):.2f} | {pct(times, 0.9):.2f} | "
            f"{max(times) if times else float('nan'):.2f} | "
            f"{', '.join(str(b) if b else 'none' for b in budgets)} | {', '.join(versions)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
