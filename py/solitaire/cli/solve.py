"""``python -m solitaire solve``: the solver from a terminal (``survey`` is in ``survey.py``).

Registered on ``solitaire.cli.EXTRA_COMMANDS`` when this module is imported (the CLI imports
it, guarded, when it builds its parser).

Exit codes of ``solve``: 0 winnable, 1 unwinnable, 2 usage error or bad position,
3 unknown (the budget ran out).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from ..position import Position, PositionError
from ..rules import GAMES
from ..solver import UNKNOWN, UNWINNABLE, WINNABLE, solve
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


def _register() -> None:
    from .. import cli

    if add_commands not in cli.EXTRA_COMMANDS:
        cli.EXTRA_COMMANDS.append(add_commands)


_register()
