"""The page on a phone, played with fingers: real touch events (CDP ``Input.dispatchTouchEvent``)
in a 390x844 mobile, touch-enabled context, for every game. Finger drags of a card and of a
group, an illegal finger drop, a card taken again while it glides home, one-tap moves (and a
second tap for the next place), a double-tap to a foundation, and the double-tap that must not
be one; the layout: every face-up card shows at least 36 px at the deal, nothing scrolls, and
the card size never changes while a deal is played, on the phone and on a desktop screen."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from harness import open_game, screenshot, wait_ready
from playwright.sync_api import CDPSession, Page, expect
from ui_helpers import (
    KEY_SETTINGS,
    card,
    coarse_pointer,
    dom_piles,
    far_refusal,
    fresh_table,
    game_key,
    measure_table,
    pile_el,
    saved_doc,
    seed_storage,
    skip_celebration,
    slow_animations,
    tableau_moves,
    wait_still,
    wait_table,
)

from solitaire import GAMES, Game, Move, Position
from solitaire.piles import CELL, TABLEAU, WASTE
from solitaire.web.gestures import TAP_AGAIN_MS
from solitaire.web.tap_moves import tap_moves

GAME_IDS = list(GAMES)


# ----------------------------------------------------------------------------- fingers


def finger(page: Page) -> CDPSession:
    return page.context.new_cdp_session(page)


def touch(cdp: CDPSession, kind: str, x: float, y: float) -> None:
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def strip_point(page: Page, pile: Any, index: int) -> tuple[float, float]:
    """A point on the visible strip at the top of a card."""
    box = card(page, pile, index).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(12.0, box["height"] / 4)


def pile_point(page: Page, pile: Any) -> tuple[float, float]:
    """The middle of a pile's top card (or of the empty slot)."""
    cards = page.locator(f'#board [data-pile="{pile}"] .card')
    n = cards.count()
    box = (cards.nth(n - 1) if n else pile_el(page, pile)).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 40)


def slide(
    cdp: CDPSession,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    steps: int,
    halfway: Callable[[], None] | None = None,
) -> None:
    """A finger down at (x0, y0), moved in ``steps`` equal steps to (x1, y1), lifted there;
    ``halfway`` is called once half the steps are done."""
    touch(cdp, "touchStart", x0, y0)
    for k in range(1, steps + 1):
        touch(cdp, "touchMove", x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
        if k == steps // 2 and halfway is not None:
            halfway()
    touch(cdp, "touchEnd", x1, y1)


def finger_drag(page: Page, source: Any, index: int, target: Any, steps: int = 10) -> None:
    def group_follows() -> None:
        assert page.locator("#board .card.dragging").count() >= 1

    cdp = finger(page)
    x0, y0 = strip_point(page, source, index)
    x1, y1 = pile_point(page, target)
    slide(cdp, x0, y0, x1, y1, steps, group_follows)
    cdp.detach()


def tap(page: Page, pile: Any, index: int) -> None:
    x, y = strip_point(page, pile, index)
    page.touchscreen.tap(x, y)


def double_tap(page: Page, pile: Any, index: int) -> None:
    """Two taps on one card, 100 ms apart."""
    x, y = strip_point(page, pile, index)
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(100)
    page.touchscreen.tap(x, y)


# ----------------------------------------------------------------------------- positions


def game_with_moves(game_id: str, want: Any, seed: int = 1) -> Game:
    """A game of ``game_id`` played by a seeded random player (no auto-moves) until its
    position has a move for which ``want(position, move)`` is true."""
    rng = random.Random(seed)
    for deal in range(1, 200):
        game = Game.new(game_id, deal, automove=False)
        for _ in range(150):
            position = game.position
            if any(want(position, m) for m in position.legal_moves()):
                return game
            moves = position.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
    raise AssertionError(f"no {game_id} game found with such a move")


def onto_pile(position: Position, move: Move, group: bool) -> bool:
    return (
        move.source.kind == "tableau"
        and move.target.kind == "tableau"
        and bool(position.pile(move.target))
        and (move.count >= 2) == group
    )


NO_AUTOMOVE = {"automove": False, "fourColor": False, "theme": "system", "winnableOnly": False}
TAP_TO_SELECT = NO_AUTOMOVE | {"tapMove": False}


def open_saved(page: Page, game: Game, settings: dict[str, Any] | None = None) -> None:
    """Open ``game`` from a save; auto-moves off (as in the engine's copy) unless ``settings``
    say otherwise."""
    items = {
        game_key(game.game_id): saved_doc(game),
        KEY_SETTINGS: json.dumps(settings or NO_AUTOMOVE),
    }
    seed_storage(page, items)
    open_game(page, game.game_id, game.deal or 1)
    wait_table(page, game.position)
    # The solver's worker starts once the page is idle after ready; its start can hold the
    # main thread for a moment, which would stretch the gap between a double-tap's two taps.
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement.dataset.solver)",
        timeout=90_000,
    )


# ----------------------------------------------------------------------------- drags


