"""``Controller.key`` under CPython: which keys act wherever the focus is (Ctrl+Z, Ctrl+Shift+Z
/ Ctrl+Y, H, N, ?, Escape), which act only on the board's focused card or pile (arrows,
Enter/Space, F), and where keys are left to the page (text fields, open dialogs)."""

from __future__ import annotations

import pytest
from test_controller import kinds, make, top

from solitaire import Move
from solitaire.piles import TABLEAU
from solitaire.web import state as fx


def test_n_starts_a_new_deal_from_anywhere_not_on_a_held_key() -> None:
    c, _ = make("russian", 1)
    assert c.keys.press("n", repeat=True)  # handled (no browser default) but not acted on
    assert c.game.deal == 1
    assert c.keys.press("N")  # focus on the game picker or a button: not on the board
    assert c.game.deal == 77
    assert "NewBoard" in kinds(c.take_effects())


def test_h_asks_for_a_hint_off_the_board_too() -> None:
    c, _ = make()
    assert c.keys.press("h")
    effects = c.take_effects()
    assert any(isinstance(e, fx.AskSolver) and e.what == "hint" for e in effects)
    assert c.ui.hint.asked == c.position


def test_question_mark_opens_the_help() -> None:
    c, _ = make()
    assert c.keys.press("?", shift=True)
    assert kinds(c.take_effects()) == ["ShowHelp"]
    assert c.keys.press("?", shift=True, repeat=True)
    assert c.take_effects() == []


def test_undo_and_redo_from_anywhere() -> None:
    c, _ = make()
    move = Move.parse("3:tableau-3>tableau-5")
    assert c.play(move)
    c.take_effects()
    assert c.keys.press("z", ctrl=True)  # e.g. with the game picker focused
    assert c.game.move_count == 0
    assert c.keys.press("y", ctrl=True)
    assert c.game.move_count == 1
    assert c.keys.press("z", ctrl=True)
    assert c.keys.press("Z", ctrl=True, shift=True)
    assert c.game.move_count == 1
    assert not c.keys.press("c", ctrl=True)  # copy and the rest stay the browser's


@pytest.mark.parametrize(
    "where", [{"typing": True}, {"in_dialog": True}], ids=["text field", "dialog"]
)
@pytest.mark.parametrize(
    "key",
    [
        ("z", True, False),
        ("y", True, False),
        ("h", False, False),
        ("n", False, False),
        ("?", False, True),
        ("Escape", False, False),
        ("ArrowLeft", False, False),
    ],
)
def test_text_fields_and_dialogs_keep_their_keys(
    where: dict[str, bool], key: tuple[str, bool, bool]
) -> None:
    c, _ = make()
    c.keys.press("Enter", on_board=True, pile=TABLEAU[3], index=top(c, TABLEAU[3]))
    c.take_effects()
    name, ctrl, shift = key
    assert not c.keys.press(
        name, ctrl=ctrl, shift=shift, on_board=True, pile=TABLEAU[0], index=0, **where
    )
    assert c.game.deal == 1
    assert c.game.move_count == 0
    assert c.ui.hand.selection is not None  # Escape in a dialog closes the dialog, not the pick-up
    assert c.take_effects() == []


def test_alt_keys_are_the_browsers() -> None:
    c, _ = make()
    assert not c.keys.press("n", alt=True)
    assert not c.keys.press("z", ctrl=True, alt=True)
    assert c.game.deal == 1
    assert c.take_effects() == []


def test_board_keys_need_the_board() -> None:
    c, _ = make()
    for key in ("ArrowLeft", "ArrowUp", "Enter", " ", "f"):
        assert not c.keys.press(key, on_board=False)
    assert c.take_effects() == []
    assert c.ui.hand.selection is None


def test_escape_puts_back_from_anywhere_and_is_left_alone_otherwise() -> None:
    c, _ = make()
    assert not c.keys.press("Escape")  # nothing picked up: the browser's (closes the menu)
    c.keys.press("Enter", on_board=True, pile=TABLEAU[3], index=top(c, TABLEAU[3]))
    assert c.ui.hand.selection is not None
    assert c.keys.press("Escape")  # e.g. the focus went to the toolbar meanwhile
    assert c.ui.hand.selection is None


def test_a_focused_pile_acts_as_its_top_card() -> None:
    """A click on a pile's empty area focuses the pile itself (index None): the arrows then
    move from its top card."""
    c, _ = make()
    t5 = TABLEAU[5]
    assert c.keys.press("ArrowUp", on_board=True, pile=t5, index=None)
    focus = [(e.pile, e.index) for e in c.take_effects() if isinstance(e, fx.Focus)]
    assert focus == [(t5, top(c, t5) - 1)]
