"""``python -m solitaire solve`` and ``python -m solitaire survey``: the solver from a terminal.

Registered on ``solitaire.cli.EXTRA_COMMANDS`` when this module is imported (the CLI imports
it, guarded, when it builds its parser).

Exit codes of ``solve``: 0 winnable, 1 unwinnable, 2 usage error or bad position,
3 unknown (the budget ran out).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import Any

from ..position import Position, PositionError
from ..rules import GAMES
from ..solver import UNKNOWN, UNWINNABLE, VERSION, WINNABLE, Result, set_clock, solve
from . import deal_number

EXIT = {WINNABLE: 0, UNWINNABLE: 1, UNKNOWN: 3}


#: The largest position document ``solve -`` reads (a real one is a few KB).
MAX_INPUT = 1_000_000


def budget_seconds(text: str) -> float:
    """An argparse type: a time budget, a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError("the budget must be a number of seconds above 0")
    return value


def read_position(stream: Any) -> Position:
    """The position document on ``stream``; ``ValueError`` with one sentence when it is too
    large, not JSON, nested too deeply or not a position."""
    text = stream.read(MAX_INPUT + 1)
    if len(text) > MAX_INPUT:
        raise ValueError(f"the input is larger than {MAX_INPUT:,} characters")
    try:
        doc = json.loads(text)
    except RecursionError:
        raise ValueError("the input is nested too deeply to be a position") from None
    try:
        return Position.from_json(doc)
    except RecursionError:
        raise ValueError("the input is nested too deeply to be a position") from None


def cmd_solve(args: argparse.Namespace) -> int:
    if args.game == "-":
        try:
            position = read_position(sys.stdin)
        except (ValueError, PositionError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    else:
        if args.game not in GAMES:
            print(f"error: unknown game {args.game!r}; known: {', '.join(GAMES)}", file=sys.stderr)
            return 2
        if args.number is None:
            print("error: give a deal number N after the game", file=sys.stderr)
            return 2
        try:
            number = deal_number(args.number)
        except argparse.ArgumentTypeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        position = Position.deal_of(args.game, number)
    result = solve(position, args.budget, args.max_nodes)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.result} ({result.nodes} positions, {result.seconds:.2f} s)")
        if result.line is not None:
            print(" ".join(str(m) for m in result.line))
    return EXIT[result.result]


# --------------------------------------------------------------------------- survey


def _solve_one(job: tuple[str, int, float, int | None, bool]) -> dict[str, Any]:
    game, deal, budget, max_nodes, cpu = job
    # CPU time: a busy machine then takes wall time from a survey, not search from a deal.
    set_clock(time.process_time if cpu else time.perf_counter)
    try:
        result: Result = solve(Position.deal_of(game, deal), budget, max_nodes)
    except Exception as error:  # a solver bug must not stop a long survey; it is recorded
        return {"game": game, "deal": deal, "result": "error", "error": repr(error)}
    finally:
        set_clock(time.perf_counter)
    return {
        "game": game,
        "deal": deal,
        "result": result.result,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
        "moves": None if result.line is None else len(result.line),
        "budget": budget,
        "clock": "cpu" if cpu else "wall",
        "max_nodes": max_nodes,
        "solver": VERSION,
    }


def read_survey(path: str) -> dict[int, dict[str, Any]]:
    """The records of a survey output file by deal; when a deal appears more than once
    (a later pass with a bigger budget), the last record wins. Torn lines are ignored."""
    records: dict[int, dict[str, Any]] = {}
    if not os.path.exists(path):
        return records
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
                records[int(rec["deal"])] = rec
            except (ValueError, KeyError, TypeError):
                continue
    return records


def done_deals(path: str, retry_unknown: bool = False) -> set[int]:
    """Deals already in a survey output file (with ``retry_unknown``: only those with a
    verdict, so the unknown ones are solved again)."""
    return {
        d
        for d, rec in read_survey(path).items()
        if not retry_unknown or rec.get("result") in (WINNABLE, UNWINNABLE)
    }