def test_a_tap_on_undo_right_after_a_flicked_card_undoes_it(phone_page: Page) -> None:
    """A card flicked fast to a free cell (released while still moving, as a quick finger
    does), then at once a tap on Undo: the card comes back, every time. Chromium takes such a
    flick for a fling even under ``touch-action: none``, and without the board's
    default-prevented ``touchmove`` the tap after it only stopped that fling: no click, and
    Undo did nothing (12 of 20 taps 300 ms after a flick)."""
    page = phone_page
    open_game(page, "double-freecell", 1)
    game = Game.new("double-freecell", 1)  # with the safe auto-moves, as the page plays
    start = game.position
    wait_table(page, start)
    undo = page.locator("#btn-undo")
    cdp = finger(page)
    for pile in range(6):
        wait_still(page)
        x0, y0 = strip_point(page, TABLEAU[pile], len(start.tableau[pile]) - 1)
        x1, y1 = pile_point(page, "cell-0")
        slide(cdp, x0, y0, x1, y1, steps=5)  # no pause before the finger lifts
        game.play(Move(TABLEAU[pile], CELL[0]))
        wait_table(page, game.position)
        box = undo.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        game.undo()
        wait_table(page, start, timeout=2.0)
    cdp.detach()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_finger_drags_a_card_and_a_group(phone_page: Page, game_id: str) -> None:
    page = phone_page
    game = game_with_moves(game_id, lambda p, m: onto_pile(p, m, group=True))
    open_saved(page, game)
    assert coarse_pointer(page)
    move = next(m for m in game.position.legal_moves() if onto_pile(game.position, m, True))
    start = len(game.position.pile(move.source)) - move.count
    finger_drag(page, move.source, start, move.target)
    game.play(move)
    wait_table(page, game.position)
    wait_still(page)  # the next finger lands where the cards are, not where they are going
    single = [m for m in game.position.legal_moves() if onto_pile(game.position, m, False)]
    if single:
        move = single[0]
        finger_drag(page, move.source, len(game.position.pile(move.source)) - 1, move.target)
        game.play(move)
        wait_table(page, game.position)
    assert page.locator("#st-moves").inner_text() == str(game.move_count)
    assert page.locator("#board .dragging, #board.has-drag").count() == 0


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_illegal_finger_drop_glides_back_and_says_why(phone_page: Page, game_id: str) -> None:
    page = phone_page
    # record the page's vibrations (on by default on a touch screen)
    page.add_init_script(
        "window.buzzes = []; navigator.vibrate = (ms) => { window.buzzes.push(ms); return true; };"
    )
    game = Game.new(game_id, 3, automove=False)
    open_saved(page, game)
    position = game.position
    source = TABLEAU[0]
    target = next(
        TABLEAU[i]
        for i in range(1, len(position.tableau))
        if position.pile(TABLEAU[i]) and position.why_illegal(Move(source, TABLEAU[i])) is not None
    )
    before = dom_piles(page)
    finger_drag(page, source, len(position.pile(source)) - 1, target)
    expect(page.locator("#toast")).to_have_text(str(position.why_illegal(Move(source, target))))
    page.wait_for_timeout(400)
    assert dom_piles(page) == before
    assert page.locator("#st-moves").inner_text() == "0"
    assert page.evaluate("window.buzzes") == [30]


def test_a_card_taken_by_the_finger_while_it_glides_home_lands_where_it_is_dragged(
    phone_page: Page,
) -> None:
    """A refused finger drop far from home, then at once (while the group still glides back)
    the finger takes its card where it is and moves it by the way from its home to a legal
    pile: it lands there (the drop is judged from the card's home, as with the mouse)."""
    page = phone_page
    game = Game.new("russian", 1)
    open_game(page, "russian", 1)
    position = game.position
    move, far = far_refusal(position)
    index = len(position.pile(move.source)) - move.count
    home = card(page, move.source, index).bounding_box()
    target = card(page, move.target, -1).bounding_box()
    assert home is not None
    assert target is not None
    x0, y0 = strip_point(page, move.source, index)
    x1, y1 = pile_point(page, far)
    page.evaluate(CAUGHT_GLIDING)
    cdp = finger(page)  # one session for both: the second press must come within 320 ms
    slow_animations(page, 0.1)  # the glide home takes 2 s; the page cuts it at 320 ms
    slide(cdp, x0, y0, x1, y1, 10)
    # at once, in one round trip of the same session (a locator's box takes several, and a
    # busy machine then misses the 320 ms): where the card is on its way home
    glide = cdp.send(
        "Runtime.evaluate",
        {"expression": GLIDE_BOX % (move.source, index), "returnByValue": True},
    )["result"]["value"]
    x, y = glide["x"] + glide["width"] / 2, glide["y"] + 6
    slide(cdp, x, y, x + target["x"] - home["x"], y + target["y"] - home["y"], 6)
    cdp.detach()
    assert page.evaluate("window.caughtGliding"), "the press came after the glide ended"
    game.play(move)
    wait_table(page, game.position)


#: The box of card ``index`` of a pile, as a JSON-able object.
GLIDE_BOX = """(() => {
  const r = document.querySelectorAll('#board [data-pile="%s"] .card')[%d]
    .getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height};
})()"""

#: Records whether the latest touch started on a card still gliding home (class "returning").
CAUGHT_GLIDING = """() => {
  window.caughtGliding = null;
  document.addEventListener('touchstart', (e) => {
    const el = e.target.closest && e.target.closest('.card');
    window.caughtGliding = !!(el && el.classList.contains('returning'));
  }, {capture: true});
}"""


