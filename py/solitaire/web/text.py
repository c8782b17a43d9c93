"""Words the page shows or speaks, and the address (``#russian/123``) format. No browser
imports: CPython tests use this module directly."""

from __future__ import annotations

from collections.abc import Callable

from .. import MAX_DEAL
from ..cards import RANKS, long_name, rank
from ..piles import STOCK, PileRef
from ..position import Move, Position
from ..rules import GAMES
from .documents import Stats


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def clock(seconds: float | None) -> str:
    """``83.2`` → ``"1:23"``; an hour or more → ``"1:02:03"``; None → ``"–"``."""
    if seconds is None:
        return "–"
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def rank_text(card: int) -> str:
    r = rank(card)
    return "10" if r == 10 else RANKS[r - 1]


def pile_title(pile: PileRef) -> str:
    kind, i = pile
    if kind == "tableau":
        return f"Tableau pile {i + 1}"
    if kind == "foundation":
        return f"Foundation {i + 1}"
    if kind == "cell":
        return f"Free cell {i + 1}"
    return "Stock" if kind == "stock" else "Waste"


def pile_label(pile: PileRef, cards: tuple[int, ...], down: int) -> str:
    """Accessible name: "Tableau pile 3, 5 cards, 2 face down"."""
    kind = pile.kind
    title = pile_title(pile)
    n = len(cards)
    if kind == "stock":
        return f"Stock, {plural(n, 'card')}" + (", deal one card" if n else ", empty")
    if not n:
        return f"{title}, empty"
    if kind == "cell":
        return f"{title}, {long_name(cards[-1])}"
    text = f"{title}, {plural(n, 'card')}"
    if down:
        text += f", {down} face down"
    if kind in ("foundation", "waste"):
        text += f", {long_name(cards[-1])} on top"
    return text


def describe_group(cards: tuple[int, ...]) -> str:
    """ "the Queen of spades" / "the Queen of spades and 2 cards on it"."""
    if not cards:
        return "nothing"
    text = f"the {long_name(cards[0])}"
    if len(cards) > 1:
        text += f" and {plural(len(cards) - 1, 'card')} on it"
    return text


def describe_step(after: Position, step: list[Move], moving: tuple[int, ...]) -> str:
    """What a move did (and the auto-moves it set off), said to assistive technology:
    ``after`` is the position it led to, ``moving`` the cards the player moved."""
    move = step[0]
    if move.source == STOCK:
        text = "Dealt a card from the stock"
        if len(step) == 1 and after.waste:
            text = f"Dealt the {long_name(after.waste[-1])}"
    else:
        text = f"Moved {describe_group(moving)} to {pile_title(move.target).lower()}"
    extra = len(step) - 1
    if extra:
        text += f"; {plural(extra, 'card')} to the foundations"
    return text + "."


def describe_move(position: Position, move: Move) -> str:
    """A move of ``position`` in the words of a hint ("move ... to ...")."""
    if move.source == STOCK:
        return "deal a card from the stock"
    cards = tuple(position.pile(move.source)[-move.count :])
    return f"move {describe_group(cards)} to {pile_title(move.target).lower()}"


def parse_hash(text: str) -> tuple[str | None, int | None, str | None]:
    """Read ``#game/deal``. Returns ``(game, deal, problem)``: ``(None, None, None)`` for no
    hash; for a bad one, whatever part was usable and a sentence saying what was wrong."""
    raw = text[1:] if text.startswith("#") else text
    raw = raw.strip()
    if not raw:
        return None, None, None
    game_part, slash, deal_part = raw.partition("/")
    game_part = game_part.strip().lower()
    shown = raw if len(raw) <= 40 else raw[:40] + "…"
    if game_part not in GAMES:
        names = ", ".join(GAMES)
        return None, None, f"The address “#{shown}” names no game here (the games are {names})."
    if not slash or not deal_part.strip():
        return game_part, None, None
    d = deal_part.strip()
    if not (d.isascii() and d.isdigit() and len(d) <= 10) or not 1 <= int(d) <= MAX_DEAL:
        return (
            game_part,
            None,
            (f"The address “#{shown}” has no valid deal number (deals run from 1 to {MAX_DEAL})."),
        )
    return game_part, int(d), None


