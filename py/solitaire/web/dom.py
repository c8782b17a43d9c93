"""The page around the board, drawn from the controller's state: the status line and the
toolbar's buttons, the Hint button, the stuck banner with its "Was it winnable?" answer, and
the messages (toast, live region, notice).

Each value is written only when it changed (``Writer.put``): a move does not rewrite (and
restyle) what did not change.
"""

from __future__ import annotations

from typing import Any

import js
from js import document

from ..game import Game
from .advice import VERDICT_BUDGET
from .state import UIState
from .text import clock

TOAST_MS = 2800
_ELEMENTS: dict[str, Any] = {}


def by_id(name: str) -> Any:
    """The element with id ``name`` (index.html's elements are never replaced: the proxy is
    kept, so a move's status update does not make a new one per element)."""
    el = _ELEMENTS.get(name)
    if el is None:
        el = document.getElementById(name)
        if el is not None:
            _ELEMENTS[name] = el
    return el


class StatusView:
    """The status line, the toolbar's enabled states, the Hint button and the stuck banner."""

    def __init__(self, board_el: Any) -> None:
        self.board_data = board_el.dataset
        self.shown: dict[tuple[str, str], Any] = {}

    def put(self, name: str, attr: str, value: Any, target: Any = None) -> None:
        """Set ``attr`` of element ``name`` (or of ``target``) unless it already holds it."""
        key = (name, attr)
        if self.shown.get(key, self) != value:
            setattr(by_id(name) if target is None else target, attr, value)
            self.shown[key] = value

    def render(self, game: Game, ui: UIState) -> None:
        put = self.put
        deal = "" if game.deal is None else str(game.deal)
        data = self.board_data
        put("board", "game", game.game_id, data)
        put("board", "deal", deal, data)
        put("board", "status", ui.progress.status, data)
        put("stuck", "hidden", ui.progress.status != "stuck")
        put("btn-finish", "hidden", ui.progress.finish_moves is None)
        nothing_to_undo = not game.can_undo and not ui.aside.undo_table
        put("btn-undo", "disabled", nothing_to_undo)
        # a deal stuck before its first move: the banner offers only what can do something
        put("stuck-undo", "hidden", nothing_to_undo)
        put("stuck-restart", "hidden", not game.can_undo and not game.can_redo)
        put("btn-redo", "disabled", not game.can_redo)
        put("btn-hint", "disabled", ui.progress.status == "won")  # nothing left to hint
        rules = game.position.rules
        put("st-game-full", "textContent", rules.name)
        put("st-deal", "textContent", deal or "–")
        put("st-moves", "textContent", str(game.move_count))
        put("st-time", "textContent", clock(game.elapsed))
        put("st-winnable", "hidden", not ui.progress.proved_winnable)
        put("menu-continue", "hidden", not ui.aside.label)
        put("menu-continue", "textContent", ui.aside.label)
        self.render_hint(ui)
        self.render_verdict(game, ui)

    def render_hint(self, ui: UIState) -> None:
        """``#btn-hint``: busy while thinking; ``data-hint`` (thinking, winning, heuristic,
        lost, error or empty), ``data-hint-move`` and ``data-hint-from`` (``line``: the kept
        winning line, ``solver``: the worker) say the last answer (for tests)."""
        hint = ui.hint
        busy = hint.kind == "thinking"
        move = "" if hint.move is None else str(hint.move)
        source = "line" if hint.from_line else "solver"
        if self.shown.get(("btn-hint", "state")) == (hint.kind, move, source):
            return
        self.shown[("btn-hint", "state")] = (hint.kind, move, source)
        button = by_id("btn-hint")
        button.classList.toggle("busy", busy)
        button.setAttribute("aria-busy", "true" if busy else "false")
        # both labels stay in the button, one of them invisible: its width never changes
        button.querySelector(".label").dataset.busy = "true" if busy else "false"
        button.title = "Thinking… (you can keep playing)" if busy else "Hint (H)"
        button.dataset.hint = hint.kind
        button.dataset.hintMove = move
        button.dataset.hintFrom = source

    def render_verdict(self, game: Game, ui: UIState) -> None:
        verdict = ui.verdict
        key = (verdict.state, verdict.text, verdict.step, verdict.last_winnable, game.move_count)
        if self.shown.get(("stuck", "verdict")) == key:
            return
        self.shown[("stuck", "verdict")] = key
        text_el = by_id("stuck-verdict")
        banner = by_id("stuck")
        ask = by_id("btn-was-winnable")
        undo_to = by_id("btn-undo-to")
        had_focus = bool(ask.matches(":focus"))
        thinking = verdict.state == "thinking"
        text_el.classList.toggle("busy", thinking)
        banner.dataset.verdict = verdict.state
        if not verdict.state:
            text_el.hidden = True
            text_el.textContent = ""
            ask.hidden = False
            ask.disabled = False
            undo_to.hidden = True
            return
        text_el.hidden = False
        if thinking:
            # the worker's budget and the time it may take to answer after it
            text_el.textContent = f"Thinking… (up to {int(VERDICT_BUDGET + 2)} seconds)"
            ask.disabled = True
            return
        text_el.textContent = verdict.text
        last = verdict.last_winnable
        banner.dataset.lastWinnable = "" if last is None else str(last)
        ask.hidden = True
        if verdict.step is not None:
            undo_to.textContent = f"Undo to before move {verdict.step + 1}"
            undo_to.hidden = False
            if had_focus:
                undo_to.focus()
        else:
            undo_to.hidden = True
            if had_focus:
                banner.querySelector("[data-action=undo]").focus()

    def clock(self, game: Game) -> None:
        self.put("st-time", "textContent", clock(game.elapsed))


