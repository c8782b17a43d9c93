"""The game's page as a player sees it, read and played through an engine_drivers.Driver: the
same DOM reading as e2e/ui_helpers.py (its JavaScript is reused), with the driver's mouse."""

from __future__ import annotations

import time
from typing import Any

from engine_drivers import Driver
from ui_helpers import NEXT_FRAMES, READ_PILES, engine_piles

from solitaire import Move, Position
from solitaire.piles import PileRef

#: A cold Pyodide start in Firefox or WebKit on a loaded 2-core machine; the solver worker
#: starts a second one.
BOOT_TIMEOUT = 120.0

STATE = "() => document.documentElement.dataset.app"
STILL = """() => !document.getAnimations().some(a => a.playState === 'running' &&
    a.effect && a.effect.target && a.effect.target.matches('#board .card'))"""
#: The box of the ``index``-th element matching ``selector`` (negative: from the end), or null.
BOX = """(selector, index) => {
  const all = [...document.querySelectorAll(selector)];
  const el = all[index < 0 ? all.length + index : index];
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {x: r.left, y: r.top, width: r.width, height: r.height};
}"""


def wait_ready(d: Driver, timeout: float = BOOT_TIMEOUT) -> None:
    """Wait for ``<html data-app="ready">``; fail with the page's message on "failed"."""
    state = d.wait_for(f"() => ['ready', 'failed'].includes(({STATE})()) && ({STATE})()", timeout)
    if state != "ready":
        text = d.call("() => (document.getElementById('boot-error-text') || {}).textContent")
        raise AssertionError(f"{d.name}: the game did not start (data-app={state!r}): {text}")


def open_game(d: Driver, base_url: str, game: str = "russian", deal: int = 1) -> None:
    """Load the page at ``#game/deal`` (a fresh start of Python) and wait until it is ready."""
    d.open(f"{base_url}#{game}/{deal}")
    wait_ready(d)


def switch_game(d: Driver, game: str, deal: int) -> None:
    """Go to another game or deal by the address's hash (no new start), and wait for its table."""
    d.call("h => { location.hash = h; }", f"#{game}/{deal}")
    wait_table(d, Position.deal_of(game, deal))


def piles(d: Driver) -> dict[str, list[str]]:
    found: dict[str, list[str]] = d.call(READ_PILES)
    return found


def wait_still(d: Driver) -> None:
    d.call(NEXT_FRAMES)
    d.wait_for(STILL, 15.0)


def wait_table(d: Driver, position: Position, timeout: float = 15.0) -> None:
    """Wait until the DOM shows ``position`` (auto-moves are animated one after another)."""
    want = engine_piles(position)
    deadline = time.monotonic() + timeout
    got = piles(d)
    while got != want:
        if time.monotonic() > deadline:
            diff = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
            raise AssertionError(f"{d.name}: the table does not show the position: {diff}")
        time.sleep(0.1)
        got = piles(d)
    wait_still(d)


def box(d: Driver, selector: str, index: int = 0) -> dict[str, float]:
    found: dict[str, float] | None = d.call(BOX, selector, index)
    if found is None:
        raise AssertionError(f"{d.name}: no element {selector} [{index}]")
    return found


def click_element(d: Driver, selector: str) -> None:
    b = box(d, selector)
    d.click(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)


def card_strip(d: Driver, pile: PileRef | str, index: int) -> tuple[float, float]:
    """A point on the visible strip at the top of a card (the cards above hide the rest)."""
    b = box(d, f'#board [data-pile="{pile}"] .card', index)
    return b["x"] + b["width"] / 2, b["y"] + 6


def pile_point(d: Driver, pile: PileRef | str) -> tuple[float, float]:
    """Where a player aims at a pile: its top card, or the empty slot."""
    if d.call("s => document.querySelectorAll(s).length", f'#board [data-pile="{pile}"] .card'):
        b = box(d, f'#board [data-pile="{pile}"] .card', -1)
        return b["x"] + b["width"] / 2, b["y"] + min(b["height"] / 2, 40)
    b = box(d, f'#board [data-pile="{pile}"]')
    return b["x"] + 10, b["y"] + 10


def click_move(d: Driver, position: Position, move: Move) -> None:
    """Click-to-move: the move's bottom card, then the target pile."""
    wait_still(d)
    d.click(*card_strip(d, move.source, len(position.pile(move.source)) - move.count))
    d.click(*pile_point(d, move.target))


def drag_move(d: Driver, position: Position, move: Move) -> None:
    """Press on the move's bottom card, move over the target pile, release."""
    wait_still(d)
    x0, y0 = card_strip(d, move.source, len(position.pile(move.source)) - move.count)
    x1, y1 = pile_point(d, move.target)
    d.drag(x0, y0, x1, y1)


#: The visible toolbar controls with their boxes (as e2e/test_ui_thumb_sizes.py measures them).
TOOLBAR = """() => [...document.querySelectorAll('.toolbar > .btn, .toolbar select')]
  .filter(el => el.checkVisibility() && el.getClientRects().length)
  .map(el => {
    const r = el.getBoundingClientRect();
    return {id: el.id || el.textContent.trim().slice(0, 20),
            box: [r.left, r.top, r.right, r.bottom]};
  })"""


def toolbar_faults(controls: list[dict[str, Any]], width: int, height: int) -> list[str]:
    """What is wrong with the toolbar's controls: outside the viewport, smaller than 44x44 px,
    or overlapping another."""
    faults = []
    for c in controls:
        left, top, right, bottom = c["box"]
        if left < 0 or top < 0 or right > width or bottom > height:
            faults.append(f"{c['id']} is outside the {width}x{height} viewport: {c['box']}")
        if right - left < 44 or bottom - top < 44:
            faults.append(f"{c['id']} is {right - left:.0f}x{bottom - top:.0f} px (< 44x44)")
    for i, a in enumerate(controls):
        for b in controls[i + 1 :]:
            (al, at, ar, ab), (bl, bt, br, bb) = a["box"], b["box"]
            if al < br and bl < ar and at < bb and bt < ab:
                faults.append(f"{a['id']} overlaps {b['id']}: {a['box']} {b['box']}")
    return faults
