"""Move generation speed: random play through every game.

    python bench/bench_movegen.py [--seconds 2] [--seed 1]

For each game it prints
  * positions/s: random play from numbered deals, each step ``legal_moves()`` then
    ``play(move)`` (the checked path the page uses) and, separately,
    ``play_unchecked(move)`` (the path for moves known to be legal);
  * legal_moves/s: ``legal_moves()`` alone over positions collected during that play.

Times are CPU seconds of this process (``time.process_time``), so a busy machine skews the
figures less than wall-clock time would.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from benchlib import checkout_hint

try:
    from solitaire import GAMES, Position
except ModuleNotFoundError as missing:
    raise SystemExit(checkout_hint(missing)) from None


def random_play(game: str, seconds: float, seed: int, checked: bool) -> tuple[int, list[Position]]:
    """Play random legal moves for ``seconds``; returns positions reached and a sample."""
    rng = random.Random(seed)
    sample: list[Position] = []
    count = 0
    deal = 0
    end = time.process_time() + seconds
    while time.process_time() < end:
        deal += 1
        pos = Position.deal_of(game, deal)
        for _ in range(200):
            moves = pos.legal_moves()
            if not moves:
                break
            move = moves[rng.randrange(len(moves))]
            pos = pos.play(move) if checked else pos.play_unchecked(move)
            count += 1
            if len(sample) < 5000 and count % 7 == 0:
                sample.append(pos)
    return count, sample


def time_legal_moves(sample: list[Position], seconds: float) -> float:
    calls = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        for pos in sample:
            pos.legal_moves()
        calls += len(sample)
    return calls / (time.process_time() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"{'game':<16} {'play/s':>10} {'unchecked/s':>12} {'legal_moves/s':>14}")
    for game in GAMES:
        n_checked, _ = random_play(game, args.seconds, args.seed, checked=True)
        n_fast, sample = random_play(game, args.seconds, args.seed, checked=False)
        lm = time_legal_moves(sample, args.seconds)
        print(
            f"{game:<16} {n_checked / args.seconds:>10.0f} {n_fast / args.seconds:>12.0f} "
            f"{lm:>14.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
