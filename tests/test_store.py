"""The page's storage under hostile input: anything on the origin may write the page's keys
(every project page of a GitHub user shares one origin). Deep, huge and non-finite documents,
quarantine, newer versions, migration from unscoped keys and unversioned documents, revisions
between two tabs, saving failures, statistics reset during a deal."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from solitaire import Game, Move, Position
from solitaire.piles import FOUNDATION, TABLEAU
from solitaire.web import state as fx
from solitaire.web.controller import Controller
from solitaire.web.documents import Saved, Settings, Stats
from solitaire.web.safe_json import MAX_DEPTH, BadDocument, nesting_ok, parse_stored
from solitaire.web.store import (
    ADOPTED,
    MAX_GAME_CHARS,
    MAX_SMALL_CHARS,
    MemoryBackend,
    Store,
    scope_of,
)
from solitaire.web.tab_sync import FOLLOWED

DEEP = "[" * 10000 + "]" * 10000  # the document: fatal in Pyodide's json.loads
KEYS = ("settings", "last", "game.double-rail", "stats.russian")


def any_move(game: Game) -> Move:
    return next(iter(game.position.legal_moves()))


def played(game_id: str, deal: int, moves: int) -> Game:
    game = Game.new(game_id, deal, automove=False)
    for _ in range(moves):
        game.play(any_move(game))
    return game


def load_everything(store: Store) -> None:
    store.load_settings()
    store.last_game()
    store.load_game("double-rail")
    store.load_stats("russian")


class Clock:
    def __call__(self) -> float:
        return 10_000.0


class Winnable:
    def known(self, game_id: str) -> bool:
        return False

    def get(self, game_id: str) -> list[int] | None:
        return None

    def pick(self, deals: list[int], avoid: int | None = None) -> int:
        return deals[0]


class NoGeometry:
    def pile_rects(self) -> dict[Any, Any]:
        return {}

    def card_rect(self, card: int) -> Any:
        raise AssertionError("not used")


def controller(store: Store, address: str = "#russian/1") -> Controller:
    store.save_settings(Settings(automove=False, winnable_only=False))  # any deal
    c = Controller(store, Winnable(), NoGeometry(), Clock(), random_deal=lambda g: 77)
    c.deals.boot(address)
    c.take_effects()
    return c


# ----------------------------------------------------------------------------- parsing


def test_nesting_is_measured_without_recursion() -> None:
    assert nesting_ok("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert not nesting_ok("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert nesting_ok('{"a": [1, {"b": []}], "c": "text"}')
    start = time.perf_counter()
    assert not nesting_ok("[" * 500_000 + "]" * 500_000)
    assert not nesting_ok("[]" * 500_000 + "[" * 40 + "]" * 40)
    assert nesting_ok("[]" * 500_000)
    assert time.perf_counter() - start < 5.0  # linear: ~0.25 s per million brackets


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (DEEP, "nested too deeply"),
        ("[" + "0," * 20_000 + "0]", "too large"),
        ("[NaN]", "NaN"),
        ('{"bestTime": Infinity}', "Infinity"),
        ("[-Infinity]", "-Infinity"),
        ("[1e999]", "too large"),
        ("[" + "9" * 5000 + "]", "not valid JSON"),  # beyond the int digit limit
        ("{not json", "not valid JSON"),
    ],
)
def test_parse_refuses_what_cannot_be_read(text: str, reason: str) -> None:
    with pytest.raises(BadDocument, match=reason):
        parse_stored(text, 20_000)


def test_parse_reads_ordinary_documents() -> None:
    assert parse_stored('{"a": [1.5, -2, null, true]}', 100) == {"a": [1.5, -2, None, True]}


# ----------------------------------------------------------------------------- quarantine


@pytest.mark.parametrize("name", KEYS)
@pytest.mark.parametrize("text", [DEEP, "x" * (MAX_GAME_CHARS + 1), '{"v": 1, "bestTime": NaN}'])
def test_each_key_with_a_poisoned_document_is_set_aside(name: str, text: str) -> None:
    key = "/a/solitaire." + name
    good = played("russian", 4, 2)
    backend = MemoryBackend({key: text})
    Store(backend, "/a/").save_game(Saved(good))
    store = Store(backend, "/a/")
    load_everything(store)
    assert key not in backend.data
    assert backend.data["/a/solitaire.quarantine." + name] == text  # kept, unchanged
    assert len(store.notices) == 1
    assert f"kept under the key “/a/solitaire.quarantine.{name}”" in store.notices[0]
    loaded = store.load_game("russian")  # the good save next to it is untouched
    assert loaded is not None
    assert loaded.game.position == good.position


def test_statistics_with_non_finite_or_huge_numbers_are_refused() -> None:
    for best in (float("inf"), float("nan"), -1.0, 1e300):
        with pytest.raises(ValueError):
            Stats.from_json({"played": 1, "won": 1, "bestTime": best})
    with pytest.raises(ValueError):
        Stats.from_json({"played": 10**40})
    for text in ('{"played": 1, "won": 1, "bestTime": 1e999}', '{"played": Infinity}'):
        backend = MemoryBackend({"solitaire.stats.russian": text})
        store = Store(backend)
        assert store.load_stats("russian") == Stats()
        assert "statistics" in store.notices[0]
        assert backend.data["solitaire.quarantine.stats.russian"] == text


def test_a_full_storage_still_sets_the_bad_text_aside() -> None:
    class Tight(MemoryBackend):
        """Room for the text already there, not for a second copy of it."""

        def setItem(self, key: str, value: str) -> None:
            if sum(map(len, self.data.values())) + len(value) > MAX_SMALL_CHARS:
                raise RuntimeError("QuotaExceededError")
            super().setItem(key, value)

    text = "[" * 100 + "]" * 100 + " " * 19_000
    backend = Tight({"solitaire.settings": text})
    store = Store(backend)
    assert store.load_settings() == Settings()
    assert backend.data == {"solitaire.quarantine.settings": text}


# ----------------------------------------------------------------------------- versions


def test_a_newer_versions_save_is_left_alone_and_never_written_over() -> None:
    newer = json.dumps({"v": 2, "rev": 9, "save": {"anything": "new"}})
    backend = MemoryBackend({"solitaire.game.russian": newer})
    store = Store(backend)
    assert store.load_game("russian") is None
    assert "newer version of this page" in store.notices[0]
    assert store.save_game(Saved(Game.new("russian", 3))) == "held"
    assert backend.data["solitaire.game.russian"] == newer
    assert not any("quarantine" in k for k in backend.data)

    # the engine's own save document in a newer format: held the same way
    inner = {**Game.new("russian", 3).to_json(), "format": 2}
    backend = MemoryBackend({"solitaire.game.russian": json.dumps({"v": 1, "save": inner})})
    store = Store(backend)
    assert store.load_game("russian") is None
    assert store.save_game(Saved(Game.new("russian", 3))) == "held"
    assert json.loads(backend.data["solitaire.game.russian"])["save"]["format"] == 2


def test_newer_settings_and_statistics_are_held() -> None:
    settings = json.dumps({"v": 3, "automove": False, "layout": "new"})
    stats = json.dumps({"v": 3, "played": 5, "won": 9})
    backend = MemoryBackend({"solitaire.settings": settings, "solitaire.stats.russian": stats})
    store = Store(backend)
    assert store.load_settings() == Settings()
    assert store.load_stats("russian") == Stats()
    store.save_settings(Settings(theme="dark"))
    store.save_stats("russian", Stats(played=1))
    store.reset_stats("russian")
    assert backend.data == {"solitaire.settings": settings, "solitaire.stats.russian": stats}
    assert len(store.notices) == 2


@pytest.mark.parametrize("version", ["2", 0, 1.0, True, None])
def test_a_version_that_is_not_a_known_integer_is_unreadable(version: Any) -> None:
    text = json.dumps({"v": version, "theme": "dark"})
    backend = MemoryBackend({"solitaire.settings": text})
    store = Store(backend)
    assert store.load_settings() == Settings()
    assert "unknown version" in store.notices[0]
    assert backend.data == {"solitaire.quarantine.settings": text}


def test_unversioned_documents_migrate() -> None:
    """Settings and statistics written before they carried "v", and game saves written before
    revisions, are read as version 1 and written back with it."""
    game = played("russian", 4, 1)
    backend = MemoryBackend(
        {
            "solitaire.settings": json.dumps(Settings(theme="dark").to_json()),
            "solitaire.stats.russian": json.dumps({"played": 2, "won": 1}),
            "solitaire.game.russian": json.dumps({"v": 1, "save": game.to_json()}),
        }
    )
    store = Store(backend)
    assert store.load_settings() == Settings(theme="dark")
    assert store.load_stats("russian") == Stats(played=2, won=1)
    loaded = store.load_game("russian")
    assert loaded is not None
    assert loaded.game.position == game.position
    assert store.revisions["game.russian"] == 0
    assert store.save_game(loaded) == "saved"  # unchanged: nothing written
    assert "rev" not in json.loads(backend.data["solitaire.game.russian"])
    loaded.game.play(any_move(loaded.game))
    assert store.save_game(loaded) == "saved"
    store.save_settings(Settings(theme="dark"))
    store.save_stats("russian", Stats(played=2, won=1))
    docs = {k: json.loads(v) for k, v in backend.data.items()}
    assert {doc["v"] for doc in docs.values()} == {1}
    assert docs["solitaire.game.russian"]["rev"] == 1
    assert store.notices == []


# ----------------------------------------------------------------------------- scopes


def test_the_scope_is_the_pages_directory() -> None:
    assert scope_of("/") == "/"
    assert scope_of("/a/") == "/a/"
    assert scope_of("/a/index.html") == "/a/"
    assert scope_of("/a/b/") == "/a/b/"
    assert scope_of("index.html") == "/"


def test_two_deployments_keep_apart_and_unscoped_keys_are_adopted_once() -> None:
    game = played("russian", 4, 2)
    legacy = {
        "solitaire.settings": json.dumps(Settings(theme="dark").to_json()),
        "solitaire.game.russian": json.dumps({"v": 1, "save": game.to_json()}),
        "solitaire.stats.russian": json.dumps({"played": 1}),
    }
    backend = MemoryBackend(legacy)
    a = Store(backend, "/a/")
    assert a.adopt_unscoped()
    assert a.load_settings() == Settings(theme="dark")
    saved = a.load_game("russian")
    assert saved is not None
    assert saved.game.position == game.position
    assert json.loads(backend.data[ADOPTED]) == {"scope": "/a/"}
    assert all(backend.data[k] == v for k, v in legacy.items())  # left for an older page

    b = Store(backend, "/b/")
    assert not b.adopt_unscoped()  # taken by /a/ already
    assert b.load_settings() == Settings()
    assert b.load_game("russian") is None
    other = Game.new("russian", 8)
    assert b.save_game(Saved(other)) == "saved"
    b.save_settings(Settings(four_color=True))
    again = a.load_game("russian")
    assert again is not None
    assert again.game.position == game.position
    assert a.load_settings() == Settings(theme="dark")
    assert Store(backend, "/b/").load_settings() == Settings(four_color=True)


def test_adoption_keeps_what_the_scope_already_has() -> None:
    backend = MemoryBackend(
        {
            "solitaire.settings": json.dumps(Settings(theme="dark").to_json()),
            "/a/solitaire.settings": json.dumps(Settings(theme="light").to_json()),
        }
    )
    assert Store(backend, "/a/").adopt_unscoped()
    assert Store(backend, "/a/").load_settings() == Settings(theme="light")
    assert not Store(MemoryBackend(), "/a/").adopt_unscoped()  # nothing to adopt: no mark


# ----------------------------------------------------------------------------- revisions


def test_a_stale_tab_never_writes_over_a_newer_revision() -> None:
    """The issue's case: tab A plays to 6 moves, tab B still shows 3 and closes last."""
    backend = MemoryBackend()
    a, b = Store(backend), Store(backend)
    a.load_game("russian")
    assert a.save_game(Saved(played("russian", 4, 3))) == "saved"
    b_game = b.load_game("russian")
    assert b_game is not None
    assert b.revisions["game.russian"] == 1
    assert a.save_game(Saved(played("russian", 4, 6))) == "saved"
    assert b.save_game(b_game) == "newer"  # B's pagehide: refused
    stored = json.loads(backend.data["solitaire.game.russian"])
    assert (stored["rev"], len(stored["save"]["steps"])) == (2, 6)
    followed = b.newer_game("russian")
    assert followed is not None
    assert followed.game.move_count == 6
    assert b.newer_game("russian") is None  # now B's own revision
    assert b.save_game(followed) == "saved"  # unchanged: no new revision
    assert a.save_game(Saved(played("russian", 4, 7))) == "saved"
    followed.game.play(any_move(followed.game))
    assert b.save_game(followed) == "newer"  # A saved 7 moves meanwhile: kept
    assert len(json.loads(backend.data["solitaire.game.russian"])["save"]["steps"]) == 7


