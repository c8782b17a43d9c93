"""What the page keeps between visits, in ``localStorage`` (or anything with the same three
methods: ``getItem``, ``setItem``, ``removeItem``).

Every key is ``<scope>solitaire.<name>``, the scope being the directory of the page's address
(``/a/``), so that two deployments on one origin never share data. Names (all JSON, each with
``"v": 1``, the version of the page's documents):

- ``settings``: ``{"automove": bool, "fourColor": bool,
  "theme": "system"|"light"|"dark", "winnableOnly": bool, "tapMove"?: bool, "vibrate"?: bool,
  "cardBack": one of CARD_BACKS, "table": one of TABLES, "sound": bool, "showTimer": bool}``
- ``last``: ``{"game": id}``, the game shown last
- ``game.<id>``: ``{"v": 1, "rev": int, "save": <Game.to_json()>, "counted": bool,
  "recorded": bool, "hints"?: int, "abandoned"?: bool}``; ``rev``: the revision, one more at
  each save (two tabs never go back); ``counted``: this deal already counts as played;
  ``recorded``: its win is in the statistics; ``hints``: hints shown in this deal (absent: 0);
  ``abandoned``: leaving it already ended the win streak once (absent: false)
- ``aside.<id>``: the same document for the one unfinished game of that game kept aside when a
  restart, a new or chosen deal or a link replaced it ("Continue deal N")
- ``stats.<id>``: ``{"played", "won", "streak", "bestStreak": int, "bestTime": float|null,
  "fewestMoves": int|null, "wonWithHints"?: int}``
- ``table``: the table as the page last showed it (``markup.table_preview``), which
  ``web/table-preview.js`` paints at the next visit's first paint, before Python starts; only
  a picture (Python reads nothing from it), rewritten when the page is hidden

Every stored text is measured before it is parsed (``safe_json``). One that cannot be read is
moved to ``quarantine.<name>`` and a sentence saying so is added to ``Store.notices``; one
written by a newer version is left alone and never written over. The rules are in
docs/save-format.md.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Literal, Protocol

from ..game import Game, SaveError
from ..rules import GAMES
from .documents import Saved, Settings, Stats
from .safe_json import BadDocument, parse_stored

NAME = "solitaire."  # every key: <scope> + NAME + name
ADOPTED = "solitaire.adopted"  # unscoped: the scope that took the unscoped keys
QUARANTINE = "quarantine."  # <scope>solitaire.quarantine.<name>: an unreadable document
VERSION = 1  # the "v" of the page's documents (the engine's save has its own "format")
MAX_GAME_CHARS = 1_000_000  # a game save: ~20 characters a move; 50,000 moves fit
MAX_SMALL_CHARS = 20_000  # settings, statistics, the last game
MAX_REVISION = 2**53  # exact in a JavaScript number


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


#: What ``Store.save_game`` did: "saved"; "failed" (the storage refused the write: full or
#: blocked); "newer" (another tab saved a later revision: not overwritten); "held" (the stored
#: document is a newer version's: left alone).
SaveResult = Literal["saved", "failed", "newer", "held"]


def scope_of(pathname: str) -> str:
    """The directory of the page's address path (``/a/`` for ``/a/`` and ``/a/index.html``):
    the prefix of every key, so that two deployments on one origin keep apart."""
    path = pathname if pathname.startswith("/") else "/" + pathname
    return path[: path.rfind("/") + 1]


def _version(doc: Any) -> Any:
    """The document's ``v``; a document written before versions were stored counts as 1."""
    return doc.get("v", VERSION) if isinstance(doc, dict) else VERSION


def _body(saved: Saved) -> str:
    """What a game save holds besides its version and revision, as text to compare."""
    doc: dict[str, Any] = {
        "save": saved.game.to_json(),
        "counted": saved.counted,
        "recorded": saved.recorded,
    }
    if saved.hints:
        doc["hints"] = saved.hints
    if saved.abandoned:
        doc["abandoned"] = True
    return json.dumps(doc, separators=(",", ":"), allow_nan=False)


def _save_text(revision: int, body: str) -> str:
    """The stored text of a game save: ``{"v": VERSION, "rev": revision, ...body}``, written
    around ``body`` instead of parsing it and encoding it again (a save of a long game is
    hundreds of kilobytes)."""
    return f'{{"v":{VERSION},"rev":{revision},' + body[1:]


