"""``python -m solitaire``: the engine from a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from .deal import MAX_DEAL
from .position import deal
from .rules import GAMES

Command = Callable[[argparse.Namespace], int]


def deal_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= number <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal numbers run from 1 to {MAX_DEAL}")
    return number


def cmd_deal(args: argparse.Namespace) -> int:
    print(json.dumps(deal(args.game, args.number).to_json()))
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
    try:  # the solver registers `solve` and `survey` on EXTRA_COMMANDS when imported
        from . import solve_cli  # noqa: F401
    except ImportError:
        pass
    for add_commands in EXTRA_COMMANDS:
        add_commands(sub)
    return parser


# Other modules (the solver) register their subcommands here: callables taking the
# subparsers object. Kept as a list so the engine does not import the solver.
EXTRA_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = []  # type: ignore[type-arg]


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Command = args.run
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