class Messages:
    """The toast (in the status bar's room), the live region, the notice bar and the
    saving-problem bar."""

    def __init__(self, hide_toast: Any) -> None:
        self.p_hide = hide_toast  # a proxy of ``hide_toast``
        self.toast_timer: Any = None
        self.flip = False
        self.save_problem_text: str | None = None

    def announce(self, text: str) -> None:
        # A trailing no-break space that alternates makes repeated messages be read again.
        self.flip = not self.flip
        by_id("live").textContent = text + ("\u00a0" if self.flip else "")

    def toast(
        self, text: str, info: bool = False, ms: int = TOAST_MS, action: str = "", label: str = ""
    ) -> None:
        """A warning (why a move is refused), or with ``info`` a neutral message (hints); with
        ``action`` a button (``label``) that does that ``data-action`` ("undo")."""
        el = by_id("toast")
        by_id("toast-text").textContent = text
        button = by_id("toast-action")
        button.textContent = label if action else ""
        button.dataset.action = action
        button.hidden = not action
        el.classList.toggle("has-action", bool(action))
        el.setAttribute("aria-hidden", "false" if action else "true")
        el.inert = False
        el.classList.toggle("info", info)
        el.classList.add("show")
        self.announce(text)
        if self.toast_timer is not None:
            js.clearTimeout(self.toast_timer)
        self.toast_timer = js.setTimeout(self.p_hide, ms)

    def hide_stale_toast(self) -> None:
        """The table changed: the toast shown, about the table before, goes at once."""
        if self.toast_timer is not None:
            js.clearTimeout(self.toast_timer)
            self.hide_toast()

    def hide_toast(self, *args: Any) -> None:
        self.toast_timer = None
        el = by_id("toast")
        el.classList.remove("show")
        # gone for a screen reader and, inert, for the keyboard too: its button (Undo) would
        # otherwise stay focusable inside a hidden region while the toast fades out
        el.setAttribute("aria-hidden", "true")
        el.inert = True

    def notice(self, text: str) -> None:
        by_id("notice-text").textContent = text
        by_id("notice").hidden = False

    def hide_notice(self) -> None:
        by_id("notice").hidden = True

    def save_problem(self, text: str | None) -> None:
        """The bar that stays while progress cannot be saved (``Store.problem``)."""
        if text != self.save_problem_text:
            self.save_problem_text = text
            by_id("save-problem-text").textContent = text or ""
            by_id("save-problem").hidden = text is None