def _is_newer(version: Any) -> bool:
    return type(version) is int and version > VERSION


class Store:
    """The page's keys under one deployment's ``scope`` (``""``: the unscoped keys written
    before keys were scoped). See docs/save-format.md: versions, revisions, quarantine."""

    def __init__(self, backend: Backend, scope: str = "", persistent: bool = True) -> None:
        self.backend = backend
        self.scope = scope
        self.prefix = scope + NAME
        self.persistent = persistent  # False: a stand-in for blocked storage, lost on reload
        self.notices: list[str] = []
        self.revisions: dict[str, int] = {}  # a game key's revision this page last read/wrote
        self.bodies: dict[str, str] = {}  # and that save's content (``_body``)
        #: a game key's stored text as this page last wrote or read it at that revision: while
        #: it is still there, the next save knows the revision without parsing it
        self.texts: dict[str, str] = {}
        self.held: set[str] = set()  # names holding a newer version's document: never written
        self.write_error: str | None = None  # why the last write failed; None once one works

    # ------------------------------------------------------------- raw access

    def key(self, name: str) -> str:
        return self.prefix + name

    def name_of(self, key: str) -> str | None:
        """The name (``game.russian``) of one of this scope's keys, else None."""
        return key[len(self.prefix) :] if key.startswith(self.prefix) else None

    def _get(self, key: str) -> str | None:
        try:
            text = self.backend.getItem(key)
        except Exception:  # storage blocked (privacy mode): behave as empty
            return None
        return text if isinstance(text, str) else None  # None, or JS null under Pyodide

    def _set(self, key: str, text: str) -> bool:
        try:
            self.backend.setItem(key, text)
        except Exception as error:  # full or blocked: the game goes on without saving
            self.write_error = "full" if "quota" in str(error).lower() else "refused"
            return False
        self.write_error = None
        return True

    def _remove(self, key: str) -> None:
        with contextlib.suppress(Exception):
            self.backend.removeItem(key)

    def _write(self, name: str, doc: dict[str, Any]) -> bool:
        return self._write_text(name, json.dumps(doc, separators=(",", ":"), allow_nan=False))

    def _write_text(self, name: str, text: str) -> bool:
        if name in self.held:
            return False
        return self._set(self.key(name), text)

    def _load(self, name: str, what: str, max_chars: int, then: str) -> Any:
        """The parsed document under ``name``: None when absent, unreadable (then set aside)
        or a newer version's (then held: read and written by nothing here)."""
        text = self._get(self.key(name))
        if text is None:
            return None
        try:
            doc = parse_stored(text, max_chars)
        except BadDocument as error:
            self._quarantine(name, what, str(error), then)
            return None
        version = _version(doc)
        if _is_newer(version):
            self._hold(name, what)
            return None
        if type(version) is not int or version != VERSION:
            self._quarantine(name, what, "it has an unknown version", then)
            return None
        return doc

    def _hold(self, name: str, what: str) -> None:
        if name not in self.held:
            self.held.add(name)
            self.notices.append(
                f"{what} was saved by a newer version of this page and is left as it is: open "
                "the newer page to use it (this one does not save over it)."
            )

    def _quarantine(self, name: str, what: str, reason: str, then: str) -> None:
        """Move the unreadable text under ``name`` to ``quarantine.<name>`` (one slot per
        name: a later bad document replaces an earlier one) and say so."""
        text = self._get(self.key(name))
        self._remove(self.key(name))  # first, so that a full storage has room for the copy
        kept = text is not None and self._set(self.key(QUARANTINE + name), text)
        where = (
            f"kept under the key “{self.key(QUARANTINE + name)}”"
            if kept
            else "the storage refused to keep a copy"
        )
        self.notices.append(
            f"{what} could not be read ({reason}) and was set aside ({where}); {then}."
        )

    def problem(self) -> str | None:
        """What to tell the player while progress is not being saved, else None."""
        if not self.persistent:
            return (
                "Your progress is not being saved: this browser does not let the page store "
                "anything (private browsing, or site data blocked). Keep playing, but a reload "
                "loses this game; allow site data for this site to keep your games."
            )
        if self.write_error == "full":
            return (
                "Your progress is not being saved: the browser's storage for this site is full "
                "(other pages on this site share it). Keep playing: saving starts again by "
                "itself once there is room, e.g. after clearing the data another page of this "
                "site keeps."
            )
        if self.write_error:
            return (
                "Your progress is not being saved: the browser refused to store it. Keep "
                "playing: saving starts again by itself as soon as the browser allows it."
            )
        return None

    # ------------------------------------------------------------- keys written before scopes

    def adopt_unscoped(self) -> bool:
        """Copy the unscoped keys (``solitaire.*``, written before keys carried the page's
        directory) into this scope, once per origin: the first scoped page that finds them
        takes them and marks them taken (``solitaire.adopted``). A key this scope already
        holds is kept; the unscoped keys stay for an older page still open or cached."""
        if not self.scope or self._get(ADOPTED) is not None:
            return False
        names = ["settings", "last"] + [f"{kind}.{g}" for kind in ("game", "stats") for g in GAMES]
        found = False
        for name in names:
            text = self._get(NAME + name)
            if text is None:
                continue
            found = True
            if self._get(self.key(name)) is None:
                self._set(self.key(name), text)
        if found:
            self._set(ADOPTED, json.dumps({"scope": self.scope}))
        return found

    # ------------------------------------------------------------- settings

    def load_settings(self) -> Settings:
        what, then = "Your saved settings", "the defaults are back"
        doc = self._load("settings", what, MAX_SMALL_CHARS, then)
        if doc is None:
            return Settings()
        try:
            return Settings.from_json(doc)
        except ValueError as error:
            self._quarantine("settings", what, str(error), then)
            return Settings()

    def save_settings(self, settings: Settings) -> None:
        self._write("settings", {**settings.to_json(), "v": VERSION})

    # ------------------------------------------------------------- last game

    def last_game(self) -> str | None:
        what = "The name of the game played last"
        doc = self._load("last", what, MAX_SMALL_CHARS, "the default game is shown")
        if doc is None:
            return None
        if isinstance(doc, dict) and doc.get("game") in GAMES:
            return str(doc["game"])
        self._quarantine("last", what, "it names no game", "the default game is shown")
        return None

    def set_last_game(self, game_id: str) -> None:
        self._write("last", {"v": VERSION, "game": game_id})

    # ------------------------------------------------------------- the table preview

    def save_table(self, doc: dict[str, Any]) -> None:
        """Keep the table shown for the next visit's first paint (``table``). Only a picture:
        a failed write is not a save problem (the write error stays as the game's save left
        it); a table that could not be written is removed, so that an older one is not
        painted instead."""
        key = self.key("table")
        try:
            self.backend.setItem(key, json.dumps(doc, separators=(",", ":"), allow_nan=False))
        except Exception:
            self._remove(key)

    # ------------------------------------------------------------- games in progress

    def load_game(self, game_id: str, slot: str = "game") -> Saved | None:
        """The game in progress of ``game_id`` (``slot`` "game") or the one kept aside
        ("aside"), and its revision noted; None when there is none or it cannot be read (set
        aside, with a notice) or is a newer version's (held)."""
        name = f"{slot}.{game_id}"
        kind = "saved" if slot == "game" else "kept-aside"
        what = f"Your {kind} {GAMES[game_id].name} game"
        self.revisions[name] = 0
        doc = self._load(name, what, MAX_GAME_CHARS, "a new game starts")
        if doc is None:
            return None
        try:
            saved, revision = self._saved_from(doc, game_id)
        except _NewerSave:
            self._hold(name, what)
            return None
        except Exception as error:  # never let a save stop the page from starting
            reason = str(error).rstrip(".") if isinstance(error, ValueError) else ""
            self._quarantine(name, what, reason or type(error).__name__, "a new game starts")
            return None
        self.revisions[name] = revision
        self.bodies[name] = _body(saved)
        return saved

    @staticmethod
    def _saved_from(doc: Any, game_id: str) -> tuple[Saved, int]:
        if not isinstance(doc, dict) or doc.get("v") != VERSION:
            raise SaveError("unknown format")
        counted = doc.get("counted", False)
        recorded = doc.get("recorded", False)
        hints = doc.get("hints", 0)
        abandoned = doc.get("abandoned", False)
        revision = doc.get("rev", 0)  # absent in saves written before revisions: 0
        if not all(isinstance(flag, bool) for flag in (counted, recorded, abandoned)):
            raise SaveError("bad flags")
        if type(hints) is not int or not 0 <= hints <= MAX_REVISION:
            raise SaveError("bad hint count")
        if type(revision) is not int or not 0 <= revision <= MAX_REVISION:
            raise SaveError("bad revision number")
        save = doc.get("save")
        if isinstance(save, dict) and type(save.get("format")) is int and save["format"] > 1:
            raise _NewerSave
        game = Game.from_json(save)
        if game.game_id != game_id:
            raise SaveError("it belongs to another game")
        return Saved(game, counted, recorded, hints, abandoned), revision

    def stored_revision(self, game_id: str, slot: str = "game") -> int | None:
        """The revision of the stored ``game_id`` save (0: none), None when it is held."""
        name = f"{slot}.{game_id}"
        text = self._get(self.key(name))
        if name in self.held:
            return None
        if text is None:
            return 0
        if text == self.texts.get(name):
            return self.revisions[name]
        try:
            doc = parse_stored(text, MAX_GAME_CHARS)
        except BadDocument as error:
            what = f"A saved {GAMES[game_id].name} game"
            self._quarantine(name, what, str(error), "the game on the table is saved instead")
            return 0
        if _is_newer(_version(doc)):
            self._hold(name, f"Your saved {GAMES[game_id].name} game")
            return None
        revision = doc.get("rev", 0) if isinstance(doc, dict) else 0
        revision = revision if type(revision) is int and revision >= 0 else 0
        if revision == self.revisions.get(name):
            self.texts[name] = text
        return revision

    def save_game(self, saved: Saved, slot: str = "game") -> SaveResult:
        """Save ``saved`` as the next revision, unless another tab saved a revision this page
        has not read ("newer": that one is kept) or the stored save is a newer version's.
        The game kept aside (``slot`` "aside") is only written by the intents that replace
        or bring back a game, so it follows the stored revision instead."""
        game_id = saved.game.game_id
        name = f"{slot}.{game_id}"
        stored = self.stored_revision(game_id, slot)
        if stored is None:
            return "held"
        known = self.revisions.get(name, 0) if slot == "game" else stored
        if stored > known:
            return "newer"
        body = _body(saved)
        if stored == known and self.bodies.get(name) == body:
            return "saved"  # unchanged: a new revision would only make other tabs reload
        revision = known + 1
        text = _save_text(revision, body)
        if not self._write_text(name, text):
            return "failed"
        self.revisions[name] = revision
        self.bodies[name] = body
        self.texts[name] = text
        return "saved"

    def newer_game(self, game_id: str) -> Saved | None:
        """The stored ``game_id`` game when another tab saved a later revision than this
        page's, else None (it is then this page's revision)."""
        stored = self.stored_revision(game_id)
        if stored is None or stored <= self.revisions.get(f"game.{game_id}", 0):
            return None
        return self.load_game(game_id)

    def drop_aside(self, game_id: str) -> None:
        """Forget the game kept aside (it came back to the table, or was abandoned for good)."""
        name = f"aside.{game_id}"
        if name not in self.held:
            self._remove(self.key(name))
        self.revisions.pop(name, None)
        self.bodies.pop(name, None)
        self.texts.pop(name, None)

    # ------------------------------------------------------------- statistics

    def load_stats(self, game_id: str) -> Stats:
        name = f"stats.{game_id}"
        what, then = f"Your {GAMES[game_id].name} statistics", "they start again from zero"
        doc = self._load(name, what, MAX_SMALL_CHARS, then)
        if doc is None:
            return Stats()
        try:
            return Stats.from_json(doc)
        except ValueError as error:
            self._quarantine(name, what, str(error), then)
            return Stats()

    def save_stats(self, game_id: str, stats: Stats) -> None:
        self._write(f"stats.{game_id}", {**stats.to_json(), "v": VERSION})

    def reset_stats(self, game_id: str) -> None:
        if f"stats.{game_id}" not in self.held:
            self._remove(self.key(f"stats.{game_id}"))


class _NewerSave(Exception):
    """The engine's save document inside the page's wrapper has a newer format."""
