"""The table before Python, its CPython side: the board's markup (one string per position,
what ``BoardView.setup`` writes and web/table-preview.js paints), the document the page keeps
when it is hidden, the first-visit deal the controller opens, and the first-visit tables the
build writes into index.html. The browser side is e2e/test_ui_table_preview.py."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import build_site  # tools/ is on pytest's pythonpath (pyproject.toml)
import pytest
from test_controller import Clock, Grid, Winnable

from solitaire import Game, Position
from solitaire.cards import card_name
from solitaire.rules import GAMES
from solitaire.web.controller import Controller
from solitaire.web.dealing import DEFAULT_GAME, shown_deal
from solitaire.web.documents import Settings
from solitaire.web.layout import layout
from solitaire.web.markup import PREVIEW_VERSION, board_html, board_vars, table_preview
from solitaire.web.store import MemoryBackend, Store

ROOT = Path(__file__).resolve().parent.parent


class _Piles(HTMLParser):
    """Each pile's cards in a board's HTML: "QS" face up, "down" face down."""

    def __init__(self) -> None:
        super().__init__()
        self.piles: dict[str, list[str]] = {}
        self.order: list[str] = []
        self.current: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("data-pile"):
            self.current = str(a["data-pile"])
            self.piles[self.current] = []
            self.order.append(self.current)
        elif "card" in (a.get("class") or "").split() and self.current is not None:
            self.piles[self.current].append(
                "down" if a.get("data-face") == "down" else str(a.get("data-card"))
            )


def piles_of(html: str) -> _Piles:
    parser = _Piles()
    parser.feed(html)
    return parser


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_board_markup_shows_every_pile_in_the_layout_order(game_id: str) -> None:
    game = Game.new(game_id, 11)
    for move in list(game.position.legal_moves())[:1]:
        game.play(move)
    position = game.position
    html = board_html(position)
    assert html.startswith('<div class="row top">')
    parsed = piles_of(html)
    table = layout(position.rules)
    assert parsed.order == [str(p) for p in table.order]
    for pile in table.order:
        down = position.face_down(pile)
        want = ["down" if i < down else card_name(c) for i, c in enumerate(position.pile(pile))]
        assert parsed.piles[str(pile)] == want
    assert sum(len(cards) for cards in parsed.piles.values()) == position.rules.cards


def test_the_board_custom_properties_are_the_layout_s() -> None:
    rules = GAMES["double-rail"]
    table = layout(rules)
    assert board_vars(rules) == {
        "--cols": str(table.cols),
        "--tcols": str(len(table.tableau)),
        "--pd": str(rules.card_plan[0]),
        "--pu": str(rules.card_plan[1]),
        "--siderows": str((len(table.top) + 1) // 2),
        "--dd": "0",  # the deal's tallest pile: Double Rail deals one face-up card a pile
        "--du": "1",
    }


def make_controller(store: Store) -> Controller:
    grid = Grid()
    c = Controller(store, Winnable(), grid, Clock(), random_deal=lambda g: 77)
    grid.controller = c
    return c


def test_a_first_visit_opens_the_deal_painted_before_python() -> None:
    c = make_controller(Store(MemoryBackend()))
    c.deals.boot("", ("russian", "5293"))
    assert (c.game_id, c.game.deal, c.game.move_count) == ("russian", 5293, 0)
    assert not [e for e in c.take_effects() if type(e).__name__ in ("Toast", "Notice")]


@pytest.mark.parametrize(
    "shown",
    [("klondike", "5"), ("russian", "0"), ("russian", "x1"), ("russian", "99999999999"), ("", "")],
)
def test_a_painted_deal_that_names_no_deal_is_ignored(shown: tuple[str, str]) -> None:
    assert shown_deal(shown) is None
    c = make_controller(Store(MemoryBackend()))
    c.deals.boot("", shown)
    assert (c.game_id, c.game.deal) == (DEFAULT_GAME, 77)


def test_only_a_first_visit_opens_the_painted_deal() -> None:
    # a game played before: its game goes on, whatever was painted
    store = Store(MemoryBackend())
    c = make_controller(store)
    c.deals.boot("#double-rail/5")
    c.persist()
    c2 = make_controller(store)
    c2.deals.boot("", ("russian", "16"))
    assert (c2.game_id, c2.game.deal) == ("double-rail", 5)
    # an address names the deal
    c3 = make_controller(Store(MemoryBackend()))
    c3.deals.boot("#russian/9", ("russian", "16"))
    assert c3.game.deal == 9
    # a saved game of that game without the name of the last game: it is not replaced
    store4 = Store(MemoryBackend())
    c4 = make_controller(store4)
    c4.deals.boot("#russian/3")
    c4.persist()
    store4.backend.removeItem(store4.key("last"))
    c5 = make_controller(store4)
    c5.deals.boot("", ("russian", "16"))
    assert c5.game.deal == 3


def test_the_page_keeps_the_table_it_shows_with_its_looks() -> None:
    store = Store(MemoryBackend())
    c = make_controller(store)
    c.keep_table("r1")  # nothing before a game is on the table
    assert store.backend.getItem(store.key("table")) is None
    c.settings = Settings(four_color=True, theme="dark", card_back="red", table="grey")
    c.deals.boot("#russian/21")
    move = next(iter(c.position.legal_moves()))
    c.game.play(move)
    c.keep_table("r1")
    doc = json.loads(store.backend.getItem(store.key("table")))
    assert (doc["v"], doc["release"]) == (PREVIEW_VERSION, "r1")
    assert (doc["game"], doc["deal"]) == ("russian", 21)
    assert doc["html"] == board_html(c.position)
    assert doc["vars"] == board_vars(c.position.rules)
    assert (doc["status"]["st-moves"], doc["status"]["st-deal"]) == ("1", "21")
    assert doc["winnable"] is False  # no winnable list has come
    assert doc["status"]["st-game-full"] == GAMES["russian"].name
    assert doc["looks"] == {
        "back": "red",
        "table": "grey",
        "theme": "dark",
        "four": True,
        "timer": True,
        "large": False,
    }


@pytest.mark.parametrize("deals", [[4, 21, 30], [4, 30]])
def test_the_kept_table_shows_the_winnable_mark_when_the_status_line_does(deals: list[int]) -> None:
    store = Store(MemoryBackend())
    grid = Grid()
    c = Controller(store, Winnable({"russian": deals}), grid, Clock(), random_deal=lambda g: 77)
    grid.controller = c
    c.deals.boot("#russian/21")
    c.keep_table("r1")
    doc = json.loads(store.backend.getItem(store.key("table")))
    assert doc["winnable"] is (21 in deals) is c.ui.progress.proved_winnable


def test_the_mark_painted_before_python_stays_until_the_list_comes() -> None:
    lists: dict[str, list[int] | None] = {"double-rail": None}  # russian's has not come
    grid = Grid()
    c = Controller(Store(MemoryBackend()), Winnable(lists), grid, Clock(), random_deal=lambda g: 77)
    grid.controller = c
    c.deals.boot("", ("russian", "21"), ("russian", "21"))
    assert (c.game.deal, c.ui.progress.proved_winnable) == (
        21,
        True,
    )  # no list yet: the page's mark
    lists["russian"] = [4, 30]  # the list says otherwise (a tampered preview): it wins
    c.winnable_loaded("russian")
    assert c.ui.progress.proved_winnable is False
    lists["russian"] = [21]
    c.winnable_loaded("russian")
    assert c.ui.progress.proved_winnable is True


@pytest.mark.parametrize(
    ("address", "marked"),
    [("#russian/22", ("russian", "21")), ("#russian/21", ("double-rail", "21")), ("", ("x", "1"))],
)
def test_the_mark_painted_before_python_is_for_its_deal_only(
    address: str, marked: tuple[str, str]
) -> None:
    grid = Grid()
    c = Controller(Store(MemoryBackend()), Winnable(), grid, Clock(), random_deal=lambda g: 77)
    grid.controller = c
    c.deals.boot(address, None, marked)
    assert c.ui.progress.proved_winnable is False


class FullBackend(MemoryBackend):
    """Refuses to write the table (a full storage), keeps everything else."""

    def setItem(self, key: str, value: str) -> None:
        if key.endswith("solitaire.table"):
            raise RuntimeError("QuotaExceededError")
        super().setItem(key, value)


def test_a_table_that_cannot_be_written_is_removed_and_is_no_save_problem() -> None:
    backend = FullBackend()
    store = Store(backend)
    MemoryBackend.setItem(backend, store.key("table"), '{"v": 1, "old": true}')
    c = make_controller(store)
    c.deals.boot("#russian/4")
    c.keep_table("r1")
    assert backend.getItem(store.key("table")) is None
    assert store.problem() is None


def test_a_preview_document_is_json_with_short_status_texts() -> None:
    position = Position.deal_of("double-freecell", 3)
    doc = table_preview(position, 3, 0, 3725.4, {}, "dev", proved_winnable=False)
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc
    assert doc["status"]["st-time"] == "1:02:05"
    assert all(len(text) <= 80 for text in doc["status"].values())  # web/table-preview.js


# ----------------------------------------------------------------------------- the build


def test_the_build_draws_first_visit_tables_from_the_winnable_deals() -> None:
    winnable = json.loads((ROOT / "web" / "winnable" / f"{DEFAULT_GAME}.json").read_text())
    tables = build_site.first_tables(ROOT / "web" / "winnable", "1.2.3")
    assert len(tables) == build_site.FIRST_TABLES
    deals = [t["deal"] for t in tables]
    assert len(set(deals)) == len(deals)
    assert set(deals) <= set(winnable)
    assert deals == [t["deal"] for t in build_site.first_tables(ROOT / "web" / "winnable", "1.2.3")]
    assert deals != [t["deal"] for t in build_site.first_tables(ROOT / "web" / "winnable", "1.2.4")]
    for table in tables:
        assert table["game"] == DEFAULT_GAME
        assert "release" not in table
        assert table["winnable"] is True  # the status line's mark, as Python shows it
        assert table["html"] == board_html(Position.deal_of(DEFAULT_GAME, table["deal"]))


def test_the_page_carries_the_tables_as_data_no_text_can_end(tmp_path: Path) -> None:
    tables = [{"v": 1, "game": "russian", "deal": 1, "html": "</script><b>x</b>"}]
    page = build_site.render_page(
        (ROOT / "index.html").read_text(encoding="utf-8"), GAMES.values(), tables=tables
    )
    found = re.search(
        r'<script type="application/json" id="first-tables">(.*?)</script>', page, re.S
    )
    assert found is not None
    assert json.loads(found.group(1)) == tables
    # without tables, an empty list: the page paints nothing on a first visit
    page = build_site.render_page((ROOT / "index.html").read_text(encoding="utf-8"), GAMES.values())
    assert '<script type="application/json" id="first-tables">[]</script>' in page


def test_a_build_without_winnable_deals_says_so(tmp_path: Path) -> None:
    with pytest.raises(build_site.BuildError, match="winnable deals"):
        build_site.first_tables(tmp_path, "dev")
