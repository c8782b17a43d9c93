"""The vocabulary around a position: a :class:`Move`, the errors a refused move or a bad
position document raise, and :class:`PositionView`, the read-only face of a position that
the modules reading one (the refusals, the position document, the finishing test) work on,
so they need not import :mod:`solitaire.position` (which imports them)."""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from .piles import PileRef
from .rules import GameRules

Pile = tuple[int, ...]


def short_repr(value: Any) -> str:
    """``repr(value)`` for a message, cut to 40 characters: what a tampered document or a
    caller's mistake holds may be anything (an int too long to print, a huge string)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return "a number with too many digits"
    return text if len(text) <= 40 else text[:37] + "..."


def pile_text(ref: PileRef) -> str:
    """A pile's name for a message, cut short (a made-up ref may hold anything)."""
    try:
        text = str(ref)
    except ValueError:  # an index too long to print
        text = f"{ref.kind}-…"
    return text if len(text) <= 40 else text[:37] + "..."


class IllegalMove(ValueError):
    """A move the rules refuse; ``str(error)`` is a sentence for the player."""


class PositionError(ValueError):
    """A position document that is malformed or describes an impossible position."""


class Move(NamedTuple):
    """Take ``count`` cards from the top of ``source`` and put them on ``target``.

    Piles are :class:`PileRef` values: ``Move(TABLEAU[4], FOUNDATION[0])``; dealing a card
    from the stock is ``Move(STOCK, WASTE)``. Their text, ``"3:tableau-2>tableau-5"``, is
    ``str(move)`` and :meth:`parse` (saves and hints carry moves as text).
    """

    source: PileRef
    target: PileRef
    count: int = 1  # type: ignore[assignment]  # (shadows tuple.count, by design)

    def __str__(self) -> str:
        text = f"{self.source}>{self.target}"
        return text if self.count == 1 else f"{self.count}:{text}"

    def __repr__(self) -> str:
        source: object = self.source  # a Move built by hand may hold anything
        target: object = self.target
        if isinstance(source, PileRef) and isinstance(target, PileRef):
            return f"Move.parse({str(self)!r})"
        return f"Move(source={source!r}, target={target!r}, count={self.count!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``str(move)`` back; raises ``ValueError`` with a sentence saying why not."""
        if not isinstance(text, str):
            raise ValueError(f"{short_repr(text)} is not a move.")
        count_text, colon, rest = text.partition(":")
        if not colon:
            count_text, rest = "1", text
        source, arrow, target = rest.partition(">")
        if (
            not arrow
            or not source
            or not target
            or not count_text.isascii()
            or not count_text.isdigit()
            or len(count_text) > 6
        ):
            raise ValueError(
                f"{short_repr(text)} is not a move "
                "(expected text such as 'tableau-2>tableau-5' or '3:tableau-2>tableau-5')."
            )
        try:
            return cls(PileRef.parse(source), PileRef.parse(target), int(count_text))
        except ValueError as error:
            raise ValueError(f"{short_repr(text)} is not a move: {error}") from None


class PositionView(Protocol):
    """What :class:`solitaire.position.Position` shows to the modules that read it."""

    @property
    def rules(self) -> GameRules: ...
    @property
    def deal(self) -> int | None: ...
    @property
    def tableau(self) -> tuple[Pile, ...]: ...
    @property
    def down(self) -> tuple[int, ...]: ...
    @property
    def foundations(self) -> tuple[Pile, ...]: ...
    @property
    def cells(self) -> tuple[int | None, ...]: ...
    @property
    def stock(self) -> Pile: ...
    @property
    def waste(self) -> Pile: ...
    def pile(self, ref: PileRef) -> Pile: ...
    def all_cards(self) -> list[int]: ...
    def fits_on(self, card: int, under: int) -> bool: ...
    def foundation_accepts(self, card: int, pile: Pile) -> bool: ...
    def group_limit(self, to_empty_pile: bool) -> int: ...
    def movable_from(self, i: int) -> int: ...
