"""Helpers for the UI's browser tests: read the table from the DOM, compare it with the engine,
find moves with the engine, and seed localStorage (the page's save format is in docs/ui.md)."""

from __future__ import annotations

import json
import time
from typing import Any

from harness import open_game
from playwright.sync_api import Locator, Page, Route, expect

from solitaire import Game, Move, Position, card_name
from solitaire.piles import TABLEAU, PileRef
from solitaire.web.layout import layout

#: The page's localStorage keys (py/solitaire/web/store.py) for the site served at the root:
#: every key starts with the directory of the page's address ("/").
SCOPE = "/"
KEY_SETTINGS = f"{SCOPE}solitaire.settings"
KEY_LAST = f"{SCOPE}solitaire.last"


def game_key(game: str) -> str:
    return f"{SCOPE}solitaire.game.{game}"


def stats_key(game: str) -> str:
    return f"{SCOPE}solitaire.stats.{game}"


def saved_doc(game: Game, counted: bool = False, recorded: bool = False) -> str:
    """The page's wrapper around the engine's save format, as stored in localStorage."""
    return json.dumps({"v": 1, "save": game.to_json(), "counted": counted, "recorded": recorded})


# ----------------------------------------------------------------------------- reading the DOM

READ_PILES = """() => {
  const out = {};
  for (const pile of document.querySelectorAll('#board [data-pile]')) {
    out[pile.dataset.pile] = [...pile.querySelectorAll('.card')].map(
      c => c.dataset.face === 'down' ? 'down' : (c.dataset.card || '?'));
  }
  return out;
}"""


def dom_piles(page: Page) -> dict[str, list[str]]:
    """Each pile's cards, bottom to top: "QS" for a face-up card, "down" for a face-down one."""
    return page.evaluate(READ_PILES)  # type: ignore[no-any-return]


def engine_piles(position: Position) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pile in layout(position.rules).order:
        down = position.face_down(pile)
        out[str(pile)] = [
            "down" if i < down else card_name(c) for i, c in enumerate(position.pile(pile))
        ]
    return out


def wait_table(page: Page, position: Position, timeout: float = 8.0) -> None:
    """Wait until the DOM shows ``position`` (auto-moves are animated one after another)."""
    want = engine_piles(position)
    deadline = time.monotonic() + timeout
    got = dom_piles(page)
    while got != want:
        if time.monotonic() > deadline:
            diff = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
            raise AssertionError(f"the table does not show the expected position: {diff}")
        page.wait_for_timeout(50)
        got = dom_piles(page)
    wait_still(page)


def slow_animations(page: Page, rate: float) -> None:
    """Play the page's animations and CSS transitions at ``rate`` times their speed (CDP), so
    that a card caught mid-glide is still where it was read when the pointer gets there."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": rate})


def coarse_pointer(page: Page) -> bool:
    """Whether the page's context is a touch screen (a phone's), as the page's CSS sees it."""
    return bool(page.evaluate("matchMedia('(pointer: coarse)').matches"))


#: Resolves after the next two animation frames: the board re-parents a moved card at once
#: but starts its FLIP animation in the next frame, so until then nothing looks in motion.
NEXT_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def wait_still(page: Page) -> None:
    """Wait until no card is moving (FLIP animations and CSS transitions done), counting the
    animations of a move already made whose frame has not come yet."""
    page.evaluate(NEXT_FRAMES)
    page.wait_for_function(
        """() => !document.getAnimations().some(a => a.playState === 'running' &&
               a.effect && a.effect.target && a.effect.target.matches('#board .card'))"""
    )


#: The card width and, over the face-up tableau cards, the smallest strip (CSS px) that is not
#: covered by the next card of its pile (null without face-up cards); whether the page scrolls.
MEASURE_TABLE = """() => {
  const cards = [...document.querySelectorAll('#board .tableau .pile')].flatMap(p =>
    [...p.querySelectorAll('.card')].map((c, i, all) => [c, all[i + 1]]));
  let least = Infinity;
  for (const [c, next] of cards) {
    if (c.dataset.face === 'down') continue;
    const r = c.getBoundingClientRect();
    const shown = next ? next.getBoundingClientRect().top - r.top : r.height;
    least = Math.min(least, shown);
  }
  const any = document.querySelector('#board .card');
  const doc = document.scrollingElement;
  return {cardWidth: any ? any.getBoundingClientRect().width : 0,
          leastFaceUpStrip: least === Infinity ? null : least,
          scrolls: doc.scrollHeight > doc.clientHeight || doc.scrollWidth > doc.clientWidth};
}"""


def measure_table(page: Page) -> dict[str, Any]:
    return page.evaluate(MEASURE_TABLE)  # type: ignore[no-any-return]


def board(page: Page) -> dict[str, str]:
    return page.evaluate(  # type: ignore[no-any-return]
        "() => ({...document.getElementById('board').dataset})"
    )


def card(page: Page, pile: PileRef | str, index: int) -> Locator:
    return page.locator(f'#board [data-pile="{pile}"] .card').nth(index)