def test_a_stale_tab_follows_the_newer_game() -> None:
    backend = MemoryBackend()
    a = controller(Store(backend))
    b = controller(Store(backend))
    for _ in range(2):
        a.play(any_move(a.game))
        a.persist()
    assert b.game.move_count == 0
    b.tabs.storage_changed("game.russian")
    effects = b.take_effects()
    assert b.game.move_count == 2
    assert b.position == a.position
    assert fx.Redraw() in effects
    assert FOLLOWED in [e.text for e in effects if isinstance(e, fx.Toast)]
    b.tabs.storage_changed("game.russian")  # nothing newer: nothing shown
    assert not any(isinstance(e, fx.Toast | fx.Redraw) for e in b.take_effects())
    b.tabs.storage_changed("stats.russian")  # not about the table
    assert b.take_effects() == []
    # B, behind again, makes a move: its save is refused, A's game stays
    a.play(any_move(a.game))
    a.persist()
    b.play(any_move(b.game))
    assert b.persist() == "newer"
    stored = json.loads(backend.data["solitaire.game.russian"])
    assert len(stored["save"]["steps"]) == 3


def test_a_new_deal_in_another_tab_is_followed_with_its_address() -> None:
    backend = MemoryBackend()
    a, b = controller(Store(backend)), controller(Store(backend))
    a.new_deal()
    a.take_effects()
    assert a.game.deal == 77
    b.tabs.storage_changed("game.russian")
    effects = b.take_effects()
    assert b.game.deal == 77
    assert fx.SetAddress("#russian/77", False) in effects


