"""Moving cards: drag and drop (a group follows the pointer), an illegal drop (cards go back,
the engine's reason is shown, nothing changes), double-click to a foundation, safe auto-moves
(one undo step with their move), keyboard moves, undo/redo by buttons and keys."""

from __future__ import annotations

from harness import open_game
from playwright.sync_api import Page, expect
from ui_helpers import (
    card,
    click_move,
    dom_piles,
    drag,
    engine_piles,
    far_refusal,
    find_deal,
    first_move,
    play_by_click,
    slow_animations,
    tableau_move,
    tableau_moves,
    wait_table,
)

from solitaire import Game, Move, Position
from solitaire.piles import TABLEAU


def _suits_the_tests(position: Position) -> bool:
    """An Ace on a tableau top; a group move; two tableau moves in a row; after the Ace goes
    up, a move that triggers safe auto-moves."""
    if not any(p and p[-1] % 13 == 0 for p in position.tableau):
        return False
    if not any(m.count >= 2 and m.target.kind == "tableau" for m in position.legal_moves()):
        return False
    moves = tableau_moves(position)
    if not moves or not tableau_moves(position.play(moves[0])):
        return False
    ace = next(TABLEAU[i] for i, p in enumerate(position.tableau) if p and p[-1] % 13 == 0)
    after = Game(position)
    after.play(first_move(position, lambda m: m.source == ace and m.target.kind == "foundation"))
    for move in after.position.legal_moves():
        if move.source.kind == "tableau" and len(Game(after.position).play(move)) > 1:
            return True
    return False


#: Indices of a pile's cards whose picture (pips or court art) is shown (a covered card shows
#: its index only).
PIPS_SHOWN = """(pile) => [...document.querySelectorAll(`[data-pile="${pile}"] > .card`)]
  .map((c, i) => [i, [...c.querySelectorAll('.art')].some((art) => art.checkVisibility())])
  .filter(([, shown]) => shown).map(([i]) => i)"""


DEAL = find_deal("russian", _suits_the_tests)
ACE_PILE = next(
    TABLEAU[i]
    for i, p in enumerate(Position.deal_of("russian", DEAL).tableau)
    if p and p[-1] % 13 == 0
)


def test_drag_group_and_illegal_drop(page: Page) -> None:
    open_game(page, "russian", DEAL)
    game = Game.new("russian", DEAL)
    before = dom_piles(page)

    # an illegal drop: the card glides back, the engine's reason is shown, nothing changes
    position = game.position
    source = TABLEAU[6]
    target = next(
        TABLEAU[i]
        for i in range(1, 6)
        if position.why_illegal(Move(source, TABLEAU[i])) is not None
    )
    reason = position.why_illegal(Move(source, target))
    home = card(page, source, -1).bounding_box()
    drag(page, source, len(position.tableau[6]) - 1, target)
    expect(page.locator("#toast")).to_have_class("toast show")
    expect(page.locator("#toast")).to_have_text(str(reason))
    assert dom_piles(page) == before
    page.wait_for_timeout(450)
    assert card(page, source, -1).bounding_box() == home
    assert page.locator("#board .dragging, #board .returning").count() == 0
    assert page.locator("#st-moves").inner_text() == "0"

    # a legal drag of a group of several cards (Russian moves any face-up card with what is on it)
    move = next(m for m in position.legal_moves() if m.count >= 2 and m.target.kind == "tableau")
    start = len(position.pile(move.source)) - move.count
    box = card(page, move.source, start).bounding_box()
    assert box is not None
    n = len(position.pile(move.source))
    assert page.evaluate(PIPS_SHOWN, str(move.source)) == [n - 1]  # only the top card's
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 6)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 30, box["y"] + 40, steps=4)
    # while dragging, the whole group follows the pointer and legal targets are highlighted
    assert page.locator("#board .card.dragging").count() == move.count
    assert page.locator("#board .pile.target").count() >= 1
    # the card the group lay on shows its whole face while the group is away (if face up);
    # in the group, only its top card shows its pip
    under = [start - 1] if start - 1 >= position.down[move.source.index] else []
    assert page.evaluate(PIPS_SHOWN, str(move.source)) == [*under, n - 1]
    page.mouse.up()
    page.wait_for_timeout(50)
    assert page.locator("#board .uncovered").count() == 0
    assert page.evaluate(PIPS_SHOWN, str(move.source)) == [n - 1]
    drag(page, move.source, start, move.target)
    game.play(move)
    wait_table(page, game.position)
    assert page.locator("#st-moves").inner_text() == "1"