# ----------------------------------------------------------------------------- taps


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_one_tap_moves_and_a_second_tap_tries_the_next_place(
    phone_page: Page, game_id: str
) -> None:
    page = phone_page

    def two_places(position: Position, move: Move) -> bool:
        if move.source.kind != "tableau":
            return False
        start = len(position.pile(move.source)) - move.count
        return len(tap_moves(position, move.source, start)) >= 2

    game = game_with_moves(game_id, two_places)
    open_saved(page, game)  # "Tap a card to move it" is on by default on a touch screen
    position = game.position
    move = next(m for m in position.legal_moves() if two_places(position, m))
    start = len(position.pile(move.source)) - move.count
    first, second = tap_moves(position, move.source, start)[:2]
    lead = position.pile(move.source)[start]
    first_tap_ms = page.evaluate("performance.now()")
    tap(page, move.source, start)
    game.play(first)
    wait_table(page, game.position)
    # the same card, tapped again where it came to rest (read mid-glide, the point can be
    # behind it by the time the tap lands): on to the next place, as one move
    wait_still(page)
    index = game.position.pile(first.target).index(lead)
    gap_ms = page.evaluate("performance.now()") - first_tap_ms
    tap(page, first.target, index)
    game.undo()
    game.play(second)
    try:
        wait_table(page, game.position)
    except AssertionError as missed:
        said = page.locator("#live").inner_text(), page.locator("#toast-text").inner_text()
        raise AssertionError(
            f"{missed}; the second tap came {gap_ms:.0f} ms after the first "
            f"(window {TAP_AGAIN_MS} ms); the page said {said}"
        ) from None
    assert page.locator("#st-moves").inner_text() == str(game.move_count)  # one move, not two


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_double_tap_sends_a_card_to_its_foundation(phone_page: Page, game_id: str) -> None:
    page = phone_page

    def to_foundation(position: Position, move: Move) -> bool:
        return move.source.kind == "tableau" and move.target.kind == "foundation"

    game = game_with_moves(game_id, to_foundation)
    open_saved(page, game, TAP_TO_SELECT)
    move = next(m for m in game.position.legal_moves() if to_foundation(game.position, m))
    double_tap(page, move.source, len(game.position.pile(move.source)) - 1)
    game.play(move)
    wait_table(page, game.position)


def test_a_tap_that_moved_cards_starts_no_double_tap(phone_page: Page) -> None:
    """Tap a group's card, tap its target (the move happens), tap the target card again at
    once: that picks up the new group; it is not a double-tap."""
    page = phone_page
    game = game_with_moves("russian", lambda p, m: onto_pile(p, m, group=True))
    open_saved(page, game, TAP_TO_SELECT)
    position = game.position
    move = next(m for m in position.legal_moves() if onto_pile(position, m, True))
    start = len(position.pile(move.source)) - move.count
    target_top = len(position.pile(move.target)) - 1
    tap(page, move.source, start)
    assert page.locator("#board .card.selected").count() == move.count
    double_tap(page, move.target, target_top)  # the first of the two moves the group
    game.play(move)
    wait_table(page, game.position)
    assert page.locator("#board .card.selected").count() == move.count + 1
    expect(page.locator("#toast")).not_to_have_class("toast show")


# ----------------------------------------------------------------------------- layout


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_face_up_card_shows_36_px_at_the_deal(shared_phone_page: Page, game_id: str) -> None:
    fresh_table(shared_phone_page, game_id, 5)
    wait_still(shared_phone_page)
    table = measure_table(shared_phone_page)
    assert table["leastFaceUpStrip"] >= 36 - 0.5
    assert not table["scrolls"]


def card_width(page: Page) -> float:
    box = page.locator("#board .card").first.bounding_box()
    assert box is not None
    return round(box["width"], 2)


def redo_through(page: Page, game_id: str) -> list[float]:
    """50 random moves of a game, saved and undone, then redone one by one with Ctrl+Y
    (each is a real step on the board): the card width after each. The moves stop short of
    a stuck position: the stuck banner takes a room of its own from the board
    (docs/ui-layout.md), so a game that is over may have smaller cards."""
    rng = random.Random(game_id)
    game = Game.new(game_id, 11, automove=True)
    for _ in range(50):
        moves = game.position.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        if game.position.is_stuck():
            game.undo()
            break
    played = game.move_count
    while game.undo() is not None:
        pass
    seed_storage(page, {game_key(game_id): saved_doc(game)})
    open_game(page, game_id, 11)
    widths = [card_width(page)]
    for _ in range(played):
        page.keyboard.press("Control+y")
        widths.append(card_width(page))
    wait_still(page)
    assert page.locator("#st-moves").inner_text() == str(played)
    return widths