def pile_el(page: Page, pile: PileRef | str) -> Locator:
    return page.locator(f'#board [data-pile="{pile}"]')


def click_card(page: Page, pile: PileRef | str, index: int) -> None:
    """Click the visible strip at the top of a card (cards above it hide the rest)."""
    card(page, pile, index).click(position={"x": 12, "y": 6})


def click_pile(page: Page, pile: PileRef | str) -> None:
    """Click a pile where a player would: its top card, or the empty slot. Through the
    locator, so Playwright waits until the card stands still: a click at a box measured
    while the card was still sliding into place once missed the pile (CI, 2026-11-22)."""
    cards = page.locator(f'#board [data-pile="{pile}"] .card')
    n = cards.count()
    if n:
        top = cards.nth(n - 1)
        box = top.bounding_box()
        assert box is not None
        top.click(position={"x": box["width"] / 2, "y": box["height"] / 2})
    else:
        pile_el(page, pile).click(position={"x": 10, "y": 10})


def click_move(page: Page, position: Position, move: Move) -> None:
    """Make ``move`` as a player does by click-to-move: its bottom card, then the target pile."""
    click_card(page, move.source, len(position.pile(move.source)) - move.count)
    click_pile(page, move.target)


def play_by_click(page: Page, game: Game, move: Move) -> None:
    """Click ``move`` on the page, play it on the engine's copy, and wait for the table to match."""
    click_move(page, game.position, move)
    game.play(move)
    wait_table(page, game.position)


def drag(
    page: Page, source: PileRef | str, index: int, target: PileRef | str, steps: int = 8
) -> None:
    """Press on a card's visible strip, move over the target pile's top card, release.

    Cards still gliding (a group gliding home after a drop) are waited for first: a box read
    mid-glide is stale by the time of the press, which would then land on another card."""
    wait_still(page)
    box = card(page, source, index).bounding_box()
    assert box is not None
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + 6
    cards = page.locator(f'#board [data-pile="{target}"] .card')
    n = cards.count()
    tbox = (cards.nth(n - 1) if n else pile_el(page, target)).bounding_box()
    assert tbox is not None
    x1, y1 = tbox["x"] + tbox["width"] / 2, tbox["y"] + min(tbox["height"] / 2, 40)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


# ----------------------------------------------------------------------------- finding moves


def first_move(position: Position, want: Any) -> Move:
    """The first legal move for which ``want(move)`` is true."""
    for move in position.legal_moves():
        if want(move):
            return move
    raise AssertionError("no such move in this deal")


def far_refusal(position: Position) -> tuple[Move, PileRef]:
    """A legal tableau move and the tableau pile farthest from its source, on the side away
    from its target, where the same cards may not go: a refused drop there glides home a long
    way, and a pointer taking the cards from there by the way from home to the target stays
    on the screen."""
    return max(
        (
            (m, TABLEAU[i])
            for m in position.legal_moves()
            if m.target.kind == "tableau"
            for i in range(len(position.tableau))
            if (i - m.source.index) * (m.target.index - m.source.index) < 0
            and position.why_illegal(Move(m.source, TABLEAU[i], m.count)) is not None
        ),
        key=lambda pair: abs(pair[1].index - pair[0].source.index),
    )


def tableau_moves(position: Position) -> list[Move]:
    """Tableau-to-tableau moves onto a non-empty pile, fewest cards first."""
    moves = [
        m
        for m in position.legal_moves()
        if m.source.kind == "tableau"
        and m.target.kind == "tableau"
        and bool(position.pile(m.target))
    ]
    return sorted(moves, key=lambda m: m.count)


def tableau_move(position: Position) -> Move:
    """A tableau-to-tableau move onto a non-empty pile (the one moving fewest cards)."""
    moves = tableau_moves(position)
    if not moves:
        raise AssertionError("no tableau move in this position")
    return moves[0]


def find_deal(game: str, want: Any, start: int = 1, tries: int = 2000) -> int:
    """The first deal number of ``game`` for which ``want(Position)`` is true."""
    for deal in range(start, start + tries):
        if want(Position.deal_of(game, deal)):
            return deal
    raise AssertionError(f"no deal of {game} in {start}..{start + tries} has what the test needs")


SEED = """(items => {
  if (sessionStorage.getItem('e2e-seeded')) return;
  sessionStorage.setItem('e2e-seeded', '1');
  localStorage.clear();
  for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v);
})(%s);"""


def seed_storage(page: Page, items: dict[str, str]) -> None:
    """Fill localStorage before the page's first load in this context (later reloads keep
    whatever the page wrote). Call before the first ``open_game``."""
    page.context.add_init_script(SEED % json.dumps(items))


def with_lessons(page: Page) -> None:
    """The lessons and the rule chip on in this context (the harness turns them off: its
    NO_LESSONS_SCRIPT). Call before the first ``open_game``."""
    page.context.add_init_script("globalThis.solitaireNoLessons = false;")


