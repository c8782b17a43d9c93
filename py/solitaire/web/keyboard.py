"""Keys: the document's keydown turned into controller intents.

The shortcuts (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y, H, N, ?, Escape) work wherever the focus is,
the game picker and the toolbar's buttons included, except in text fields and dialogs; arrows,
Enter/Space and F act on the focused card or pile of the board (the board has one tab stop,
moved by the arrows: a roving tabindex). Which key does what: ``Controller.key``.
"""

from __future__ import annotations

from typing import Any

from js import document

from .pointer import locate
from .wiring import Wiring

#: ``<input>`` types that take no typed text: a key on them is not typing.
NOT_TEXT_INPUTS = frozenset({"checkbox", "radio", "button", "submit", "reset", "range", "color"})


def is_text_field(el: Any) -> bool:
    """Whether keys typed on ``el`` are text (the deal-number input, a text area): a
    shortcut's letter there is the player's input, not a command."""
    if not el:
        return False
    tag = str(getattr(el, "tagName", "") or "").lower()
    if tag == "textarea" or bool(getattr(el, "isContentEditable", False)):
        return True
    return tag == "input" and str(el.type).lower() not in NOT_TEXT_INPUTS


class KeyboardInput:
    def __init__(self, wiring: Wiring) -> None:
        self.wiring = wiring
        wiring.listen(document, "keydown", self.on_keydown)

    def on_keydown(self, ev: Any) -> None:
        w = self.wiring
        target = ev.target
        on_board = bool(w.board_el.contains(target))
        pile, index = locate(w.view, target) if on_board else (None, None)
        handled: list[bool] = []

        def run() -> None:
            handled.append(
                w.controller.keys.press(
                    str(ev.key),
                    ctrl=bool(ev.ctrlKey or ev.metaKey),
                    shift=bool(ev.shiftKey),
                    alt=bool(ev.altKey),
                    repeat=bool(ev.repeat),
                    in_dialog=bool(document.querySelector("dialog[open]")),
                    typing=is_text_field(target),
                    on_board=on_board,
                    pile=pile,
                    index=index,
                )
            )

        w.act(run)
        if handled and handled[0]:
            ev.preventDefault()
