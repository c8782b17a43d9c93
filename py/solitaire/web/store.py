"""What the page keeps between visits, in ``localStorage`` (or anything with the same three
methods: ``getItem``, ``setItem``, ``removeItem``).

Keys (all JSON):

- ``solitaire.settings``: ``{"automove": bool, "fourColor": bool,
  "theme": "system"|"light"|"dark", "winnableOnly": bool, "tapMove"?: bool, "vibrate"?: bool,
  "cardBack": one of CARD_BACKS, "table": one of TABLES, "sound": bool, "showTimer": bool}``
- ``solitaire.last``: ``{"game": id}``, the game shown last
- ``solitaire.game.<id>``: ``{"v": 1, "save": <Game.to_json()>, "counted": bool,
  "recorded": bool, "hints"?: int, "abandoned"?: bool}``; ``counted``: this deal already counts
  as played; ``recorded``: its win is in the statistics; ``hints``: hints shown in this deal
  (absent: 0); ``abandoned``: leaving it already ended the win streak once (absent: false)
- ``solitaire.aside.<id>``: the same document for the one unfinished game of that game kept
  aside when a restart, a new or chosen deal or a link replaced it ("Continue deal N")
- ``solitaire.stats.<id>``: ``{"played", "won", "streak", "bestStreak": int, "bestTime": float|null,
  "fewestMoves": int|null, "wonWithHints"?: int}``

A value that cannot be read (not JSON, wrong shape, a save the engine refuses) is removed and
a sentence saying so is added to ``Store.notices``; the page shows them and starts anyway.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from .. import MAX_DEAL
from ..game import Game, SaveError
from ..rules import GAMES

PREFIX = "solitaire."
THEMES = ("system", "light", "dark")
CARD_BACKS = ("blue", "red", "green")  # the first is the default
TABLES = ("green", "blue", "red", "grey")  # table (felt) colours; the first is the default


class Backend(Protocol):
    def getItem(self, key: str) -> Any: ...
    def setItem(self, key: str, value: str) -> Any: ...
    def removeItem(self, key: str) -> Any: ...


class MemoryBackend:
    """A dict with the Web Storage methods: for tests, and when localStorage is unavailable."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data: dict[str, str] = dict(data or {})

    def getItem(self, key: str) -> str | None:
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.data[key] = value

    def removeItem(self, key: str) -> None:
        self.data.pop(key, None)


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
        ):
            raise ValueError("unexpected values")
        s.automove, s.four_color, s.theme, s.winnable_only = automove, four, theme, winnable
        s.tap_move, s.vibrate = tap_move, vibrate
        s.card_back, s.table, s.sound, s.show_timer = card_back, table, sound, show_timer
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
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"{key} is not a count")
            return v

        def optional(key: str, kind: type) -> Any:
            v = doc.get(key)
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int):
                raise ValueError(f"{key} is not a number")
            if v < 0:
                raise ValueError(f"{key} is negative")
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


class Store:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.notices: list[str] = []

    # ------------------------------------------------------------- raw access

    def _read(self, key: str) -> Any:
        """The parsed JSON under ``key``; None when absent; raises ValueError when not JSON."""
        try:
            text = self.backend.getItem(PREFIX + key)
        except Exception:  # storage blocked (privacy mode): behave as empty
            return None
        if not isinstance(text, str):  # None, or JS null under Pyodide: nothing stored
            return None
        return json.loads(text)

    def _write(self, key: str, value: Any) -> bool:
        try:
            self.backend.setItem(PREFIX + key, json.dumps(value, separators=(",", ":")))
            return True
        except Exception:  # full or blocked: the game goes on without saving
            return False

    def _drop(self, key: str, what: str, reason: str = "") -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(PREFIX + key)
        because = f" ({reason})" if reason else ""
        self.notices.append(f"{what} could not be read and was discarded{because}.")

    # ------------------------------------------------------------- settings

    def load_settings(self) -> Settings:
        try:
            doc = self._read("settings")
            return Settings() if doc is None else Settings.from_json(doc)
        except ValueError:
            self._drop("settings", "Your saved settings", "the defaults are back")
            return Settings()

    def save_settings(self, settings: Settings) -> None:
        self._write("settings", settings.to_json())

    # ------------------------------------------------------------- last game

    def last_game(self) -> str | None:
        try:
            doc = self._read("last")
        except ValueError:
            doc = None
        if isinstance(doc, dict) and doc.get("game") in GAMES:
            return str(doc["game"])
        return None

    def set_last_game(self, game_id: str) -> None:
        self._write("last", {"game": game_id})

    # ------------------------------------------------------------- games in progress

    def load_game(self, game_id: str, slot: str = "game") -> Saved | None:
        """The game in progress (``slot`` "game") or the one kept aside ("aside")."""
        key = f"{slot}.{game_id}"
        name = GAMES[game_id].name if slot == "game" else f"kept-aside {GAMES[game_id].name}"
        try:
            doc = self._read(key)
        except ValueError:
            self._drop(key, f"Your saved {name} game", "it is not valid JSON")
            return None
        if doc is None:
            return None
        try:
            if not isinstance(doc, dict) or doc.get("v") != 1:
                raise SaveError("unknown format")
            counted = doc.get("counted", False)
            recorded = doc.get("recorded", False)
            hints = doc.get("hints", 0)
            abandoned = doc.get("abandoned", False)
            if (
                not isinstance(counted, bool)
                or not isinstance(recorded, bool)
                or not isinstance(abandoned, bool)
            ):
                raise SaveError("bad flags")
            if not isinstance(hints, int) or isinstance(hints, bool) or hints < 0:
                raise SaveError("bad hint count")
            game = Game.from_json(doc.get("save"))
            if game.game_id != game_id:
                raise SaveError("it belongs to another game")
        except (SaveError, ValueError, KeyError, TypeError) as error:
            self._drop(key, f"Your saved {name} game", str(error).rstrip("."))
            return None
        except Exception as error:  # never let a save stop the page from starting
            self._drop(key, f"Your saved {name} game", type(error).__name__)
            return None
        return Saved(game, counted, recorded, hints, abandoned)

    def save_game(self, saved: Saved, slot: str = "game") -> bool:
        doc: dict[str, Any] = {
            "v": 1,
            "save": saved.game.to_json(),
            "counted": saved.counted,
            "recorded": saved.recorded,
        }
        if saved.hints:
            doc["hints"] = saved.hints
        if saved.abandoned:
            doc["abandoned"] = True
        return self._write(f"{slot}.{saved.game.game_id}", doc)

    def drop_aside(self, game_id: str) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(PREFIX + f"aside.{game_id}")

    # ------------------------------------------------------------- statistics

    def load_stats(self, game_id: str) -> Stats:
        key = f"stats.{game_id}"
        try:
            doc = self._read(key)
            return Stats() if doc is None else Stats.from_json(doc)
        except ValueError as error:
            self._drop(key, f"Your {GAMES[game_id].name} statistics", str(error))
            return Stats()

    def save_stats(self, game_id: str, stats: Stats) -> None:
        self._write(f"stats.{game_id}", stats.to_json())

    def reset_stats(self, game_id: str) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(PREFIX + f"stats.{game_id}")
