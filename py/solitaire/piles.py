"""Pile references: which pile of the table a move, a hint or a tap is about.

A :class:`PileRef` is a ``(kind, index)`` pair: ``PileRef("tableau", 3)`` is the fourth
tableau pile. Inside the program piles are always ``PileRef`` values; their text form
(``"tableau-3"``, ``"foundation-0"``, ``"cell-5"``, ``"stock"``, ``"waste"``) exists only at
the edges: move text (:meth:`Move.parse`, saves), the DOM's ``data-pile`` attributes and
messages. :func:`PileRef.parse` is the one parser of that text and ``str()`` its one
formatter.

The refs of the usual piles are made once (``TABLEAU[i]``, ``FOUNDATION[i]``, ``CELL[i]``,
``STOCK``, ``WASTE``) and ``parse`` returns those same objects, so building moves and
comparing piles costs no allocation.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

Kind = Literal["tableau", "foundation", "cell", "stock", "waste"]

#: Kinds that come as a row of numbered piles (the others are single piles, index 0).
NUMBERED: tuple[Kind, ...] = ("tableau", "foundation", "cell")
SINGLE: tuple[Kind, ...] = ("stock", "waste")
#: Piles of a kind up to this index are made in advance (GameRules allows at most 64).
MAX_PILES = 64


class PileRef(NamedTuple):
    """One pile of the table: its kind and its index within that kind (0 for stock, waste)."""

    kind: Kind
    index: int = 0  # type: ignore[assignment]  # (shadows tuple.index, by design)

    def __str__(self) -> str:
        return self.kind if self.kind in SINGLE else f"{self.kind}-{self.index}"

    @classmethod
    def parse(cls, name: object) -> PileRef:
        """``"tableau-3"`` → ``TABLEAU[3]``. Only the canonical spelling is a pile name (ASCII
        digits, no leading zero); anything else raises ``ValueError`` with a sentence."""
        found = _BY_NAME.get(name) if isinstance(name, str) else None
        if found is not None:
            return found
        if isinstance(name, str):
            kind, dash, index = name.partition("-")
            if (
                dash
                and kind in NUMBERED
                and index.isascii()
                and index.isdigit()
                and len(index) <= 6
                and (len(index) == 1 or index[0] != "0")
            ):
                return cls(kind, int(index))
        shown = repr(name)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        raise ValueError(
            f"{shown} is not a pile (piles are tableau-N, foundation-N, cell-N, stock, waste)."
        )


TABLEAU: tuple[PileRef, ...] = tuple(PileRef("tableau", i) for i in range(MAX_PILES))
FOUNDATION: tuple[PileRef, ...] = tuple(PileRef("foundation", i) for i in range(MAX_PILES))
CELL: tuple[PileRef, ...] = tuple(PileRef("cell", i) for i in range(MAX_PILES))
STOCK = PileRef("stock")
WASTE = PileRef("waste")

_BY_NAME: dict[object, PileRef] = {
    str(ref): ref for ref in (*TABLEAU, *FOUNDATION, *CELL, STOCK, WASTE)
}