class Listed(Winnable):
    """Russian's winnable list is in, and names deal 77."""

    def known(self, game_id: str) -> bool:
        return True

    def get(self, game_id: str) -> list[int] | None:
        return [77]


def test_a_followed_new_deal_says_whether_it_is_proved_winnable() -> None:
    """The game another tab dealt comes to the table the way every game does
    (``Controller.seat``): the status line's "Winnable" mark and the title follow it."""
    backend = MemoryBackend()
    a = controller(Store(backend))
    b = Controller(Store(backend), Listed(), NoGeometry(), Clock(), random_deal=lambda g: 77)
    b.deals.boot("#russian/1")
    b.take_effects()
    assert not b.ui.progress.proved_winnable
    a.new_deal()
    b.tabs.storage_changed("game.russian")
    effects = b.take_effects()
    assert b.ui.progress.proved_winnable
    titles = [e.text for e in effects if isinstance(e, fx.Title)]
    assert titles == [f"{b.describe_table()} · Solitaire"]
    assert "deal 77" in titles[0]


def test_settings_follow_another_tab() -> None:
    backend = MemoryBackend()
    a, b = controller(Store(backend)), controller(Store(backend))
    a.settings_changed(Settings(automove=True, theme="dark"))
    b.tabs.storage_changed("settings")
    assert b.settings == Settings(automove=True, theme="dark")
    assert b.game.automove