@pytest.mark.parametrize("screen", ["phone_page", "page"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_card_size_holds_through_50_moves(
    request: pytest.FixtureRequest, screen: str, game_id: str
) -> None:
    """On the phone (390x844) and on a desktop screen (1440x900)."""
    page: Page = request.getfixturevalue(screen)
    if screen == "page":
        page.set_viewport_size({"width": 1440, "height": 900})
    widths = redo_through(page, game_id)
    assert len(set(widths)) == 1, widths


def test_reload_keeps_the_phone_layout(phone_page: Page) -> None:
    open_game(phone_page, "double-russian", 2)
    width = card_width(phone_page)
    phone_page.reload(wait_until="domcontentloaded")
    wait_ready(phone_page)
    assert card_width(phone_page) == width


def pick_game(page: Page, game_id: str) -> None:
    """Choose ``game_id`` in the toolbar's picker and wait for its table."""
    page.locator("#game-select").select_option(game_id)
    page.wait_for_function(f"document.getElementById('board').dataset.game === '{game_id}'")


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


#: Whether the picker's chosen name fits inside it: its text measured in the select's own
#: font, against the select's content box less the arrow.
NAME_FITS = """() => {
  const select = document.getElementById('game-select');
  const style = getComputedStyle(select);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const text = select.options[select.selectedIndex].text;
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [text, ctx.measureText(text).width, room, parseFloat(style.paddingRight)];
}"""


@pytest.mark.parametrize(
    "size", [(320, 568), (360, 640), (390, 844), (844, 390), (1440, 900)], ids=size_id
)
def test_game_names_are_never_cut(shared_phone_page: Page, size: tuple[int, int]) -> None:
    page = shared_phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    fresh_table(page, "russian", 1)
    for game_id, rules in GAMES.items():
        pick_game(page, game_id)
        text, width, room, arrow = page.evaluate(NAME_FITS)
        assert text == rules.short_name
        assert width <= room + 0.5, (text, width, room)
        # the picker's own chevron (appearance: none) is drawn in its right padding
        assert arrow >= 16, (text, arrow)
        overflow = page.evaluate(
            "[...document.querySelectorAll('.toolbar > *')].filter(e => e.offsetParent &&"
            " e.getBoundingClientRect().right > innerWidth + 0.5).length"
        )
        assert overflow == 0


#: The toolbar's shown controls (Hint and Finish both shown: the widest it gets): how many
#: rows they take, and how many run off the screen; whether the board is clear of it (below
#: it, or above it on an upright phone).
TOOLBAR_ROWS = """() => {
  const byId = id => document.getElementById(id);
  const hidden = ['btn-hint', 'btn-finish'].map(id => byId(id).hidden);
  for (const id of ['btn-hint', 'btn-finish']) byId(id).hidden = false;
  const controls = [...document.querySelectorAll('.toolbar > :not(.spacer)')]
    .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect());
  const toolbar = document.querySelector('.toolbar').getBoundingClientRect();
  const board = byId('board').getBoundingClientRect();
  const got = {
    rows: new Set(controls.map(r => Math.round(r.top))).size,
    off_screen: controls.filter(r => r.left < 0 || r.right > innerWidth + 0.5).length,
    board_clear: board.top >= toolbar.bottom - 0.5 || board.bottom <= toolbar.top + 0.5 ||
                 board.left >= toolbar.right - 0.5,
    scrolls: document.scrollingElement.scrollWidth > innerWidth,
  };
  ['btn-hint', 'btn-finish'].forEach((id, i) => { byId(id).hidden = hidden[i]; });
  return got;
}"""


@pytest.mark.parametrize(
    "size",
    [(260, 563), (288, 624), (320, 568), (360, 640), (390, 844), (844, 390), (1440, 900)],
    ids=size_id,
)
def test_every_toolbar_control_stays_on_screen_even_zoomed(
    shared_phone_page: Page, size: tuple[int, int]
) -> None:
    """Every control on screen, clear of the board: up to 600 px wide (a phone, one zoomed
    too: Chrome's page zoom makes 390 px at 150 % 260 CSS px) the toolbar is two rows of
    thumb-sized buttons, on a phone on its side a column of four rows beside the table (the
    picker, then two buttons a row), wider one row; its menu opens by a tap."""
    page = shared_phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    fresh_table(page, "russian", 1)
    for game_id in GAMES:
        pick_game(page, game_id)
        got = page.evaluate(TOOLBAR_ROWS)
        side = size[0] > size[1] and size[1] <= 500
        rows = 4 if side else 2 if size[0] <= 600 else 1
        assert got == {"rows": rows, "off_screen": 0, "board_clear": True, "scrolls": False}
    page.locator("#btn-menu").tap()
    expect(page.locator("#menu")).to_be_visible()
    menu = page.evaluate(BARS)["menu"]
    assert (menu["on_screen"], menu["over_toolbar"]) == (True, False), menu


#: Where the toolbar, the status line, the board and the open menu stand (px from the top),
#: and the span of the toolbar's shown buttons and of the status line's shown figures.
BARS = """() => {
  const box = e => e.getBoundingClientRect();
  const span = els => {
    const rs = els.filter(e => e.offsetParent !== null).map(box);
    return [Math.min(...rs.map(r => r.top)), Math.max(...rs.map(r => r.bottom))];
  };
  const toolbarEl = document.querySelector('.toolbar');
  const statusEl = document.getElementById('status');
  const toolbar = box(toolbarEl);
  const status = box(statusEl);
  const board = box(document.getElementById('board'));
  const menuEl = document.getElementById('menu');
  const menu = menuEl.matches(':popover-open') ? box(menuEl) : null;
  return {
    toolbar: [Math.round(toolbar.top), Math.round(toolbar.bottom)],
    toolbar_right: Math.round(toolbar.right),
    board_left: Math.round(board.left),
    status: [Math.round(status.top), Math.round(status.bottom)],
    board: [Math.round(board.top), Math.round(board.bottom)],
    buttons: span([...toolbarEl.children]),
    texts: span([...statusEl.children].filter(e => e.id !== 'toast')),
    height: innerHeight,
    menu: menu && {
      on_screen: menu.top >= 0 && menu.bottom <= innerHeight + 0.5 &&
                 menu.left >= 0 && menu.right <= innerWidth + 0.5,
      over_toolbar: menu.top < toolbar.bottom - 0.5 && menu.bottom > toolbar.top + 0.5 &&
                    menu.left < toolbar.right - 0.5 && menu.right > toolbar.left + 0.5,
      above_toolbar: menu.bottom <= toolbar.top + 0.5,
    },
  };
}"""


@pytest.mark.parametrize("size", [(390, 844), (360, 640), (288, 624), (844, 390)], ids=size_id)
def test_an_upright_phone_has_its_buttons_at_the_bottom(
    shared_phone_page: Page, size: tuple[int, int]
) -> None:
    """Held upright, a phone has the buttons along the bottom edge, under the thumb, the
    status line along the top and the table between; the menu opens upwards from its button,
    whole and clear of the toolbar, and its items and Undo work by a tap. On its side the
    toolbar is a column on the left, beside the table."""
    page = shared_phone_page
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    fresh_table(page, "russian", 1)
    got = page.evaluate(BARS)
    upright = height > width
    if upright:
        assert got["toolbar"][1] == height, got
        assert got["status"][0] == 0, got
        assert got["status"][1] <= got["board"][0], got
        assert got["board"][1] <= got["toolbar"][0], got
    else:
        assert got["toolbar"][0] == 0, got
        assert got["board_left"] >= got["toolbar_right"], got
    # a one-tap move, then Undo at the bottom takes it back
    game = Game.new("russian", 1)
    move = tableau_moves(game.position)[0]
    start = len(game.position.pile(move.source)) - move.count
    played = tap_moves(game.position, move.source, start)[0]
    tap(page, move.source, start)
    game.play(played)
    wait_table(page, game.position)
    page.locator("#btn-undo").tap()
    game.undo()
    wait_table(page, game.position)
    page.locator("#btn-menu").tap()
    expect(page.locator("#menu")).to_be_visible()
    menu = page.evaluate(BARS)["menu"]
    assert menu == {"on_screen": True, "over_toolbar": False, "above_toolbar": upright}
    page.locator("#menu [data-action='stats']").tap()
    expect(page.locator("#dlg-stats")).to_be_visible()


#: Where Double Rail's piles, the toolbar and the toast are drawn ([left, top, right, bottom]).
RAIL_PLACES = """() => {
  const r = (el) => {
    const b = el.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const pile = (name) => r(document.querySelector(`#board [data-pile="${name}"]`));
  return {stock: pile('stock'), waste: pile('waste'),
          tableau: [0, 1, 2, 3, 4].map(i => pile('tableau-' + i)),
          foundations: [0, 1, 2, 3, 4, 5, 6, 7].map(i => pile('foundation-' + i)),
          board: r(document.getElementById('board')),
          toolbar: r(document.querySelector('.toolbar')),
          toast: r(document.getElementById('toast')),
          cardWidth: document.querySelector('#board .card').getBoundingClientRect().width};
}"""


def rail_on_the_table(page: Page, size: tuple[int, int]) -> tuple[Game, dict[str, Any]]:
    """A Double Rail game whose waste card can go onto a tableau pile, open on a screen of
    ``size``, and where its piles are drawn."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = game_with_moves(
        "double-rail", lambda p, m: m.source.kind == "waste" and m.target.kind == "tableau"
    )
    open_saved(page, game)
    return game, page.evaluate(RAIL_PLACES)


@pytest.mark.parametrize("size", [(390, 844), (360, 780)], ids=size_id)
def test_double_rail_on_an_upright_phone_deals_from_the_bottom(
    phone_page: Page, size: tuple[int, int]
) -> None:
    """Held upright, a phone has Double Rail's stock and waste in a row of their own at the
    bottom of the table, just above the toolbar, the stock on the right, where the thumb deals
    (a hundred taps a game); the foundations in two rows of four at the top, so the cards are
    wider than six columns would allow. A tap deals, a finger drags the waste card up, a
    refused drop's toast stays clear of the stock, and the arrow keys go down to it."""
    page = phone_page
    game, got = rail_on_the_table(page, size)
    stock, waste, board, toolbar = got["stock"], got["waste"], got["board"], got["toolbar"]
    assert all(t[3] <= waste[1] for t in got["tableau"]), got
    assert stock[1] == waste[1], got
    assert waste[2] <= stock[0], got
    assert 0 <= board[3] - stock[3] <= 13, got  # the board's gap
    assert board[3] <= toolbar[1], got
    assert abs(stock[2] - got["tableau"][4][2]) < 1, got  # the right-hand column
    assert all(f[3] <= got["tableau"][0][1] for f in got["foundations"]), got
    assert len({f[1] for f in got["foundations"]}) == 2, got
    six = (board[2] - board[0]) * (1 - 7 * 0.0075) / 6  # six columns and their gaps
    assert got["cardWidth"] > six, got
    # the waste card by a finger onto its tableau pile
    position = game.position
    move = next(m for m in position.legal_moves() if m.source.kind == "waste")
    finger_drag(page, "waste", len(position.pile(move.source)) - 1, move.target)
    game.play(move)
    wait_table(page, game.position)
    # a tap on the stock deals
    x, y = pile_point(page, "stock")
    page.touchscreen.tap(x, y)
    game.play(next(m for m in game.position.legal_moves() if m.source.kind == "stock"))
    wait_table(page, game.position)
    # the waste card dropped where it may not go: the toast says why, in the status bar
    position = game.position
    target = next(
        t
        for t in TABLEAU[: len(position.tableau)]
        if position.why_illegal(Move(WASTE, t)) is not None
    )
    finger_drag(page, "waste", len(position.pile(WASTE)) - 1, target)
    expect(page.locator("#toast")).to_have_text(str(position.why_illegal(Move(WASTE, target))))
    toast = page.evaluate(RAIL_PLACES)["toast"]
    assert toast[3] <= stock[1], (toast, stock)
    # the keyboard: down from the tableau to the nearest of waste and stock, up again
    page.keyboard.press("Escape")
    page.locator("#board [data-pile='tableau-4'] .card").last.focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.closest('[data-pile]').dataset.pile") == "stock"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.closest('[data-pile]').dataset.pile") == "waste"
    page.keyboard.press("ArrowUp")
    assert (
        page.evaluate("document.activeElement.closest('[data-pile]').dataset.pile") == "tableau-3"
    )


def test_fast_taps_on_the_stock_each_deal(phone_page: Page) -> None:
    """A finger dealing fast (taps 40 ms apart) taps the stock again while the card it just
    dealt still lies over it on its way to the waste: every tap deals all the same."""
    page = phone_page
    game = Game.new("double-rail", 2, automove=False)
    open_saved(page, game)
    x, y = pile_point(page, "stock")
    for _ in range(12):
        page.touchscreen.tap(x, y)
        page.wait_for_timeout(40)
    for _ in range(12):
        game.play(next(m for m in game.position.legal_moves() if m.source.kind == "stock"))
    wait_table(page, game.position)
    expect(page.locator("#st-moves")).to_have_text("12")


@pytest.mark.parametrize(
    ("screen", "size"),
    [("page", (390, 844)), ("phone_page", (844, 390)), ("phone_page", (360, 640))],
    ids=["mouse", "on-its-side", "short-upright"],
)
def test_double_rail_keeps_its_stock_at_the_top_off_a_tall_upright_phone(
    request: pytest.FixtureRequest, screen: str, size: tuple[int, int]
) -> None:
    """The stock at the bottom is for a thumb on a tall upright phone: a mouse's narrow window
    has it at the top left, a phone on its side at the top of the side columns, and a short
    upright phone (360x640), where a row of its own would make the cards smaller, at the top
    left."""
    page: Page = request.getfixturevalue(screen)
    _, got = rail_on_the_table(page, size)
    assert all(got["stock"][1] <= t[1] + 1 for t in got["tableau"]), got


def test_the_bars_of_an_upright_phone_run_into_its_safe_areas(phone_page: Page) -> None:
    """A phone with a notch and a home indicator (safe areas of 47 and 34 px): the toolbar's
    colour runs down under the home indicator and the status line's up under the notch, as a
    phone app's bars do, while the buttons and the figures stay clear of both; the menu opens
    just above the buttons."""
    page = phone_page
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Emulation.setSafeAreaInsetsOverride",
        {"insets": {"top": 47, "bottom": 34, "left": 0, "right": 0}},
    )
    open_game(page, "russian", 1)
    got = page.evaluate(BARS)
    height = got["height"]
    assert got["toolbar"][1] == height, got
    assert got["buttons"][1] <= height - 34, got
    assert got["toolbar"][0] <= got["buttons"][0] - 4, got
    assert got["status"][0] == 0, got
    assert got["texts"][0] >= 47, got
    page.locator("#btn-menu").tap()
    expect(page.locator("#menu")).to_be_visible()
    menu = page.evaluate(BARS)["menu"]
    assert menu == {"on_screen": True, "over_toolbar": False, "above_toolbar": True}, menu
    cdp.detach()


