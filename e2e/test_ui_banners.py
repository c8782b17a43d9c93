"""Nothing covers a card in play. At every screen of e2e/test_ui_thumb_sizes.py and in every
game, the toast (a new deal's "New deal N. [Undo]", the box hints and refusals use too) stands
in the status bar's room and the page does not move when it comes; a stuck game's banner takes
a room of its own, under the board (beside it on a phone on its side), and neither overlaps the
visible part of any face-up card: the whole top card of a pile, the strip a covered card shows.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from harness import Screen, open_game
from playwright.sync_api import Page, expect
from test_ui_thumb_sizes import SIZES, check_controls, pick, shot, size_id
from ui_helpers import game_key, saved_doc, seed_storage, wait_still

from solitaire import GAMES, Game

GAME_IDS = list(GAMES)

#: The boxes of the given element and of the visible parts of the face-up cards that it
#: overlaps (a card's own box down to the next card's top, in a tableau pile).
OVER = """(sel) => {
  const el = document.querySelector(sel);
  const r = el.getBoundingClientRect();
  const parts = [];
  for (const pile of document.querySelectorAll('#board .pile')) {
    const cards = [...pile.querySelectorAll('.card')];
    const tableau = pile.closest('.tableau') !== null;
    cards.forEach((c, i) => {
      if (c.dataset.face === 'down' || getComputedStyle(c).visibility === 'hidden') return;
      if (!tableau && i !== cards.length - 1) return;  // a stacked pile shows its top card
      const b = c.getBoundingClientRect();
      const next = tableau && i + 1 < cards.length ? cards[i + 1] : null;
      const bottom = next ? next.getBoundingClientRect().top : b.bottom;
      parts.push([c.dataset.card, b.left, b.top, b.right, bottom]);
    });
  }
  const over = parts.filter((p) =>
    p[1] < r.right && r.left < p[3] && p[2] < r.bottom && r.top < p[4]);
  const status = document.getElementById('status').getBoundingClientRect();
  const board = document.getElementById('board').getBoundingClientRect();
  return {box: [r.left, r.top, r.right, r.bottom], over, cards: parts.length,
          status: [status.left, status.top, status.right, status.bottom],
          board: [board.left, board.top, board.right, board.bottom]};
}"""


def inside(box: list[float], room: list[float]) -> bool:
    return (
        box[0] >= room[0] - 0.5
        and box[1] >= room[1] - 0.5
        and box[2] <= room[2] + 0.5
        and box[3] <= room[3] + 0.5
    )


def clear_of_the_cards(page: Page, selector: str, where: str, name: str) -> Any:
    """Once the table is still: the element covers no face-up card's visible part, and there
    are cards to cover (the boxes of ``OVER``); a screenshot ``name`` is taken."""
    wait_still(page)
    got = page.evaluate(OVER, selector)
    shot(page, name)
    assert got["cards"] > 0, where
    assert got["over"] == [], (where, got)
    return got


def board_box(page: Page) -> Any:
    return page.evaluate(
        "(() => { const r = document.getElementById('board')"
        ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()"
    )


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_toast_stands_in_the_status_bar_clear_of_every_card(
    screen_page: Callable[[Screen], Page], size: Screen
) -> None:
    page = screen_page(size)
    open_game(page, "russian", 1)
    toast = page.locator("#toast")
    wait_still(page)
    expect(toast).not_to_have_class(re.compile(r"\bshow\b"))
    before = board_box(page)  # the board's room with no toast
    for game_id in GAME_IDS:
        if game_id == "russian":
            page.locator("#btn-new").click()  # "New deal N. [Undo]"
        else:
            pick(page, game_id)  # "Double Russian Solitaire, deal N. [Undo]"
        expect(toast).to_have_class(re.compile(r"\bshow\b"))
        expect(page.locator("#toast-action")).to_have_text("Undo")
        where = f"{game_id} at {size_id(size)}"
        got = clear_of_the_cards(page, "#toast", where, f"toast-{game_id}-{size_id(size)}")
        assert inside(got["box"], got["status"]), (where, got)
        assert got["board"] == before, (where, got["board"], before)  # nothing moved
        check_controls(page, where)  # the toast's Undo is a thumb's target too
    # its Undo answers: back to the game before
    page.locator("#toast-action").click()
    expect(toast).not_to_have_class(re.compile(r"\bshow\b"))
    page.wait_for_function("document.getElementById('board').dataset.game === 'double-rail'")


#: Per game, a deal whose walk (``stuck_game``) ends stuck, found by trying deals from 1 up.
STUCK_DEALS = {"russian": 1, "double-russian": 22, "double-rail": 36, "double-freecell": 16}


@functools.cache
def stuck_game(game_id: str) -> Game:
    """``STUCK_DEALS[game_id]`` played until no move is left: random moves (seeded by the
    deal) that reach a position not seen before, never out of a cell, into a cell when one
    can be; such a walk cannot go round in circles, so it ends stuck or with nowhere new."""
    deal = STUCK_DEALS[game_id]
    rnd = random.Random(deal)
    game = Game.new(game_id, deal, automove=False)
    seen: set[str] = set()
    while not game.position.is_stuck():
        position = game.position
        seen.add(json.dumps(position.to_json()))
        fresh = [
            move
            for move in position.legal_moves()
            if move.source.kind != "cell"
            and not position.is_pointless(move)
            and json.dumps(position.play(move).to_json()) not in seen
        ]
        assert fresh, f"{game_id} deal {deal}: the walk ends unstuck; find another deal"
        to_cells = [move for move in fresh if move.target.kind == "cell"]
        game.play(rnd.choice(to_cells or fresh))
    return game


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_stuck_banner_takes_its_own_room_clear_of_every_card(
    screen_page: Callable[[Screen], Page], size: Screen
) -> None:
    page = screen_page(size)
    games = {game_id: stuck_game(game_id) for game_id in GAME_IDS}
    seed_storage(page, {game_key(g): saved_doc(game) for g, game in games.items()})
    for game_id, game in games.items():
        open_game(page, game_id, game.deal or 1)
        assert page.evaluate("document.getElementById('board').dataset.status") == "stuck"
        expect(page.locator("#stuck")).to_be_visible()
        where = f"{game_id} at {size_id(size)}"
        got = clear_of_the_cards(page, "#stuck", where, f"stuck-{game_id}-{size_id(size)}")
        box, board = got["box"], got["board"]
        # its own room: under the board, or beside it on a phone on its side
        assert box[1] >= board[3] - 0.5 or box[0] >= board[2] - 0.5, (where, got)
        check_controls(page, where)
