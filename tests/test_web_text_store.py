"""The page's browser-free modules in CPython: addresses, words, and the localStorage store
(validation of every entry, statistics arithmetic)."""

from __future__ import annotations

import json

import pytest

from solitaire import Game, Move, parse_card
from solitaire.piles import CELL, FOUNDATION, STOCK, TABLEAU
from solitaire.web.documents import Saved, Settings, Stats, valid_deals
from solitaire.web.store import MemoryBackend, Store
from solitaire.web.text import (
    clock,
    format_hash,
    hint_text,
    lost_text,
    parse_hash,
    pile_label,
    verdict_text,
    way_back_text,
)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("", (None, None, False)),
        ("#", (None, None, False)),
        ("#russian/123", ("russian", 123, False)),
        ("#Double-Rail/7", ("double-rail", 7, False)),
        ("#double-freecell", ("double-freecell", None, False)),
        ("#double-russian/", ("double-russian", None, False)),
        ("#russian/0", ("russian", None, True)),
        ("#russian/2147483648", ("russian", None, True)),
        ("#russian/12a", ("russian", None, True)),
        ("#russian/" + "9" * 5000, ("russian", None, True)),
        ("#russian/²", ("russian", None, True)),
        ("#klondike/5", (None, None, True)),
        ("#<script>", (None, None, True)),
    ],
)
def test_parse_hash(text: str, want: tuple[object, object, bool]) -> None:
    game, deal, problem = parse_hash(text)
    assert (game, deal, problem is not None) == want
    if game and deal:
        assert parse_hash(format_hash(game, deal)) == (game, deal, None)


def test_words() -> None:
    assert clock(None) == "–"
    assert clock(83.9) == "1:23"
    assert clock(3723) == "1:02:03"
    qs = parse_card("QS")
    assert pile_label(TABLEAU[2], (1, 2, 3, 4, 5), 2) == "Tableau pile 3, 5 cards, 2 face down"
    assert pile_label(CELL[0], (qs,), 0) == "Free cell 1, Queen of spades"
    assert pile_label(FOUNDATION[1], (), 0) == "Foundation 2, empty"
    assert pile_label(STOCK, (1, 2), 2) == "Stock, 2 cards, deal one card"


def test_large_cards_round_trip_and_older_settings_load_without_it() -> None:
    """``largeCards``: saved and loaded; a settings document of an older page (no such key)
    loads with it off and its other values kept; a value of another type drops the document,
    as any bad value does."""
    backend = MemoryBackend()
    store = Store(backend)
    store.save_settings(Settings(large_cards=True, theme="dark"))
    assert json.loads(backend.data["solitaire.settings"])["largeCards"] is True
    assert Store(backend).load_settings() == Settings(large_cards=True, theme="dark")
    older = {"automove": False, "fourColor": True, "theme": "light", "showTimer": False}
    backend.data["solitaire.settings"] = json.dumps(older)
    got = Store(backend).load_settings()
    assert got == Settings(automove=False, four_color=True, theme="light", show_timer=False)
    assert got.large_cards is False
    backend.data["solitaire.settings"] = json.dumps({**older, "largeCards": "yes"})
    assert Store(backend).load_settings() == Settings()


def test_store_round_trips_and_drops_bad_entries() -> None:
    backend = MemoryBackend()
    store = Store(backend)
    assert store.load_settings() == Settings()
    store.save_settings(Settings(automove=False, four_color=True, theme="dark"))
    assert Store(backend).load_settings() == Settings(False, True, "dark")
    store.save_settings(Settings(winnable_only=True))
    assert Store(backend).load_settings() == Settings(winnable_only=True)
    backend.data["solitaire.settings"] = '{"winnableOnly": "yes"}'
    assert Store(backend).load_settings() == Settings()
    store.save_settings(Settings(automove=False, four_color=True, theme="dark"))

    game = Game.new("russian", 9)
    move = next(m for m in game.position.legal_moves() if m.target.kind == "tableau")
    game.play(move)
    game.undo()
    store.save_game(Saved(game, counted=True))
    loaded = Store(backend).load_game("russian")
    assert loaded is not None
    assert loaded.counted
    assert not loaded.recorded
    assert loaded.game.position == game.position
    assert loaded.game.redo_steps == game.redo_steps

    bad = {
        "solitaire.settings": '{"theme": "purple"}',
        "solitaire.stats.russian": '{"played": 1, "won": 2}',
        "solitaire.game.russian": "[1, 2",
        "solitaire.game.double-rail": json.dumps(
            {
                "v": 1,
                "save": {**Game.new("double-rail", 1).to_json(), "steps": [["stock>waste"] * 2]},
            }
        ),
        "solitaire.game.double-freecell": json.dumps(
            {"v": 1, "save": Game.new("russian", 1).to_json()}
        ),
    }
    backend = MemoryBackend(bad)
    store = Store(backend)
    assert store.load_settings() == Settings()
    assert store.load_stats("russian") == Stats()
    assert store.load_game("russian") is None
    rail = store.load_game("double-rail")  # two deals in one step is legal: kept
    assert rail is not None
    assert rail.game.move_count == 1
    assert store.load_game("double-freecell") is None  # a Russian save under Double FreeCell
    assert len(store.notices) == 4
    # each unreadable text is moved aside, unchanged, under its quarantine key
    assert set(backend.data) == {"solitaire.game.double-rail"} | {
        "solitaire.quarantine." + k.removeprefix("solitaire.")
        for k in bad
        if k != "solitaire.game.double-rail"
    }
    assert backend.data["solitaire.quarantine.game.russian"] == "[1, 2"

    tampered = Game.new("double-rail", 1).to_json()
    tampered["steps"] = [[str(Move(STOCK, TABLEAU[0]))]]
    backend.data["solitaire.game.double-rail"] = json.dumps({"v": 1, "save": tampered})
    assert store.load_game("double-rail") is None
    assert "Double Rail" in store.notices[-1]