def test_a_desktop_window_as_narrow_as_a_phone_keeps_the_toolbar_at_the_top(page: Page) -> None:
    """The bottom toolbar is for a thumb: a mouse in a narrow, tall window finds the
    buttons at the top, where a desktop page has them."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_game(page, "russian", 1)
    assert not coarse_pointer(page)
    got = page.evaluate(BARS)
    assert got["toolbar"][0] == 0, got
    assert got["status"][1] == got["height"], got
    page.locator("#btn-menu").click()
    menu = page.evaluate(BARS)["menu"]
    assert menu == {"on_screen": True, "over_toolbar": False, "above_toolbar": False}


#: Face-up cards whose corner index runs past the card's right edge (half a pixel allowed).
INDEX_OVERFLOW = """() => [...document.querySelectorAll('#board .card .ix:not(.br)')]
  .filter(ix => ix.offsetParent !== null &&
    ix.getBoundingClientRect().right > ix.closest('.card').getBoundingClientRect().right + 0.5)
  .map(ix => ix.closest('.card').getAttribute('aria-label'))"""


@pytest.mark.parametrize("size", [(260, 563), (288, 624), (320, 568), (390, 844)], ids=size_id)
def test_every_card_index_fits_its_card(shared_phone_page: Page, size: tuple[int, int]) -> None:
    """A ten's "10" and suit stay on the card down to 24 px cards (Double Russian and Double
    FreeCell at 260 px, a 390 px phone zoomed to 150 %)."""
    page = shared_phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    fresh_table(page, "double-freecell", 1)  # every card face up, eight tens among them
    assert len(page.evaluate("[...document.querySelectorAll('#board .r.ten')]")) == 16
    for game_id in GAMES:
        pick_game(page, game_id)
        assert page.evaluate(INDEX_OVERFLOW) == []


#: The status line's shown parts against its box and the toolbar's controls. With ``long``,
#: first the longest a played game shows (three-digit moves, an hour on the clock, the
#: winnable mark) and the widest toolbar (hint and finish shown), measured and put back
#: before the page renders again.
STATUS_FITS = """(long) => {
  const byId = id => document.getElementById(id);
  const kept = ['st-moves', 'st-time'].map(id => byId(id).textContent);
  const hidden = ['st-winnable', 'btn-hint', 'btn-finish'].map(id => byId(id).hidden);
  if (long) {
    byId('st-moves').textContent = '999';
    byId('st-time').textContent = '1:23:45';
    for (const id of ['st-winnable', 'btn-hint', 'btn-finish']) byId(id).hidden = false;
  }
  const status = document.getElementById('status');
  const box = status.getBoundingClientRect();
  const parts = [...status.children].filter(e => e.offsetParent !== null && e.id !== 'toast');
  const rects = parts.map(e => e.getBoundingClientRect());
  const controls = [...document.querySelectorAll('.toolbar > :not(.spacer)')]
    .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect());
  const toolbar = document.querySelector('.toolbar').getBoundingClientRect();
  const overlaps = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const got = {
    parts: parts.map(e => e.textContent.trim()),
    cut: rects.filter(r => r.left < box.left - 0.5 || r.right > box.right + 0.5 ||
                           r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5).length,
    over_controls: rects.filter(r => controls.some(c => overlaps(r, c))).length,
    off_screen: rects.filter(r => r.left < 0 || r.right > innerWidth).length,
    controls_off_screen: controls.filter(c => c.right > toolbar.right + 0.5).length,
  };
  ['st-moves', 'st-time'].forEach((id, i) => { byId(id).textContent = kept[i]; });
  ['st-winnable', 'btn-hint', 'btn-finish'].forEach((id, i) => { byId(id).hidden = hidden[i]; });
  return got;
}"""


@pytest.mark.parametrize(
    "size",
    [
        (320, 568),
        (360, 640),
        (390, 844),
        (568, 320),
        (640, 360),
        (667, 375),
        (844, 390),
        (1440, 900),
    ],
    ids=size_id,
)
def test_the_status_line_is_never_cut_nor_under_the_buttons(
    shared_phone_page: Page, size: tuple[int, int]
) -> None:
    """Phones upright and on their side, and a desktop: for every game at a four-digit deal,
    then with a long game's figures and every toolbar button shown, each part of the status
    line (deal, moves, time, winnable) shows whole, on screen and clear of the toolbar's
    buttons, and every button is on screen. Where the picker is narrow the status leaves the
    game's name to it."""
    page = shared_phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    fresh_table(page, next(iter(GAMES)), 4457)
    for game_id, rules in GAMES.items():
        open_game(page, game_id, 4457)
        page.wait_for_function(
            f"document.getElementById('board').dataset.game === '{game_id}'"
            " && document.getElementById('board').dataset.deal === '4457'"
        )
        for long in (False, True):
            got = page.evaluate(STATUS_FITS, long)
            assert "Deal 4457" in got["parts"], (game_id, size, got)
            faults = ("cut", "over_controls", "off_screen", "controls_off_screen")
            assert [got[k] for k in faults] == [0, 0, 0, 0], (game_id, size, long, got)
            named = rules.name in got["parts"]
            assert named == (size == (1440, 900)), (game_id, size, got)
        if game_id == "double-freecell":
            screenshot(page, f"/tmp/status-{size[0]}x{size[1]}.png")


