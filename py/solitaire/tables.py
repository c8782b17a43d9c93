"""A game's building rule as lookup tables, made once per ``GameRules`` and shared by the
engine's hot paths (move generation, auto-moves: :mod:`solitaire.position`) and the solver
(:mod:`solitaire.solver.core`)."""

from __future__ import annotations

from typing import NamedTuple

from .cards import is_red, rank, suit
from .rules import GameRules


class RuleTables(NamedTuple):
    """A game's building rule as lookup tables, built once per ``GameRules`` by
    :func:`rule_tables` and shared by the engine's hot paths (move generation, auto-moves)
    and the solver."""

    #: Cards in the game.
    n: int
    #: ``fits[card * n + under] == 1`` when ``card`` may be built on ``under`` (any card ints).
    fits: bytes
    #: ``face_fits[c][u] == 1`` when the face ``c`` may be built on the face ``u`` (faces are
    #: ``card % 52``: the solver's cards).
    face_fits: tuple[bytes, ...]
    #: Per face: the faces that fit on it, in suit order (of rank one lower: also the faces
    #: whose copies must all be up before it may safely go up, rules.md "Auto-move").
    below: tuple[tuple[int, ...], ...]
    #: Per face: the cards (every copy) that fit on it.
    fitting: tuple[tuple[int, ...], ...]
    #: Foundation piles each suit gets.
    per_suit: int


_TABLES: dict[int, tuple[GameRules, RuleTables]] = {}


def _fits_rule(build: str, card: int, under: int) -> bool:
    if rank(under) != rank(card) + 1:
        return False
    if build == "same-suit":
        return suit(card) == suit(under)
    if build == "alternate-colour":
        return is_red(card) != is_red(under)
    return True


def rule_tables(rules: GameRules) -> RuleTables:
    """The lookup tables of ``rules`` (made on the first call, then kept)."""
    entry = _TABLES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    n = rules.cards
    build = rules.build
    # only the (at most four) faces one rank lower can fit on a face: test those alone
    # (the same tables as testing every pair with _fits_rule, built without n² calls)
    below = tuple(
        tuple(
            f
            for f in range(under % 13 - 1, 52, 13)
            if under % 13 > 0 and _fits_rule(build, f, under)
        )
        for under in range(52)
    )
    fitting = tuple(tuple(f + 52 * d for f in faces for d in range(rules.decks)) for faces in below)
    table = bytearray(n * n)
    for under in range(n):
        for card in fitting[under % 52]:
            if card < n:
                table[card * n + under] = 1
    fits = bytes(table)
    face_fits = tuple(fits[c * n : c * n + 52] for c in range(52))
    tables = RuleTables(n, fits, face_fits, below, fitting, max(rules.foundations // 4, 1))
    _TABLES[id(rules)] = (rules, tables)
    return tables