def survey(
    game: str,
    first: int,
    last: int,
    budget: float,
    out: str | None,
    jobs: int | None,
    quiet: bool = False,
    max_nodes: int | None = None,
    retry_unknown: bool = False,
    cpu: bool = False,
) -> int:
    todo = list(range(first, last + 1))
    if out:
        skip = done_deals(out, retry_unknown)
        todo = [d for d in todo if d not in skip]
        # a torn last line (interrupted write) must not glue onto the next record
        if os.path.exists(out) and os.path.getsize(out):
            with open(out, "rb") as fb:
                fb.seek(-1, os.SEEK_END)
                torn = fb.read(1) != b"\n"
            if torn:
                with open(out, "a", encoding="utf-8") as f:
                    f.write("\n")
    sink = open(out, "a", encoding="utf-8") if out else sys.stdout  # noqa: SIM115
    counts = {WINNABLE: 0, UNWINNABLE: 0, UNKNOWN: 0, "error": 0}
    t0 = time.time()
    jobs_list = [(game, d, budget, max_nodes, cpu) for d in todo]
    try:
        if (jobs or os.cpu_count() or 1) > 1 and len(jobs_list) > 1:
            import multiprocessing

            with multiprocessing.Pool(jobs or os.cpu_count()) as pool:
                for rec in pool.imap_unordered(_solve_one, jobs_list, chunksize=1):
                    _emit(sink, rec, counts)
        else:
            for job in jobs_list:
                _emit(sink, _solve_one(job), counts)
    finally:
        if out:
            sink.close()
    if not quiet:
        print(
            f"{game} {first}-{last}: {len(todo)} solved now in {time.time() - t0:.0f} s: "
            + ", ".join(f"{k} {v}" for k, v in counts.items()),
            file=sys.stderr,
        )
    return 0


def _emit(sink: Any, rec: dict[str, Any], counts: dict[str, int]) -> None:
    sink.write(json.dumps(rec) + "\n")
    sink.flush()
    counts[rec["result"]] += 1


def cmd_survey(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        print(f"error: unknown game {args.game!r}", file=sys.stderr)
        return 2
    if not 1 <= args.first <= args.last:
        print("error: need 1 <= FROM <= TO", file=sys.stderr)
        return 2
    return survey(
        args.game,
        args.first,
        args.last,
        args.budget,
        args.out,
        args.jobs,
        max_nodes=args.max_nodes,
        retry_unknown=args.retry_unknown,
        cpu=args.cpu,
    )


def _add_max_nodes(parser: Any, help: str) -> None:
    parser.add_argument("--max-nodes", type=int, default=None, metavar="N", help=help)


def add_commands(sub: Any) -> None:
    p = sub.add_parser(
        "solve",
        help="decide whether a deal (or a position JSON on stdin) can be won",
        description="Exit code: 0 winnable, 1 unwinnable, 3 unknown (budget), 2 error.",
    )
    p.add_argument("game", metavar="GAME", help=f"{', '.join(GAMES)}, or - to read a position JSON")
    p.add_argument("number", nargs="?", metavar="N", help="deal number")
    p.add_argument("--budget", type=budget_seconds, default=60.0, metavar="SECONDS")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _add_max_nodes(p, "also stop after N positions (reproducible on a loaded machine)")
    p.set_defaults(run=cmd_solve)
    s = sub.add_parser(
        "survey",
        help="solve a range of deals in parallel, one JSON line per deal (resumable)",
    )
    s.add_argument("game", metavar="GAME")
    s.add_argument("first", type=deal_number, metavar="FROM")
    s.add_argument("last", type=deal_number, metavar="TO")
    s.add_argument("--budget", type=budget_seconds, default=10.0, metavar="SECONDS")
    s.add_argument("--out", metavar="FILE", help="append JSON lines here; deals in it are skipped")
    _add_max_nodes(s, "also stop each deal after N positions")
    s.add_argument(
        "--retry-unknown",
        action="store_true",
        help="solve again the deals recorded as unknown (e.g. with a bigger budget)",
    )
    s.add_argument("--jobs", type=int, default=None, metavar="N", help="processes (default: cores)")
    s.add_argument(
        "--cpu",
        action="store_true",
        help="count --budget in CPU seconds of the solving process, not wall-clock seconds",
    )
    s.set_defaults(run=cmd_survey)


def _register() -> None:
    from .. import cli

    if add_commands not in cli.EXTRA_COMMANDS:
        cli.EXTRA_COMMANDS.append(add_commands)


_register()
