"""The page's controller under CPython: taps, clicks, drags, keys, hints and verdicts turned
into engine moves, a new UI state and the effects the page shows. No browser: a
``MemoryBackend`` store, a clock the tests move, and fake geometry (each pile a rectangle of
a grid built from the game's layout)."""

from __future__ import annotations

import pytest

from solitaire import Game, Move, Position
from solitaire.piles import FOUNDATION, STOCK, TABLEAU, WASTE, PileRef
from solitaire.solver import WINNABLE, solve
from solitaire.solver.hints import hint
from solitaire.web import state as fx
from solitaire.web.advice import HINT_BUDGETS, worth_stopping
from solitaire.web.controller import Controller
from solitaire.web.dealing import valid_deal_text
from solitaire.web.documents import Saved, Settings, Stats
from solitaire.web.gestures import DOUBLE_TAP_MS, drop_target
from solitaire.web.state import Drag, Rect
from solitaire.web.store import MemoryBackend, Store
from solitaire.web.tap_moves import goes_up_safely, tap_moves
from solitaire.web.text import deal_link, stats_table_html, won_html

W, H = 60.0, 84.0  # a card, in the fake geometry's px


class Clock:
    def __init__(self) -> None:
        self.ms = 10_000.0

    def __call__(self) -> float:
        return self.ms


class Winnable:
    def __init__(self, lists: dict[str, list[int] | None] | None = None) -> None:
        self.lists = lists or {}

    def known(self, game_id: str) -> bool:
        return game_id in self.lists

    def get(self, game_id: str) -> list[int] | None:
        return self.lists.get(game_id)

    def pick(self, deals: list[int], avoid: int | None = None) -> int:
        return next(d for d in deals if d != avoid)


class Grid:
    """Piles on a grid: the top row at y 0, the tableau at y 120 (each pile 600 px tall)."""

    def __init__(self, controller: Controller | None = None) -> None:
        self.controller = controller

    def pile_rects(self) -> dict[PileRef, Rect]:
        assert self.controller is not None
        table = self.controller.table
        rects: dict[PileRef, Rect] = {}
        for col, pile in enumerate(table.top_slots):
            if pile is not None:
                rects[pile] = (col * 70.0, 0.0, col * 70.0 + W, H)
        for col, pile in enumerate(table.tableau):
            rects[pile] = (col * 70.0, 120.0, col * 70.0 + W, 720.0)
        return rects

    def card_rect(self, card: int) -> Rect:
        assert self.controller is not None
        position = self.controller.position
        for pile, (left, top, right, _) in self.pile_rects().items():
            cards = position.pile(pile)
            if card in cards:
                y = top + 20 * cards.index(card)
                return (left, y, right, y + H)
        raise AssertionError("card not on the table")


def make(
    game_id: str = "russian",
    deal: int = 1,
    *,
    automove: bool = False,
    store: Store | None = None,
    winnable: Winnable | None = None,
) -> tuple[Controller, Clock]:
    store = store or Store(MemoryBackend())
    store.save_settings(Settings(automove=automove, winnable_only=False))
    clock = Clock()
    grid = Grid()
    c = Controller(store, winnable or Winnable(), grid, clock, random_deal=lambda g: 77)
    grid.controller = c
    c.deals.boot(f"#{game_id}/{deal}")
    c.take_effects()
    return c, clock


