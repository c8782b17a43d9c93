"""The page's UI state as plain data, and the effects the controller asks the page to show.

Everything the page knows beyond the game itself lives in one :class:`UIState`, a few
records each about one thing: the player's hand (what is picked up, a press or drag in
progress, the last tap), the clock, the game's progress, a game kept aside, the hint and
the "Was it winnable?" answer being worked on. The controller (``controller.py``) changes
it and appends :class:`Effect` values to its outbox; the DOM side (``app.py`` and the view
modules) carries the effects out and draws the marks from the state. Nothing here imports ``js``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..piles import PileRef
from ..position import Move, Position
from .proved_line import ProvedLine

Rect = tuple[float, float, float, float]  # left, top, right, bottom (CSS px)
Status = Literal["playing", "stuck", "won"]
HintKind = Literal["", "thinking", "winning", "heuristic", "lost", "error"]


@dataclass
class Selection:
    """Cards picked up by a click or a tap: ``pile``'s cards from ``index`` up."""

    pile: PileRef
    index: int
    cards: tuple[int, ...]
    targets: frozenset[PileRef]


@dataclass
class Press:
    """A pointer that went down on the board and has not come up yet."""

    pile: PileRef
    index: int | None
    x: float
    y: float
    pointer_id: int
    touch: bool


@dataclass
class Drag:
    """A group of cards following the pointer."""

    pile: PileRef
    cards: tuple[int, ...]
    targets: frozenset[PileRef]
    rects: dict[PileRef, Rect]
    lead: Rect  # the dragged group's first card, where it was when the drag started
    hover: PileRef | None = None


@dataclass
class Tap:
    """The last tap: a second one on the same card, soon, with no move between, is a
    double-tap."""

    time: float
    pile: PileRef
    index: int | None
    moves: int  # the game's move count when it happened


@dataclass
class TapCycle:
    """The last one-tap move: tapping ``card`` again soon moves it on to the next place."""

    card: int
    time: float
    moves: int  # the game's move count after the tap's move
    remaining: tuple[Move, ...]  # the next places, from the position before that move


@dataclass
class Hint:
    """The Hint button's state and the move it shows (its cards and target are marked)."""

    kind: HintKind = ""
    asked: Position | None = None  # the solver is working on this position
    move: Move | None = None  # the last answer's move (for data-hint-move)
    cards: tuple[int, ...] = ()  # the hinted cards while they are shown
    target: PileRef | None = None
    from_line: bool = False  # the last answer came from ``proved``, not from the worker
    proved: ProvedLine | None = None  # the last proved winning line: the next hints' source
    unproved: Position | None = None  # the last answer here was not proved...
    retries: int = 0  # ...and was asked again this many times (each search is longer)


@dataclass
class Verdict:
    """The stuck banner's "Was it winnable?"."""

    asked: Position | None = None
    state: str = ""  # "", thinking, error, or the worker's from_start answer
    text: str = ""
    step: int | None = None  # "Undo to before move step+1" goes back to this move count
    last_winnable: int | None = None
    #: asked by a lost hint: its words ("can no longer be won…"), said again with the answer
    #: in one toast (the answer may come within milliseconds)
    from_hint: str = ""


@dataclass
class Hand:
    """What the player's hand is doing on the board: cards picked up, a press or drag in
    progress, and the last taps (a double-tap, a second one-tap move)."""

    selection: Selection | None = None
    press: Press | None = None
    drag: Drag | None = None
    last_tap: Tap | None = None
    tap_cycle: TapCycle | None = None
    last_touch: float = -1e9  # time of the last touch press (a touch double-tap is no dblclick)


@dataclass
class Clock:
    """The game's clock: it runs while the game is played, the tab shown and no dialog open."""

    last_tick: float | None = None  # the clock runs from here (ms), None: stopped
    paused: bool = False  # a dialog is open: the clock stands still


@dataclass
class Progress:
    """Where the game on the table stands, as the status line and the toolbar show it."""

    status: Status = "playing"
    finish_moves: list[Move] | None = None  # auto-finish is possible: the moves
    won_records: dict[str, bool] = field(default_factory=dict)  # what the last win beat
    proved_winnable: bool = False  # the deal shown is in the shipped winnable list


@dataclass
class Aside:
    """A game kept aside by a change of the table (``changes.py``)."""

    undo_table: bool = False  # Undo takes back a change of the whole table
    label: str = ""  # the menu's "Continue deal N (M moves)", "" when none is kept