def format_hash(game_id: str, deal: int | None) -> str:
    return f"#{game_id}/{deal}" if deal is not None else f"#{game_id}"


def deal_link(href: str, game_id: str, deal: int | None) -> str:
    """The absolute link to a deal: the page's own address (any base path, any query) with
    the ``#game/deal`` hash in place of its own."""
    return href.split("#", 1)[0] + format_hash(game_id, deal)


def game_name(game_id: str) -> str:
    return GAMES[game_id].name


# ----------------------------------------------------------------------------- the solver's words

LOST_TEXT = "This deal can no longer be won from here."
LOST_AT_START_TEXT = "This deal cannot be won, whatever you play."


def hint_text(
    kind: str, what: str, game_id: str, searched: float | None = None, longer: bool = False
) -> str:
    """The sentence shown with a hint. ``kind`` is the worker's ``"winning"`` (the first move
    of a winning line) or ``"heuristic"`` (no win found in time: the best-looking move; a
    proved lost position's words are ``lost_text``'s); ``what`` says the move ("move the 7♠
    to tableau pile 3").
    A heuristic hint says how long the search was (``searched`` seconds) and, when ``longer``,
    that asking again searches longer."""
    sees = GAMES[game_id].solver_sees if game_id in GAMES else ""
    if kind == "heuristic":
        within = "in time" if searched is None else f"in {searched:g} s"
        again = " Ask again to search longer." if longer else ""
        return (
            f"Hint (not proved): {what}. No sure win was found {within}; "
            f"this move looks best.{again} {sees}"
        ).strip()
    return f"Hint: {what}. It leads to a win. {sees}".strip()


def lost_text(what: str, game_id: str, at_start: bool = False, searching: bool = False) -> str:
    """A hint in a position proved lost: said plainly, with a legal move still to play
    (``what``, or "" when none is left), and, when ``searching``, that the last move from
    which it could be won is being looked for. At the deal's start (``at_start``) no move of
    the player's lost it."""
    sees = GAMES[game_id].solver_sees if game_id in GAMES else ""
    head = LOST_AT_START_TEXT if at_start else LOST_TEXT
    looking = " Looking for the last move from which it could be won…" if searching else ""
    return f"{head} {still_text(what)}{looking} {sees}".strip()


def still_text(what: str) -> str:
    """What a lost position still allows: ``what`` says a legal move, or "" when none is."""
    return f"You can still play: {what}." if what else "No move is left."


def way_back_text(answer: dict[str, object], step: int | None) -> tuple[str, str, str]:
    """After a lost hint, the answer of "Was it winnable?" as a toast: its sentence, and its
    button's ``data-action`` and label: undo to the last move from which a win was proved,
    else a proved-winnable deal."""
    if step is not None:
        return (
            f"It could still be won before move {step + 1}.",
            "undo-to",
            f"Undo to before move {step + 1}",
        )
    if answer.get("from_start") == "unwinnable":
        return "This deal could not be won, whatever you played.", "winnable-deal", "Winnable deal"
    if answer.get("error"):
        return f"The solver failed: {answer['error']}", "winnable-deal", "Winnable deal"
    return (
        "The solver could not find in time where the win was lost.",
        "winnable-deal",
        "Winnable deal",
    )


