"""Keys: the document's keydown turned into controller intents.

Shortcuts (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, H, Escape) work wherever the focus is, except in
text fields and dialogs; arrows, Enter/Space and F act on the focused card or pile of the
board (the board has one tab stop, moved by the arrows: a roving tabindex).
"""

from __future__ import annotations

from typing import Any

from js import document

from .pointer import locate
from .wiring import Wiring


class KeyboardInput:
    def __init__(self, wiring: Wiring) -> None:
        self.wiring = wiring
        wiring.listen(document, "keydown", self.on_keydown)

    def on_keydown(self, ev: Any) -> None:
        w = self.wiring
        target = ev.target
        tag = str(getattr(target, "tagName", "") or "").lower()
        on_board = bool(w.board_el.contains(target))
        pile, index = locate(w.view, target) if on_board else (None, None)
        handled: list[bool] = []

        def run() -> None:
            handled.append(
                w.controller.key(
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

        w.act(run)
        if handled and handled[0]:
            ev.preventDefault()
