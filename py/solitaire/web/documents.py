"""The documents the page keeps between visits: the settings, a game's statistics, a game in
progress (``Saved``), each with its JSON form; and the check of a shipped winnable list.

``from_json`` takes a missing field as its default and refuses (``ValueError``) a document
that is not an object or holds a value of the wrong type or out of range. Where documents are
kept, and what is done with one that is refused, is ``store.py``'s part; the format is
docs/save-format.md. No browser."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from .. import MAX_DEAL
from ..game import Game
from ..rules import GAMES

MAX_COUNT = 10**12  # far above any real count of deals
THEMES = ("system", "light", "dark")
CARD_BACKS = ("blue", "red", "green")  # the first is the default
TABLES = ("green", "blue", "red", "grey")  # table (felt) colours; the first is the default


@dataclass
class Settings:
    """The player's settings (a docstring also spares dataclasses an inspect.signature call
    at import time, ~2-4 ms in the page)."""

    automove: bool = True
    four_color: bool = False
    theme: str = "system"
    # "New deal" draws among deals proved winnable; None: not set, on for Russian only
    # (controller.winnable_only_for)
    winnable_only: bool | None = None
    # None: follow the device (on where the primary pointer is coarse, i.e. a touch screen)
    tap_move: bool | None = None  # a tap plays the card to its best place at once
    vibrate: bool | None = None  # a short vibration when a move is refused
    card_back: str = CARD_BACKS[0]
    table: str = TABLES[0]
    sound: bool = False  # card, refused-move and win sounds
    show_timer: bool = True
    # the games whose lesson was finished or skipped (web/lesson.py): never shown again
    lessons_done: tuple[str, ...] = ()
    # cards sized for half the planned pile (web/style.css, .large-cards): bigger where the
    # height, not the width, sets them; a long pile then tightens its own fan
    large_cards: bool = False

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "automove": self.automove,
            "fourColor": self.four_color,
            "theme": self.theme,
        }
        if self.winnable_only is not None:
            doc["winnableOnly"] = self.winnable_only
        if self.tap_move is not None:
            doc["tapMove"] = self.tap_move
        if self.vibrate is not None:
            doc["vibrate"] = self.vibrate
        doc["cardBack"] = self.card_back
        doc["table"] = self.table
        doc["sound"] = self.sound
        doc["showTimer"] = self.show_timer
        if self.lessons_done:
            doc["lessonsDone"] = list(self.lessons_done)
        doc["largeCards"] = self.large_cards
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Settings:
        if not isinstance(doc, dict):
            raise ValueError("not an object")
        s = cls()
        automove = doc.get("automove", True)
        four = doc.get("fourColor", False)
        theme = doc.get("theme", "system")
        winnable = doc.get("winnableOnly")
        tap_move = doc.get("tapMove")
        vibrate = doc.get("vibrate")
        card_back = doc.get("cardBack", CARD_BACKS[0])
        table = doc.get("table", TABLES[0])
        sound = doc.get("sound", False)
        show_timer = doc.get("showTimer", True)
        lessons = doc.get("lessonsDone", [])
        large = doc.get("largeCards", False)  # absent from older saves
        if (
            not isinstance(automove, bool)
            or not isinstance(four, bool)
            or theme not in THEMES
            or not isinstance(winnable, bool | None)
            or not isinstance(tap_move, bool | None)
            or not isinstance(vibrate, bool | None)
            or card_back not in CARD_BACKS
            or table not in TABLES
            or not isinstance(sound, bool)
            or not isinstance(show_timer, bool)
            or not isinstance(lessons, list)
            or len(lessons) > len(GAMES)
            or not all(isinstance(g, str) and g in GAMES for g in lessons)
            or not isinstance(large, bool)
        ):
            raise ValueError("unexpected values")
        s.automove, s.four_color, s.theme, s.winnable_only = automove, four, theme, winnable
        s.tap_move, s.vibrate = tap_move, vibrate
        s.card_back, s.table, s.sound, s.show_timer = card_back, table, sound, show_timer
        s.lessons_done = tuple(dict.fromkeys(lessons))
        s.large_cards = large
        return s


def valid_deals(doc: Any) -> list[int] | None:
    """A shipped ``web/winnable/GAME.json`` document: its deal numbers if it is a list of deal
    numbers (anything else in it is skipped), None if it holds none."""
    if not isinstance(doc, list):
        return None
    out = [d for d in doc if isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= MAX_DEAL]
    return out or None


@dataclass
class Stats:
    """One game's statistics."""

    played: int = 0
    won: int = 0
    streak: int = 0
    best_streak: int = 0
    best_time: float | None = None
    fewest_moves: int | None = None
    won_with_hints: int = 0  # wins with a hint shown (counted in won, never a best)

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        return {
            "played": d["played"],
            "won": d["won"],
            "streak": d["streak"],
            "bestStreak": d["best_streak"],
            "bestTime": d["best_time"],
            "fewestMoves": d["fewest_moves"],
            "wonWithHints": d["won_with_hints"],
        }

    @classmethod
    def from_json(cls, doc: Any) -> Stats:
        if not isinstance(doc, dict):
            raise ValueError("not an object")

        def count(key: str) -> int:
            v = doc.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_COUNT:
                raise ValueError(f"{key} is not a count")
            return v

        def optional(key: str, kind: type) -> Any:
            v = doc.get(key)
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int):
                raise ValueError(f"{key} is not a number")
            if isinstance(v, float) and not math.isfinite(v):  # only finite numbers
                raise ValueError(f"{key} is not a finite number")
            if not 0 <= v <= MAX_COUNT:
                raise ValueError(f"{key} is negative" if v < 0 else f"{key} is too large")
            return kind(v)

        s = cls(
            played=count("played"),
            won=count("won"),
            streak=count("streak"),
            best_streak=count("bestStreak"),
            best_time=optional("bestTime", float),
            fewest_moves=optional("fewestMoves", int),
            won_with_hints=count("wonWithHints"),
        )
        if (
            s.won > s.played
            or s.streak > s.won
            or s.best_streak > s.won
            or s.streak > s.best_streak
            or s.won_with_hints > s.won
        ):
            raise ValueError("the numbers do not add up")
        return s

    # ------------------------------------------------------------- events

    def record_played(self) -> None:
        self.played += 1

    def record_abandoned(self) -> None:
        """A counted deal really left unfinished (docs/ui.md, "Nothing lost by one click"):
        the streak ends."""
        self.streak = 0

    def record_win(self, seconds: float, moves: int, hints: int = 0) -> dict[str, bool]:
        """Count a win; returns which records it set (for the celebration). A win with hints
        counts as a win and in the streak, and apart in ``won_with_hints``; its time and
        moves are never a best."""
        # A win is of a played deal: when the statistics were reset during the deal (in this
        # tab or another), it counts as played again, so played >= won always holds.
        self.played = max(self.played, self.won + 1)
        self.won += 1
        self.streak += 1
        if hints:
            self.won_with_hints += 1
        records = {
            "streak": self.streak > self.best_streak,
            "time": not hints and (self.best_time is None or seconds < self.best_time),
            "moves": not hints and (self.fewest_moves is None or moves < self.fewest_moves),
        }
        self.best_streak = max(self.best_streak, self.streak)
        if records["time"]:
            self.best_time = round(seconds, 1)
        if records["moves"]:
            self.fewest_moves = moves
        return records


@dataclass
class Saved:
    """A game in progress as the page keeps it."""

    game: Game
    counted: bool = False
    recorded: bool = False
    hints: int = 0  # hints shown in this deal (the win dialog and statistics say so)
    abandoned: bool = False  # leaving it already ended the streak once

    @property
    def worth_keeping(self) -> bool:
        """Unfinished and played: replacing it would lose something."""
        game = self.game
        return (game.can_undo or game.can_redo) and not self.recorded