def verdict_text(answer: dict[str, object], game_id: str) -> tuple[str, int | None]:
    """The stuck banner's answer to "Was it winnable?" from the worker's ``was_winnable``
    document; returns the sentence and the step to offer to undo back to (or None).

    ``last_winnable_step`` k is the number of moves played at the last position from which a
    win was proved, so "you could still have won before move k + 1"."""
    sees = GAMES[game_id].solver_sees if game_id in GAMES else ""
    error = answer.get("error")
    if error:
        return f"The solver failed: {error}", None
    start = answer.get("from_start")
    k = answer.get("last_winnable_step")
    j = answer.get("first_lost_step")
    if isinstance(k, int) and not isinstance(k, bool):
        exact = bool(answer.get("exact"))
        if k == 0 and exact:
            text = "This deal was winnable, but not after your first move."
        else:
            text = f"This deal was winnable. You could still have won before move {k + 1}."
            if not exact and isinstance(j, int) and not isinstance(j, bool) and j > k + 1:
                text += f" (It was lost by move {j}; the moves between were not all checked.)"
        return f"{text} {sees}".strip(), k
    if start == "unwinnable":
        return f"This deal could not be won, whatever you played. {sees}".strip(), None
    text = "The solver could not decide in time whether this deal could be won."
    if isinstance(j, int) and not isinstance(j, bool) and j > 0:
        text += f" It was lost by move {j} at the latest."
    return text, None


# ----------------------------------------------------------------------------- dialogs


def stats_table_html(stats: dict[str, Stats], current: str) -> str:
    """The statistics table: one column per game (fits a phone), one row per number."""

    def rate(st: Stats) -> str:
        return "–" if st.win_rate is None else f"{st.win_rate:.0%}"

    rows: list[tuple[str, str, Callable[[Stats], object]]] = [
        ("played", "Played", lambda st: st.played),
        ("won", "Won", lambda st: st.won),
        ("rate", "Win rate", rate),
        ("streak", "Streak", lambda st: st.streak),
        ("best-streak", "Best streak", lambda st: st.best_streak),
        ("best-time", "Best time", lambda st: clock(st.best_time)),
        (
            "fewest-moves",
            "Fewest moves",
            lambda st: "–" if st.fewest_moves is None else st.fewest_moves,
        ),
        ("won-with-hints", "Won with hints", lambda st: st.won_with_hints),
    ]

    def cls(g: str) -> str:
        return ' class="current"' if g == current else ""

    head = "".join(f'<th scope="col"{cls(g)}>{GAMES[g].short_name}</th>' for g in stats)
    body = "".join(
        f'<tr data-k="{key}"><th scope="row">{label}</th>'
        + "".join(f'<td data-stats="{g}"{cls(g)}>{value(st)}</td>' for g, st in stats.items())
        + "</tr>"
        for key, label, value in rows
    )
    return (
        '<div class="stats-scroll"><table class="stats-table"><thead><tr><td></td>'
        f"{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def won_html(
    table: str,
    moves: int,
    seconds: float,
    stats: Stats,
    records: dict[str, bool],
    hints: int = 0,
) -> str:
    """The win dialog's numbers; a new record is marked "(best!)"; a win with hints says how
    many were used (and that only a game won without them sets a best time or moves)."""

    def rec(key: str) -> str:
        return ' <span class="record">(best!)</span>' if records.get(key) else ""

    rate = stats.win_rate
    helped = (
        f'<dt>Hints</dt><dd data-k="hints">{hints} used — best time and fewest moves '
        "count only games won without hints</dd>"
        if hints
        else '<dt>Hints</dt><dd data-k="hints">none</dd>'
    )
    return (
        f"<p>{table}.</p>"
        '<dl class="won-numbers">'
        f'<dt>Moves</dt><dd data-k="moves">{moves}{rec("moves")}</dd>'
        f'<dt>Time</dt><dd data-k="time">{clock(seconds)}{rec("time")}</dd>'
        f"{helped}"
        f'<dt>Games won</dt><dd data-k="won">{stats.won} of {stats.played}'
        f" ({'–' if rate is None else f'{rate:.0%}'})</dd>"
        f'<dt>Streak</dt><dd data-k="streak">{stats.streak}{rec("streak")}</dd>'
        "</dl>"
    )