def test_nothing_is_written_before_a_game_is_loaded() -> None:
    good = json.dumps({"v": 1, "rev": 3, "save": played("russian", 4, 2).to_json()})
    backend = MemoryBackend({"solitaire.game.russian": good})
    c = Controller(Store(backend), Winnable(), NoGeometry(), Clock())
    assert c.persist() is None  # the pagehide of a page that never finished starting
    assert backend.data == {"solitaire.game.russian": good}


# ----------------------------------------------------------------------------- saving failures


class Refusing(MemoryBackend):
    def __init__(self, message: str) -> None:
        super().__init__()
        self.message: str | None = message

    def setItem(self, key: str, value: str) -> None:
        if self.message is not None:
            raise RuntimeError(self.message)
        super().setItem(key, value)


@pytest.mark.parametrize(
    ("message", "said"), [("QuotaExceededError: full", "is full"), ("SecurityError", "refused")]
)
def test_a_failed_save_is_told_until_saving_works_again(message: str, said: str) -> None:
    backend = Refusing(message)
    store = Store(backend)
    c = controller(store)
    c.play(any_move(c.game))
    assert c.persist() == "failed"
    problem = store.problem()
    assert problem is not None
    assert said in problem
    assert "Keep playing" in problem
    c.play(any_move(c.game))  # the game goes on
    assert c.game.move_count == 2
    backend.message = None
    assert c.persist() == "saved"
    assert store.problem() is None
    assert len(json.loads(backend.data["solitaire.game.russian"])["save"]["steps"]) == 2


