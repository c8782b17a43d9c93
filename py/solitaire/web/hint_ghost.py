"""A hint's cards slide to their target as a ghost, so a newcomer sees the move, not only
reads it in a toast.

A copy of each hinted card (``.hint-ghost``: no id, no ``data-card``, hidden from screen
readers, no pointer input) is laid over the card in its row of the board (the row defines
the card size's custom properties), slides to where the cards would land and fades; the real
cards do not move. With ``prefers-reduced-motion`` nothing slides (the marks and the toast
stay). A new hint or a change of the table ends a ghost still on its way.
"""

from __future__ import annotations

from typing import Any

import js
from pyodide.ffi import create_proxy, to_js

from ..piles import PileRef
from .board import BoardView

GHOST_MS = 900  # the slide, then the fade (its last quarter)
#: where a card lands on a tableau pile's top card: its strip below it, as a fan
FAN = 0.28


def _obj(value: Any) -> Any:
    return to_js(value, dict_converter=js.Object.fromEntries)


class HintGhost:
    def __init__(self, view: BoardView) -> None:
        self.view = view
        self.ghosts: list[Any] = []
        self._p_finished = create_proxy(self._finished)  # one proxy for every ghost

    def clear(self) -> None:
        for ghost in self.ghosts:
            ghost.remove()
        self.ghosts = []

    def slide(self, cards: tuple[int, ...], target: PileRef | None) -> None:
        self.clear()
        if not cards or target is None:
            return
        if js.window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            return
        view = self.view
        left, top, _, _ = view.card_rect(cards[0])
        on = view.shown.get(target, ())
        if on:
            x, y, _, b = view.card_rect(on[-1])
            if target.kind == "tableau":
                y += (b - y) * FAN
        else:
            x, y, _, _ = view.pile_rects()[target]
        dx, dy = x - left, y - top
        for card in cards:
            el = view.card_els[card]
            row = el.closest(".row")
            if not row:
                continue
            base = row.getBoundingClientRect()
            r = el.getBoundingClientRect()
            ghost = el.cloneNode(True)
            for name in ("id", "data-card", "role", "aria-label", "tabindex"):
                ghost.removeAttribute(name)
            ghost.classList.remove("hint", "selected", "target", "dragging")
            ghost.classList.add("hint-ghost")
            ghost.setAttribute("aria-hidden", "true")
            style = ghost.style
            style.left = f"{r.left - base.left}px"
            style.top = f"{r.top - base.top}px"
            style.width = f"{r.width}px"
            style.height = f"{r.height}px"
            row.appendChild(ghost)
            self.ghosts.append(ghost)
            moved = f"translate({dx:.1f}px, {dy:.1f}px)"
            animation = ghost.animate(
                _obj(
                    [
                        {"transform": "translate(0, 0)", "opacity": 0.9},
                        {"transform": moved, "opacity": 0.9, "offset": 0.75},
                        {"transform": moved, "opacity": 0},
                    ]
                ),
                _obj({"duration": GHOST_MS, "easing": "ease-in-out", "fill": "forwards"}),
            )
            animation.onfinish = self._p_finished

    def _finished(self, ev: Any) -> None:
        ghost = ev.target.effect.target  # the animation's element
        self.ghosts = [g for g in self.ghosts if g != ghost]
        ghost.remove()
