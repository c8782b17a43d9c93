"""Property tests over all four games: random legal play never loses or duplicates a card,
legal_moves and why_illegal agree, undo/redo and saves are exact, tampering is refused."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from engine_support import is_sentence
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire import (
    CELL,
    FOUNDATION,
    GAMES,
    MAX_DEAL,
    STOCK,
    TABLEAU,
    WASTE,
    Game,
    IllegalMove,
    Move,
    PileRef,
    Position,
    PositionError,
    SaveError,
)

games = st.sampled_from(sorted(GAMES))
deals = st.one_of(st.integers(1, 2000), st.integers(1, MAX_DEAL))


def _picks(seed: int, length: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(2**16) for _ in range(length)]


# move choices for a walk: long sequences (up to 300 moves) that still shrink well
picks = st.one_of(
    st.builds(_picks, st.integers(0, 2**32 - 1), st.integers(0, 300)),
    st.lists(st.integers(0, 2**16), max_size=30),
)


def walk(game: str, number: int, choices: list[int], automove: bool = False) -> Game:
    """Play the chosen legal moves (each pick modulo how many there are)."""
    g = Game.new(game, number, automove=automove)
    for pick in choices:
        moves = g.position.legal_moves()
        if not moves:
            break
        g.play(moves[pick % len(moves)])
    return g


def check_invariants(pos: Position, cards: Counter[int]) -> None:
    assert Counter(pos.all_cards()) == cards, "a card was lost or duplicated"
    for pile, down in zip(pos.tableau, pos.down, strict=True):
        assert down >= 0
        assert down < len(pile) or down == 0 == len(pile)
    size = pos.rules.foundation_size
    for pile in pos.foundations:
        assert len(pile) <= size
        for k, c in enumerate(pile):
            assert c % 13 == k % 13
            assert c % 52 // 13 == pile[0] % 52 // 13
    assert pos.is_won() == (sum(map(len, pos.foundations)) == pos.rules.cards)


#: Piles for made-up moves: every pile of the games, and things that name no pile (refs that
#: no game has, refs no parser makes, and what is not a PileRef at all: pile-name text, a
#: plain tuple, a number).
PILES: list[object] = [
    *TABLEAU[:11],
    *FOUNDATION[:9],
    *CELL[:7],
    STOCK,
    WASTE,
    PileRef("tableau", -1),
    PileRef("tableau", True),
    PileRef("stock", 1),
    PileRef("Tableau"),  # type: ignore[arg-type]
    PileRef("foundation", 10**20),
    "tableau-0",
    "stock",
    ("tableau", 0),
    "",
    None,
    3,
]
fuzz_moves = st.builds(
    Move,
    st.sampled_from(PILES),
    st.sampled_from(PILES),
    st.one_of(st.integers(-2, 15), st.integers(16, 2**70)),
)


@settings(max_examples=60)
@given(game=games, number=deals, choices=picks, automove=st.booleans(), data=st.data())
def test_random_play_keeps_every_card(
    game: str, number: int, choices: list[int], automove: bool, data: st.DataObject
) -> None:
    g = Game.new(game, number, automove=automove)
    cards = Counter(g.position.all_cards())
    for pick in choices:
        pos = g.position
        moves = pos.legal_moves()
        assert len(set(moves)) == len(moves), "a move listed twice"
        for move in moves:
            assert pos.why_illegal(move) is None, (move, pos.why_illegal(move))
        # a few moves that are not listed are refused, and change nothing
        listed = set(moves)
        for move in data.draw(st.lists(fuzz_moves, max_size=4)):
            if move in listed:
                continue
            before = pos.to_json()
            reason = pos.why_illegal(move)
            assert is_sentence(reason), (move, reason)
            with pytest.raises(IllegalMove) as error:
                pos.play(move)
            assert str(error.value) == reason
            assert pos.to_json() == before
        if not moves:
            assert pos.is_won() or pos.is_stuck()
            break
        g.play(moves[pick % len(moves)])
        check_invariants(g.position, cards)
    if g.position.is_won():
        assert not g.position.is_stuck()


def all_moves(pos: Position) -> list[Move]:
    """Every source × target × count a move could name in this game (and some it could not)."""
    refs = [*pos.pile_refs(), STOCK, WASTE, CELL[0], TABLEAU[20], TABLEAU[63]]
    longest = max(len(p) for p in pos.tableau) + 1
    return [Move(s, t, n) for s in refs for t in refs for n in range(longest + 1)]


@settings(max_examples=25)
@given(game=games, number=deals, choices=picks)
def test_legal_moves_is_exactly_what_why_illegal_allows(
    game: str, number: int, choices: list[int]
) -> None:
    pos = walk(game, number, choices).position
    listed = set(pos.legal_moves())
    for move in all_moves(pos):
        reason = pos.why_illegal(move)
        if move in listed:
            assert reason is None, (move, reason)
        else:
            assert is_sentence(reason), (move, reason)
    # and a stuck position has only pointless moves
    if pos.is_stuck():
        assert all(pos.is_pointless(m) for m in listed)


@settings(max_examples=40)
@given(game=games, number=deals, choices=picks, automove=st.booleans(), data=st.data())
def test_undo_and_redo_are_exact(
    game: str, number: int, choices: list[int], automove: bool, data: st.DataObject
) -> None:
    g = walk(game, number, choices, automove)
    history = list(g.positions)
    steps = [list(s) for s in g.steps]
    back = data.draw(st.integers(0, len(steps)))
    for k in range(back):
        undone = g.undo()
        assert undone == steps[len(steps) - 1 - k]
        assert g.position == history[len(history) - 2 - k]
    assert g.position == history[len(history) - 1 - back]
    assert g.move_count == len(steps) - back
    assert g.can_redo == (back > 0)
    again = data.draw(st.integers(0, back))
    for _ in range(again):
        g.redo()
    assert g.position == history[len(history) - 1 - back + again]
    assert g.steps == steps[: len(steps) - back + again]
    moves = g.position.legal_moves()
    if moves and back > again:
        g.play(moves[0])
        assert not g.can_redo
        assert g.redo() is None


@settings(max_examples=40)
@given(game=games, number=deals, choices=picks, automove=st.booleans(), data=st.data())
def test_save_round_trips_exactly(
    game: str, number: int, choices: list[int], automove: bool, data: st.DataObject
) -> None:
    g = walk(game, number, choices, automove)
    for _ in range(data.draw(st.integers(0, len(g.steps)))):
        g.undo()
    g.elapsed = data.draw(st.floats(0, 10**6))
    text = json.dumps(g.to_json())
    back = Game.from_json(json.loads(text))
    assert back.positions == g.positions
    assert back.steps == g.steps
    assert back.redo_steps == g.redo_steps
    assert back.automove == g.automove
    assert back.deal == g.deal
    assert back.to_json() == g.to_json()
    # a game started from the reached position keeps it, card ints included
    h = Game(g.position, automove)
    h2 = Game.from_text(h.to_text())
    assert h2.start == g.position
    assert h2.start.tableau == g.position.tableau


@settings(max_examples=40)
@given(game=games, number=deals, choices=picks)
def test_position_json_round_trips(game: str, number: int, choices: list[int]) -> None:
    pos = walk(game, number, choices).position
    doc = pos.to_json()
    again = Position.from_json(json.loads(json.dumps(doc)))
    assert again == pos
    assert again.to_json() == doc
    assert again.legal_moves() == pos.legal_moves()


# ------------------------------------------------------------------------- tampering


def attempt(load: Callable[[Any], Any], doc: Any) -> tuple[Any, ValueError | None]:
    """Load ``doc``: (the result, None), or (None, the SaveError/PositionError). Any other
    exception propagates and fails the test."""
    try:
        return load(doc), None
    except (SaveError, PositionError) as error:
        return None, error


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.builds(lambda: 10**5000)  # too long to print: repr() raises
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for k, value in enumerate(doc):
            found += paths(value, (*prefix, k))
    return found


def mutate(doc: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    if not path:
        return value
    doc = copy.deepcopy(doc)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "truncate" and isinstance(parent[last], (list, str)):
        parent[last] = parent[last][: len(parent[last]) // 2]
    else:
        parent[last] = value
    return doc


def saved_game(game: str, number: int, choices: list[int], custom_start: bool) -> dict[str, Any]:
    g = walk(game, number, choices[:40])
    if custom_start:
        g = Game(g.position)
        for pick in choices[40:60]:
            moves = g.position.legal_moves()
            if moves:
                g.play(moves[pick % len(moves)])
    if g.steps:
        g.undo()
    return g.to_json()


@settings(max_examples=150)
@given(
    game=games,
    number=deals,
    choices=picks,
    custom_start=st.booleans(),
    data=st.data(),
)
def test_tampered_saves_raise_save_error_only(
    game: str, number: int, choices: list[int], custom_start: bool, data: st.DataObject
) -> None:
    doc = saved_game(game, number, choices, custom_start)
    where = data.draw(st.sampled_from(paths(doc)))
    how = data.draw(st.sampled_from(["replace", "delete", "truncate"]))
    value = data.draw(json_values)
    bad = mutate(doc, where, how, value)
    loaded, error = attempt(Game.from_json, bad)
    if error is not None:
        assert str(error), "an empty message"
    else:
        assert isinstance(loaded, Game)
        # the change happened to be harmless: what loaded must be a consistent game
        cards = Counter(loaded.start.all_cards())
        for pos in loaded.positions:
            check_invariants(pos, cards)


@settings(max_examples=100)
@given(game=games, number=deals, choices=picks, data=st.data())
def test_tampered_positions_raise_position_error_only(
    game: str, number: int, choices: list[int], data: st.DataObject
) -> None:
    doc = walk(game, number, choices[:60]).position.to_json()
    where = data.draw(st.sampled_from(paths(doc)))
    how = data.draw(st.sampled_from(["replace", "delete", "truncate"]))
    bad = mutate(doc, where, how, data.draw(json_values))
    pos, error = attempt(Position.from_json, bad)
    if error is not None:
        assert str(error)
    else:
        assert isinstance(pos, Position)
        assert sorted(c % 52 for c in pos.all_cards()) == sorted(
            c % 52 for c in range(pos.rules.cards)
        )


@settings(max_examples=60)
@given(game=games, number=deals, choices=picks, data=st.data())
def test_an_illegal_move_in_a_save_is_refused(
    game: str, number: int, choices: list[int], data: st.DataObject
) -> None:
    g = walk(game, number, choices[:50])
    if not g.steps:
        return
    k = data.draw(st.integers(0, len(g.steps) - 1))
    pos = g.positions[k]
    listed = set(pos.legal_moves())
    move = data.draw(fuzz_moves.filter(lambda m: m.count >= 0 and not _names_listed(m, listed)))
    doc = g.to_json()
    doc["steps"].insert(k, [str(move)])
    with pytest.raises(SaveError) as error:
        Game.from_json(doc)
    assert "illegal" in str(error.value) or "not a move" in str(error.value), str(error.value)


def _names_listed(move: Move, listed: set[Move]) -> bool:
    """Whether the text of ``move`` names a listed move (a made-up move holding pile-name
    text may be written as a legal one)."""
    try:
        return Move.parse(str(move)) in listed
    except ValueError:
        return False


@settings(max_examples=40)
@given(game=games, number=deals, data=st.data())
def test_duplicated_or_missing_cards_in_a_start_are_refused(
    game: str, number: int, data: st.DataObject
) -> None:
    save = Game(Position.deal_of(game, number)).to_json()
    save["start"] = Position.deal_of(game, number).to_json()  # a start position to tamper with
    save["start"].pop("copies", None)
    Game.from_json(copy.deepcopy(save))  # loads untouched
    piles = [p["up"] for p in save["start"]["tableau"]]
    spots = [(i, k) for i, p in enumerate(piles) for k in range(len(p))]
    a, b = data.draw(st.lists(st.sampled_from(spots), min_size=2, max_size=2, unique=True))
    kind = data.draw(st.sampled_from(["duplicate", "remove", "extra"]))
    if kind == "duplicate":
        if piles[a[0]][a[1]] == piles[b[0]][b[1]]:
            return
        piles[a[0]][a[1]] = piles[b[0]][b[1]]
    elif kind == "remove":
        piles[a[0]].pop(a[1])
    else:
        piles[a[0]].append(piles[b[0]][b[1]])
    with pytest.raises(SaveError) as error:
        Game.from_json(save)
    message = str(error.value)
    assert "broken" in message
    assert "missing" in message or "too many" in message or "face up" in message, message
