"""Advice from the solver as intents: the Hint button and the stuck banner's "Was it
winnable?".

Asking puts the position asked about in the UI state and emits an ``AskSolver`` effect;
the page runs the worker and hands its answer back to ``hint_answered`` /
``verdict_answered``, which drop it when the table changed meanwhile (the board stays
playable while the solver thinks). No browser.

A proved hint's whole winning line is kept (``ProvedLine``): while the player stays on it,
the next hints come from it at once, proved, without the worker. A hint that is not proved
can be asked for again at the same position, and each time the search is longer
(``HINT_BUDGETS``): the player chooses to wait for a proof.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..position import Move, Position
from .ports import Table
from .proved_line import ProvedLine, moved_cards
from .state import AskSolver, Redraw, SchedulePersist, ShowHint, Toast, Verdict
from .text import hint_text, lost_text, verdict_text, way_back_text

#: Seconds of search in the worker for a hint, then for each time it is asked again at the
#: same position after an answer that was not proved (the last one for every later time).
#: Of the proved-winnable deals of the two-deck games, 59-64 % were proved within 0.8 s of
#: CPython CPU in the surveys and 88-90 % within 3 s (the worker under Pyodide is slower).
HINT_BUDGETS = (2.0, 10.0, 30.0)
VERDICT_BUDGET = 8.0  # seconds for "Was it winnable?"
#: a stale longer hint search with more than this left (seconds) is stopped for a new hint
STALE_SEARCH_S = 3.0
HINT_TEXT_MS = 6500


def hint_budget(retries: int) -> float:
    """The search's seconds for a hint asked again ``retries`` times at the same position."""
    return HINT_BUDGETS[min(retries, len(HINT_BUDGETS) - 1)]


def worth_stopping(calls: Iterable[tuple[str, float, float]], now_ms: float) -> bool:
    """Whether a new hint should restart the solver's worker rather than wait for the calls
    in progress, each ``(what, asked at in ms, budget in seconds)``: a new hint makes every
    earlier hint's answer stale, and a worker cannot be interrupted. Yes when one of them is
    a longer search ("ask again") with more than ``STALE_SEARCH_S`` left, and none is a
    "Was it winnable?" (never stopped)."""
    calls = list(calls)
    if any(what != "hint" for what, _, _ in calls):
        return False
    return any(
        budget > HINT_BUDGETS[0] and now_ms < asked + (budget - STALE_SEARCH_S) * 1000
        for _, asked, budget in calls
    )


def still_playable(position: Position) -> Move | None:
    """A legal move to show in a lost position: the first that changes something (not a
    whole pile moved to an empty one), else any; None when no move is left."""
    moves = position.legal_moves()
    useful = [m for m in moves if not position.is_pointless(m)]
    return (useful or moves)[0] if moves else None


