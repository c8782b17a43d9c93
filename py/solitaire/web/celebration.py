"""The win celebration: the foundations' cards leap off one by one and bounce across the
table, leaving trails, as in the classic Windows Solitaire; then the win dialog.

It draws on one ``<canvas id="celebration">`` laid over the page, in animation frames: each
frame draws every flying card once more where it now is, without clearing (the trails), so the
board is never touched (no layout, no style change) and a frame costs one ``drawImage`` per
card in flight. Each card's picture (rank, suit, face colour and suit colour read from the
page, so the four-colour deck and the dark theme show) is drawn once, when it leaps.

A tap, a click or a key ends it at once (the key is used up: it does not also act on the
game); so does a time limit. A new press ends it (``pointerdown``), not a ``click``: the click
of the tap that won the game arrives after the canvas is up, and must not end it at once.
With ``prefers-reduced-motion`` nothing moves: the dialog comes at once (``App`` does not
start a celebration).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from js import document, window
from pyodide.ffi import create_proxy

from ..cards import SUIT_SYMBOLS, suit
from .text import rank_text

GRAVITY = 2200.0  # px/s²
BOUNCE = 0.72  # the share of its speed a card keeps at each bounce
LAUNCHES_S = 3.0  # every card has leapt by then (more cards: shorter intervals)
LAUNCH_GAP_MAX_S = 0.22
LIMIT_S = 7.0  # the celebration ends by then at the latest
MAX_DPR = 2.0  # a bigger canvas would only cost fill rate on 3x phones


class Flight:
    """One card in the air: where it is, how fast it goes, and its picture."""

    __slots__ = ("h", "image", "vx", "vy", "w", "x", "y")

    def __init__(self, image: Any, x: float, y: float, w: float, h: float, width: float) -> None:
        self.image = image
        self.x, self.y, self.w, self.h = x, y, w, h
        direction = -1.0 if random.random() < 0.5 else 1.0
        # it leaves the screen within about 1.5-3.5 s whatever the screen's width
        self.vx = direction * width * random.uniform(0.3, 0.65)
        self.vy = -random.uniform(150.0, 900.0)

    def step(self, dt: float, floor: float) -> None:
        self.vy += GRAVITY * dt
        self.x += self.vx * dt
        self.y += self.vy * dt
        if self.y + self.h > floor:
            self.y = floor - self.h
            self.vy = -abs(self.vy) * BOUNCE

    def gone(self, width: float) -> bool:
        return self.x + self.w < 0 or self.x > width


class Celebration:
    def __init__(self) -> None:
        self.canvas: Any = None
        self.done: Callable[[], None] | None = None
        self._p_frame = create_proxy(self._frame)
        self._p_skip = create_proxy(self._skip)
        self._p_key = create_proxy(self._key)
        self.frame_request: Any = None

    @property
    def running(self) -> bool:
        return self.canvas is not None

    def start(
        self,
        launches: list[tuple[int, tuple[float, float, float, float]]],
        colours: dict[int, str],
        face: str,
        done: Callable[[], None],
    ) -> None:
        """Leap ``launches`` (card, its rect on the page), in that order; then ``done``.
        ``colours``: the CSS colour of each suit; ``face``: the card face's colour."""
        self.stop()
        self.done = done
        self.queue = list(launches)
        self.colours = colours
        self.face = face
        self.flights: list[Flight] = []
        self.width = float(window.innerWidth)
        self.height = float(window.innerHeight)
        dpr = min(float(window.devicePixelRatio or 1), MAX_DPR)
        self.dpr = dpr
        canvas = document.createElement("canvas")
        canvas.id = "celebration"
        canvas.className = "celebration"
        canvas.setAttribute("aria-hidden", "true")
        canvas.width = round(self.width * dpr)
        canvas.height = round(self.height * dpr)
        self.ctx = canvas.getContext("2d")
        self.ctx.scale(dpr, dpr)
        document.body.appendChild(canvas)
        self.canvas = canvas
        canvas.addEventListener("pointerdown", self._p_skip)
        window.addEventListener("keydown", self._p_key, True)
        self.gap = min(LAUNCH_GAP_MAX_S, LAUNCHES_S / max(1, len(self.queue)))
        self.started: float | None = None
        self.last: float = 0.0
        self.next_launch = 0.0
        self.frame_request = window.requestAnimationFrame(self._p_frame)

    def _picture(self, card: int, w: float, h: float) -> Any:
        """The card's picture, drawn once on its own canvas."""
        dpr = self.dpr
        image = document.createElement("canvas")
        image.width = math.ceil(w * dpr)
        image.height = math.ceil(h * dpr)
        g = image.getContext("2d")
        g.scale(dpr, dpr)
        g.beginPath()
        g.roundRect(0.5, 0.5, w - 1, h - 1, w * 0.08)
        g.fillStyle = self.face
        g.fill()
        g.lineWidth = 1
        g.strokeStyle = "#8a918c"
        g.stroke()
        g.fillStyle = self.colours.get(suit(card), "#161616")
        g.textBaseline = "top"
        g.font = f"700 {max(11.0, w * 0.28):.0f}px system-ui, sans-serif"
        g.fillText(rank_text(card) + SUIT_SYMBOLS[suit(card)], w * 0.07, h * 0.04)
        g.textAlign = "center"
        g.textBaseline = "middle"
        g.font = f"{w * 0.6:.0f}px system-ui, sans-serif"
        g.fillText(SUIT_SYMBOLS[suit(card)], w / 2, h * 0.62)
        return image

    def _frame(self, now: Any) -> None:
        self.frame_request = None
        if self.canvas is None:
            return
        t = float(now) / 1000.0
        if self.started is None:
            self.started = self.last = self.next_launch = t
        dt = min(t - self.last, 0.05)
        self.last = t
        while self.queue and t >= self.next_launch:
            card, (left, top, right, bottom) = self.queue.pop(0)
            w, h = right - left, bottom - top
            self.flights.append(Flight(self._picture(card, w, h), left, top, w, h, self.width))
            self.next_launch += self.gap
        draw = self.ctx.drawImage
        floor = self.height
        for f in self.flights:
            f.step(dt, floor)
            draw(f.image, f.x, f.y, f.w, f.h)
        self.flights = [f for f in self.flights if not f.gone(self.width)]
        if (not self.queue and not self.flights) or t - self.started > LIMIT_S:
            self.finish()
            return
        self.frame_request = window.requestAnimationFrame(self._p_frame)

    def _skip(self, ev: Any) -> None:
        ev.preventDefault()
        self.finish()

    def _key(self, ev: Any) -> None:
        if str(ev.key) in ("Shift", "Control", "Alt", "Meta"):
            return
        ev.preventDefault()
        ev.stopPropagation()
        self.finish()

    def stop(self) -> None:
        """Take the canvas away (nothing is called)."""
        if self.frame_request is not None:
            window.cancelAnimationFrame(self.frame_request)
            self.frame_request = None
        if self.canvas is not None:
            self.canvas.removeEventListener("pointerdown", self._p_skip)
            window.removeEventListener("keydown", self._p_key, True)
            self.canvas.remove()
            self.canvas = None

    def finish(self) -> None:
        """End now and go on to what follows (the win dialog)."""
        self.stop()
        done, self.done = self.done, None
        if done is not None:
            done()
