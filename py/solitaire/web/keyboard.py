"""Keys: the document's keydown turned into controller intents.

Shortcuts (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, H, Escape) work wherever the focus is, except in
text fields and dialogs; arrows, Enter/Space and F act on the focused card or pile of the
board (the board has one tab stop, moved by the arrows: a roving tabindex).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from js import document

from .board import BoardView
from .controller import Controller
from .pointer import locate


class KeyboardInput:
    def __init__(
        self,
        board_el: Any,
        view: BoardView,
        controller: Controller,
        act: Callable[..., None],
        listen: Callable[[Any, str, Any], None],
    ) -> None:
        self.board_el = board_el
        self.view = view
        self.controller = controller
        self.act = act
        listen(document, "keydown", self.on_keydown)

    def on_keydown(self, ev: Any) -> None:
        target = ev.target
        tag = str(getattr(target, "tagName", "") or "").lower()
        on_board = bool(self.board_el.contains(target))
        pile, index = locate(self.view, target) if on_board else (None, None)
        handled: list[bool] = []

        def run() -> None:
            handled.append(
                self.controller.key(
                    str(ev.key),
                    ctrl=bool(ev.ctrlKey or ev.metaKey),
                    shift=bool(ev.shiftKey),
                    alt=bool(ev.altKey),
                    repeat=bool(ev.repeat),
                    in_dialog=bool(document.querySelector("dialog[open]")),
                    typing=tag in ("input", "select", "textarea"),
                    on_board=on_board,
                    pile=pile,
                    index=index,
                )
            )

        self.act(run)
        if handled and handled[0]:
            ev.preventDefault()
