"""What every input adapter of the page gets (pointer, keyboard, dialogs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .board import BoardView
from .controller import Controller


@dataclass(frozen=True)
class Wiring:
    board_el: Any
    view: BoardView
    controller: Controller
    #: runs a controller intent, carries out its effects, draws the state (``App.act``)
    act: Callable[..., None]
    #: adds an event listener through one long-lived proxy (``App._listen``)
    listen: Callable[[Any, str, Any], None]