#: The status line's height and the table's (CSS px).
HEIGHTS = """() => ['status', 'table'].map(id =>
  document.getElementById(id).getBoundingClientRect().height)"""


@pytest.mark.parametrize(
    ("size", "deal"),
    [((320, 568), 77), ((320, 568), 4457), ((360, 640), 4457), ((390, 844), 4457)],
    ids=["320x568-77", "320x568-4457", "360x640-4457", "390x844-4457"],
)
def test_the_status_line_keeps_its_height_as_a_game_goes_on(
    phone_page: Page, size: tuple[int, int], deal: int
) -> None:
    """A winnable Double Russian deal at 99 moves and 9:58: one more move by a tap, and the
    clock past 10:00, leave the status line's height, and so the table's, as they were. At
    360 px the line wrapped then, which shortened the table mid-game and made its tallest pile
    jump (the narrow screen's tighter gaps were overridden by the base rule); at 320 px a short
    deal number's line keeps room for the longer figures from the start."""
    page = phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    rng = random.Random(7)
    game = Game.new("double-russian", deal, automove=False)
    while game.move_count < 99:
        game.play(rng.choice(game.position.legal_moves()))
    game.elapsed = 598.0
    open_saved(page, game)
    expect(page.locator("#st-winnable")).to_be_visible()
    expect(page.locator("#st-moves")).to_have_text("99")
    before = page.evaluate(HEIGHTS)
    move = next(m for m in game.position.legal_moves() if m.source.kind == "tableau")
    tap(page, move.source, len(game.position.pile(move.source)) - move.count)
    expect(page.locator("#st-moves")).to_have_text("100")
    expect(page.locator("#st-time")).to_have_text(re.compile(r"^10:0\d$"), timeout=10_000)
    assert page.evaluate(HEIGHTS) == before


