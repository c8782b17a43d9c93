"""Move latency: a random game planned with the engine (plan_moves), played in the page by
clicks dispatched there (DRIVER_JS), each timed with performance.now() until the DOM shows
the move; the same plan drives bench/pages/js_board.html, a board in plain JavaScript."""

from __future__ import annotations

import json
import random
from typing import Any

from benchlib import checkout_hint
from benchlib.chrome import BrowserContext, Page

try:
    from solitaire.cards import card_name, long_name
    from solitaire.game import Game
    from solitaire.piles import STOCK, PileRef
    from solitaire.position import Position
    from solitaire.web.documents import Settings
    from solitaire.web.faces import SPRITE, face_html
    from solitaire.web.layout import layout
    from solitaire.web.store import MemoryBackend, Store, scope_of
except ModuleNotFoundError as missing:
    raise SystemExit(checkout_hint(missing)) from None


def page_face(card: int) -> str:
    """The page's markup of a face-up card, its sprite addressed from the bench's pages."""
    return face_html(card).replace(f'href="{SPRITE}', f'href="../{SPRITE}')


def layout_of(position: Position) -> dict[str, Any]:
    """What bench/pages/js_board.html needs to draw ``position`` as the real board does
    (the grid of solitaire.web.layout; card faces from solitaire.web.faces, the page's own
    markup, with the sprite's address as seen from bench/js_board.html)."""
    rules = position.rules
    table = layout(rules)
    top = [None if ref is None else str(ref) for ref in table.top_slots]
    order = [str(ref) for ref in table.order]
    cols = table.cols
    piles = {
        str(ref): {"cards": list(position.pile(ref)), "down": position.face_down(ref)}
        for ref in table.order
    }
    return {
        "game": rules.id,
        "deal": position.deal,
        "cols": cols,
        "tcols": len(rules.tableau),
        "top": top,
        "order": order,
        "piles": piles,
        "plan": list(rules.card_plan),
        "rules": {
            "build": rules.build,
            "group": rules.group,
            "empty": rules.empty,
            "foundationSize": rules.foundation_size,
        },
        "cards": {
            str(c): {"name": card_name(c), "label": long_name(c), "html": page_face(c)}
            for c in position.all_cards()
        },
    }


def plan_moves(game_id: str, moves: int, seed: int) -> list[dict[str, Any]]:
    """A random game of ``moves`` player moves (auto-move on, as the page's default), from
    deal 1 on; a deal that is won, stuck or auto-finished is followed by the next deal.
    Each action says what to click and what the table must show afterwards."""
    rng = random.Random(f"{seed}:{game_id}")
    actions: list[dict[str, Any]] = []
    deal = 0
    game: Game | None = None
    done = 0
    while done < moves:
        position = game.position if game is not None else None
        legal = (
            [m for m in position.legal_moves() if not position.is_pointless(m)]
            if position is not None and not position.is_won()
            else []
        )
        if not legal:
            deal += 1
            game = Game.new(game_id, deal, automove=True)
            actions.append(
                {"type": "deal", "game": game_id, "deal": deal, "layout": layout_of(game.position)}
            )
            continue
        assert game is not None
        assert position is not None
        move = rng.choice(legal)
        step = game.play(move)
        first = position.play_unchecked(step[0])
        after = game.position
        finish = None
        if not after.is_won() and after.auto_finish():
            finish = [[str(m.source), str(m.target), m.count] for m in game.auto_finish()]
            after = game.position
        touched = {move.source, move.target} | {m.source for m in step} | {m.target for m in step}
        if finish:
            touched |= {PileRef.parse(m[0]) for m in finish} | {PileRef.parse(m[1]) for m in finish}
        src_cards = position.pile(move.source)
        actions.append(
            {
                "type": "move",
                "src": str(move.source),
                "start": None if move.source == STOCK else len(src_cards) - move.count,
                "dst": str(move.target),
                "auto": [[str(m.source), str(m.target), m.count] for m in step[1:]],
                "finish": finish,
                "first": {str(n): len(first.pile(n)) for n in (move.source, move.target)},
                "final": {str(n): len(after.pile(n)) for n in sorted(touched, key=str)},
            }
        )
        done += 1
    return actions


