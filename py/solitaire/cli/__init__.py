"""``python -m solitaire``: the engine from a terminal."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Sequence

from ..deals import MAX_DEAL
from ..position import Position
from ..rules import GAMES

Command = Callable[[argparse.Namespace], int]


def deal_number(text: str) -> int:
    """An argparse type: a deal number 1 … 2**31-1 written in plain digits."""
    stripped = text.strip()
    if not re.fullmatch(r"-?[0-9]+", stripped):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    number = int(stripped)
    if not 1 <= number <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal numbers run from 1 to {MAX_DEAL}")
    return number


def cmd_deal(args: argparse.Namespace) -> int:
    print(json.dumps(Position.deal_of(args.game, args.number).to_json()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire",
        description="Russian, Double Russian, Double Rail and Double FreeCell: "
        "deals and positions as JSON (see docs/engine.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("deal", help="print the position JSON of a numbered deal")
    p.add_argument("game", choices=sorted(GAMES), metavar="GAME", help=", ".join(GAMES))
    p.add_argument("number", type=deal_number, metavar="N", help=f"deal number 1…{MAX_DEAL}")
    p.set_defaults(run=cmd_deal)
    _load_optional_commands()  # the solver registers `solve` and `survey` when imported
    for add_commands in EXTRA_COMMANDS:
        add_commands(sub)
    return parser


# Other modules (the solver) register their subcommands here: callables taking the
# subparsers object. Kept as a list so the engine does not import the solver.
EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = []  # type: ignore[type-arg]


# Modules that add subcommands when they are there (imported when the parser is built, so that
# importing the engine never imports them; a missing module is skipped, a broken one is an error).
OPTIONAL_COMMANDS = ("solve", "survey")


def _load_optional_commands() -> None:
    for name in OPTIONAL_COMMANDS:
        module = f"{__name__}.{name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (argparse exits 2 on bad arguments)."""
    args = build_parser().parse_args(argv)
    run: Command = args.run
    try:
        status = run(args)
        sys.stdout.flush()  # here, so that a closed pipe is caught here, not at exit
        return status
    except BrokenPipeError:
        # the reader went away (``| head -1``): stop quietly, as Unix tools do, and point
        # stdout at /dev/null so that Python's flush at exit does not raise again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the pipe


if __name__ == "__main__":
    sys.exit(main())
