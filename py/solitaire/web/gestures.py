"""Pointer gestures as intents: press, drag and drop, tap and double-tap.

A press on a card becomes a drag once it has moved a few pixels; a press that comes up
where it went down is a tap (``Controller.activate``). A second tap on the same card, soon,
with no move made by either tap, is a double-tap: the card goes to a foundation. The drop
target is the pile the dragged group overlaps most (a legal one first). Pure logic over
the controller's state (``UIState.hand``: its press, drag and last tap): no browser.
"""

from __future__ import annotations

from ..cards import card_symbol
from ..piles import STOCK, PileRef
from ..position import Move
from .ports import Table
from .state import Drag, DragBack, DragStart, DragTo, Press, Redraw, Shake, Tap, TapCycle
from .tap_moves import tap_moves
from .text import pile_title

DRAG_THRESHOLD = 6  # CSS px before a mouse press becomes a drag
TOUCH_DRAG_THRESHOLD = 9  # the same for a finger
DOUBLE_TAP_MS = 400
TAP_AGAIN_MS = 3000  # a one-tap move can be sent on to the next place this long after


def drop_target(drag: Drag, dx: float, dy: float) -> PileRef | None:
    """The pile the dragged group is over: None while it is mostly over its own pile, else
    the legal pile it overlaps most, else the pile it overlaps most."""
    left, top, right, bottom = drag.lead
    left, right, top, bottom = left + dx, right + dx, top + dy, bottom + dy
    best: tuple[float, PileRef] | None = None
    best_legal: tuple[float, PileRef] | None = None
    for pile, (pl, pt, pr, pb) in drag.rects.items():
        w = min(right, pr) - max(left, pl)
        h = min(bottom, pb) - max(top, pt)
        if w <= 0 or h <= 0:
            continue
        area = w * h
        if best is None or area > best[0]:
            best = (area, pile)
        if pile in drag.targets and (best_legal is None or area > best_legal[0]):
            best_legal = (area, pile)
    if best is not None and best[1] == drag.pile:
        return None
    if best_legal is not None:
        return best_legal[1]
    return best[1] if best is not None else None


