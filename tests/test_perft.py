"""Perft counts: the engine's move generator pinned by numbers it did not produce alone.

The property tests check that ``legal_moves`` agrees with ``why_illegal``, so a rule changed in
both would pass them. Here the numbers of move sequences and distinct positions at depths 1 to
4 from fixed positions (``reference_rules.PERFT_POSITIONS``) are literal, computed by
``tests/reference_rules.py``, a slow generator written from docs/rules.md alone. Three checks:
the engine's counts equal the pinned ones; the reference's counts equal them too (marked slow);
and on 400 positions of play (random play, and the solver's winning lines with random detours)
the engine's legal moves, and the positions they lead to, are the reference's.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
import reference_rules as reference

from solitaire import GAMES, Move, Position
from solitaire.solver import solve_deal

#: (move sequences, distinct positions) at depths 1, 2, 3 (and 4), per position of
#: ``reference_rules.PERFT_POSITIONS``; printed by ``python tests/reference_rules.py --perft``.
PINNED: dict[str, list[tuple[int, int]]] = {
    "Russian, deal 1": [(6, 6), (23, 14), (69, 23), (213, 50)],
    "Russian, deal 617": [(4, 4), (19, 13), (95, 32), (456, 58)],
    "Russian, deal 2 after 15 moves": [(4, 4), (14, 9), (55, 20), (203, 33)],
    "Double Russian, deal 1": [(19, 19), (305, 173), (4513, 1087), (63824, 5466)],
    "Double Russian, deal 617": [(9, 9), (83, 49), (802, 228), (8159, 950)],
    "Double Russian, deal 2 after 40 moves": [(7, 7), (47, 27), (310, 80), (2038, 207)],
    "Double Rail, deal 1": [(12, 12), (117, 85), (1226, 441), (13523, 1732)],
    "Double Rail, deal 617": [(11, 11), (97, 69), (927, 361), (9292, 1389)],
    "Double Rail, deal 3 after 51 moves": [(15, 15), (140, 92), (1248, 407), (11035, 1471)],
    "Double FreeCell, deal 1": [(60, 60), (3072, 1722), (130614, 30421)],
    "Double FreeCell, deal 617": [(61, 61), (3132, 1729), (131142, 29377)],
    "Double FreeCell, deal 2 after 27 moves": [(40, 40), (1131, 664), (22912, 5968)],
}

SPOTS = reference.PERFT_POSITIONS
NAMES = [spot.name for spot in SPOTS]


def engine_position(spot: reference.PerftPosition) -> Position:
    position = Position.deal_of(spot.game, spot.deal)
    for text in spot.moves.split():
        position = position.play(Move.parse(text))
    return position


def as_table(position: Position) -> reference.Table:
    """An engine position as the reference reads it: through the position document."""
    return reference.from_document(position.to_json())


def test_every_position_has_pinned_counts() -> None:
    assert sorted(PINNED) == sorted(NAMES)
    assert {spot.game for spot in SPOTS} == set(GAMES)
    for spot in SPOTS:
        assert len(PINNED[spot.name]) == spot.depth
        assert PINNED[spot.name][0][0] == PINNED[spot.name][0][1]  # each move: its own position


@pytest.mark.parametrize("spot", SPOTS, ids=NAMES)
def test_engine_counts_are_the_pinned_counts(spot: reference.PerftPosition) -> None:
    position = engine_position(spot)
    # the reference deals the same cards and reaches the same position by the same moves
    assert reference.key(as_table(position)) == reference.key(spot.table())
    counts = reference.perft(
        position, spot.depth, Position.legal_moves, Position.play_unchecked, lambda p: p
    )
    assert counts == PINNED[spot.name]


@pytest.mark.slow
@pytest.mark.parametrize("spot", SPOTS, ids=NAMES)
def test_reference_counts_are_the_pinned_counts(spot: reference.PerftPosition) -> None:
    assert reference.reference_perft(spot.table(), spot.depth) == PINNED[spot.name]


# ----------------------------------------------------------------------------- random positions

#: A deal per game that the solver wins within its node limit: the positions along its line
#: reach what random play seldom does (second laps, empty columns, an empty stock).
WON_DEALS = {"russian": 16, "double-russian": 1, "double-rail": 2, "double-freecell": 2}


def random_play(game: str, rng: random.Random, count: int) -> list[Position]:
    """Positions met in random play from random deals, foundation moves and stock deals
    preferred."""
    found: list[Position] = []
    while len(found) < count:
        position = Position.deal_of(game, rng.randrange(1, 2**31))
        for _ in range(rng.randrange(1, 300)):
            moves = position.legal_moves()
            if not moves:
                break
            up = [m for m in moves if m.target.kind == "foundation"]
            deal = [m for m in moves if m.source.kind == "stock"]
            if up and rng.random() < 0.8:
                moves = up
            elif deal and rng.random() < 0.4:
                moves = deal  # Double Rail: so that the stock runs out in some games
            position = position.play(rng.choice(moves))
        found.append(position)
    return found


def along_a_won_line(game: str, rng: random.Random, count: int) -> list[Position]:
    """Positions of the solver's winning line of ``WON_DEALS[game]``, each followed by a few
    random moves."""
    result = solve_deal(game, WON_DEALS[game], budget=None, max_nodes=50_000)
    assert result.line, f"the solver found no line for {game} deal {WON_DEALS[game]}"
    line = [Position.deal_of(game, WON_DEALS[game])]
    for move in result.line:
        line.append(line[-1].play(move))
    found = []
    for k in range(count):
        position = line[k * (len(line) - 1) // (count - 1)]
        for _ in range(rng.randrange(0, 4)):
            moves = position.legal_moves()
            if moves:
                position = position.play(rng.choice(moves))
        found.append(position)
    return found


def _playable(table: reference.Table) -> list[reference.Card]:
    """The cards that could go to a foundation: tableau tops, the waste's top, the cells'."""
    cards = [pile[-1] for pile in table.up if pile] + table.waste[-1:]
    return cards + [card for card in table.cells if card is not None]


def features(table: reference.Table, moves: list[reference.Move]) -> set[str]:
    """What a position shows of the rules, to check that the sample reaches each of them."""
    layout = table.layout
    seen = set()
    if any(not pile for pile in table.up):
        seen.add("an empty pile")
    if any(m.target.startswith("tableau") and not table.up[int(m.target[8:])] for m in moves):
        seen.add("a move to an empty pile")
    if any(m.count > 1 for m in moves):
        seen.add("a group move")
    if sum(map(len, table.down)) < sum(down for down, _ in layout.piles):
        seen.add("a card turned")
    if any(m.target.startswith("foundation") for m in moves):
        seen.add("a move to a foundation")
    if layout.stock and not table.stock:
        seen.add("an empty stock")
    if any(len(pile) > 13 for pile in table.foundations):
        seen.add("a second lap")
    waiting = [card for card in _playable(table) if card.rank == 1]
    if layout.laps == 2 and any(
        all(not reference.foundation_takes(table, f, ace) for f in range(len(table.foundations)))
        for ace in waiting
    ):
        seen.add("a second Ace waiting")
    if table.cells and all(table.cells):
        seen.add("every cell taken")
    limit = reference.run_limit(table, onto_empty_pile=False)
    if limit is not None and any(
        len(reference.liftable(table, i)) > limit for i in range(len(table.up))
    ):
        seen.add("a run over the limit")
    return seen


EXPECTED_FEATURES = {
    "russian": {"an empty pile", "a move to an empty pile", "a group move", "a card turned"},
    "double-russian": {"an empty pile", "a move to an empty pile", "a group move", "a card turned"},
    "double-rail": {"an empty pile", "a move to an empty pile", "a group move", "an empty stock"},
    "double-freecell": {
        "an empty pile",
        "a move to an empty pile",
        "a group move",
        "a second lap",
        "a second Ace waiting",
        "every cell taken",
        "a run over the limit",
    },
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_engine_and_reference_agree_on_positions_of_play(game: str) -> None:
    rng = random.Random(f"perft {game}")
    positions = random_play(game, rng, 50) + along_a_won_line(game, rng, 50)
    seen: Counter[str] = Counter()
    for position in positions:
        table = as_table(position)
        engine_moves = [str(m) for m in position.legal_moves()]
        reference_moves = reference.legal_moves(table)
        assert len(set(engine_moves)) == len(engine_moves)
        assert sorted(engine_moves) == sorted(map(str, reference_moves)), position.to_json()
        for move in position.legal_moves():
            after = reference.play(table, reference.parse_move(str(move)))
            assert reference.key(as_table(position.play_unchecked(move))) == reference.key(after)
        seen.update(features(table, reference_moves))
    assert len(positions) == 100
    assert EXPECTED_FEATURES[game] | {"a move to a foundation"} <= set(seen), seen