def storage(page: Page, key: str) -> Any:
    text = page.evaluate("k => localStorage.getItem(k)", key)
    return None if text is None else json.loads(text)


def skip_celebration(page: Page) -> None:
    """After a win: end the cards' cascade (py/solitaire/web/celebration.py) with a key, so that
    the win dialog opens now; nothing to do once the dialog is open (reduced motion)."""
    page.wait_for_function(
        "() => document.getElementById('celebration') || document.querySelector('#dlg-won[open]')"
    )
    if page.locator("#celebration").count():
        page.keyboard.press("Escape")


def open_and_close_menu_dialogs(page: Page) -> None:
    """Open the statistics and the settings dialogs from the menu, and close each again."""
    for action, dialog in (("stats", "#dlg-stats"), ("settings", "#dlg-settings")):
        page.locator("#btn-menu").click()
        page.locator(f"#menu [data-action={action}]").click()
        expect(page.locator(dialog)).to_be_visible()
        page.locator(f"{dialog} button[type=submit]").click()
        expect(page.locator(dialog)).to_be_hidden()


# ----------------------------------------------------------------------------- a shared page

#: Forget what the tests before left in a page's storage (its games, settings, statistics),
#: and the focus.
FORGET = """() => {
  localStorage.clear();
  sessionStorage.clear();
  if (document.activeElement) document.activeElement.blur();
}"""

#: Whether the board shows ``[game, deal]``.
SHOWS = """([game, deal]) => {
  const b = document.getElementById('board').dataset;
  return b.game === game && b.deal === String(deal);
}"""

#: The toast gone, as the page's own ``Messages.hide_toast`` does it (the change's toast of a
#: link, "Deal N from the link.", would stay 8 s; a first visit shows none).
HIDE_TOAST = """() => {
  const t = document.getElementById('toast');
  t.classList.remove('show');
  t.setAttribute('aria-hidden', 'true');
}"""

#: What a first visit shows and a table left by another test may not: an open dialog or
#: menu, picked-up cards, a game kept aside, a notice, moves made, the toast.
LEFTOVERS = """() => ({
  dialogs: document.querySelectorAll('dialog[open], :popover-open').length,
  selected: document.querySelectorAll('#board .card.selected').length,
  aside: !document.getElementById('menu-continue').hidden,
  notice: !document.getElementById('notice').hidden,
  moves: document.getElementById('st-moves').textContent,
  toast: document.getElementById('toast').classList.contains('show'),
})"""


def fresh_table(page: Page, game_id: str = "russian", deal: int = 1) -> None:
    """``#game_id/deal`` dealt afresh, on a page that the tests before may have used (conftest's
    ``shared_page``, ``shared_phone_page``), with storage empty, as a first visit there shows
    it. A page not loaded yet, or not ready, is (re)loaded with storage empty; a ready page
    only changes its address's hash twice (Python does not start again): to a deal of another
    game, then to this one, storage cleared before each, so that neither this game's game in
    progress nor one kept aside comes back. The change's toast is hidden; the dialogs and
    the menu close as at any link (``dialogs.close_all``)."""
    if (
        page.url != "about:blank"
        and page.evaluate("document.documentElement.dataset.app") == "ready"
    ):
        other = "double-russian" if game_id == "russian" else "russian"
        for each, number in ((other, 1), (game_id, deal)):
            page.evaluate(FORGET)
            page.goto(f"./#{each}/{number}", wait_until="domcontentloaded")  # the hash only
            page.wait_for_function(SHOWS, arg=[each, number])
        page.evaluate(FORGET)
        page.evaluate(HIDE_TOAST)
    else:
        if page.url != "about:blank":
            page.evaluate(FORGET)
            page.goto("about:blank")
        open_game(page, game_id, deal)
    wait_still(page)
    left = page.evaluate(LEFTOVERS)
    want = {"dialogs": 0, "selected": 0, "aside": False, "notice": False, "moves": "0"}
    assert left == want | {"toast": False}, f"the table is not a fresh deal: {left}"


# ----------------------------------------------------------------------------- the start


class HeldStart:
    """Keeps back every request of Pyodide's wasm (or of its packed copy, which a first visit
    fetches instead: build_site.PACKED_WASM) until ``release()``."""

    def __init__(self, page: Page) -> None:
        self.routes: list[Route] = []
        self.released = False
        page.route("**/vendor/pyodide/pyodide.asm.wasm*", self.hold)

    def hold(self, route: Route) -> None:
        if self.released:
            route.fallback()  # on to the context's guard, which lets local requests through
        else:
            self.routes.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.routes:
            route.fallback()
        self.routes.clear()


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Do two boxes ``{x, y, w, h}`` share more than half a pixel each way?"""
    return (
        a["x"] < b["x"] + b["w"] - 0.5
        and b["x"] < a["x"] + a["w"] - 0.5
        and a["y"] < b["y"] + b["h"] - 0.5
        and b["y"] < a["y"] + a["h"] - 0.5
    )
