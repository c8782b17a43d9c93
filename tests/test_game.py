"""Game: history, undo/redo, restart, and the save document."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from engine_support import is_sentence, make
from rulecheck import T

from solitaire import GAMES, Game, IllegalMove, Move, Position, SaveError
from solitaire.deals import MAX_DEAL
from solitaire.game import SAVE_FORMAT, SAVE_KIND, random_playable_deal
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE


def play_some(game: Game, n: int) -> None:
    """Play the first legal move that is not a stock deal when there is one, ``n`` times."""
    for _ in range(n):
        moves = game.position.legal_moves()
        if not moves:
            return
        real = [m for m in moves if not game.position.is_pointless(m)]
        game.play((real or moves)[len(real or moves) // 2])


def test_new_game() -> None:
    game = Game.new("russian", 42)
    assert game.position == Position.deal_of("russian", 42)
    assert game.deal == 42
    assert game.game_id == "russian"
    assert game.automove
    assert not game.can_undo
    assert not game.can_redo
    assert game.move_count == 0
    assert game.undo() is None
    assert game.redo() is None
    with pytest.raises(KeyError):
        Game.new("spider", 1)


def test_undo_redo_and_a_new_move_clears_redo() -> None:
    game = Game.new("double-freecell", 5)
    seen = [game.position]
    for _ in range(6):
        play_some(game, 1)
        seen.append(game.position)
    assert game.move_count == 6
    assert game.undo() is not None
    assert game.undo() is not None
    assert game.position == seen[4]
    assert game.can_redo
    assert game.move_count == 4
    assert game.redo() is not None
    assert game.position == seen[5]
    # a new move drops what could be redone
    move = game.position.legal_moves()[0]
    game.play(move)
    assert not game.can_redo
    assert game.redo() is None
    assert game.move_count == 6
    while game.undo():
        pass
    assert game.position == seen[0]
    assert game.position == game.start


def test_restart() -> None:
    game = Game.new("double-rail", 9)
    play_some(game, 5)
    game.elapsed = 12.5
    game.restart()
    assert game.position == game.start
    assert game.steps == []
    assert not game.can_redo
    assert game.elapsed == 0


def test_illegal_move_changes_nothing() -> None:
    game = Game.new("russian", 3)
    play_some(game, 2)
    before = game.to_json()
    with pytest.raises(IllegalMove) as error:
        game.play(Move(FOUNDATION[0], TABLEAU[0]))
    assert is_sentence(str(error.value))
    assert game.to_json() == before


# ------------------------------------------------------------------------- save


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_save_round_trip(game_id: str) -> None:
    game = Game.new(game_id, 1234, automove=False)
    play_some(game, 12)
    game.undo()
    game.undo()
    game.elapsed = 61.25
    doc = game.to_json()
    assert doc["format"] == SAVE_FORMAT
    assert doc["kind"] == SAVE_KIND
    assert "start" not in doc
    text = json.dumps(doc)
    back = Game.from_json(json.loads(text))
    assert back.positions == game.positions
    assert back.steps == game.steps
    assert back.redo_steps == game.redo_steps
    assert back.automove is False
    assert back.elapsed == 61.25
    assert back.to_json() == doc
    assert Game.from_text(game.to_text()).to_json() == doc
    back.redo()
    game.redo()
    assert back.position == game.position


def test_save_of_a_game_from_a_position_keeps_the_start() -> None:
    start = make("double-rail", ["KS QH", "KD"], stock="QS KH", fill=True)
    game = Game(start)
    game.play(Move(STOCK, WASTE))
    doc = game.to_json()
    assert doc["deal"] is None
    assert doc["start"] == start.to_json()
    back = Game.from_json(json.loads(json.dumps(doc)))
    assert back.start == start
    assert back.positions == game.positions


def test_save_with_a_changed_start_position_of_a_deal() -> None:
    start = Position.deal_of("double-russian", 8)
    changed = start.play(start.legal_moves()[0])
    changed = Position(
        changed.rules,
        changed.tableau,
        changed.down,
        changed.foundations,
        changed.cells,
        changed.stock,
        changed.waste,
        deal=8,
    )
    doc = Game(changed).to_json()
    assert "start" in doc
    assert Game.from_json(doc).start == changed


# ------------------------------------------------------------------------- tampered saves


def base_save() -> dict[str, Any]:
    game = Game.new("russian", 78, automove=False)
    play_some(game, 6)
    game.undo()
    return game.to_json()


def tampered(change: Any) -> dict[str, Any]:
    doc = base_save()
    change(doc)
    return doc


def _set(key: str, value: Any) -> Any:
    return lambda d: d.__setitem__(key, value)


TAMPERS = {
    "wrong format": (_set("format", 2), "format 2"),
    "format as text": (_set("format", "1"), "format '1'"),
    "format true": (_set("format", True), "format True"),
    "no format": (lambda d: d.pop("format"), "no format number"),
    "wrong kind": (_set("kind", "chess-game"), "not a saved solitaire game"),
    "no kind": (lambda d: d.pop("kind"), "not a saved solitaire game"),
    "unknown game": (_set("game", "spider"), "unknown game 'spider'"),
    "game as list": (_set("game", ["russian"]), "unknown game"),
    "game as object": (_set("game", {"a": 1}), "unknown game"),
    "deal 0": (_set("deal", 0), "deal number 0"),
    "deal too big": (_set("deal", 2**31), "is not valid"),
    "deal as text": (_set("deal", "77"), "is not valid"),
    "deal as float": (_set("deal", 77.0), "is not valid"),
    "no deal no start": (_set("deal", None), "neither a deal number nor a start"),
    "automove text": (_set("automove", "yes"), "auto-move"),
    "elapsed negative": (_set("elapsed", -1), "playing time"),
    "elapsed text": (_set("elapsed", "5"), "playing time"),
    "elapsed nan": (_set("elapsed", float("nan")), "playing time"),
    "elapsed inf": (_set("elapsed", float("inf")), "playing time"),
    "elapsed huge": (_set("elapsed", 10**400), "playing time"),
    "deal huge": (_set("deal", 10**5000), "a number with too many digits"),
    "format huge": (_set("format", 10**5000), "a number with too many digits"),
    "count huge": (lambda d: d["steps"].append(["9" * 5000 + ":tableau-0>tableau-1"]), "steps"),
    "steps missing": (lambda d: d.pop("steps"), "“steps” is not a list"),
    "steps text": (_set("steps", "tableau-1>tableau-2"), "“steps” is not a list"),
    "step not a list": (lambda d: d["steps"].append("tableau-1>tableau-2"), "not a step"),
    "empty step": (lambda d: d["steps"].append([]), "not a step"),
    "move not text": (lambda d: d["steps"].append([5]), "is not a move"),
    "move garbage": (lambda d: d["steps"].append(["tableau-1>"]), "is not a move"),
    "move truncated": (lambda d: d["steps"].append(["3:"]), "is not a move"),
    "move count unicode": (lambda d: d["steps"].append(["²:tableau-1>tableau-2"]), "not a move"),
    "illegal move inserted": (
        lambda d: d["steps"].insert(1, ["foundation-0>tableau-0"]),
        "Move 2 (foundation-0>tableau-0) of the saved game is illegal: Cards never come back",
    ),
    "move to nowhere": (lambda d: d["steps"].append(["tableau-0>tableau-9"]), "no pile called"),
    "zero count": (lambda d: d["steps"].append(["0:tableau-0>tableau-1"]), "at least one card"),
    "illegal redo": (lambda d: d["redo"].insert(0, ["foundation-0>tableau-0"]), "redo move"),
    "redo not a list": (_set("redo", {}), "“redo” is not a list"),
    "start garbage": (_set("start", [1, 2]), "start position is broken"),
    "start of another game": (
        _set("start", Position.deal_of("double-rail", 1).to_json()),
        "another game",
    ),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_saves_are_refused_with_a_reason(name: str) -> None:
    change, fragment = TAMPERS[name]
    with pytest.raises(SaveError) as error:
        Game.from_json(tampered(change))
    assert is_sentence(str(error.value)), str(error.value)
    assert fragment in str(error.value)


def start_doc() -> dict[str, Any]:
    game = Game.new("double-freecell", 4)
    play_some(game, 3)
    return Game(game.position).to_json()


def test_tampered_start_positions() -> None:
    doc = start_doc()
    assert "start" in doc
    Game.from_json(copy.deepcopy(doc))  # the untouched save loads

    dup = copy.deepcopy(doc)
    pile = dup["start"]["tableau"][0]["up"]
    pile[0] = pile[1]  # a card twice (and another missing)
    dup["start"].pop("copies", None)
    pile_text = pile[1]
    with pytest.raises(SaveError, match="broken") as error:
        Game.from_json(dup)
    message = str(error.value)
    assert "missing" in message or f"{pile_text} appears too many times" in message

    gone = copy.deepcopy(doc)
    gone["start"]["tableau"][0]["up"].pop()
    gone["start"].pop("copies", None)
    with pytest.raises(SaveError, match="1 card is missing"):
        Game.from_json(gone)

    three = copy.deepcopy(doc)
    card = three["start"]["tableau"][0]["up"][-1]
    three["start"]["tableau"][1]["up"].append(card)
    three["start"]["tableau"][2]["up"].append(card)
    three["start"].pop("copies", None)
    with pytest.raises(SaveError, match="appears too many times"):
        Game.from_json(three)


def test_from_text_refuses_broken_json() -> None:
    text = Game.new("russian", 5).to_text()
    for broken in (text[: len(text) // 2], "", "{", "[" * 100000, "null", "42"):
        with pytest.raises(SaveError):
            Game.from_text(broken)


def test_not_an_object() -> None:
    for doc in (None, [], "save", 3, [base_save()]):
        with pytest.raises(SaveError, match="not a JSON object"):
            Game.from_json(doc)


def test_step_text_round_trip() -> None:
    for move in (Move(T(2), T(5)), Move(T(2), T(5), 3), Move(STOCK, WASTE)):
        assert Move.parse(str(move)) == move
    assert str(Move(T(2), T(5), 3)) == "3:tableau-2>tableau-5"
    for bad in ("", ">", "a>", ">b", "x:a>b", "-1:a>b", "a>b", "tableau-01>tableau-1", 5, None):
        with pytest.raises(ValueError):
            Move.parse(bad)  # type: ignore[arg-type]


class _Draws:
    """A stand-in for random.Random that returns the given numbers in turn."""

    def __init__(self, *numbers: int) -> None:
        self.numbers = list(numbers)
        self.calls = 0

    def randint(self, low: int, high: int) -> int:
        assert (low, high) == (1, MAX_DEAL)
        self.calls += 1
        return self.numbers.pop(0) if len(self.numbers) > 1 else self.numbers[0]


def test_random_deal_skips_deals_stuck_before_the_first_move() -> None:
    """A new random deal is never one with no move at the start (Russian 361983656 has none),
    and a playable first draw is taken as it is."""
    assert Position.deal_of("russian", 361983656).is_stuck()
    draws = _Draws(361983656, 6)
    assert random_playable_deal("russian", draws) == 6  # type: ignore[arg-type]
    assert draws.calls == 2
    draws = _Draws(6, 361983656)
    assert random_playable_deal("russian", draws) == 6  # type: ignore[arg-type]
    assert draws.calls == 1
    stuck_only = _Draws(361983656)  # gives up after 100 redraws rather than loop forever
    assert random_playable_deal("russian", stuck_only) == 361983656  # type: ignore[arg-type]
    assert stuck_only.calls == 101
