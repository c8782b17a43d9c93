"""Solver speed: positions per second and time to decide a deal, per game.

    python bench/bench_solver.py [--deals 20] [--first 1] [--games russian,...]
                                 [--budget-scale 1.0] [--wall] [--jobs 1]

For each game it solves deals ``first … first+deals-1`` with the game's budget (the issue's
targets: 10 s per deal, 60 s for Double Rail; ``--budget-scale`` shrinks them for a quick
look) and prints: positions/s, the share decided (winnable + unwinnable), the share decided
within the target time, median / 90th percentile / max time per deal, and the
winnable / unwinnable / unknown counts.

Times are CPU seconds of this process (``time.process_time``; the solver's budget is
switched to the same clock), so other work on a shared machine skews them less; ``--wall``
uses wall-clock time instead. ``--jobs N`` solves N deals at a time in separate processes
(each measures its own CPU time; on a 2-core machine use at most 2).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from benchlib import checkout_hint

try:
    from solitaire import GAMES, Position, solver
except ModuleNotFoundError as missing:
    raise SystemExit(checkout_hint(missing)) from None

TARGET = {  # seconds per deal, share of deals to decide within it
    "russian": (10.0, 0.99),
    "double-russian": (10.0, 0.90),
    "double-freecell": (10.0, 0.90),
    "double-rail": (60.0, 0.90),
}


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def solve_one(job: tuple[str, int, float, bool]) -> tuple[str, int, float]:
    """One deal, in this process or a pool worker: (result, nodes, seconds)."""
    game, deal, budget, wall = job
    solver.set_clock(time.perf_counter if wall else time.process_time)
    r = solver.solve(Position.deal_of(game, deal), budget)
    return r.result, r.nodes, r.seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--budget-scale", type=float, default=1.0)
    ap.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    ap.add_argument("--jobs", type=int, default=1, help="deals solved at once (processes)")
    args = ap.parse_args()
    pool = None
    if args.jobs > 1:
        import multiprocessing

        pool = multiprocessing.Pool(args.jobs)
    print(
        f"solver {solver.VERSION}; {'wall' if args.wall else 'CPU'} seconds; "
        f"deals {args.first}-{args.first + args.deals - 1}"
    )
    head = (
        f"{'game':16} {'budget':>7} {'nodes/s':>8} {'decided':>8} {'in tgt':>7} "
        f"{'target':>7} {'median':>7} {'p90':>7} {'max':>7}  win/lost/unknown"
    )
    print(head)
    print("-" * len(head))
    for game in args.games.split(","):
        target_s, target_share = TARGET[game]
        budget = target_s * args.budget_scale
        times: list[float] = []
        nodes = 0
        counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
        in_target = 0
        jobs = [(game, d, budget, args.wall) for d in range(args.first, args.first + args.deals)]
        results = pool.imap(solve_one, jobs) if pool else map(solve_one, jobs)
        for result, n_nodes, seconds in results:
            times.append(seconds)
            nodes += n_nodes
            counts[result] += 1
            if result != "unknown" and seconds <= target_s:
                in_target += 1
        n = len(times)
        decided = (counts["winnable"] + counts["unwinnable"]) / n
        print(
            f"{game:16} {budget:7.1f} {nodes / max(sum(times), 1e-9):8.0f} {decided:8.0%} "
            f"{in_target / n:7.0%} {target_share:7.0%} {statistics.median(times):7.2f} "
            f"{pct(times, 0.9):7.2f} {max(times):7.2f}  "
            f"{counts['winnable']}/{counts['unwinnable']}/{counts['unknown']}",
            flush=True,
        )
    if pool:
        pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