class Gestures:
    def __init__(self, controller: Table) -> None:
        self.c = controller

    def pointer_down(
        self,
        pile: PileRef | None,
        index: int | None,
        x: float,
        y: float,
        pointer_id: int,
        touch: bool,
    ) -> None:
        ui = self.c.ui
        if ui.hand.press is not None:
            return
        if touch:
            ui.hand.last_touch = self.c.now()
        if pile is None:
            ui.hand.selection = None
            return
        ui.hand.press = Press(pile, index, x, y, pointer_id, touch)

    def pointer_move(self, pointer_id: int, x: float, y: float) -> None:
        """The pointer moved: past a few pixels a press becomes a drag (``DragStart``), and
        the dragged group follows (``DragTo``) with the pile under it marked."""
        ui = self.c.ui
        press = ui.hand.press
        if press is None or pointer_id != press.pointer_id:
            return
        dx, dy = x - press.x, y - press.y
        drag = ui.hand.drag
        if drag is None:
            limit = TOUCH_DRAG_THRESHOLD if press.touch else DRAG_THRESHOLD
            if dx * dx + dy * dy < limit * limit or not self.start_drag(press):
                return
            drag = ui.hand.drag
            assert drag is not None
            self.c.emit(DragStart(drag.cards, pointer_id))
        target = drop_target(drag, dx, dy)
        drag.hover = target if target in drag.targets else None
        self.c.emit(DragTo(dx, dy))

    def start_drag(self, press: Press) -> bool:
        pile, index = press.pile, press.index
        if index is None or self.c.selectable(pile, index) != index:
            return False
        self.c.ui.hand.selection = None
        self.c.clear_hint()
        cards = tuple(self.c.position.pile(pile)[index:])
        self.c.ui.hand.drag = Drag(
            pile=pile,
            cards=cards,
            targets=self.c.legal_targets(pile, len(cards)),
            rects=self.c.geometry.pile_rects(),
            lead=self.c.geometry.card_rect(cards[0]),
        )
        return True

    def pointer_up(self, pointer_id: int, x: float, y: float) -> None:
        ui = self.c.ui
        press = ui.hand.press
        if press is None or pointer_id != press.pointer_id:
            return
        ui.hand.press = None
        if ui.hand.drag is not None:
            self.drop(x - press.x, y - press.y)
            return
        moves_before = self.c.game.move_count
        if self.c.tap_move_on and self.c.ui.hand.selection is None and press.index is not None:
            self.tap_move(press.pile, press.index)
        else:
            self.c.activate(press.pile, press.index)
        if press.touch:
            self.touch_tap(press.pile, press.index, moves_before)

    def tap_move(self, pile: PileRef, index: int) -> None:
        """ "Tap a card to move it": play the tapped card (and the cards on it) to its best
        place (``tap_moves``); the same card tapped again soon goes on to the next place."""
        c = self.c
        position = c.position
        cards = position.pile(pile)
        cycle = c.ui.hand.tap_cycle
        c.ui.hand.tap_cycle = None
        if (
            cycle is not None
            and 0 <= index < len(cards)
            and cards[index] == cycle.card
            and cycle.moves == c.game.move_count
            and c.now() - cycle.time < TAP_AGAIN_MS
        ):
            if not cycle.remaining:
                c.toast(f"The {card_symbol(cycle.card)} has no other place to go.")
                c.emit(Shake((cycle.card,)))
                return
            c.game.undo()  # the last place is replaced by the next (one move in the history)
            nxt = cycle.remaining[0]
            c.game.play(nxt)
            c.emit(Redraw())
            c.announce(f"Moved on to {pile_title(nxt.target).lower()}.")
            c.after_change(player=True)
            c.ui.hand.tap_cycle = TapCycle(
                cycle.card, c.now(), c.game.move_count, cycle.remaining[1:]
            )
            return
        pick = c.selectable(pile, index)
        if pick is None or pile == STOCK:
            c.activate(pile, index)
            return
        moves = tap_moves(position, pile, pick)
        if not moves:
            group = len(cards) - pick
            # "the 8 on it" read as a card of rank 8: say "cards"
            on_it = "the card" if group == 2 else f"the {group - 1} cards"
            what = f"The {card_symbol(cards[pick])}" + (
                f" and {on_it} on it have" if group > 1 else " has"
            )
            c.toast(f"{what} nowhere to go.")
            c.emit(Shake(tuple(cards[pick:])))
            return
        if c.play(moves[0]):
            c.ui.hand.tap_cycle = TapCycle(
                cards[pick], c.now(), c.game.move_count, tuple(moves[1:])
            )

    def touch_tap(self, pile: PileRef, index: int | None, moves_before: int) -> None:
        """A second tap on the same card, soon after the first, with no move made by either
        tap or between them, is a double-tap (mice get the browser's dblclick event)."""
        now = self.c.now()
        last = self.c.ui.hand.last_tap
        moved = self.c.game.move_count != moves_before
        self.c.ui.hand.last_tap = None if moved else Tap(now, pile, index, moves_before)
        if (
            not moved
            and last is not None
            and (last.pile, last.index) == (pile, index)
            and last.moves == moves_before
            and now - last.time < DOUBLE_TAP_MS
        ):
            self.c.ui.hand.last_tap = None
            self.c.to_foundation(pile, index)

    def pointer_cancel(self, pointer_id: int) -> None:
        press = self.c.ui.hand.press
        if press is None or pointer_id != press.pointer_id:
            return
        self.c.ui.hand.press = None
        self.c.cancel_drag()

    def drop(self, dx: float, dy: float) -> None:
        drag = self.c.ui.hand.drag
        self.c.ui.hand.drag = None
        if drag is None:
            return
        target = drop_target(drag, dx, dy)
        if target is None:
            self.c.emit(DragBack(drag.cards))
            return
        move = Move(drag.pile, target, len(drag.cards))
        reason = self.c.position.why_illegal(move)
        if reason is not None:
            self.c.emit(DragBack(drag.cards))
            self.c.toast(reason)
            return
        self.c.play(move, dragged=drag.cards)

    def double_click(self, pile: PileRef | None, index: int | None) -> None:
        if self.c.now() - self.c.ui.hand.last_touch < 1000:
            return  # a touch double-tap: handled in pointer_up
        if pile is None or index is None:
            return
        self.c.to_foundation(pile, index)
