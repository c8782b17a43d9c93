"""One-tap moves as a newcomer meets them on a phone: home first when it is safe, a fast
second tap that waits for the cards to land instead of turning into a silent pick-up, and a
refusal that goes at the next good move."""

from __future__ import annotations

import re

import pytest
from harness import open_game, screenshot
from playwright.sync_api import Page, expect
from test_ui_solver import ANSWERED, QUICK_DEAL, SOLVER_TIMEOUT_MS, hinted
from test_ui_touch import game_with_moves, open_saved, strip_point, tap
from ui_helpers import wait_still, wait_table

from solitaire import Game, Move, Position
from solitaire.piles import FOUNDATION, TABLEAU
from solitaire.web.tap_moves import tap_moves

SHOTS = "/work/wt/shots/taps"
SHOWN = re.compile(r"\bshow\b")


def double_russian_deal_1() -> Game:
    """Double Russian deal 1 with its first A♣ home; the 2♣ on tableau-2 could also go on
    the 3♣ of tableau-9, the other A♣ is still covered on tableau-3."""
    game = Game.new("double-russian", 1, automove=False)
    game.play(Move(TABLEAU[3], FOUNDATION[0]))
    return game


def test_a_tap_sends_the_2_of_clubs_home_and_a_fast_second_tap_waits(phone_page: Page) -> None:
    page = phone_page
    game = double_russian_deal_1()
    open_saved(page, game)
    two = len(game.position.tableau[2]) - 1
    first = tap_moves(game.position, TABLEAU[2], two)[0]
    assert first.target.kind == "foundation"
    x, y = strip_point(page, TABLEAU[2], two)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(150)
    page.touchscreen.tap(x, y)  # while the 2♣ still glides home: under the finger is the 4♥
    game.play(first)
    four = len(game.position.tableau[2]) - 1
    second = tap_moves(game.position, TABLEAU[2], four)
    if second:
        game.play(second[0])
    wait_table(page, game.position)
    wait_still(page)
    assert page.locator("#board .card.selected").count() == 0  # nothing silently picked up
    expect(page.locator("#st-moves")).to_have_text(str(game.move_count))
    if not second:  # the 4♥ has nowhere to go: said, not silent
        expect(page.locator("#toast")).to_contain_text("nowhere to go")
    screenshot(page, f"{SHOTS}/second-tap-390x844.png")


def test_a_refusal_goes_at_the_next_good_move(phone_page: Page) -> None:
    page = phone_page
    game = double_russian_deal_1()
    open_saved(page, game)
    position = game.position
    stuck = next(  # a top card with no place to go
        i
        for i, pile in enumerate(position.tableau)
        if not tap_moves(position, TABLEAU[i], len(pile) - 1)
    )
    tap(page, TABLEAU[stuck], len(position.tableau[stuck]) - 1)
    toast = page.locator("#toast")
    expect(toast).to_have_class(SHOWN)
    expect(toast).to_contain_text("nowhere to go")
    two = len(game.position.tableau[2]) - 1
    tap(page, TABLEAU[2], two)
    game.play(tap_moves(game.position, TABLEAU[2], two)[0])
    wait_table(page, game.position)
    expect(toast).not_to_have_class(SHOWN, timeout=1000)  # not its 2.8 s


@pytest.mark.parametrize("gap_ms", [40, 150])
def test_a_second_tap_during_a_glide_to_a_pile_acts_where_the_cards_land(
    phone_page: Page, gap_ms: int
) -> None:
    """A card tapped onto another pile, then the same point tapped again 150 ms later, while
    the card still glides: the second tap waits until the cards land, then taps what is
    under the finger (the card that was under the first one), never a silent pick-up."""
    page = phone_page

    def builds_first(position: Position, move: Move) -> bool:
        if move.source.kind != "tableau" or move.count != 1:
            return False
        start = len(position.pile(move.source)) - 1
        places = tap_moves(position, move.source, start)
        return (
            bool(places)
            and places[0].target.kind == "tableau"
            and bool(position.pile(places[0].target))
            and position.face_down(move.source) < start
        )

    game = game_with_moves("russian", builds_first)
    open_saved(page, game)
    position = game.position
    move = next(m for m in position.legal_moves() if builds_first(position, m))
    start = len(position.pile(move.source)) - 1
    x, y = strip_point(page, move.source, start)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap_ms)
    page.touchscreen.tap(x, y)
    game.play(tap_moves(position, move.source, start)[0])
    under = len(game.position.pile(move.source)) - 1
    second = tap_moves(game.position, move.source, under)
    if second:
        game.play(second[0])
    wait_table(page, game.position)
    wait_still(page)
    assert page.locator("#board .card.selected").count() == 0
    expect(page.locator("#st-moves")).to_have_text(str(game.move_count))


#: Records each hint ghost as it is added: where it stands then, and the card it copies.
WATCH_GHOSTS = """() => {
  window.ghosts = [];
  new MutationObserver(records => { for (const r of records) for (const n of r.addedNodes)
    if (n.classList && n.classList.contains('hint-ghost')) {
      const b = n.getBoundingClientRect();
      window.ghosts.push({x: b.x, y: b.y, suit: n.dataset.suit || ''});
    }
  }).observe(document.getElementById('board'), {childList: true, subtree: true});
}"""


def test_a_hint_slides_a_ghost_of_its_cards_to_the_target(phone_page: Page) -> None:
    page = phone_page
    open_game(page, "russian", QUICK_DEAL)
    page.evaluate(WATCH_GHOSTS)
    page.locator("#btn-hint").tap()
    page.wait_for_function(ANSWERED, timeout=SOLVER_TIMEOUT_MS)
    state, cards, _ = hinted(page)
    assert state["hint"] == "winning"
    page.wait_for_function("window.ghosts.length > 0", timeout=2000)
    ghosts = page.evaluate("window.ghosts")
    assert len(ghosts) == len(cards)
    lead = page.locator(f'#board .card[data-card="{cards[0]}"]').bounding_box()
    assert lead is not None
    assert abs(ghosts[0]["x"] - lead["x"]) < 2  # it starts over the hinted card
    assert abs(ghosts[0]["y"] - lead["y"]) < 2
    screenshot(page, f"{SHOTS}/hint-ghost-390x844.png")
    expect(page.locator("#board .hint-ghost")).to_have_count(0, timeout=3000)  # gone after
    assert hinted(page)[1] == cards  # the real cards did not move: still marked
    # with reduced motion nothing slides; the marks and the words stay
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("window.ghosts = []")
    page.locator("#btn-hint").tap()
    expect(page.locator("#btn-hint")).to_have_attribute("data-hint-from", "line")
    expect(page.locator("#toast")).to_contain_text("It leads to a win")
    page.wait_for_timeout(300)
    assert page.evaluate("window.ghosts.length") == 0
