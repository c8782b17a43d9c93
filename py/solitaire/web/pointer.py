"""Mouse, pen and finger on the board: DOM pointer events turned into controller intents.

One set of listeners on the board (event delegation). A press becomes a drag once it has
moved a few pixels (``controller.gestures.pointer_move``, whose ``DragStart`` and ``DragTo``
effects app.py carries out); during a drag the board holds the pointer capture, so the group
keeps following a finger that leaves the board. Only the board's own
``lostpointercapture`` cancels a drag: a card that had the capture (a touch press captures
its target implicitly) loses it when the board takes it over, and that event bubbles up
to the board's listener, where it must not be taken for a cancel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..piles import PileRef
from .board import BoardView
from .wiring import Wiring


def locate(view: BoardView, target: Any) -> tuple[PileRef | None, int | None]:
    """The pile (and card index) of a DOM node on the board."""
    # (DOM lookups give JS null, which is falsy in Python but not None)
    if not target or not hasattr(target, "closest"):
        return None, None
    pile_el = target.closest(".pile")
    name = pile_el.getAttribute("data-pile") if pile_el else None
    if not name:
        return None, None
    try:
        pile = PileRef.parse(str(name))
    except ValueError:
        return None, None
    card_el = target.closest(".card")
    index = view.index_of(pile, card_el) if card_el else None
    return pile, index


class PointerInput:
    def __init__(
        self, wiring: Wiring, flush: Callable[[], None], act_on_hand: Callable[..., None]
    ) -> None:
        self.board_el = board_el = wiring.board_el
        self.view = wiring.view
        self.controller = wiring.controller
        self.act = wiring.act
        self.flush = flush  # ends a running step animation
        self.act_on_hand = act_on_hand  # a drag's move: its effects and the marks (App)
        listen = wiring.listen
        listen(board_el, "pointerdown", self.on_down)
        listen(board_el, "pointermove", self.on_move)
        listen(board_el, "pointerup", self.on_up)
        listen(board_el, "pointercancel", self.on_cancel)
        listen(board_el, "lostpointercapture", self.on_lost_capture)
        listen(board_el, "dblclick", self.on_dblclick)
        listen(board_el, "contextmenu", lambda ev: ev.preventDefault())

    def on_down(self, ev: Any) -> None:
        touch = ev.pointerType != "mouse"
        if not touch and ev.button != 0:
            return
        if self.controller.ui.hand.press is not None:
            return
        pile, index = locate(self.view, ev.target)
        if pile is None:
            self.flush()
        self.act(
            self.controller.gestures.pointer_down,
            pile,
            index,
            float(ev.clientX),
            float(ev.clientY),
            int(ev.pointerId),
            touch,
        )

    def on_move(self, ev: Any) -> None:
        controller = self.controller
        press = controller.ui.hand.press
        if press is None or ev.pointerId != press.pointer_id:
            return
        if controller.ui.hand.drag is None:
            # cards still moving are put in place first: the drag measures the pressed card's
            # box, which must be its home, not a point of a glide back from a refused drop
            self.flush()
            self.view.clear_returning()
        self.act_on_hand(
            controller.gestures.pointer_move,
            int(ev.pointerId),
            float(ev.clientX),
            float(ev.clientY),
        )

    def on_up(self, ev: Any) -> None:
        self.act(
            self.controller.gestures.pointer_up,
            int(ev.pointerId),
            float(ev.clientX),
            float(ev.clientY),
        )

    def on_cancel(self, ev: Any) -> None:
        self.act(self.controller.gestures.pointer_cancel, int(ev.pointerId))

    def on_lost_capture(self, ev: Any) -> None:
        if ev.target != self.board_el:
            return  # a card handing its implicit (touch) capture over to the board
        self.on_cancel(ev)

    def on_dblclick(self, ev: Any) -> None:
        pile, index = locate(self.view, ev.target)
        self.act(self.controller.gestures.double_click, pile, index)
