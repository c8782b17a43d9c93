"""Words the page shows or speaks, and the address (``#russian/123``) format. No browser
imports: CPython tests use this module directly."""

from __future__ import annotations

from ..cards import RANKS, SUIT_SYMBOLS, long_name, rank, suit
from ..deal import MAX_DEAL
from ..rules import GAMES

SHORT_NAMES = {
    "russian": "Russian",
    "double-russian": "Double Russian",
    "double-rail": "Double Rail",
    "double-freecell": "Double FreeCell",
}


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


def card_face_html(card: int) -> str:
    """Inner HTML of a face-up card: corner indices and a centre pip (hidden from assistive
    technology; the card element carries the accessible name)."""
    r = rank_text(card)
    s = SUIT_SYMBOLS[suit(card)]
    ix = f'<span class="r">{r}</span><span class="s">{s}</span>'
    if rank(card) >= 11:
        centre = f'<span class="pip court">{r}<span class="s">{s}</span></span>'
    else:
        centre = f'<span class="pip">{s}</span>'
    return (
        f'<span class="ix" aria-hidden="true">{ix}</span>'
        f'<span aria-hidden="true">{centre}</span>'
        f'<span class="ix br" aria-hidden="true">{ix}</span>'
    )


def pile_kind(name: str) -> tuple[str, int]:
    kind, _, index = name.partition("-")
    return kind, int(index) if index.isdigit() else 0


def pile_title(name: str) -> str:
    kind, i = pile_kind(name)
    if kind == "tableau":
        return f"Tableau pile {i + 1}"
    if kind == "foundation":
        return f"Foundation {i + 1}"
    if kind == "cell":
        return f"Free cell {i + 1}"
    return "Stock" if kind == "stock" else "Waste"


def pile_label(name: str, cards: tuple[int, ...], down: int) -> str:
    """Accessible name: "Tableau pile 3, 5 cards, 2 face down"."""
    kind, _ = pile_kind(name)
    title = pile_title(name)
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


def game_name(game_id: str) -> str:
    return GAMES[game_id].name