class Advice:
    def __init__(self, controller: Table) -> None:
        self.c = controller

    def hint(self) -> None:
        """The Hint button or H: ask the solver for the next move of a winning line; the
        board stays playable meanwhile, and a move made before the answer makes it stale."""
        self.c.cancel_drag()
        self.c.ui.hand.selection = None
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
        move = hint.proved.next_move(position) if hint.proved is not None else None
        if move is not None:
            hint.asked = None  # an answer still coming is about another position: dropped
            hint.unproved = None
            self.show(position, "winning", move, from_line=True)
            return
        self.clear_hint()
        hint.retries = hint.retries + 1 if hint.unproved == position else 0
        budget = hint_budget(hint.retries)
        hint.asked = position
        hint.kind = "thinking"
        hint.move = None
        if hint.retries:
            text = f"Searching longer for a sure win (up to {budget:g} s); you can keep playing."
            self.c.toast(text, info=True, ms=HINT_TEXT_MS)
        self.c.emit(AskSolver("hint", position, json.dumps(position.to_json()), budget))

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
        if kind == "winning":
            line = ProvedLine.from_answer(position, answer.get("line"))
            if line is not None:
                hint.proved = line
        hint.unproved = position if kind == "heuristic" else None
        self.show(position, kind, move)

    def show(
        self, position: Position, kind: str, move: Move | None, from_line: bool = False
    ) -> None:
        """Mark the hinted move on the board and say it (``move`` None: no win from here)."""
        hint = self.c.ui.hint
        hint.kind = kind  # type: ignore[assignment]
        hint.move = move
        hint.from_line = from_line
        if move is None:
            self.lost()
            return
        self.c.saved.hints += 1  # a move was shown: the win dialog and statistics say so
        self.c.emit(SchedulePersist())
        if position.why_illegal(move) is not None:
            return
        self.c.ui.hand.selection = None
        hint.cards = moved_cards(position, move)
        hint.target = move.target
        self.c.emit(ShowHint())
        longer = hint.retries < len(HINT_BUDGETS) - 1
        searched = hint_budget(hint.retries)
        what = hint_text(kind, self.c.describe_move(move), self.c.game_id, searched, longer)
        self.c.toast(what, info=True, ms=HINT_TEXT_MS)

    def lost(self) -> None:
        """No win from here (proved). Say so plainly, still mark a legal move (or say that
        none is left), and offer the way back to a win: at the deal's start a proved-winnable
        deal; later, the last move from which it could still be won, found by asking "Was it
        winnable?" about the player's history (``verdict_answered`` offers "Undo to before
        move N" in a toast)."""
        c = self.c
        position = c.position
        move = still_playable(position)
        what = ""
        if move is not None:
            hint = c.ui.hint
            hint.move = move
            hint.cards = moved_cards(position, move)
            hint.target = move.target
            c.emit(ShowHint())
            what = c.describe_move(move)
        if not c.game.move_count:
            text = lost_text(what, c.game_id, at_start=True)
            c.emit(Toast(text, True, HINT_TEXT_MS, action="winnable-deal", label="Winnable deal"))
            return
        # stuck: the stuck banner shows the verdict itself, as "Was it winnable?" does
        searching = not position.is_stuck()
        c.toast(lost_text(what, c.game_id, searching=searching), info=True, ms=HINT_TEXT_MS)
        self.ask_verdict(from_hint=lost_text(what, ""))

    def clear_hint(self) -> None:
        """The hinted move is no longer marked (its time is up, or the table changed)."""
        self.c.ui.hint.cards = ()
        self.c.ui.hint.target = None

    def ask_verdict(self, from_hint: str = "") -> None:
        """The stuck banner's "Was it winnable?", or a lost hint's search for the way back:
        ask the worker about the deal from its start and the player's history
        (``hints.was_winnable``)."""
        position = self.c.position
        verdict = self.c.ui.verdict
        if verdict.asked is position:
            return
        self.c.ui.verdict = Verdict(asked=position, state="thinking", from_hint=from_hint)
        if not from_hint:
            self.c.announce("Checking whether this deal was winnable…")
        payload = json.dumps(self.c.game.to_json())
        self.c.emit(AskSolver("was_winnable", position, payload, VERDICT_BUDGET))

    def verdict_answered(self, position: Position, answer: dict[str, Any]) -> None:
        verdict = self.c.ui.verdict
        if verdict.asked is not position or self.c.position is not position:
            return  # the table changed meanwhile
        text, step = verdict_text(answer, self.c.game_id)
        back = step if step is not None and step < self.c.game.move_count else None
        self.c.ui.verdict = Verdict(
            state="error" if answer.get("error") else str(answer.get("from_start")),
            text=text,
            step=back,
            last_winnable=step,
        )
        if verdict.from_hint and not position.is_stuck():
            said, action, label = way_back_text(answer, back)
            said = f"{verdict.from_hint} {said}"
            self.c.emit(Toast(said, True, HINT_TEXT_MS, action=action, label=label))
            return
        self.c.announce(text)

    def undo_to_verdict(self) -> None:
        """Take back every step after the last position from which a win was proved."""
        step = self.c.ui.verdict.step
        if step is None or step >= self.c.game.move_count:
            return
        self.c.cancel_drag()
        self.c.ui.hand.selection = None
        while self.c.game.move_count > step:
            self.c.game.undo()
        self.c.emit(Redraw())
        self.c.persist()
        self.c.position_changed()
        self.c.announce(
            f"Back to before move {step + 1}. A win is still possible from here; "
            "Hint (H) shows the way."
        )
