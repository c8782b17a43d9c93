"""Advice from the solver as intents: the Hint button and the stuck banner's "Was it
winnable?".

Asking puts the position asked about in the UI state and emits an ``AskSolver`` effect;
the page runs the worker and hands its answer back to ``hint_answered`` /
``verdict_answered``, which drop it when the table changed meanwhile (the board stays
playable while the solver thinks). No browser.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..piles import STOCK
from ..position import Move, Position
from .state import AskSolver, Redraw, SchedulePersist, ShowHint, Toast, Verdict
from .text import LOST_AT_START_TEXT, hint_text, verdict_text

if TYPE_CHECKING:
    from .controller import Controller

HINT_BUDGET = 2.0  # seconds of search in the worker for a hint
VERDICT_BUDGET = 8.0  # seconds for "Was it winnable?"
HINT_TEXT_MS = 6500


class Advice:
    def __init__(self, controller: Controller) -> None:
        self.c = controller

    def hint(self) -> None:
        """The Hint button or H: ask the solver for the next move of a winning line; the
        board stays playable meanwhile, and a move made before the answer makes it stale."""
        self.c.cancel_drag()
        self.c.ui.selection = None
        position = self.c.position
        if position.is_won():
            return
        if not position.legal_moves():  # stuck: nothing to search
            self.c.ui.hint.asked = position
            self.hint_answered(position, {"kind": "lost"})
            return
        hint = self.c.ui.hint
        if hint.asked == position:
            return  # already thinking about this very position
        self.clear_hint()
        hint.asked = position
        hint.kind = "thinking"
        hint.move = None
        self.c.emit(AskSolver("hint", position, json.dumps(position.to_json())))

    def hint_answered(self, position: Position, answer: dict[str, Any]) -> None:
        """The worker's ``hint`` answer (``kind``: winning | heuristic | lost, ``move``
        text), or ``{"error": ...}``. Ignored when the table changed meanwhile."""
        hint = self.c.ui.hint
        if hint.asked is not position:
            return  # the player moved, or asked again elsewhere: a stale answer
        hint.asked = None
        if position != self.c.position:
            hint.kind = ""
            return
        problem = answer.get("error")
        if problem:
            hint.kind = "error"
            self.c.toast(f"No hint: {problem}.")
            return
        kind = str(answer.get("kind"))
        move = None
        text = answer.get("move")
        if isinstance(text, str):
            try:
                move = Move.parse(text)
            except ValueError:
                move = None
        if kind not in ("winning", "heuristic", "lost") or (kind != "lost" and move is None):
            hint.kind = ""
            self.c.toast("No hint: no move found that helps.")
            return
        hint.kind = kind  # type: ignore[assignment]
        hint.move = move
        if move is None:
            self.lost()
            return
        self.c.saved.hints += 1  # a move was shown: the win dialog and statistics say so
        self.c.emit(SchedulePersist())
        if self.c.position.why_illegal(move) is not None:
            return
        self.c.ui.selection = None
        source = self.c.position.pile(move.source)
        hint.cards = tuple(
            self.c.position.stock[-1:] if move.source == STOCK else source[-move.count :]
        )
        hint.target = move.target
        self.c.emit(ShowHint())
        what = hint_text(kind, self.c.describe_move(move), self.c.game_id)
        self.c.toast(what, info=True, ms=HINT_TEXT_MS)

    def lost(self) -> None:
        """No win from here. At the deal's start neither Undo nor Restart can help: say the
        deal cannot be won and offer a proved-winnable one."""
        c = self.c
        if c.game.move_count:
            c.toast(hint_text("lost", "", c.game_id), info=True, ms=HINT_TEXT_MS)
            return
        text = f"{LOST_AT_START_TEXT} {c.game.position.rules.solver_sees}".strip()
        c.emit(Toast(text, True, HINT_TEXT_MS, action="winnable-deal", label="Winnable deal"))

    def clear_hint(self) -> None:
        """The hinted move is no longer marked (its time is up, or the table changed)."""
        self.c.ui.hint.cards = ()
        self.c.ui.hint.target = None

    def ask_verdict(self) -> None:
        """The stuck banner's "Was it winnable?": ask the worker about the deal from its start
        and the player's history (``hints.was_winnable``)."""
        position = self.c.position
        verdict = self.c.ui.verdict
        if verdict.asked is position:
            return
        self.c.ui.verdict = Verdict(asked=position, state="thinking")
        self.c.announce("Checking whether this deal was winnable…")
        self.c.emit(AskSolver("was_winnable", position, json.dumps(self.c.game.to_json())))

    def verdict_answered(self, position: Position, answer: dict[str, Any]) -> None:
        verdict = self.c.ui.verdict
        if verdict.asked is not position or self.c.position is not position:
            return  # the table changed meanwhile
        text, step = verdict_text(answer, self.c.game_id)
        self.c.ui.verdict = Verdict(
            state="error" if answer.get("error") else str(answer.get("from_start")),
            text=text,
            step=step if step is not None and step < self.c.game.move_count else None,
            last_winnable=step,
        )
        self.c.announce(text)

    def undo_to_verdict(self) -> None:
        """Take back every step after the last position from which a win was proved."""
        step = self.c.ui.verdict.step
        if step is None or step >= self.c.game.move_count:
            return
        self.c.cancel_drag()
        self.c.ui.selection = None
        while self.c.game.move_count > step:
            self.c.game.undo()
        self.c.emit(Redraw())
        self.c.persist()
        self.c.position_changed()
        self.c.announce(
            f"Back to before move {step + 1}. A win is still possible from here; "
            "Hint (H) shows the way."
        )