def kinds(effects: list[fx.Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def toasts(effects: list[fx.Effect]) -> list[str]:
    return [e.text for e in effects if isinstance(e, fx.Toast)]


def asked(c: Controller) -> list[fx.AskSolver]:
    """The solver calls among the controller's effects (which are taken)."""
    return [e for e in c.take_effects() if isinstance(e, fx.AskSolver)]


def tap(c: Controller, pile: PileRef, index: int | None, clock: Clock, touch: bool = True) -> None:
    """A tap (or a click) that comes up where it went down."""
    c.gestures.pointer_down(pile, index, 100.0, 100.0, 1, touch)
    clock.ms += 60
    c.gestures.pointer_up(1, 100.0, 100.0)
    clock.ms += 120


def top(c: Controller, pile: PileRef) -> int:
    return len(c.position.pile(pile)) - 1


# ----------------------------------------------------------------------------- boot, address


def test_boot_opens_the_address_and_reports_a_bad_one() -> None:
    c, _ = make("double-rail", 5)
    assert (c.game_id, c.game.deal) == ("double-rail", 5)
    store = Store(MemoryBackend())
    c2 = Controller(store, Winnable(), Grid(), Clock(), random_deal=lambda g: 77)
    c2.deals.boot("#klondike/3")
    effects = c2.take_effects()
    assert c2.game_id == "russian"
    notices = [e.text for e in effects if isinstance(e, fx.Notice)]
    assert notices
    assert "names no game" in notices[0]
    assert "Showing Russian Solitaire" in notices[0]
    assert fx.NewBoard() in effects


def test_address_change_opens_another_deal_and_repairs_a_broken_one() -> None:
    c, _ = make("russian", 1)
    c.deals.address_changed("#russian/9")
    assert c.game.deal == 9
    assert fx.SetAddress("#russian/9", False) in c.take_effects()
    c.deals.address_changed("#russian/zero")
    effects = c.take_effects()
    assert c.game.deal == 9  # nothing lost
    assert fx.SetAddress("#russian/9", False) in effects
    assert any(isinstance(e, fx.Notice) and "no valid deal number" in e.text for e in effects)


def test_choose_deal_validates_the_text() -> None:
    c, _ = make()
    assert c.deals.choose_deal("12x") == "Enter a whole number from 1 to 2147483647."
    assert c.game.deal == 1
    assert c.deals.choose_deal(" 42 ") is None
    assert c.game.deal == 42
    assert valid_deal_text("0") is None
    assert valid_deal_text("2147483648") is None
    assert valid_deal_text("²") is None


def test_new_deal_with_winnable_only_waits_for_the_list_then_draws_from_it() -> None:
    store = Store(MemoryBackend())
    lists = Winnable()
    c, _ = make(store=store, winnable=lists)
    c.settings_changed(Settings(automove=False, winnable_only=True))
    c.take_effects()
    c.new_deal()
    assert c.take_effects() == [fx.LoadWinnable("russian", "new")]
    assert c.game.deal == 1
    lists.lists["russian"] = [1, 5, 8]
    c.new_deal()
    assert c.game.deal == 5  # from the list, never the deal on the table


def test_a_started_game_is_abandoned_at_the_first_move_in_another_deal_once() -> None:
    c, _clock = make()
    deals = iter([2, 3])
    c.deals.random_playable = lambda game_id: next(deals)
    c.play(c.position.legal_moves()[0])
    stats = c.store.load_stats("russian")
    stats.streak = stats.best_streak = stats.won = 1  # as if a win came before
    c.store.save_stats("russian", stats)
    c.new_deal()
    assert c.game.deal == 2
    assert c.store.load_stats("russian").streak == 1  # not yet: Undo may bring it back
    c.play(c.position.legal_moves()[0])
    stats = c.store.load_stats("russian")
    assert (stats.played, stats.won, stats.streak) == (2, 1, 0)
    aside = c.store.load_game("russian", "aside")
    assert aside is not None
    assert aside.abandoned
    assert aside.game.deal == 1
    c.store.save_stats("russian", Stats(played=2, won=1, streak=1, best_streak=1))
    c.changes.continue_aside()  # back to deal 1; deal 2 (played) goes aside
    assert c.game.deal == 1
    c.play(c.position.legal_moves()[0])
    assert c.store.load_stats("russian").streak == 0  # deal 2 left for another deal
    c.store.save_stats("russian", Stats(played=2, won=1, streak=1, best_streak=1))
    c.new_deal()  # deal 3; deal 1 (charged already) goes aside
    c.play(c.position.legal_moves()[0])
    stats = c.store.load_stats("russian")
    assert (stats.played, stats.streak) == (3, 1)  # each game charged once, never twice


# ----------------------------------------------------------------------------- taps and clicks


def test_tap_picks_up_then_tap_on_a_target_plays() -> None:
    c, clock = make()
    move = Move.parse("3:tableau-3>tableau-5")
    source_index = len(c.position.pile(move.source)) - move.count
    tap(c, move.source, source_index, clock)
    selection = c.ui.hand.selection
    assert selection is not None
    assert selection.cards == c.position.pile(move.source)[source_index:]
    assert move.target in selection.targets
    selected, _hinted, targets, _hover = c.ui.marks()
    assert selected == selection.cards
    assert targets == selection.targets
    before = c.position
    c.take_effects()
    tap(c, move.target, top(c, move.target), clock)
    effects = c.take_effects()
    assert c.position == before.play(move)
    assert c.ui.hand.selection is None
    assert any(isinstance(e, fx.Show) and e.step == (move,) for e in effects)
    assert fx.SchedulePersist() in effects


def test_illegal_target_says_why_and_changes_nothing() -> None:
    c, clock = make()
    tap(c, TABLEAU[0], 0, clock)  # the 10♥
    before = c.position
    c.take_effects()
    tap(c, TABLEAU[1], top(c, TABLEAU[1]), clock)  # onto the 5♣
    effects = c.take_effects()
    assert c.position is before
    assert toasts(effects) == [
        "The 10♥ cannot go on the 5♣: build down by one rank in the same suit."
    ]
    assert any(isinstance(e, fx.Shake) for e in effects)


def test_face_down_and_foundation_cards_say_why_they_cannot_move() -> None:
    c, clock = make()
    tap(c, TABLEAU[3], 0, clock)
    assert toasts(c.take_effects()) == ["Face-down cards cannot be moved."]
    assert c.ui.hand.selection is None
    c.play(Move.parse("tableau-4>foundation-0"))
    c.take_effects()
    tap(c, FOUNDATION[0], 0, clock)
    assert toasts(c.take_effects()) == ["Cards never come back off a foundation."]


def test_tap_on_the_stock_deals() -> None:
    c, clock = make("double-rail", 3)
    stock = len(c.position.stock)
    tap(c, STOCK, None, clock)
    assert len(c.position.stock) == stock - 1


def test_double_tap_sends_a_card_to_its_foundation() -> None:
    c, clock = make()
    tap(c, TABLEAU[4], top(c, TABLEAU[4]), clock)  # picks up the A♦
    tap(c, TABLEAU[4], top(c, TABLEAU[4]), clock)  # puts it back ... and double-tap
    assert c.position.foundations[0] or any(c.position.foundations)
    assert c.game.move_count == 1


def test_taps_too_far_apart_are_not_a_double_tap() -> None:
    c, clock = make()
    tap(c, TABLEAU[4], top(c, TABLEAU[4]), clock)
    clock.ms += DOUBLE_TAP_MS
    tap(c, TABLEAU[4], top(c, TABLEAU[4]), clock)
    assert c.game.move_count == 0


def test_a_tap_that_moved_cards_starts_no_double_tap() -> None:
    """Tap a group's card, tap its target (the move happens), tap the target's card again at
    once: that picks the new group up; it is not a double-tap ("only the top card ...")."""
    c, clock = make()
    move = Move.parse("3:tableau-3>tableau-5")
    start = len(c.position.pile(move.source)) - move.count
    tap(c, move.source, start, clock)
    target_top = top(c, move.target)
    tap(c, move.target, target_top, clock)
    assert c.game.move_count == 1
    c.take_effects()
    tap(c, move.target, target_top, clock)
    effects = c.take_effects()
    assert toasts(effects) == []
    selection = c.ui.hand.selection
    assert selection is not None
    assert selection.pile == move.target
    assert selection.index == target_top
    assert len(selection.cards) == 1 + move.count


def test_dblclick_with_a_mouse_and_its_refusals() -> None:
    c, _clock = make()
    c.gestures.double_click(TABLEAU[4], top(c, TABLEAU[4]))
    assert c.game.move_count == 1
    c.take_effects()
    c.gestures.double_click(TABLEAU[1], 1)
    assert toasts(c.take_effects()) == ["Only the top card of a pile can go to a foundation."]
    c.gestures.double_click(TABLEAU[0], 0)
    assert toasts(c.take_effects()) == ["The 10♥ cannot go to a foundation yet."]


# ----------------------------------------------------------------------------- drag and drop


def drag(c: Controller, pile: PileRef, index: int, to: PileRef, touch: bool = False) -> None:
    rects = Grid(c).pile_rects()
    fx0, fy0 = rects[pile][0] + 10, rects[pile][1] + 10 + 20 * index
    tx, ty = rects[to][0] + 10, rects[to][1] + 10 + 20 * max(0, len(c.position.pile(to)) - 1)
    c.gestures.pointer_down(pile, index, fx0, fy0, 7, touch)
    c.take_effects()
    c.gestures.pointer_move(7, fx0 + 2, fy0 + 2)
    assert c.take_effects() == []  # under the threshold: still a press
    for k in range(1, 6):
        c.gestures.pointer_move(7, fx0 + (tx - fx0) * k / 5, fy0 + (ty - fy0) * k / 5)
    c.gestures.pointer_up(7, tx, ty)


@pytest.mark.parametrize("touch", [False, True])
def test_drag_a_group_onto_a_legal_pile(touch: bool) -> None:
    c, _ = make()
    move = Move.parse("3:tableau-3>tableau-5")
    start = len(c.position.pile(move.source)) - move.count
    cards = c.position.pile(move.source)[start:]
    before = c.position
    drag(c, move.source, start, move.target, touch)
    effects = c.take_effects()
    assert c.position == before.play(move)
    shows = [e for e in effects if isinstance(e, fx.Show)]
    assert shows
    assert shows[0].dragged == cards
    assert c.ui.hand.drag is None
    assert c.ui.hand.press is None


def test_drag_shows_targets_and_hover_while_moving() -> None:
    c, _ = make()
    move = Move.parse("3:tableau-3>tableau-5")
    start = len(c.position.pile(move.source)) - move.count
    rects = Grid(c).pile_rects()
    x0, y0 = rects[move.source][0] + 5, rects[move.source][1] + 5
    c.gestures.pointer_down(move.source, start, x0, y0, 3, False)
    dx = rects[move.target][0] - rects[move.source][0]
    c.take_effects()
    c.gestures.pointer_move(3, x0 + dx, y0 + 300)
    cards = c.position.pile(move.source)[start:]
    assert c.take_effects() == [fx.DragStart(cards, 3), fx.DragTo(dx, 300)]
    c.gestures.pointer_move(3, x0 + dx, y0 + 310)
    assert c.take_effects() == [fx.DragTo(dx, 310)]  # the drag goes on: no second start
    assert c.ui.hand.drag is not None
    _, _, targets, hover = c.ui.marks()
    assert move.target in targets
    assert hover == move.target


def test_illegal_drop_glides_back_and_says_why() -> None:
    c, _ = make()
    before = c.position
    drag(c, TABLEAU[0], 0, TABLEAU[1])
    effects = c.take_effects()
    assert c.position is before
    assert any(isinstance(e, fx.DragBack) for e in effects)
    assert toasts(effects) == [
        "The 10♥ cannot go on the 5♣: build down by one rank in the same suit."
    ]


def test_cancelled_pointer_puts_the_group_back() -> None:
    c, _ = make()
    c.gestures.pointer_down(TABLEAU[0], 0, 10, 130, 9, True)
    c.gestures.pointer_move(9, 10, 200)
    assert c.ui.hand.drag is not None
    c.gestures.pointer_cancel(9)
    assert c.ui.hand.drag is None
    assert c.ui.hand.press is None
    assert any(isinstance(e, fx.DragBack) for e in c.take_effects())


def test_drop_target_prefers_the_legal_pile_and_ignores_its_own() -> None:
    a, b, own = TABLEAU[1], TABLEAU[2], TABLEAU[0]
    rects = {own: (0.0, 0.0, 60.0, 84.0), a: (70.0, 0.0, 130.0, 84.0), b: (140.0, 0.0, 200.0, 84.0)}
    d = Drag(own, (1,), frozenset({b}), rects, (0.0, 0.0, 60.0, 84.0))
    assert drop_target(d, 5, 0) is None  # still mostly over its own pile
    assert drop_target(d, 100, 0) == b  # overlaps a most, but only b is legal
    d = Drag(own, (1,), frozenset(), rects, (0.0, 0.0, 60.0, 84.0))
    assert drop_target(d, 70, 0) == a
    assert drop_target(d, 500, 0) is None


# ----------------------------------------------------------------------------- keys


def focus_effects(c: Controller) -> list[tuple[PileRef, int | None]]:
    return [(e.pile, e.index) for e in c.take_effects() if isinstance(e, fx.Focus)]


def test_arrows_move_the_focus_along_rows_and_up_and_down() -> None:
    c, _ = make()
    table = c.table
    assert c.keys.press("ArrowRight", on_board=True, pile=TABLEAU[0], index=0)
    assert focus_effects(c) == [(TABLEAU[1], top(c, TABLEAU[1]))]
    assert c.keys.press("ArrowLeft", on_board=True, pile=TABLEAU[0], index=0)
    assert focus_effects(c) == [(TABLEAU[6], top(c, TABLEAU[6]))]  # wraps around
    # up a pile's face-up cards, then to the nearest pile of the top row
    t5 = TABLEAU[5]
    down = c.position.down[5]
    assert c.keys.press("ArrowUp", on_board=True, pile=t5, index=down + 1)
    assert focus_effects(c) == [(t5, down)]
    assert c.keys.press("ArrowUp", on_board=True, pile=t5, index=down)
    ((pile, _),) = focus_effects(c)
    assert pile in table.top
    assert pile == table.nearest(table.top, table.column(t5))
    assert c.keys.press("ArrowDown", on_board=True, pile=pile, index=None)
    ((back, _),) = focus_effects(c)
    assert back in table.tableau


class StockBelow(Grid):
    """Double Rail as an upright phone draws it (web/style.css): the foundations in two rows
    of four over columns 1-4 of five, the tableau, then waste and stock in columns 3 and 4."""

    def pile_rects(self) -> dict[PileRef, Rect]:
        rects = {p: r for p, r in super().pile_rects().items() if p.kind == "tableau"}
        rects = {p: (r[0], r[1] + 70.0, r[2], r[3] + 70.0) for p, r in rects.items()}
        for i in range(8):
            x, y = (1 + i % 4) * 70.0, (i // 4) * 90.0
            rects[PileRef("foundation", i)] = (x, y, x + W, y + H)
        rects[WASTE] = (210.0, 800.0, 210.0 + W, 800.0 + H)
        rects[STOCK] = (280.0, 800.0, 280.0 + W, 800.0 + H)
        return rects


def test_the_arrows_follow_a_stock_drawn_below_the_tableau() -> None:
    c, _ = make("double-rail", 2)
    grid = StockBelow(c)
    c.geometry = grid
    # from the end of a tableau pile down to the nearest of waste and stock, and back up
    assert c.keys.press("ArrowDown", on_board=True, pile=TABLEAU[4], index=0)
    assert focus_effects(c) == [(STOCK, top(c, STOCK))]
    assert c.keys.press("ArrowDown", on_board=True, pile=STOCK, index=None)
    assert focus_effects(c) == []  # nothing below
    assert c.keys.press("ArrowLeft", on_board=True, pile=STOCK, index=None)
    assert focus_effects(c) == [(WASTE, None)]  # the bottom row: waste and stock
    assert c.keys.press("ArrowLeft", on_board=True, pile=WASTE, index=None)
    assert focus_effects(c) == [(STOCK, top(c, STOCK))]
    assert c.keys.press("ArrowUp", on_board=True, pile=WASTE, index=None)
    assert focus_effects(c) == [(TABLEAU[3], 0)]
    # from the tableau up to the foundations (the lower of their two rows), then the upper
    assert c.keys.press("ArrowUp", on_board=True, pile=TABLEAU[3], index=0)
    ((pile, _),) = focus_effects(c)
    assert pile == PileRef("foundation", 6)
    assert c.keys.press("ArrowRight", on_board=True, pile=PileRef("foundation", 7), index=None)
    assert focus_effects(c) == [(PileRef("foundation", 0), None)]  # the foundations' row
    assert c.keys.press("ArrowDown", on_board=True, pile=PileRef("foundation", 0), index=None)
    assert focus_effects(c) == [(TABLEAU[1], 0)]
    # drawn at the top (a mouse's window), the stock is in the top row as before
    c.geometry = Grid(c)
    assert c.keys.press("ArrowDown", on_board=True, pile=TABLEAU[4], index=0)
    assert focus_effects(c) == []
    assert c.keys.press("ArrowDown", on_board=True, pile=STOCK, index=None)
    ((pile, _),) = focus_effects(c)
    assert pile in c.table.tableau


def test_enter_picks_up_and_plays_escape_puts_back() -> None:
    c, _ = make()
    move = Move.parse("3:tableau-3>tableau-5")
    start = len(c.position.pile(move.source)) - move.count
    assert c.keys.press("Enter", on_board=True, pile=move.source, index=start)
    assert c.ui.hand.selection is not None
    assert c.keys.press("Escape", on_board=True, pile=move.source, index=start)
    assert c.ui.hand.selection is None
    c.keys.press(" ", on_board=True, pile=move.source, index=start)
    c.keys.press("Enter", on_board=True, pile=move.target, index=top(c, move.target))
    assert c.game.move_count == 1
    assert c.keys.press("z", ctrl=True)  # undo, wherever the focus is
    assert c.game.move_count == 0
    assert c.keys.press("Z", ctrl=True, shift=True)
    assert c.game.move_count == 1
    assert c.keys.press("f", on_board=True, pile=TABLEAU[4], index=None)
    assert c.game.move_count == 2  # the A♦ to its foundation


def test_keys_in_dialogs_and_text_fields_are_left_alone() -> None:
    c, _ = make()
    assert not c.keys.press("z", ctrl=True, in_dialog=True)
    assert not c.keys.press("h", typing=True)
    assert not c.keys.press("ArrowLeft", on_board=False)
    assert not c.keys.press("q", on_board=True, pile=TABLEAU[0], index=0)
    assert c.game.move_count == 0
    assert c.take_effects() == []


# ----------------------------------------------------------------------------- undo, restart


def test_undo_redo_restart_and_their_words() -> None:
    c, _ = make()
    c.undo()
    assert fx.Announce("Nothing to undo.") in c.take_effects()
    c.play(Move.parse("tableau-4>foundation-0"))
    c.undo()
    effects = c.take_effects()
    assert fx.Redraw() in effects
    assert fx.Announce("Undone. 0 moves.") in effects
    c.redo()
    assert c.game.move_count == 1
    c.deals.restart()
    assert c.game.move_count == 0
    assert "Restarted deal 1." in toasts(c.take_effects())


# ----------------------------------------------------------------------------- hints, verdicts


def test_hint_asks_the_solver_and_marks_the_answer() -> None:
    c, _ = make()
    c.advice.hint()
    (ask,) = asked(c)
    assert ask.what == "hint"
    assert ask.position is c.position
    assert c.ui.hint.kind == "thinking"
    c.advice.hint()  # already thinking about this position
    assert c.take_effects() == []
    c.advice.hint_answered(ask.position, {"kind": "winning", "move": "tableau-4>foundation-0"})
    assert c.ui.hint.kind == "winning"
    _, hinted, targets, _ = c.ui.marks()
    assert hinted == c.position.tableau[4][-1:]
    assert targets == frozenset({FOUNDATION[0]})
    text = toasts(c.take_effects())[0]
    assert text.startswith("Hint: move the Ace of diamonds to foundation 1. It leads to a win.")
    c.advice.clear_hint()
    assert c.ui.marks()[1] == ()


def test_a_hint_answer_about_an_old_position_is_dropped() -> None:
    c, _ = make()
    c.advice.hint()
    (ask,) = asked(c)
    c.play(Move.parse("tableau-4>foundation-0"))
    assert c.ui.hint.kind == ""
    c.take_effects()
    c.advice.hint_answered(ask.position, {"kind": "winning", "move": "tableau-4>foundation-0"})
    assert c.take_effects() == []
    assert c.ui.marks()[1] == ()


def test_hint_errors_and_nonsense_answers() -> None:
    c, _ = make()
    c.advice.hint()
    c.take_effects()
    c.advice.hint_answered(c.position, {"error": "the solver could not start (boom)"})
    assert c.ui.hint.kind == "error"
    assert toasts(c.take_effects()) == ["No hint: the solver could not start (boom)."]
    c.advice.hint()
    c.take_effects()
    c.advice.hint_answered(c.position, {"kind": "winning", "move": "nonsense"})
    assert c.ui.hint.kind == ""


def test_hints_along_a_proved_line_come_from_it_without_the_solver() -> None:
    """Double FreeCell deal 7 with the auto-moves on: the first hint's answer carries its
    winning line (as the worker's ``hint`` sends it); the next hints are its moves, at once,
    proved, without asking the worker, until the player leaves the line."""
    c, _ = make("double-freecell", 7, automove=True)
    c.advice.hint()
    (ask,) = asked(c)
    assert ask.budget == HINT_BUDGETS[0]
    answer = hint(ask.position, 10.0)
    assert answer["kind"] == "winning"
    c.advice.hint_answered(ask.position, answer)
    assert (c.ui.hint.kind, c.ui.hint.from_line) == ("winning", False)
    c.take_effects()
    for shown in range(2, 12):
        move = c.ui.hint.move
        assert move is not None
        c.play(move)
        c.take_effects()
        c.advice.hint()
        effects = c.take_effects()
        assert not [e for e in effects if isinstance(e, fx.AskSolver)]
        assert (c.ui.hint.kind, c.ui.hint.from_line) == ("winning", True)
        assert c.position.why_illegal(c.ui.hint.move) is None
        assert "It leads to a win." in toasts(effects)[0]
        assert c.saved.hints == shown
    assert solve(c.position, budget=None, max_nodes=200_000).result == WINNABLE

    # Undo twice: back on the line, answered from it again.
    c.undo()
    c.undo()
    c.take_effects()
    c.advice.hint()
    assert not asked(c)
    assert c.ui.hint.from_line

    # Another move leaves the line: the worker is asked again.
    hinted = c.ui.hint.move
    other = next(
        m for m in c.position.legal_moves() if m != hinted and not c.position.is_pointless(m)
    )
    c.play(other)
    c.take_effects()
    c.advice.hint()
    (ask,) = asked(c)
    assert ask.position is c.position
    assert c.ui.hint.kind == "thinking"


def test_a_hint_answered_from_the_line_drops_the_answer_still_coming() -> None:
    c, _ = make("double-freecell", 7, automove=True)
    c.advice.hint()
    (ask,) = asked(c)
    c.advice.hint_answered(ask.position, hint(ask.position, 10.0))
    move = c.ui.hint.move
    # a move off the line, and a hint asked of the worker there...
    c.play(next(m for m in c.position.legal_moves() if m != move))
    c.take_effects()
    c.advice.hint()
    (stale,) = asked(c)
    # ...then Undo, back onto the line, and a hint from it while the worker still thinks
    c.undo()
    c.take_effects()
    c.advice.hint()
    assert not asked(c)
    assert (c.ui.hint.kind, c.ui.hint.move, c.ui.hint.from_line) == ("winning", move, True)
    c.advice.hint_answered(stale.position, {"kind": "heuristic", "move": str(move)})
    assert c.take_effects() == []
    assert (c.ui.hint.kind, c.ui.hint.move, c.ui.hint.from_line) == ("winning", move, True)


def test_asking_again_after_an_unproved_hint_searches_longer() -> None:
    c, _ = make("double-rail", 3)
    budgets = []
    for _ in range(4):
        c.advice.hint()
        effects = c.take_effects()
        (ask,) = [e for e in effects if isinstance(e, fx.AskSolver)]
        budgets.append(ask.budget)
        if ask.budget > HINT_BUDGETS[0]:
            assert toasts(effects) == [
                f"Searching longer for a sure win (up to {ask.budget:g} s); you can keep playing."
            ]
        else:
            assert toasts(effects) == []
        c.advice.hint_answered(ask.position, {"kind": "heuristic", "move": "stock>waste"})
        text = toasts(c.take_effects())[0]
        assert text.startswith(
            "Hint (not proved): deal a card from the stock. "
            f"No sure win was found in {ask.budget:g} s;"
        )
        assert ("Ask again to search longer." in text) == (ask.budget < HINT_BUDGETS[-1])
    assert budgets == [2.0, 10.0, 30.0, 30.0]
    assert list(HINT_BUDGETS) == budgets[:3]

    # a move, or a proved answer, starts again from the short search
    c.play(Move.parse("stock>waste"))
    c.take_effects()
    c.advice.hint()
    (ask,) = asked(c)
    assert ask.budget == HINT_BUDGETS[0]
    c.advice.hint_answered(ask.position, {"kind": "winning", "move": "stock>waste"})
    c.take_effects()
    c.advice.hint()
    (ask,) = asked(c)
    assert ask.budget == HINT_BUDGETS[0]


def test_a_new_hint_stops_only_a_longer_stale_search_with_time_left() -> None:
    assert not worth_stopping([], 0.0)
    assert not worth_stopping([("hint", 0.0, 2.0)], 100.0)  # a first, short search
    assert worth_stopping([("hint", 0.0, 10.0)], 6_900.0)  # 3.1 s left
    assert not worth_stopping([("hint", 0.0, 10.0)], 7_100.0)  # 2.9 s left: wait
    assert worth_stopping([("hint", 0.0, 2.0), ("hint", 1_000.0, 30.0)], 20_000.0)
    assert not worth_stopping([("was_winnable", 0.0, 8.0), ("hint", 0.0, 30.0)], 100.0)


def stuck_game() -> Game:
    """Russian deal 1 played until no move is left (first legal move each time)."""
    game = Game.new("russian", 1, automove=False)
    while not game.position.is_stuck():
        game.play(game.position.legal_moves()[0])
    return game


def test_stuck_game_warms_the_solver_and_the_verdict_offers_an_undo() -> None:
    store = Store(MemoryBackend())
    game = stuck_game()
    store.save_game(Saved(game, counted=True))
    c, _ = make(store=store, deal=1)
    assert c.ui.progress.status == "stuck"
    c.undo()
    c.redo()
    effects = c.take_effects()
    assert fx.WarmSolver() in effects
    c.advice.ask_verdict()
    (ask,) = asked(c)
    assert ask.what == "was_winnable"
    assert c.ui.verdict.state == "thinking"
    answer = {
        "from_start": "winnable",
        "last_winnable_step": 2,
        "first_lost_step": 3,
        "exact": True,
    }
    c.advice.verdict_answered(ask.position, answer)
    verdict = c.ui.verdict
    assert verdict.state == "winnable"
    assert verdict.step == 2
    assert verdict.text.startswith(
        "This deal was winnable. You could still have won before move 3."
    )
    c.advice.undo_to_verdict()
    assert c.game.move_count == 2
    assert c.ui.progress.status == "playing"


def test_stuck_hint_says_lost_without_the_solver() -> None:
    store = Store(MemoryBackend())
    store.save_game(Saved(stuck_game(), counted=True))
    c, _ = make(store=store)
    c.advice.hint()
    effects = c.take_effects()
    assert not any(e.what == "hint" for e in effects if isinstance(e, fx.AskSolver))
    assert c.ui.hint.kind == "lost"
    assert c.ui.hint.move is None
    # the stuck banner shows the search for the way back: the toast does not say it again
    assert toasts(effects)[0].startswith(
        "This deal can no longer be won from here. No move is left."
    )
    assert "Looking for" not in toasts(effects)[0]
    (ask,) = [e for e in effects if isinstance(e, fx.AskSolver)]
    assert ask.what == "was_winnable"
    assert c.ui.verdict.state == "thinking"


# ----------------------------------------------------------------------------- the clock, a win


def test_the_clock_runs_from_the_first_move_and_pauses_when_hidden() -> None:
    c, clock = make()
    clock.ms += 5000
    c.tick()
    assert c.game.elapsed == 0
    c.play(Move.parse("tableau-4>foundation-0"))
    clock.ms += 3000
    c.tick()
    assert c.game.elapsed == pytest.approx(3.0)
    c.hidden()
    clock.ms += 60_000
    c.shown_again()
    clock.ms += 1000
    c.tick()
    assert c.game.elapsed == pytest.approx(4.0)


def one_move_from_the_win() -> Store:
    """A store holding a custom Russian start (deal 3) one move from the win: every card up
    but the K♠, alone on tableau pile 1."""
    ranks = "A23456789TJQK"
    foundations = [[r + s for r in ranks] for s in "HDC"] + [[r + "S" for r in ranks[:-1]]]
    piles = [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6
    doc = {"format": 1, "game": "russian", "deal": 3, "tableau": piles, "foundations": foundations}
    store = Store(MemoryBackend())
    store.save_game(Saved(Game(Position.from_json(doc), automove=False)))
    return store


def test_a_win_is_recorded_once_and_shows_the_dialog() -> None:
    c, _ = make("russian", 3, store=one_move_from_the_win())
    assert c.ui.progress.finish_moves is not None
    c.play(Move(TABLEAU[0], FOUNDATION[3]))
    effects = c.take_effects()
    assert c.position.is_won()
    assert c.ui.progress.status == "won"
    assert fx.ShowWon() in effects
    stats = c.store.load_stats("russian")
    assert (stats.played, stats.won, stats.streak) == (1, 1, 1)
    c.undo()
    c.redo()
    assert c.store.load_stats("russian").won == 1  # recorded once


# ----------------------------------------------------------------------------- one tap to move


def test_tap_moves_order_best_place_first() -> None:
    """Russian deal 1: the A♦ is safe on a foundation, so that comes first; builds come before
    an empty pile; places that play alike are listed once."""
    position = Position.deal_of("russian", 1)
    ace = tap_moves(position, TABLEAU[4], len(position.tableau[4]) - 1)
    assert [str(m) for m in ace] == ["tableau-4>foundation-0"]  # four empty foundations: one
    group = Move.parse("3:tableau-3>tableau-5")
    start = len(position.pile(group.source)) - group.count
    assert tap_moves(position, group.source, start) == [group]
    assert tap_moves(position, TABLEAU[0], 0) == []  # the 10♥ has nowhere to go
    assert tap_moves(position, TABLEAU[3], 0) == []  # face down


def test_tap_moves_every_legal_destination_kind_once() -> None:
    """Over random games of every game: each place offered is legal, of the group tapped,
    in the documented order, and no two places play alike."""
    import random

    rng = random.Random(7)
    order = {"foundation-safe": 0, "build": 1, "foundation": 2, "empty": 3, "cell": 4}
    for game_id in ("russian", "double-russian", "double-rail", "double-freecell"):
        game = Game.new(game_id, 4, automove=False)
        for _ in range(60):
            position = game.position
            for pile in position.pile_refs():
                cards = position.pile(pile)
                for index in range(len(cards)):
                    places = tap_moves(position, pile, index)
                    legal = set(position.legal_moves())
                    assert all(m in legal and m.count == len(cards) - index for m in places)
                    kinds = []
                    for m in places:
                        t = m.target
                        if t.kind == "foundation":
                            safe = goes_up_safely(position, cards[index])
                            kinds.append("foundation-safe" if safe else "foundation")
                        elif t.kind == "cell":
                            kinds.append("cell")
                        else:
                            kinds.append("build" if position.pile(t) else "empty")
                    assert [order[k] for k in kinds] == sorted(order[k] for k in kinds)
                    for k in ("foundation-safe", "foundation", "empty", "cell"):
                        assert kinds.count(k) <= 1
            moves = position.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))


def tap_mode(c: Controller) -> None:
    c.settings_changed(Settings(automove=False, tap_move=True))
    c.take_effects()


def test_a_tap_moves_the_card_and_a_second_tap_moves_it_on() -> None:
    def two_places(position: Position) -> tuple[PileRef, int, list[Move]] | None:
        for p in position.pile_refs():
            for i in range(len(position.pile(p))):
                places = tap_moves(position, p, i)
                if len(places) >= 2:
                    return p, i, places
        return None

    deal = next(d for d in range(1, 500) if two_places(Position.deal_of("double-russian", d)))
    c, clock = make("double-russian", deal)
    tap_mode(c)
    position = c.position
    found = two_places(position)
    assert found is not None
    pile, index, places = found
    lead = position.pile(pile)[index]
    tap(c, pile, index, clock)
    assert c.position == position.play(places[0])
    first = c.position.pile(places[0].target).index(lead)
    tap(c, places[0].target, first, clock)
    assert c.position == position.play(places[1])
    assert c.game.move_count == 1  # the second place replaced the first
    assert fx.Redraw() in c.take_effects()


def test_a_tap_with_nowhere_to_go_shakes_and_says_so() -> None:
    c, clock = make()
    tap_mode(c)
    tap(c, TABLEAU[0], 0, clock)
    effects = c.take_effects()
    assert toasts(effects) == ["The 10♥ has nowhere to go."]
    assert any(isinstance(e, fx.Shake) for e in effects)
    assert c.game.move_count == 0
    # with cards on it, counted as cards ("the 3 on it" read as a Three)
    tap(c, TABLEAU[1], 2, clock)
    assert toasts(c.take_effects()) == ["The 4♣ and the 3 cards on it have nowhere to go."]
    tap(c, TABLEAU[1], 4, clock)
    assert toasts(c.take_effects()) == ["The A♣ and the card on it have nowhere to go."]
    assert c.game.move_count == 0


def test_tap_to_move_follows_the_device_until_set() -> None:
    c, _ = make()
    assert not c.tap_move_on
    assert not c.vibrate_on
    c.coarse_pointer = True
    assert c.tap_move_on
    assert c.vibrate_on
    c.settings_changed(Settings(tap_move=False, vibrate=False))
    assert not c.tap_move_on
    assert not c.vibrate_on


# ------------------------------------------------------------------- one click loses nothing


def played(c: Controller, clock: Clock, moves: int = 3) -> dict[str, object]:
    """Play ``moves`` moves, take the last back (a redo list) and let the clock run; returns
    the game's save document, to compare with after an undo."""
    for _ in range(moves):
        c.play(c.position.legal_moves()[0])
        clock.ms += 2000
        c.tick()
    c.undo()
    c.take_effects()
    return c.game.to_json()


def change_toast(effects: list[fx.Effect]) -> fx.Toast:
    (toast,) = [e for e in effects if isinstance(e, fx.Toast) and e.action]
    return toast


def test_new_deal_then_undo_brings_back_the_game_its_redo_and_clock_and_costs_nothing() -> None:
    c, clock = make("russian", 7)
    c.store.save_stats("russian", Stats(played=3, won=1, streak=1, best_streak=1))
    before = played(c, clock)
    stats = c.store.load_stats("russian")
    c.new_deal()
    toast = change_toast(c.take_effects())
    assert (toast.text, toast.action, toast.label) == ("New deal 77.", "undo", "Undo")
    assert c.game.deal == 77
    assert c.ui.aside.undo_table  # the Undo button is enabled at move 0
    c.undo()
    assert c.game.to_json() == before  # moves, redo list and clock
    assert c.game.can_redo
    assert c.store.load_stats("russian") == stats  # neither a played game nor the streak
    assert c.store.load_game("russian").game.to_json() == before  # type: ignore[union-attr]
    assert c.store.load_game("russian", "aside") is None
    assert fx.SetAddress("#russian/7", True) in c.take_effects()
    assert not c.ui.aside.undo_table


def test_restart_then_undo_and_the_restarted_game_kept_aside() -> None:
    c, clock = make("russian", 7)
    before = played(c, clock)
    c.deals.restart()
    assert "Restarted deal 7." in toasts(c.take_effects())
    assert (c.game.move_count, c.game.can_redo, c.game.elapsed) == (0, False, 0.0)
    assert c.ui.aside.label == "Continue deal 7 (2 moves)"
    c.undo()
    assert c.game.to_json() == before
    assert c.ui.aside.label == ""
    c.deals.restart()
    c.play(c.position.legal_moves()[0])  # the undo window closes; the old game stays aside
    c.undo()
    c.undo()
    assert c.take_effects()[-1] == fx.Announce("Nothing to undo.")
    c.changes.continue_aside()
    assert c.game.to_json() == before


def test_choose_deal_and_choose_game_then_undo() -> None:
    c, clock = make("russian", 7)
    before = played(c, clock)
    assert c.deals.choose_deal("123") is None
    assert change_toast(c.take_effects()).text == "Deal 123."
    c.undo()
    assert (c.game.deal, c.game.to_json()) == (7, before)
    c.deals.choose_game("double-rail")
    assert change_toast(c.take_effects()).text.startswith("Double Rail, deal ")
    assert c.game_id == "double-rail"
    c.undo()
    assert (c.game_id, c.game.to_json()) == ("russian", before)


def test_a_link_never_destroys_a_game() -> None:
    """Deal 7 with moves and a streak of 1, then a link to deal 9 (opened in the page, or as
    the page's address when it starts): Undo or "Continue deal 7" brings deal 7 back."""
    c, clock = make("russian", 7)
    c.store.save_stats("russian", Stats(played=1, won=1, streak=1, best_streak=1))
    before = played(c, clock, moves=6)
    c.deals.address_changed("#russian/9")
    assert change_toast(c.take_effects()).text == "Deal 9 from the link."
    assert c.ui.aside.label == "Continue deal 7 (5 moves)"
    c.undo()
    assert (c.game.deal, c.game.to_json()) == (7, before)
    # a fresh page opened on the link
    c2 = Controller(c.store, Winnable(), Grid(), Clock(), random_deal=lambda g: 77)
    c2.deals.boot("#russian/9")
    assert change_toast(c2.take_effects()).text == "Deal 9 from the link."
    assert (c2.game.deal, c2.ui.aside.label) == (9, "Continue deal 7 (5 moves)")
    c2.play(c2.position.legal_moves()[0])  # the window closes: deal 7 is left
    assert c2.store.load_stats("russian").streak == 0
    c2.changes.continue_aside()
    assert (c2.game.deal, c2.game.to_json()) == (7, before)
    assert c2.ui.aside.label == "Continue deal 9 (1 move)"


def test_back_after_a_new_deal_brings_back_the_game_not_its_start() -> None:
    """Deal 7 with moves, "New deal" (deal 9), then the browser's Back (the address of deal
    7): deal 7 comes back with its moves, redo list and clock, nothing abandoned; Undo and
    Forward go to deal 9 again, and deal 7 waits aside."""
    c, clock = make("russian", 7)
    c.deals.random_playable = lambda game_id: 9
    c.store.save_stats("russian", Stats(played=1, won=1, streak=1, best_streak=1))
    before = played(c, clock, moves=4)
    stats = c.store.load_stats("russian")
    c.new_deal()
    c.take_effects()
    c.deals.address_changed("#russian/7")  # Back
    effects = c.take_effects()
    assert change_toast(effects).text == "Back to deal 7, 3 moves."
    assert fx.SetAddress("#russian/7", False) in effects  # the history entry is kept
    assert (c.game.deal, c.game.to_json()) == (7, before)
    assert c.ui.aside.label == ""  # deal 9, never played, is not kept
    assert c.store.load_stats("russian") == stats
    c.undo()  # the change: deal 9 again, deal 7 aside
    assert c.game.deal == 9
    assert c.ui.aside.label == "Continue deal 7 (3 moves)"
    c.deals.address_changed("#russian/7")
    c.deals.address_changed("#russian/9")  # Forward: deal 9 afresh, deal 7 aside again
    assert (c.game.deal, c.game.move_count) == (9, 0)
    assert c.ui.aside.label == "Continue deal 7 (3 moves)"
    assert c.store.load_stats("russian") == stats


def test_back_after_continue_keeps_both_games() -> None:
    """Deal 7 and deal 9 both played, "Continue deal 7", then Back (the address of deal 9)
    and a move: deal 9 comes back with its moves and deal 7 waits aside (before, deal 9
    started afresh and the first move abandoned it for good)."""
    c, clock = make("russian", 7)
    c.deals.random_playable = lambda game_id: 9
    seven = played(c, clock, moves=4)
    c.new_deal()
    nine = played(c, clock, moves=3)
    c.changes.continue_aside()
    assert c.game.to_json() == seven
    c.deals.address_changed("#russian/9")  # Back
    assert (c.game.deal, c.game.to_json()) == (9, nine)
    c.play(c.position.legal_moves()[0])
    assert c.ui.aside.label == "Continue deal 7 (3 moves)"
    aside = c.store.load_game("russian", "aside")
    assert aside is not None
    assert aside.game.to_json() == seven


def test_a_link_to_the_deal_kept_aside_opens_the_game_and_keeps_the_one_shown() -> None:
    """Deal 7 with moves kept aside behind deal 9 with moves: a link to deal 7 (in the page,
    from another game, or as the page's address) brings deal 7 back with its moves, and
    deal 9 takes its place aside; a fresh choice of deal 7 ("Deal number") still starts
    it afresh."""
    c, clock = make("russian", 7)
    c.deals.random_playable = lambda game_id: 9
    before = played(c, clock, moves=4)
    c.new_deal()
    nine = played(c, clock, moves=2)  # deal 7 is left (charged) but still kept
    c.deals.choose_game("double-rail")
    c.take_effects()
    c.deals.address_changed("#russian/7")
    assert change_toast(c.take_effects()).text == "Back to Russian Solitaire, deal 7, 3 moves."
    assert (c.game_id, c.game.deal, c.game.to_json()) == ("russian", 7, before)
    assert c.ui.aside.label == "Continue deal 9 (1 move)"
    c.changes.continue_aside()
    assert c.game.to_json() == nine
    # a fresh page opened on the address of the deal kept aside
    c2 = Controller(c.store, Winnable(), Grid(), Clock(), random_deal=lambda g: 77)
    c2.deals.boot("#russian/7")
    assert (c2.game.deal, c2.game.to_json()) == (7, before)
    assert c2.ui.aside.label == "Continue deal 9 (1 move)"
    assert c2.deals.choose_deal("9") is None  # chosen, not linked: a new game of deal 9
    assert (c2.game.deal, c2.game.move_count) == (9, 0)
    assert c2.ui.aside.label == "Continue deal 7 (3 moves)"


def test_the_undo_window_closes_at_the_first_move() -> None:
    c, clock = make("russian", 7)
    c.deals.random_playable = lambda game_id: 9
    played(c, clock)
    c.new_deal()
    c.play(c.position.legal_moves()[0])
    assert not c.ui.aside.undo_table
    c.undo()  # the move
    c.undo()  # nothing more: the change is no longer the last thing done
    assert c.game.deal == 9
    assert c.take_effects()[-1] == fx.Announce("Nothing to undo.")
    assert c.ui.aside.label == "Continue deal 7 (2 moves)"


# ----------------------------------------------------------------------------- hints that fit


def answer_lost(c: Controller) -> list[fx.Effect]:
    c.advice.hint()
    (ask,) = asked(c)
    c.advice.hint_answered(ask.position, {"kind": "lost"})
    return c.take_effects()


def test_a_lost_deal_at_its_start_offers_a_winnable_deal() -> None:
    lists = Winnable()
    c, _ = make("russian", 7, winnable=lists)
    toast = change_toast(answer_lost(c))
    assert toast.text.startswith("This deal cannot be won, whatever you play.")
    assert (toast.action, toast.label) == ("winnable-deal", "Winnable deal")
    c.deals.winnable_deal()
    assert c.take_effects() == [fx.LoadWinnable("russian", "winnable")]
    lists.lists["russian"] = [16, 22]
    c.deals.winnable_deal()
    assert c.game.deal == 16
    assert change_toast(c.take_effects()).text == "New deal 16, proved winnable."
    assert c.ui.progress.proved_winnable
    c.undo()
    assert c.game.deal == 7
    assert not c.ui.progress.proved_winnable
    c.play(c.position.legal_moves()[0])
    (text,) = toasts(answer_lost(c))
    assert text.startswith("This deal can no longer be won from here. You can still play: ")


def test_a_lost_hint_marks_a_legal_move_and_offers_the_way_back() -> None:
    """Later in a lost game: the hint says so, marks a move still legal, asks "Was it
    winnable?" and offers "Undo to before move N" (or a winnable deal) when it answers."""
    c, _ = make("russian", 7)
    for _ in range(3):
        c.play(next(m for m in c.position.legal_moves() if not c.position.is_pointless(m)))
    position = c.position
    effects = answer_lost(c)
    hint = c.ui.hint
    assert hint.kind == "lost"
    assert hint.move in position.legal_moves()
    assert hint.cards
    assert hint.target == hint.move.target
    assert fx.ShowHint() in effects
    (text,) = toasts(effects)
    assert text == (
        "This deal can no longer be won from here. You can still play: "
        f"{c.describe_move(hint.move)}. Looking for the last move from which it could be won… "
        "The solver sees the face-down cards."
    )
    assert c.saved.hints == 0  # no winning move was shown
    (ask,) = [e for e in effects if isinstance(e, fx.AskSolver)]
    assert ask.what == "was_winnable"
    assert c.ui.verdict.from_hint
    answer = {"from_start": "winnable", "last_winnable_step": 1, "first_lost_step": 2}
    c.advice.verdict_answered(ask.position, answer)
    toast = change_toast(c.take_effects())
    assert (toast.text, toast.action, toast.label) == (
        (
            "This deal can no longer be won from here. You can still play: "
            f"{c.describe_move(hint.move)}. It could still be won before move 2."
        ),
        "undo-to",
        "Undo to before move 2",
    )
    c.advice.undo_to_verdict()
    assert c.game.move_count == 1
    # proved lost from its start: a winnable deal instead
    c.play(next(m for m in c.position.legal_moves() if not c.position.is_pointless(m)))
    (ask,) = [e for e in answer_lost(c) if isinstance(e, fx.AskSolver)]
    c.advice.verdict_answered(ask.position, {"from_start": "unwinnable"})
    toast = change_toast(c.take_effects())
    assert (toast.text.split("play")[0], toast.text.split(". ")[-1], toast.action) == (
        "This deal can no longer be won from here. You can still ",
        "This deal could not be won, whatever you played.",
        "winnable-deal",
    )
    # an answer about a position the player has left is dropped
    (ask,) = [e for e in answer_lost(c) if isinstance(e, fx.AskSolver)]
    c.play(next(m for m in c.position.legal_moves() if not c.position.is_pointless(m)))
    c.take_effects()
    c.advice.verdict_answered(ask.position, {"from_start": "unwinnable"})
    assert not toasts(c.take_effects())


def test_hints_are_counted_saved_and_a_win_with_hints_is_no_best() -> None:
    store = one_move_from_the_win()
    store.save_stats("russian", Stats(played=4, won=1, streak=1, best_streak=1, best_time=90.0))
    c, _clock = make("russian", 3, store=store)
    c.advice.hint()
    (ask,) = asked(c)
    c.advice.hint_answered(ask.position, {"kind": "winning", "move": "tableau-0>foundation-3"})
    assert c.saved.hints == 1
    c.persist()
    assert store.load_game("russian").hints == 1  # type: ignore[union-attr]
    c.play(Move(TABLEAU[0], FOUNDATION[3]))
    stats = store.load_stats("russian")
    assert (stats.played, stats.won, stats.streak, stats.won_with_hints) == (5, 2, 2, 1)
    assert stats.best_time == 90.0
    assert stats.fewest_moves is None
    assert c.ui.progress.won_records == {"streak": True, "time": False, "moves": False}
    html = won_html(
        "Russian Solitaire, deal 3", 1, 1.0, stats, c.ui.progress.won_records, c.saved.hints
    )
    assert (
        '<dd data-k="hints">1 used — best time and fewest moves count only games won '
        "without hints</dd>"
    ) in html
    assert 'data-k="won-with-hints"' in stats_table_html({"russian": stats}, "russian")


# ----------------------------------------------------------------------------- winnable deals


def test_winnable_deals_only_is_on_for_russian_until_set() -> None:
    lists = Winnable({"russian": [16, 22], "double-rail": [5, 6]})
    store = Store(MemoryBackend())  # a fresh profile: no settings saved
    c = Controller(store, lists, Grid(), Clock(), random_deal=lambda g: 77)
    c.deals.boot("")
    assert c.settings.winnable_only is None
    c.new_deal()
    assert c.game.deal in (16, 22)
    assert c.ui.progress.proved_winnable
    c.deals.choose_game("double-rail")
    c.new_deal()
    assert c.game.deal == 77
    assert not c.ui.progress.proved_winnable
    c.settings_changed(Settings(winnable_only=True))
    c.new_deal()
    assert c.game.deal in (5, 6)
    assert "winnableOnly" not in Settings().to_json()
    c.settings_changed(Settings(winnable_only=False))
    c.deals.choose_game("russian")
    c.new_deal()
    assert c.game.deal == 77


# ----------------------------------------------------------------------------- timer, share


def test_the_clock_stands_still_while_a_dialog_is_open() -> None:
    c, clock = make()
    c.play(c.position.legal_moves()[0])
    clock.ms += 2000
    c.set_paused(True)
    clock.ms += 60_000
    c.tick()
    c.set_paused(False)
    clock.ms += 1000
    c.tick()
    assert c.game.elapsed == pytest.approx(3.0)


def test_the_deal_link_is_absolute_under_any_base_path() -> None:
    assert deal_link("https://x.org/games/sol/?v=2#russian/4", "russian", 9) == (
        "https://x.org/games/sol/?v=2#russian/9"
    )
    assert deal_link("http://127.0.0.1:8000/", "double-rail", None) == (
        "http://127.0.0.1:8000/#double-rail"
    )