#: The open dialog's button bar: opaque, down to the dialog's bottom edge, every other part
#: of the dialog above it once scrolled to the end, and no scrolling where all of it fits;
#: how far above the dialog's bottom edge its buttons end as it opens.
DIALOG_BAR = """() => {
  const dialog = document.querySelector('dialog[open]');
  const bar = dialog.querySelector('.dialog-actions');
  const fits = dialog.scrollHeight <= dialog.clientHeight;
  const buttons = [...bar.querySelectorAll('button')].filter(b => b.offsetParent);
  const lowest = Math.max(...buttons.map(b => b.getBoundingClientRect().bottom));
  const opened = dialog.getBoundingClientRect();  // as it opened, before scrolling
  dialog.scrollTop = dialog.scrollHeight;
  const box = dialog.getBoundingClientRect(), strip = bar.getBoundingClientRect();
  const alpha = getComputedStyle(bar).backgroundColor.match(/[0-9.]+/g).map(Number)[3] ?? 1;
  const last = bar.previousElementSibling.getBoundingClientRect();
  return {
    id: dialog.id, opaque: alpha === 1, gap_below: box.bottom - strip.bottom,
    last_above_bar: last.bottom <= strip.top + 0.5, fits, buttons_clear: opened.bottom - lowest,
  };
}"""


@pytest.mark.parametrize("size", [(360, 640), (667, 375)], ids=["upright", "on-its-side"])
def test_dialogs_on_a_phone_keep_their_buttons_in_view(
    shared_phone_page: Page, size: tuple[int, int]
) -> None:
    """Settings, Statistics, Rules and the deal number, opened by taps from the menu: the
    buttons stay at the bottom on an opaque bar while a tall dialog scrolls (Statistics on a
    phone on its side showed its last row through them), the end of the dialog scrolls clear
    of them, a dialog that fits does not scroll, and a tap on the bar's close button closes it."""
    page = shared_phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    fresh_table(page, "double-rail", 4457)
    for item, dialog_id, close in [
        ("Settings", "dlg-settings", "Done"),
        ("Statistics", "dlg-stats", "Close"),
        ("Rules of this game", "dlg-rules", "Close"),
        ("Choose deal number…", "dlg-deal", "Cancel"),
    ]:
        page.locator("#btn-menu").tap()
        page.get_by_role("menuitem", name=item).tap()
        dialog = page.locator(f"#{dialog_id}")
        expect(dialog).to_be_visible()
        got = page.evaluate(DIALOG_BAR)
        assert got["id"] == dialog_id
        assert got["opaque"], got
        assert abs(got["gap_below"]) < 0.5, got
        assert got["last_above_bar"], got
        assert got["buttons_clear"] >= 8, got
        if dialog_id == "dlg-deal":
            assert got["fits"], got
        screenshot(page, f"/tmp/dialog-{dialog_id}-{size[0]}x{size[1]}.png")
        dialog.locator(".dialog-actions").get_by_role("button", name=close).tap()
        expect(dialog).to_be_hidden()


