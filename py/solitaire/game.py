"""A game being played: the start, the steps played (each an undo step), the redo list,
and the save document that records all of it.

A save holds moves, not positions: loading replays every move through the rules, so a
tampered save (an illegal move, a card twice) is refused rather than half-loaded.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .deals import MAX_DEAL
from .position import IllegalMove, Move, Position, PositionError, short_repr
from .rules import GAMES

SAVE_FORMAT = 1
SAVE_KIND = "solitaire-game"


class SaveError(ValueError):
    """A save document that cannot be loaded; ``str(error)`` says why, for the player."""


Step = list[Move]


#: ``str(move)`` of the moves saved so far: a game's save writes every move of its history
#: after each move, and the text of a move is most of that work (``bench/bench_save.py``).
#: The moves of real games are few (pairs of piles and counts), so the table stays small.
_MOVE_TEXT: dict[Move, str] = {}
_MOVE_TEXT_MAX = 50_000


def move_text(move: Move) -> str:
    """``str(move)``, remembered."""
    text = _MOVE_TEXT.get(move)
    if text is None:
        if len(_MOVE_TEXT) >= _MOVE_TEXT_MAX:  # made-up moves: never grow without bound
            _MOVE_TEXT.clear()
        text = _MOVE_TEXT[move] = str(move)
    return text


class Game:
    """History and undo/redo over immutable positions.

    ``positions[k]`` is the position after the first ``k`` steps; a step is the player's
    move followed by the safe auto-moves it triggered, so one undo takes back both.
    """

    def __init__(self, start: Position, automove: bool = True) -> None:
        self.start = start
        self.automove = automove
        self.steps: list[Step] = []
        self.redo_steps: list[Step] = []  # the next step to redo is last
        self.positions: list[Position] = [start]
        self.elapsed: float = 0.0  # seconds of play, kept by the page across reloads

    @classmethod
    def new(cls, game: str, deal: int, automove: bool = True) -> Game:
        """A new game of deal ``deal`` of ``game`` (errors as :meth:`Position.deal_of`)."""
        return cls(Position.deal_of(game, deal), automove)

    # ----------------------------------------------------------------- state

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def game_id(self) -> str:
        return self.start.rules.id

    @property
    def deal(self) -> int | None:
        return self.start.deal

    @property
    def can_undo(self) -> bool:
        return bool(self.steps)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_steps)

    @property
    def move_count(self) -> int:
        """Player moves so far (auto-moves are not counted)."""
        return len(self.steps)

    # ----------------------------------------------------------------- playing

    def _push(self, step: Step, position: Position) -> None:
        self.steps.append(step)
        self.positions.append(position)

    def play(self, move: Move) -> Step:
        """Play ``move`` and, with auto-move on, the safe moves it allows; returns the step.
        Raises ``IllegalMove`` (nothing changes)."""
        position = self.position.play(move)
        step = [Move(*move)]
        if self.automove:
            for auto in position.safe_automoves():
                position = position.play_unchecked(auto)
                step.append(auto)
        self._push(step, position)
        self.redo_steps.clear()
        return step

    def auto_finish(self) -> Step:
        """Play every remaining card to the foundations as one step."""
        moves = self.position.auto_finish()
        if not moves:
            raise IllegalMove("Auto-finish needs a position that foundation moves alone can win.")
        position = self.position
        for move in moves:
            position = position.play_unchecked(move)
        self._push(moves, position)
        self.redo_steps.clear()
        return moves

    def undo(self) -> Step | None:
        if not self.steps:
            return None
        step = self.steps.pop()
        self.positions.pop()
        self.redo_steps.append(step)
        return step

    def redo(self) -> Step | None:
        if not self.redo_steps:
            return None
        step = self.redo_steps.pop()
        position = self.position
        for move in step:
            position = position.play(move)
        self._push(step, position)
        return step

    def restart(self) -> None:
        """Back to the deal; the history is dropped."""
        self.steps.clear()
        self.redo_steps.clear()
        self.positions = [self.start]
        self.elapsed = 0.0

    # ----------------------------------------------------------------- save format

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "kind": SAVE_KIND,
            "game": self.game_id,
            "deal": self.deal,
            "automove": self.automove,
            "steps": [[move_text(m) for m in step] for step in self.steps],
            "redo": [[move_text(m) for m in step] for step in reversed(self.redo_steps)],
            "elapsed": round(self.elapsed, 3),
        }
        if self.deal is None or self.start != Position.deal_of(self.game_id, self.deal):
            doc["start"] = self.start.to_json()
        return doc

    def to_text(self) -> str:
        """The save document as JSON text (what the page keeps in localStorage)."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Read a save from JSON text; raises ``SaveError`` (also for text that is not JSON)."""
        try:
            doc = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise SaveError("The saved game is not readable JSON.") from None
        return cls.from_json(doc)

    @classmethod
    def from_json(cls, doc: Any) -> Game:
        """Rebuild a game from its save, replaying every move; raises ``SaveError``."""
        if not isinstance(doc, dict):
            raise SaveError("The saved game is not a JSON object.")
        if doc.get("kind") != SAVE_KIND:
            raise SaveError("This is not a saved solitaire game.")
        version = doc.get("format")
        if type(version) is not int or version != SAVE_FORMAT:
            raise SaveError(
                (
                    "The saved game has no format number"
                    if version is None
                    else f"The saved game has format {short_repr(version)}"
                )
                + f"; this version reads format {SAVE_FORMAT}."
            )
        game_id = doc.get("game")
        if not isinstance(game_id, str) or game_id not in GAMES:
            raise SaveError(f"The saved game is of an unknown game {short_repr(game_id)}.")
        deal = doc.get("deal")
        if deal is not None and (type(deal) is not int or not 1 <= deal <= MAX_DEAL):
            raise SaveError(f"The saved deal number {short_repr(deal)} is not valid.")
        automove = doc.get("automove", True)
        if not isinstance(automove, bool):
            raise SaveError("The saved auto-move setting is not true or false.")
        elapsed = doc.get("elapsed", 0)
        if (
            not isinstance(elapsed, (int, float))
            or isinstance(elapsed, bool)
            or not 0 <= elapsed < 10**12  # also refuses nan and infinities
        ):
            raise SaveError("The saved playing time is not a number of seconds.")
        if "start" in doc:
            try:
                start = Position.from_json(doc["start"])
            except PositionError as error:
                raise SaveError(f"The saved start position is broken: {error}") from None
            if start.rules.id != game_id:
                raise SaveError("The saved start position is of another game.")
        elif deal is None:
            raise SaveError("The saved game has neither a deal number nor a start position.")
        else:
            start = Position.deal_of(game_id, deal)
        game = cls(start, automove)
        game.elapsed = float(elapsed)
        steps = _read_steps(doc.get("steps"), "steps")
        redo = _read_steps(doc.get("redo", []), "redo")
        number = 0
        for step in steps:
            position = game.position
            for move in step:
                number += 1
                reason = position.why_illegal(move)
                if reason is not None:
                    raise SaveError(
                        f"Move {number} ({move}) of the saved game is illegal: {reason}"
                    )
                position = position.play_unchecked(move)
            game._push(step, position)
        # the redo list must replay from the current position too
        position = game.position
        for step in redo:
            for move in step:
                reason = position.why_illegal(move)
                if reason is not None:
                    raise SaveError(f"The saved redo move {move} is illegal: {reason}")
                position = position.play_unchecked(move)
        game.redo_steps = list(reversed(redo))
        return game


def _read_steps(value: Any, key: str) -> list[Step]:
    if not isinstance(value, list):
        raise SaveError(f"The saved game's “{key}” is not a list of moves.")
    steps: list[Step] = []
    for step in value:
        if not isinstance(step, list) or not step:
            raise SaveError(f"The saved game's “{key}” holds something that is not a step.")
        try:
            steps.append([Move.parse(text) for text in step])
        except ValueError as error:
            raise SaveError(f"The saved game's “{key}”: {error}") from None
    return steps


def random_playable_deal(game_id: str, rng: random.Random | None = None) -> int:
    """A random deal number whose opening position has a move: a new deal that is stuck
    before its first move is no game to offer (about 1 Russian deal in 750: 4 of 3 000
    random ones, e.g. 361983656). Redraws up to 100 times, then takes the last draw."""
    draw = (rng or random).randint
    number = draw(1, MAX_DEAL)
    for _ in range(100):
        if not Position.deal_of(game_id, number).is_stuck():
            break
        number = draw(1, MAX_DEAL)
    return number
