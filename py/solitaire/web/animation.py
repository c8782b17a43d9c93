"""A step (a move and the auto-moves it set off) shown move by move.

The first move is drawn at once (the board's FLIP animation slides its cards); the others
follow every ``gap`` ms. New input first calls ``flush``, which draws the final position at
once, so input always acts on the position the player sees settle. What waits for the end
of a step (the win dialog, auto-finish) is queued with ``after``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import create_proxy

from ..position import Position
from .board import BoardView


class StepPlayer:
    def __init__(self, view: BoardView, current: Callable[[], Position]) -> None:
        self.view = view
        self.current = current  # the game's position (the step's end)
        self.queue: list[tuple[Position, int]] = []
        self.timer: Any = None
        self.waiting: list[Callable[[], None]] = []
        self._p_tick = create_proxy(self._tick)

    @property
    def running(self) -> bool:
        return bool(self.queue)

    def play(
        self, before: Position, step: tuple[Any, ...], gap: int, dragged: tuple[int, ...]
    ) -> None:
        position = before
        frames: list[tuple[Position, int]] = []
        for move in step:
            position = position.play(move)
            frames.append((position, gap))
        self.view.render(frames[0][0], dragged=dragged)
        self.queue = frames[1:]
        if self.queue:
            self.timer = js.setTimeout(self._p_tick, self.queue[0][1])
        else:
            self._done()

    def after(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` once the step being shown has ended (now if none is)."""
        if self.queue:
            self.waiting.append(fn)
        else:
            fn()

    def _tick(self, *args: Any) -> None:
        self.timer = None
        if not self.queue:
            return
        position, _ = self.queue.pop(0)
        self.view.render(position)
        if self.queue:
            self.timer = js.setTimeout(self._p_tick, self.queue[0][1])
        else:
            self.view.render(self.current())
            self._done()

    def flush(self) -> None:
        """Finish the running step at once (before handling new input)."""
        if self.timer is not None:
            js.clearTimeout(self.timer)
            self.timer = None
        if self.queue:
            self.queue = []
            self.view.render(self.current(), animate=False)
            self._done()

    def _done(self) -> None:
        waiting, self.waiting = self.waiting, []
        for fn in waiting:
            fn()