def test_blocked_storage_is_told_at_once() -> None:
    store = Store(MemoryBackend(), "/", persistent=False)
    controller(store)
    problem = store.problem()
    assert problem is not None
    assert "private browsing" in problem


# ----------------------------------------------------------------------------- statistics


def test_resetting_statistics_during_a_counted_deal_keeps_them_readable() -> None:
    ranks = "A23456789TJQK"
    foundations = [[r + s for r in ranks] for s in "HDC"] + [[r + "S" for r in ranks[:-1]]]
    piles = [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6
    doc = {"format": 1, "game": "russian", "deal": 3, "tableau": piles, "foundations": foundations}
    backend = MemoryBackend()
    store = Store(backend)
    store.load_game("russian")
    store.save_game(Saved(Game(Position.from_json(doc), automove=False), counted=True))
    store.save_stats("russian", Stats(played=1))
    c = controller(store, "#russian/3")
    c.reset_stats()  # the Statistics dialog's Reset, mid-deal
    c.play(Move(TABLEAU[0], FOUNDATION[3]))
    assert c.position.is_won()
    text = backend.data["solitaire.stats.russian"]
    stats = Store(backend).load_stats("russian")
    assert (stats.played, stats.won, stats.streak) == (1, 1, 1), text
    assert Stats.from_json(json.loads(text)) == stats


def test_a_save_after_the_pages_own_save_parses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A save writes its text around the game's (no parse and encode again), and the next save
    finds its revision by comparing the stored text with the one it wrote: a move of a long
    game costs no parse of the whole stored save. Another tab's save is still seen."""
    from solitaire.web import store as store_module

    backend = MemoryBackend()
    a, b = Store(backend), Store(backend)
    a.load_game("russian")
    game = played("russian", 4, 3)
    assert a.save_game(Saved(game)) == "saved"
    text = backend.data["solitaire.game.russian"]
    assert json.loads(text) == {"v": 1, "rev": 1, **json.loads(store_module._body(Saved(game)))}
    parsed: list[str] = []
    real = store_module.parse_stored
    monkeypatch.setattr(store_module, "parse_stored", lambda t, n: parsed.append(t) or real(t, n))
    for _ in range(3):
        game.play(any_move(game))
        assert a.save_game(Saved(game)) == "saved"
    assert parsed == []
    assert json.loads(backend.data["solitaire.game.russian"])["rev"] == 4
    b_game = b.load_game("russian")  # another tab reads revision 4 and saves revision 5
    assert b_game is not None
    b_game.game.play(any_move(b_game.game))
    assert b.save_game(b_game) == "saved"
    game.play(any_move(game))
    assert a.save_game(Saved(game)) == "newer"  # a's text is gone: parsed, and refused
    assert len(parsed) == 3  # b's load, b's first save (then b knows its text), a's save
