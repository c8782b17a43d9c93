"""Each game boots with every non-local request blocked and no console error, shows the deal the
engine deals, keeps the DOM contract (piles, cards, face-down secrecy, accessible names), fits
a 360 px phone without scrolling, and plays a move by click-to-move."""

from __future__ import annotations

import pytest
from harness import open_game
from playwright.sync_api import Page, ViewportSize
from ui_helpers import (
    board,
    card,
    click_card,
    click_pile,
    dom_piles,
    engine_piles,
    tableau_move,
    wait_table,
)

from solitaire import GAMES, Game, Move

PHONE: ViewportSize = {"width": 360, "height": 740}


@pytest.mark.parametrize("game_id", list(GAMES))
def test_game_boots_fits_and_plays_by_click(page: Page, game_id: str) -> None:
    deal = 11
    open_game(page, game_id, deal)
    rules = GAMES[game_id]
    game = Game.new(game_id, deal)

    # the contract of the board element
    assert board(page) == {"game": game_id, "deal": str(deal), "status": "playing"}
    assert dom_piles(page) == engine_piles(game.position)
    assert page.locator("#board .card").count() == 52 * rules.decks

    # face-down cards reveal nothing; face-up cards and piles have accessible names
    secrets = page.evaluate(
        """() => [...document.querySelectorAll('#board [data-face="down"]')].filter(c =>
             c.dataset.card || c.dataset.suit || c.textContent.trim() ||
             c.getAttribute('aria-label') !== 'Face-down card').length"""
    )
    assert secrets == 0
    first = card(page, "tableau-0", -1)
    name = first.get_attribute("data-card")
    assert name is not None
    label = first.get_attribute("aria-label") or ""
    assert " of " in label
    assert label.split(" of ")[1] in ("spades", "hearts", "diamonds", "clubs")
    pile2 = page.locator('#board [data-pile="tableau-1"]').get_attribute("aria-label") or ""
    down = game.position.down[1]
    n = len(game.position.tableau[1])
    assert pile2.startswith(f"Tableau pile 2, {n} card")
    assert (f"{down} face down" in pile2) == (down > 0)
    assert page.locator("#st-deal").inner_text() == str(deal)

    # fits a phone in portrait: no scrolling, every card inside the window, big enough to tap
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    fit = page.evaluate(
        """() => {
          const s = document.scrollingElement;
          const cards = [...document.querySelectorAll('#board .card')].map(
            c => c.getBoundingClientRect());
          return {
            scroll: s.scrollHeight > innerHeight || s.scrollWidth > innerWidth,
            outside: cards.filter(r => r.left < 0 || r.right > innerWidth + 0.5 ||
                                        r.top < 0 || r.bottom > innerHeight + 0.5).length,
            minWidth: Math.min(...cards.map(r => r.width)),
            toolbar: [...document.querySelectorAll('.toolbar > *')].filter(e =>
              e.offsetParent && e.getBoundingClientRect().right > innerWidth + 0.5).length,
          };
        }"""
    )
    assert fit == {"scroll": False, "outside": 0, "minWidth": fit["minWidth"], "toolbar": 0}
    assert fit["minWidth"] >= 30
    page.set_viewport_size({"width": 1280, "height": 800})

    # a move by click-to-move: click a face-up card, then a pile
    if rules.stock:
        click_pile(page, "stock")
        game.play(Move("stock", "waste"))
        wait_table(page, game.position)
        assert page.locator("#st-moves").inner_text() == "1"
    move = tableau_move(game.position)
    source_len = len(game.position.pile(move.source))
    click_card(page, move.source, source_len - move.count)
    assert card(page, move.source, source_len - move.count).get_attribute("class") is not None
    assert "selected" in (card(page, move.source, -1).get_attribute("class") or "")
    assert "target" in (
        page.locator(f'#board [data-pile="{move.target}"]').get_attribute("class") or ""
    )
    click_pile(page, move.target)
    game.play(move)
    wait_table(page, game.position)
    assert page.locator("#board .selected").count() == 0
    assert page.locator("#st-moves").inner_text() == str(game.move_count)
    assert not page.locator("#btn-undo").is_disabled()
    assert page.locator("#live").inner_text().startswith("Moved the ")