def test_stats_arithmetic() -> None:
    st = Stats()
    st.record_played()
    assert st.record_win(100.0, 50) == {"streak": True, "time": True, "moves": True}
    st.record_played()
    assert st.record_win(120.0, 40) == {"streak": True, "time": False, "moves": True}
    st.record_played()
    st.record_abandoned()
    assert (st.played, st.won, st.streak, st.best_streak) == (3, 2, 0, 2)
    assert st.best_time == 100.0
    assert st.fewest_moves == 40
    assert st.win_rate == pytest.approx(2 / 3)
    assert Stats.from_json(st.to_json()) == st
    with pytest.raises(ValueError):
        Stats.from_json({"played": 1, "won": 1, "streak": True})


def test_winnable_list_validation() -> None:
    assert valid_deals([3, 1, 2]) == [3, 1, 2]
    assert valid_deals([0, True, "7", 5, 2**31]) == [5]
    assert valid_deals([]) is None
    assert valid_deals({"deals": [1]}) is None


def test_solver_words() -> None:
    assert hint_text("winning", "move the Ace", "russian") == (
        "Hint: move the Ace. It leads to a win. The solver sees the face-down cards."
    )
    assert hint_text("heuristic", "deal a card", "double-rail").startswith(
        "Hint (not proved): deal a card."
    )
    assert "order of the stock" in hint_text("heuristic", "deal a card", "double-rail")
    assert lost_text("move the 7♠ to tableau pile 3", "russian", searching=True) == (
        "This deal can no longer be won from here. You can still play: move the 7♠ to "
        "tableau pile 3. Looking for the last move from which it could be won… "
        "The solver sees the face-down cards."
    )
    assert lost_text("", "russian", at_start=True).startswith(
        "This deal cannot be won, whatever you play. No move is left."
    )
    assert way_back_text({"from_start": "winnable", "last_winnable_step": 4}, 4) == (
        "It could still be won before move 5.",
        "undo-to",
        "Undo to before move 5",
    )
    assert way_back_text({"from_start": "unwinnable"}, None)[1:] == (
        "winnable-deal",
        "Winnable deal",
    )
    assert way_back_text({"from_start": "unknown"}, None)[0] == (
        "The solver could not find in time where the win was lost."
    )
    text, step = verdict_text(
        {"from_start": "winnable", "last_winnable_step": 22, "first_lost_step": 23, "exact": True},
        "russian",
    )
    assert text.startswith("This deal was winnable. You could still have won before move 23.")
    assert step == 22
    text, step = verdict_text(
        {"from_start": "winnable", "last_winnable_step": 3, "first_lost_step": 9, "exact": False},
        "russian",
    )
    assert "lost by move 9" in text
    assert step == 3
    text, step = verdict_text(
        {"from_start": "winnable", "last_winnable_step": 0, "first_lost_step": 1, "exact": True},
        "russian",
    )
    assert text.startswith("This deal was winnable, but not after your first move.")
    assert step == 0
    text, step = verdict_text({"from_start": "unwinnable", "last_winnable_step": None}, "russian")
    assert text.startswith("This deal could not be won, whatever you played.")
    assert step is None
    text, step = verdict_text({"from_start": "unknown", "first_lost_step": 30}, "double-rail")
    assert "could not decide" in text
    assert step is None
    assert verdict_text({"error": "boom"}, "russian") == ("The solver failed: boom", None)
