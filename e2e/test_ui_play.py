"""Each game boots with every non-local request blocked and no console error, shows the deal the
engine deals, keeps the DOM contract (piles, cards, face-down secrecy, accessible names), fits
a 360 px phone without scrolling, and plays a move by click-to-move. The card size stays put
while a tall pile shrinks by a card or two, and comes back at a new deal."""

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
    game_key,
    play_by_click,
    saved_doc,
    seed_storage,
    tableau_move,
    wait_still,
    wait_table,
)

from solitaire import GAMES, Game, Move, Position
from solitaire.piles import STOCK, TABLEAU, WASTE

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
        game.play(Move(STOCK, WASTE))
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


def tall_pile_russian() -> Game:
    """Russian (deal 9's number, custom start): 15 face-up cards on the first pile, three more
    than the card size is planned for at a deal (solitaire/web/board.py PLAN), the Five of spades on
    top, the Six of spades on the second pile; every Ace face down (no auto-move)."""
    ranks, suits = "A23456789TJQK", "SHDC"
    tall = [r + "H" for r in ranks[:0:-1]] + ["KD", "QD", "5S"]
    rest = [r + s for s in suits for r in ranks if r + s not in [*tall, "6S"]]
    aces = [c for c in rest if c[0] == "A"]
    others = [c for c in rest if c[0] != "A"]
    tops, downs = others[:5], aces + others[5:]
    sizes = [5, 6, 5, 5, 5, 5]
    piles = [{"down": [], "up": tall}]
    for i, n in enumerate(sizes):
        piles.append({"down": downs[:n], "up": ["6S" if i == 0 else tops[i - 1]]})
        downs = downs[n:]
    doc = {"format": 1, "game": "russian", "deal": 9, "tableau": piles, "foundations": [[]] * 4}
    return Game(Position.from_json(doc))


def test_a_tall_pile_tightens_its_own_fan_and_the_cards_keep_their_size(page: Page) -> None:
    game = tall_pile_russian()
    seed_storage(page, {game_key("russian"): saved_doc(game)})
    open_game(page, "russian", 9)
    wait_table(page, game.position)

    def width() -> float:
        wait_still(page)
        box = card(page, "tableau-3", -1).bounding_box()
        assert box is not None
        return box["width"]

    def fans() -> list[float]:
        """Per tableau pile, the step between its face-up cards (0 for fewer than two)."""
        return page.evaluate(  # type: ignore[no-any-return]
            """() => [...document.querySelectorAll('#board .tableau .pile')].map(p => {
              const up = [...p.querySelectorAll('.card:not([data-face=down])')];
              if (up.length < 2) return 0;
              return up[1].getBoundingClientRect().top - up[0].getBoundingClientRect().top;
            })"""
        )

    # the first pile (15 face-up cards, more than the game's plan of 12) fits the board by
    # tightening its own fan; the other piles keep theirs; every card stays on the board
    tall_fan = fans()[0]
    assert all(tall_fan < f for f in fans()[1:] if f)
    bottom = page.evaluate(
        """() => Math.max(...[...document.querySelectorAll('#board .card')].map(
             c => c.getBoundingClientRect().bottom))"""
    )
    board_box = page.locator("#board").bounding_box()
    assert board_box is not None
    assert bottom <= board_box["y"] + board_box["height"] + 0.5
    before = width()

    # one card off the tall pile, then a new deal: the cards keep their size throughout
    play_by_click(page, game, Move(TABLEAU[0], TABLEAU[1], 1))
    assert width() == before
    page.locator("#btn-new").click()
    page.wait_for_function("() => document.getElementById('board').dataset.deal !== '9'")
    assert width() == before
