"""The cost of saving a game after a move, against reading the save back, by game length.

    python bench/bench_save.py [--saves 50] [--rounds 5]

The page saves the game in progress after each move (``Store.save_game``, into
``localStorage``; here a ``MemoryBackend``). For games of 100, 1,000 and 5,000 moves it prints
the milliseconds of one save and, as the yardstick taken in the same run, of one parse of the
stored text (``parse_stored``, the work of learning the stored revision by reading it), and
their ratio. Each figure is the lowest of ``--rounds`` rounds of ``--saves`` saves; times are
CPU seconds of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable

from benchlib import checkout_hint

try:
    from solitaire.game import Game
    from solitaire.web.documents import Saved
    from solitaire.web.safe_json import parse_stored
    from solitaire.web.store import MAX_GAME_CHARS, MemoryBackend, Store
except ModuleNotFoundError as missing:
    raise SystemExit(checkout_hint(missing)) from None

GAME = "double-rail"


def game_of(moves: int, seed: int = 1) -> Game:
    """A Double Rail game with ``moves`` moves in its history (random legal moves; a stuck
    deal is played on by undoing and trying another move)."""
    game = Game.new(GAME, 7, automove=False)
    rnd = random.Random(seed)
    while game.move_count < moves:
        legal = game.position.legal_moves()
        if legal:
            game.play(rnd.choice(legal))
        else:
            game.undo()
    return game


def save_changed(store: Store, saved: Saved) -> None:
    """One save with a new body, as after a move."""
    saved.counted = not saved.counted
    assert store.save_game(saved) == "saved"


def per_call_ms(fn: Callable[[], object], calls: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls * 1000)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--saves", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"{'moves':>6} {'chars':>8} {'save ms':>8} {'parse ms':>9} {'save/parse':>10}")
    for moves in (100, 1000, 5000):
        saved = Saved(game_of(moves))
        store = Store(MemoryBackend())
        store.load_game(GAME)
        save = functools.partial(save_changed, store, saved)
        save()
        text = store.backend.data[store.key(f"game.{GAME}")]  # type: ignore[attr-defined]
        save_ms = per_call_ms(save, args.saves, args.rounds)
        parse = functools.partial(parse_stored, text, MAX_GAME_CHARS)
        parse_ms = per_call_ms(parse, args.saves, args.rounds)
        print(
            f"{moves:>6} {len(text):>8} {save_ms:>8.2f} {parse_ms:>9.2f} "
            f"{save_ms / parse_ms:>10.2f}"
        )


if __name__ == "__main__":
    main()
