"""Helpers for hand-made positions in the engine tests.

``make("russian", ["#4H KS QS", "", "5D"])`` builds a position: each tableau pile is a string of
cards bottom → top, face-down cards marked with ``#``. In two-deck games a card written twice is
its two copies (deck 0 first, as position documents are read). Cards not mentioned are, with
``fill=True``, put on the foundations (Ace up, as far as they go) and the result must then hold
every card; with ``fill=False`` they are simply left out (enough to test one move).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from solitaire import GAMES, Position, parse_card
from solitaire.cards import face

READABLE = re.compile(r"^[A-Z0-9“\"'].{8,}[.!?]$", re.S)


def is_sentence(text: object) -> bool:
    """A reason a player can read: a capitalised sentence ending with a full stop."""
    return isinstance(text, str) and bool(READABLE.match(text))


class _Cards:
    def __init__(self, decks: int) -> None:
        self.decks = decks
        self.used: dict[int, int] = {}

    def take(self, text: str) -> int:
        c = parse_card(text)
        copy = self.used.get(c, 0)
        assert copy < self.decks, f"{text} used more than {self.decks} times"
        self.used[c] = copy + 1
        return copy * 52 + c

    def pile(self, text: str | list[str] | tuple[str, ...]) -> tuple[int, ...]:
        words = text.split() if isinstance(text, str) else list(text)
        return tuple(self.take(w) for w in words)

    def left(self) -> list[int]:
        return [copy * 52 + f for f in range(52) for copy in range(self.used.get(f, 0), self.decks)]


def make(
    game: str,
    tableau: list[str] | tuple[str, ...] = (),
    *,
    foundations: list[str] | None = None,
    cells: list[str | None] | None = None,
    stock: str = "",
    waste: str = "",
    fill: bool = False,
) -> Position:
    rules = GAMES[game]
    cards = _Cards(rules.decks)
    piles: list[tuple[int, ...]] = []
    down: list[int] = []
    names = list(tableau) + [""] * (len(rules.tableau) - len(tableau))
    assert len(names) == len(rules.tableau), "too many tableau piles"
    for text in names:
        words = text.split()
        d = sum(1 for w in words if w.startswith("#"))
        assert all(w.startswith("#") for w in words[:d]), "face-down cards come first"
        piles.append(cards.pile([w.lstrip("#") for w in words]))
        down.append(d)
    cell_cards: list[int | None] = [None] * rules.cells
    for k, text in enumerate(cells or []):
        cell_cards[k] = None if text is None else cards.take(text)
    stock_cards = cards.pile(stock)
    waste_cards = cards.pile(waste)
    f_piles: list[tuple[int, ...]]
    if foundations is not None:
        f_piles = [cards.pile(text) for text in foundations]
        f_piles += [()] * (rules.foundations - len(f_piles))
    else:
        f_piles = [()] * rules.foundations
    if fill:
        f_piles = _fill(rules.foundations, rules.foundation_size, f_piles, cards)
        missing = cards.left()
        assert not missing, f"fill=True but {len(missing)} cards do not fit on the foundations"
    position = Position(
        rules,
        tuple(piles),
        tuple(down),
        tuple(f_piles),
        tuple(cell_cards),
        stock_cards,
        waste_cards,
    )
    if fill:  # a complete position must also be a valid document
        assert Position.from_json(position.to_json()).to_json() == position.to_json()
    return position


def _fill(
    count: int, size: int, piles: list[tuple[int, ...]], cards: _Cards
) -> list[tuple[int, ...]]:
    """Put the unused cards on the foundations, each pile continuing its suit from its top
    (or from an Ace on an empty pile), the lowest ranks first."""
    piles = list(piles)
    free = sorted(cards.left(), key=lambda c: (face(c) % 13, c))
    progress = True
    while progress:
        progress = False
        for k in range(count):
            pile = piles[k]
            if len(pile) >= size:
                continue
            if pile:
                top = face(pile[-1])
                want = top + 1 if top % 13 != 12 else top - 12
            else:
                # an empty foundation takes the Ace of a suit that has fewer piles than it may
                per_suit = count // 4
                started = [0] * 4
                for p in piles:
                    if p:
                        started[face(p[0]) // 13] += 1
                aces = [c for c in free if c % 13 == 0 and started[face(c) // 13] < per_suit]
                if not aces:
                    continue
                want = face(aces[0])
            for c in free:
                if face(c) == want:
                    free.remove(c)
                    cards.used[face(c)] = cards.used.get(face(c), 0) + 1
                    piles[k] = (*pile, c)
                    progress = True
                    break
    return piles


TESTS = Path(__file__).resolve().parent


def cli_env() -> dict[str, str]:
    """The environment of ``python -m solitaire`` run from tests/: ``PYTHONPATH=py`` as in a
    bare checkout (so it imports this checkout's package, installed or not)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(TESTS.parent / "py"), env.get("PYTHONPATH")) if p
    )
    return env


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m solitaire ARGS`` in a new process (:func:`cli_env`), to its end."""
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *args],
        capture_output=True,
        text=True,
        env=cli_env(),
        input=stdin,
        cwd=TESTS,
        timeout=60,
        check=False,
    )