def test_double_click_and_safe_automove_undo_as_one_step(page: Page) -> None:
    open_game(page, "russian", DEAL)
    game = Game.new("russian", DEAL)
    ace_pile = ACE_PILE
    card(page, ace_pile, -1).dblclick()
    game.play(
        first_move(game.position, lambda m: m.source == ace_pile and m.target.kind == "foundation")
    )
    wait_table(page, game.position)
    assert any(game.position.foundations)

    # find a move whose safe auto-moves follow it, play it by click, undo it in one step
    position = game.position
    for move in position.legal_moves():
        trial = Game(position)
        if move.source.kind == "tableau" and len(trial.play(move)) > 1:
            break
    else:
        raise AssertionError("the deal has no move with auto-moves after the Ace")
    before = engine_piles(position)
    click_move(page, position, move)
    step = game.play(move)
    assert len(step) > 1
    wait_table(page, game.position)
    assert page.locator("#st-moves").inner_text() == "2"
    page.locator("#btn-undo").click()
    assert dom_piles(page) == before
    assert page.locator("#st-moves").inner_text() == "1"


def test_keyboard_move(page: Page) -> None:
    open_game(page, "russian", DEAL)
    game = Game.new("russian", DEAL)
    move = tableau_move(game.position)
    n = len(game.position.pile(move.source))
    src, dst = move.source.index, move.target.index

    # the table is one tab stop (roving tabindex): Tab from the last toolbar button reaches it
    assert page.locator('#board [tabindex="0"]').count() == 1
    page.locator("#btn-menu").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.getElementById('board').contains(document.activeElement)")
    start = card(page, move.source, n - 1)
    start.focus()
    # Up walks down the pile to the moving card; Enter picks it up
    for _ in range(move.count - 1):
        page.keyboard.press("ArrowUp")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == dom_piles(page)[str(move.source)][n - move.count]
    page.keyboard.press("Enter")
    assert page.locator("#board .card.selected").count() == move.count
    # Escape puts it back; Enter again picks it up
    page.keyboard.press("Escape")
    assert page.locator("#board .card.selected").count() == 0
    page.keyboard.press("Enter")
    key = "ArrowRight" if dst > src else "ArrowLeft"
    for _ in range(abs(dst - src)):
        page.keyboard.press(key)
    pile = page.evaluate("document.activeElement.closest('[data-pile]').dataset.pile")
    assert pile == str(move.target)
    page.keyboard.press("Enter")
    game.play(move)
    wait_table(page, game.position)
    # the focus stays visible on the table, on the pile the cards went to
    pile = page.evaluate("document.activeElement.closest('[data-pile]').dataset.pile")
    assert pile == str(move.target)
    assert page.evaluate("document.activeElement.matches(':focus-visible')")


def test_undo_redo_buttons_and_keys(page: Page) -> None:
    open_game(page, "russian", DEAL)
    game = Game.new("russian", DEAL, automove=True)
    snapshots = [engine_piles(game.position)]
    for _ in range(2):
        play_by_click(page, game, tableau_move(game.position))
        snapshots.append(engine_piles(game.position))
    undo, redo = page.locator("#btn-undo"), page.locator("#btn-redo")
    assert redo.is_disabled()
    undo.click()
    assert dom_piles(page) == snapshots[1]
    page.keyboard.press("Control+z")
    assert dom_piles(page) == snapshots[0]
    assert undo.is_disabled()
    assert not redo.is_disabled()
    page.keyboard.press("Control+Shift+Z")
    wait_table_snapshot(page, snapshots[1])
    page.keyboard.press("Control+y")
    wait_table_snapshot(page, snapshots[2])
    assert redo.is_disabled()
    page.keyboard.press("Control+z")
    redo.click()
    wait_table_snapshot(page, snapshots[2])
    assert page.locator("#st-moves").inner_text() == "2"


def wait_table_snapshot(page: Page, want: dict[str, list[str]]) -> None:
    for _ in range(100):
        if dom_piles(page) == want:
            return
        page.wait_for_timeout(50)
    assert dom_piles(page) == want


def test_a_card_grabbed_while_it_glides_home_drops_where_it_is_dragged(page: Page) -> None:
    """A refused drop far from home, then at once (while the group still glides back) its
    card grabbed where it is and moved by the way from its home to a legal pile: it lands
    there. The drop is judged from the card's home, where the dragged card is drawn, not
    from the point of the glide where it was grabbed."""
    open_game(page, "russian", DEAL)
    game = Game.new("russian", DEAL)
    position = game.position
    move, far = far_refusal(position)
    source, index = move.source, len(position.pile(move.source)) - move.count
    home = card(page, source, index).bounding_box()
    target = card(page, move.target, -1).bounding_box()
    assert home is not None
    assert target is not None
    slow_animations(page, 0.1)  # the glide home takes 2 s; the page cuts it at 320 ms
    drag(page, source, index, far)
    glide = card(page, source, index).bounding_box()  # at once: somewhere on the way home
    assert glide is not None
    x, y = glide["x"] + glide["width"] / 2, glide["y"] + 6
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + target["x"] - home["x"], y + target["y"] - home["y"], steps=6)
    page.mouse.up()
    game.play(move)
    wait_table(page, game.position)