@pytest.mark.parametrize(
    "size",
    [(390, 844), (667, 375), (568, 320)],
    ids=["upright", "on-its-side", "small-on-its-side"],
)
def test_the_win_dialog_on_a_phone_shows_its_buttons_whole(
    phone_page: Page, size: tuple[int, int]
) -> None:
    """Won by a tap: the dialog's buttons stand clear of its bottom edge on the bar, as in the
    other dialogs (its confetti layer once shifted the bar down, half under the edge), and
    "New deal" is tapped there."""
    from test_ui_storage import near_won_russian

    page = phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = near_won_russian()
    seed_storage(page, {game_key("russian"): saved_doc(game, counted=True)})
    open_game(page, "russian", game.deal or 1)
    home = next(m for m in game.position.legal_moves() if m.target.kind == "foundation")
    tap(page, home.source, 0)  # "tap a card to move it" sends the King home
    skip_celebration(page)
    dialog = page.locator("#dlg-won")
    expect(dialog).to_be_visible()
    got = page.evaluate(DIALOG_BAR)
    assert got["opaque"], got
    assert abs(got["gap_below"]) < 0.5, got
    assert got["last_above_bar"], got
    assert got["buttons_clear"] >= 8, got
    assert got["fits"], got
    dialog.get_by_role("button", name="New deal").tap()
    expect(dialog).to_be_hidden()
    expect(page.locator("#st-moves")).to_have_text("0")


@pytest.mark.parametrize("size", [(390, 844), (667, 375)], ids=["upright", "on-its-side"])
def test_every_menu_item_can_be_reached_by_touch(phone_page: Page, size: tuple[int, int]) -> None:
    """The menu stays within the screen; on a phone on its side, shorter than the menu, it
    scrolls, so its last item (the sound switch ran off the bottom) is reached and works."""
    page = phone_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_game(page, "double-rail", 4457)
    page.locator("#btn-menu").tap()
    menu = page.locator("#menu")
    expect(menu).to_be_visible()
    bottom = page.evaluate("document.getElementById('menu').getBoundingClientRect().bottom")
    assert bottom <= size[1], (bottom, size)
    sound = page.locator("#menu-sound")
    expect(sound).to_have_attribute("aria-checked", "false")
    sound.tap()
    expect(sound).to_have_attribute("aria-checked", "true")


#: The toast's rectangle and classes, and the rectangles of the tableau piles' ends it overlaps.
TOAST_OVER = """() => {
  const t = document.getElementById('toast');
  const r = t.getBoundingClientRect();
  const over = [...document.querySelectorAll('#board .tableau .pile > .card:last-child')]
    .map((c) => c.getBoundingClientRect())
    .filter((c) => c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom)
    .map((c) => [c.left, c.top, c.right, c.bottom]);
  const s = document.getElementById('status').getBoundingClientRect();
  const inStatus = r.left >= s.left - 0.5 && r.top >= s.top - 0.5 && r.right <= s.right + 0.5 &&
    r.bottom <= s.bottom + 0.5;
  return {cls: t.className, rect: [r.left, r.top, r.right, r.bottom], over, inStatus};
}"""


def test_a_toast_leaves_the_piles_ends_in_sight(phone_page: Page) -> None:
    """On a phone on its side the tableau fills the table's height. A toast at the foot of
    the table (a new deal's, with its Undo, stays 8 s) hid the ends of Double FreeCell's
    piles, the cards in play: it now stands in the status bar's room, clear of every pile's
    end, there and with a Russian game near its end, and on a phone held upright when a long
    pile reaches the foot (Double Russian)."""
    from test_ui_storage import near_won_russian

    page = phone_page
    ranks = "A23456789TJQK"
    long_pile = {
        "format": 1,
        "game": "double-russian",
        "deal": 5,
        "tableau": [{"down": [], "up": [r + s for s in "SHD" for r in ranks[::-1]]}]
        + [{"down": [], "up": []}] * 9,
        "foundations": [[r + s for r in ranks] for s in "SHDC"]
        + [[], [], [], [r + "C" for r in ranks]],
    }
    seed_storage(
        page,
        {
            game_key("russian"): saved_doc(near_won_russian()),
            game_key("double-russian"): saved_doc(Game(Position.from_json(long_pile))),
        },
    )
    page.set_viewport_size({"width": 844, "height": 390})
    open_game(page, "double-freecell", 12)
    box = page.locator("#btn-new").bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    toast = page.locator("#toast")
    expect(toast).to_have_class(re.compile(r"\bshow\b"))
    expect(page.locator("#toast-action")).to_have_text("Undo")
    wait_still(page)
    got = page.evaluate(TOAST_OVER)
    assert got["over"] == [], got
    assert got["inStatus"], got
    # its Undo still answers a tap
    box = page.locator("#toast-action").bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(toast).not_to_have_class(re.compile(r"\bshow\b"))

    page.select_option("#game-select", "russian")
    page.wait_for_function("document.getElementById('board').dataset.game === 'russian'")
    expect(toast).to_have_class(re.compile(r"\bshow\b"))
    wait_still(page)
    got = page.evaluate(TOAST_OVER)
    assert got["over"] == [], got
    assert got["inStatus"], got

    # upright, a pile of 39 cards reaching the foot; a tap on its Queen of hearts is refused
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#game-select", "double-russian")
    page.wait_for_function("document.getElementById('board').dataset.game === 'double-russian'")
    page.wait_for_function("!document.getElementById('toast').classList.contains('show')")
    wait_still(page)
    box = card(page, "tableau-0", 14).bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 4)
    expect(toast).to_contain_text("The Q♥ and the 24 cards on it have nowhere to go.")
    got = page.evaluate(TOAST_OVER)
    assert got["over"] == [], got
    assert got["inStatus"], got