# Runs in the page (real or JS board): plays the actions, timing each click from just before
# the pointerdown is dispatched to just after the handlers have returned and style and layout
# are up to date (a forced layout), i.e. the DOM shows the move. Returns times and mismatches.
DRIVER_JS = """
async ([actions, isJs]) => {
  const board = document.getElementById('board');
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const pileEl = (name) => board.querySelector(`[data-pile="${name}"]`);
  const size = (name) => pileEl(name).querySelectorAll(':scope > .card').length;
  const sizesOk = (want) => Object.entries(want).every(([n, k]) => size(n) === k);
  async function until(pred, ms) {
    const t = performance.now();
    while (!pred()) {
      if (performance.now() - t > ms) return false;
      await frame();
    }
    return true;
  }
  function click(target) {
    const r = target.getBoundingClientRect();
    const base = { bubbles: true, cancelable: true, composed: true, view: window,
      clientX: r.left + r.width / 2, clientY: r.top + Math.min(r.height / 2, 10), button: 0 };
    const p = { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true };
    const t0 = performance.now();
    target.dispatchEvent(new PointerEvent('pointerdown', { ...p, buttons: 1 }));
    target.dispatchEvent(new PointerEvent('pointerup', { ...p, buttons: 0 }));
    target.dispatchEvent(new MouseEvent('click', { ...base, detail: 1 }));
    const t1 = performance.now();
    void document.body.offsetHeight;  // style and layout of the new DOM
    const t2 = performance.now();
    handler.push(t1 - t0);
    return t2 - t0;
  }
  const topOf = (name) => {
    const cards = pileEl(name).querySelectorAll(':scope > .card');
    return cards.length ? cards[cards.length - 1] : pileEl(name);
  };
  const out = { select: [], move: [], handler: [], errors: [] };
  const handler = [];
  for (const a of actions) {
    if (a.type === 'deal') {
      if (isJs) window.jsBoard.setup(a.layout);
      else location.hash = `#${a.game}/${a.deal}`;
      const ok = await until(() => board.dataset.game === a.game
        && board.dataset.deal === String(a.deal)
        && Object.entries(a.layout.piles).every(([n, p]) => size(n) === p.cards.length), 30000);
      if (!ok) { out.errors.push(`deal ${a.game}/${a.deal} not shown`); return out; }
      await sleep(50);
      continue;
    }
    if (a.start !== null) {
      const card = pileEl(a.src).querySelectorAll(':scope > .card')[a.start];
      out.select.push(click(card));
      await frame();
    }
    // click-to-move: the second click makes the move; the stock deals on one click
    out.move.push(click(topOf(a.src === 'stock' ? 'stock' : a.dst)));
    out.handler.push(handler[handler.length - 1]);
    if (!sizesOk(a.first)) {
      out.errors.push(`move ${a.src}->${a.dst}: expected ${JSON.stringify(a.first)}`);
      return out;
    }
    if (isJs) {
      if (a.auto.length) window.jsBoard.apply(a.auto);
      if (a.finish) window.jsBoard.apply(a.finish);
    }
    const ok = await until(() => sizesOk(a.final), a.finish ? 30000 : 10000);
    if (!ok) {
      out.errors.push(`after ${a.src}->${a.dst}: expected ${JSON.stringify(a.final)}`);
      return out;
    }
    await frame();
  }
  return out;
}
"""


def click_to_move_settings(ctx: BrowserContext) -> None:
    """Turn "tap a card to move it" off in the pages of ``ctx`` (the setting, stored in
    localStorage as the page stores it, unless already set): on a touch screen it is on by
    default, and a tap then plays the card at once, where DRIVER_JS's clicks expect
    click-to-move (select, then the destination) as on a desktop."""
    backend = MemoryBackend()
    Store(backend, scope_of("/")).save_settings(Settings(tap_move=False))
    entries = dict(backend.data)
    ctx.add_init_script(
        f"""for (const [k, v] of Object.entries({json.dumps(entries)}))
              if (localStorage.getItem(k) === null) localStorage.setItem(k, v);"""
    )


def play_in_page(page: Page, actions: list[dict[str, Any]], is_js: bool) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DRIVER_JS, [actions, is_js])
    if result["errors"]:
        raise RuntimeError(f"{page.url}: the page did not follow the moves: {result['errors']}")
    return result