@dataclass
class UIState:
    """Everything the page knows beyond the game itself, one record per concern."""

    hand: Hand = field(default_factory=Hand)
    clock: Clock = field(default_factory=Clock)
    progress: Progress = field(default_factory=Progress)
    aside: Aside = field(default_factory=Aside)
    hint: Hint = field(default_factory=Hint)
    verdict: Verdict = field(default_factory=Verdict)

    def marks(self) -> tuple[tuple[int, ...], tuple[int, ...], frozenset[PileRef], PileRef | None]:
        """What the board marks: selected cards, hinted cards, target piles, hovered pile."""
        drag = self.hand.drag
        if drag is not None:
            return (), (), drag.targets, drag.hover
        selection = self.hand.selection
        if selection is not None:
            return selection.cards, (), selection.targets, None
        hint = self.hint
        if hint.cards and hint.target is not None:
            return (), hint.cards, frozenset({hint.target}), None
        return (), (), frozenset(), None


# ----------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class Effect:
    """Something the page must show or do that is not drawn from the state."""


@dataclass(frozen=True)
class NewBoard(Effect):
    """Build the board for the game now shown (a new game or deal)."""


@dataclass(frozen=True)
class Show(Effect):
    """Animate ``step`` (a move and the auto-moves it set off) from ``before``, move by move,
    ``gap`` ms apart; ``dragged`` cards were following the pointer."""

    before: Position
    step: tuple[Move, ...]
    gap: int
    dragged: tuple[int, ...] = ()


@dataclass(frozen=True)
class Redraw(Effect):
    """Show the current position at once (undo, restart)."""


@dataclass(frozen=True)
class DragStart(Effect):
    """A press became a drag: ``cards`` follow pointer ``pointer_id`` from now on."""

    cards: tuple[int, ...]
    pointer_id: int


@dataclass(frozen=True)
class DragTo(Effect):
    """The dragged cards are (``dx``, ``dy``) CSS px away from where the drag started."""

    dx: float
    dy: float


@dataclass(frozen=True)
class DragBack(Effect):
    """The dragged cards glide back to their pile."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class Shake(Effect):
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Toast(Effect):
    """A short message over the table: a refusal, or with ``info`` a neutral one; with
    ``action`` a button (``label``) in it that does that ``data-action``."""

    text: str
    info: bool = False
    ms: int = 2800
    action: str = ""
    label: str = ""


@dataclass(frozen=True)
class HideToast(Effect):
    """The position changed: a toast about the old one goes, a refusal too (the player's
    next good move answers it)."""


@dataclass(frozen=True)
class Announce(Effect):
    """Say ``text`` to assistive technology (the live region)."""

    text: str


@dataclass(frozen=True)
class Notice(Effect):
    """A message that stays until dismissed."""

    text: str


@dataclass(frozen=True)
class Focus(Effect):
    """Move the keyboard focus (the board's one tab stop) to a card or pile."""

    pile: PileRef
    index: int | None
    move_focus: bool = True  # False: only make it the tab stop


@dataclass(frozen=True)
class SetAddress(Effect):
    """Show ``#game/deal`` in the address bar (a new history entry with ``push``)."""

    text: str
    push: bool


@dataclass(frozen=True)
class CloseDialogs(Effect):
    pass


@dataclass(frozen=True)
class SchedulePersist(Effect):
    """Save the game after the current handler (a move does not wait for the write)."""


@dataclass(frozen=True)
class AskSolver(Effect):
    """Ask the solver worker: ``what`` is "hint" (about ``position``) or "was_winnable"
    (about the game, ``payload`` its JSON text). The answer comes back through the
    controller's ``hint_answered`` / ``verdict_answered``."""

    what: Literal["hint", "was_winnable"]
    position: Position
    payload: str
    budget: float  # seconds of search


@dataclass(frozen=True)
class WarmSolver(Effect):
    """Start the solver worker now (a stuck game: "Was it winnable?" is likely next)."""


@dataclass(frozen=True)
class LoadWinnable(Effect):
    """Fetch the list of proved-winnable deals of ``game_id``, then ``then`` again:
    "new" (a new deal), "open" (open that game), "winnable" (a proved-winnable deal whatever
    the setting), "none" (only say whether the deal shown is proved winnable)."""

    game_id: str
    then: Literal["new", "open", "winnable", "none"] = "none"


@dataclass(frozen=True)
class ShowWon(Effect):
    """Open the win dialog (once the animation has ended)."""


@dataclass(frozen=True)
class AutoFinish(Effect):
    """Play the auto-finish soon (once the animation has ended)."""


@dataclass(frozen=True)
class ShowHelp(Effect):
    """Open the help (the rules dialog) at its list of keyboard shortcuts."""


@dataclass(frozen=True)
class ShowHint(Effect):
    """The hinted move is marked: clear it after a while."""


@dataclass(frozen=True)
class Title(Effect):
    text: str
