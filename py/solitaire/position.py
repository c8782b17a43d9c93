"""A position of any of the games, its legal moves, and playing a move.

Positions are immutable (``play`` returns a new one); piles are tuples of card ints, so undo
is keeping the earlier position. Moves name piles with :class:`PileRef`; the rules come from
the game's ``GameRules`` through its tables (:mod:`solitaire.tables`). ``moves`` (``Move``,
the errors), ``refusals`` (why a move is refused), ``finish`` (the auto-finish test) and
``position_json`` read a position through ``moves.PositionView`` and import nothing from here.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from .cards import face, follows_up, suit
from .deals import deal_piles, shuffled
from .finish import finishes
from .moves import IllegalMove, Move, Pile, PositionError, short_repr
from .piles import CELL, FOUNDATION, STOCK, TABLEAU, WASTE, PileRef
from .position_json import position_document, read_document
from .refusals import why_illegal
from .rules import GAMES, GameRules
from .tables import rule_tables

__all__ = ["IllegalMove", "Move", "Pile", "Position", "PositionError", "short_repr"]


def _read_only(slot: str, doc: str) -> Any:
    """A read-only attribute that reads ``slot`` (a C-level getter: cheaper than a def)."""
    return property(attrgetter(slot), doc=doc)


class Position:
    """Everything on the table. Equal positions have equal piles (the deal number aside).

    The attributes are read-only (``position.tableau = ()`` raises ``AttributeError``)."""

    __slots__ = (
        "_cells",
        "_deal",
        "_down",
        "_foundations",
        "_hash",
        "_rules",
        "_stock",
        "_tableau",
        "_waste",
    )

    # Read-only: a Position never changes (``position.tableau = ...`` raises AttributeError).
    # The methods below read the slots themselves (``self._tableau``), which is faster.
    rules: GameRules = _read_only("_rules", "The game's rules.")
    deal: int | None = _read_only("_deal", "The deal number, or None (a hand-made position).")
    tableau: tuple[Pile, ...] = _read_only("_tableau", "The tableau piles, bottom → top.")
    down: tuple[int, ...] = _read_only("_down", "Per tableau pile: its face-down cards.")
    foundations: tuple[Pile, ...] = _read_only("_foundations", "The foundation piles.")
    cells: tuple[int | None, ...] = _read_only("_cells", "The free cells (None: empty).")
    stock: Pile = _read_only("_stock", "The stock, top card last.")
    waste: Pile = _read_only("_waste", "The waste, top card last.")

    def __init__(
        self,
        rules: GameRules,
        tableau: tuple[Pile, ...],
        down: tuple[int, ...],
        foundations: tuple[Pile, ...],
        cells: tuple[int | None, ...] = (),
        stock: Pile = (),
        waste: Pile = (),
        deal: int | None = None,
    ) -> None:
        self._rules = rules
        self._deal = deal
        self._tableau = tableau
        self._down = down
        self._foundations = foundations
        self._cells = cells
        self._stock = stock
        self._waste = waste
        self._hash: int | None = None

    # ----------------------------------------------------------------- construction

    @classmethod
    def deal_of(cls, game: str | GameRules, deal: int) -> Position:
        """Deal number ``deal`` (1 … ``MAX_DEAL``, else ``ValueError``) of ``game``, a game id
        such as ``"russian"`` (``KeyError`` for an unknown one) or its ``GameRules``."""
        rules = GAMES.get(game) if isinstance(game, str) else game
        if rules is None:
            raise KeyError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
        piles, rest = deal_piles(rules.tableau, shuffled(rules.cards, deal))
        return cls(
            rules,
            tableau=tuple(tuple(p) for p in piles),
            down=tuple(down for down, _ in rules.tableau),
            foundations=((),) * rules.foundations,
            cells=(None,) * rules.cells,
            stock=tuple(rest),
            deal=deal,
        )

    # ----------------------------------------------------------------- identity

    def _key(self) -> tuple[Any, ...]:
        return (
            self._rules.id,
            self._tableau,
            self._down,
            self._foundations,
            self._cells,
            self._stock,
            self._waste,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def __repr__(self) -> str:
        return f"<Position {self._rules.id} deal={self._deal}>"

    # ----------------------------------------------------------------- looking

    def pile(self, ref: PileRef) -> Pile:
        """The cards of a pile, bottom → top (a free cell: ``()`` or ``(card,)``); ``KeyError``
        when this game has no such pile, ``TypeError`` when ``ref`` is not a :class:`PileRef`."""
        if not isinstance(ref, PileRef):
            raise TypeError(f"a pile is a PileRef, not {short_repr(ref)}")
        kind, i = ref
        if type(i) is int and i >= 0:
            if kind == "tableau" and i < len(self._tableau):
                return self._tableau[i]
            if kind == "foundation" and i < len(self._foundations):
                return self._foundations[i]
            if kind == "cell" and i < len(self._cells):
                card = self._cells[i]
                return () if card is None else (card,)
            if kind == "stock" and i == 0 and self._rules.stock:
                return self._stock
            if kind == "waste" and i == 0 and self._rules.stock:
                return self._waste
        raise KeyError(ref)

    def pile_refs(self) -> list[PileRef]:
        """Every pile of this game: tableau, foundations, cells, then stock and waste."""
        refs = list(TABLEAU[: len(self._tableau)])
        refs += FOUNDATION[: len(self._foundations)]
        refs += CELL[: len(self._cells)]
        if self._rules.stock:
            refs += [STOCK, WASTE]
        return refs

    def face_down(self, ref: PileRef) -> int:
        """How many of a pile's cards lie face down (from the bottom): a tableau pile's
        ``down``, every card of the stock, none elsewhere."""
        if ref.kind == "tableau":
            return self._down[ref.index]
        return len(self._stock) if ref == STOCK else 0

    def all_cards(self) -> list[int]:
        """Every card, in the order a position document lists them ("reading order"): tableau
        piles (face-down cards first), foundations, cells, stock, waste; piles bottom → top."""
        cards = [c for p in self._tableau for c in p]
        cards += [c for p in self._foundations for c in p]
        cards += [c for c in self._cells if c is not None]
        return cards + list(self._stock) + list(self._waste)

    def is_won(self) -> bool:
        return sum(map(len, self._foundations)) == self._rules.cards

    def is_stuck(self) -> bool:
        """Not won, and no move left but shifting a whole pile to an empty one (which
        changes nothing a player cares about)."""
        if self.is_won():
            return False
        return all(self.is_pointless(m) for m in self.legal_moves())

    def is_pointless(self, move: Move) -> bool:
        """A whole tableau pile, nothing face down under it, moved onto an empty pile."""
        kind, i = move.source
        tkind, t = move.target
        return (
            kind == "tableau"
            and tkind == "tableau"
            and not self._tableau[t]
            and move.count == len(self._tableau[i])
            and self._down[i] == 0
        )

    # ----------------------------------------------------------------- rules

    def fits_on(self, card: int, under: int) -> bool:
        """Can ``card`` be placed on the tableau card ``under``?"""
        t = rule_tables(self._rules)
        return bool(t.fits[card * t.n + under])

    def foundation_accepts(self, card: int, pile: Pile) -> bool:
        """Can ``card`` go on the foundation ``pile`` (a pile of this position)?

        An empty foundation takes an Ace, unless its suit already has all the foundations
        it gets (Double FreeCell: one per suit, so the second Ace waits for the King)."""
        if not pile:
            if card % 13:
                return False
            per_suit = rule_tables(self._rules).per_suit
            if per_suit >= self._rules.decks:
                return True  # as many foundations per suit as Aces: nothing to check
            s = suit(card)
            started = sum(1 for p in self._foundations if p and suit(p[0]) == s)
            return started < per_suit
        top = pile[-1]
        if suit(top) != suit(card) or len(pile) >= self._rules.foundation_size:
            return False
        return follows_up(card, top)

    def group_limit(self, to_empty_pile: bool) -> int:
        """Most cards that may move as one group (the free-cell "supermove" count)."""
        if self._rules.group_limit == "none":
            return 10**6
        free_cells = self._cells.count(None)
        empty = sum(1 for p in self._tableau if not p) - (1 if to_empty_pile else 0)
        return (free_cells + 1) << max(empty, 0)

    def movable_from(self, i: int) -> int:
        """How many cards at the top of tableau pile ``i`` could move together (ignoring any
        group limit): the deepest face-up card for Yukon groups, else the ordered run."""
        pile = self._tableau[i]
        if not pile:
            return 0
        if self._rules.group == "any-face-up":
            return len(pile) - self._down[i]
        t = rule_tables(self._rules)
        fits, n_cards = t.fits, t.n
        n = 1
        lowest = self._down[i]
        j = len(pile) - 1
        while j > lowest and fits[pile[j] * n_cards + pile[j - 1]]:
            n += 1
            j -= 1
        return n

    def _foundation_wants(self) -> dict[int, list[int]]:
        """Face (card % 52) → the foundations that would take it, in order."""
        rules = self._rules
        size = rules.foundation_size
        wants: dict[int, list[int]] = {}
        empty: list[int] = []
        started = [0, 0, 0, 0]
        for f, pile in enumerate(self._foundations):
            if not pile:
                empty.append(f)
                continue
            top = pile[-1] % 52
            started[top // 13] += 1
            if len(pile) >= size:
                continue
            want = top + 1 if top % 13 != 12 else top - 12
            wants.setdefault(want, []).append(f)
        if empty:
            per_suit = rule_tables(rules).per_suit
            for s in range(4):
                if per_suit >= rules.decks or started[s] < per_suit:
                    wants.setdefault(s * 13, []).extend(empty)
                    wants[s * 13].sort()
        return wants

    def legal_moves(self) -> list[Move]:
        """Every legal move: to foundations first, then tableau, cells, and the stock deal."""
        rules = self._rules
        t = rule_tables(rules)
        fits, n_cards = t.fits, t.n
        moves: list[Move] = []
        tableau = self._tableau
        tops = self._tops()
        # single top cards (tableau tops, waste top, cells) to the foundations
        wants = self._foundation_wants()
        for source, card in tops:
            targets = wants.get(card % 52)
            if targets:
                moves.extend([Move(source, FOUNDATION[f]) for f in targets])
        # groups from the tableau: where is each movable card? (value: count * 64 + pile)
        # movable_from written out: the call per pile cost legal_moves 12-15 % of its speed
        any_face_up = rules.group == "any-face-up"
        down = self._down
        where: dict[int, int] = {}
        depth: list[int] = []
        for i, pile in enumerate(tableau):
            n = len(pile)
            if not n:
                depth.append(0)
                continue
            if any_face_up:
                m = n - down[i]
            else:
                m = 1
                j = n - 1
                lowest = down[i]
                while j > lowest and fits[pile[j] * n_cards + pile[j - 1]]:
                    m += 1
                    j -= 1
            depth.append(m)
            if m == 1:
                where[pile[-1]] = 64 + i
            else:
                where.update(
                    zip(pile[n - m :][::-1], range(64 + i, 64 * (m + 1) + i, 64), strict=True)
                )
        limited = rules.group_limit != "none"
        limit = self.group_limit(False) if limited else n_cards
        limit_empty = self.group_limit(True) if limited else n_cards
        kings_only = rules.empty == "king"
        found: list[tuple[int, int, int]] = []
        empties: list[int] = []
        fitting = t.fitting
        get = where.get
        for k, target in enumerate(tableau):
            if not target:
                empties.append(k)
                continue
            for c in fitting[target[-1] % 52]:
                v = get(c)
                if v is not None:
                    i = v & 63
                    count = v >> 6
                    if i != k and count <= limit:
                        found.append((i, count, k))
        if empties:
            for i, m in enumerate(depth):
                pile = tableau[i]
                for count in range(1, min(m, limit_empty) + 1):
                    if kings_only and pile[-count] % 13 != 12:
                        continue
                    found.extend([(i, count, k) for k in empties if k != i])
        found.sort()
        moves.extend([Move(TABLEAU[i], TABLEAU[k], count) for i, count, k in found])
        # single cards from the waste and the cells onto the tableau
        for source, card in tops:
            if source.kind == "tableau":
                continue
            for k, target in enumerate(tableau):
                if target:
                    if fits[card * n_cards + target[-1]]:
                        moves.append(Move(source, TABLEAU[k]))
                elif not kings_only or card % 13 == 12:
                    moves.append(Move(source, TABLEAU[k]))
        # top cards into empty cells (from the tableau, then the waste)
        if None in self._cells:
            empty_cells = [CELL[k] for k, c in enumerate(self._cells) if c is None]
            for i, pile in enumerate(tableau):
                if pile:
                    source = TABLEAU[i]
                    moves.extend([Move(source, cell) for cell in empty_cells])
            if self._waste:
                moves.extend([Move(WASTE, cell) for cell in empty_cells])
        if self._stock:
            moves.append(Move(STOCK, WASTE))
        return moves

    def why_illegal(self, move: Any) -> str | None:
        """``None`` when ``move`` (a ``Move`` or a 3-tuple) is legal, else the reason, worded for
        the player; anything else is refused with a reason too (:mod:`solitaire.refusals`)."""
        return why_illegal(self, move)

    # ----------------------------------------------------------------- playing

    def play(self, move: Any) -> Position:
        """The position after ``move``; raises ``IllegalMove`` with the reason."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(reason)
        return self.play_unchecked(Move(*move))

    def play_unchecked(self, move: Move) -> Position:
        """The position after ``move``, a move known to be legal (one of ``legal_moves()``,
        an auto-move, a saved move ``why_illegal`` accepted): no checks, so an illegal one
        gives a wrong position or an exception. The solver, the auto-moves and loading a save
        play through it; a player's move goes through :meth:`play`."""
        (skind, s), (tkind, t), count = move
        tableau = self._tableau
        down = self._down
        foundations = self._foundations
        cells = self._cells
        stock = self._stock
        waste = self._waste
        moving: Pile
        if skind == "tableau":
            pile = tableau[s]
            moving = pile[-count:]
            rest = pile[:-count]
            tableau = (*tableau[:s], rest, *tableau[s + 1 :])
            d = down[s]
            if d and d >= len(rest):  # the new top was face down: turn it
                down = (*down[:s], len(rest) - 1 if rest else 0, *down[s + 1 :])
        elif skind == "waste":
            moving = waste[-1:]
            waste = waste[:-1]
        elif skind == "cell":
            moving = (cells[s],)  # type: ignore[assignment]
            cells = (*cells[:s], None, *cells[s + 1 :])
        else:  # stock
            moving = stock[-1:]
            stock = stock[:-1]
        if tkind == "tableau":
            tableau = (*tableau[:t], tableau[t] + moving, *tableau[t + 1 :])
        elif tkind == "foundation":
            foundations = (*foundations[:t], foundations[t] + moving, *foundations[t + 1 :])
        elif tkind == "cell":
            cells = (*cells[:t], moving[0], *cells[t + 1 :])
        else:  # waste
            waste = waste + moving
        return Position(self._rules, tableau, down, foundations, cells, stock, waste, self._deal)

    # ----------------------------------------------------------------- automatic play

    def home_counts(self) -> dict[int, int]:
        """How many of each face (``card % 52``) are on the foundations."""
        counts: dict[int, int] = {}
        for pile in self._foundations:
            for c in pile:
                counts[face(c)] = counts.get(face(c), 0) + 1
        return counts

    def is_safe(self, card: int, on_foundations: dict[int, int] | None = None) -> bool:
        """Every card that could go on ``card`` in the tableau is home: it goes up safely."""
        below = rule_tables(self._rules).below[card % 52]
        if not below:  # an Ace
            return True
        counts = self.home_counts() if on_foundations is None else on_foundations
        decks = self._rules.decks
        return all(counts.get(f, 0) >= decks for f in below)

    def _foundation_move(self, source: PileRef, card: int) -> Move | None:
        for f, pile in enumerate(self._foundations):
            if self.foundation_accepts(card, pile):
                return Move(source, FOUNDATION[f])
        return None

    def _tops(self) -> list[tuple[PileRef, int]]:
        tops = [(TABLEAU[i], p[-1]) for i, p in enumerate(self._tableau) if p]
        if self._waste:
            tops.append((WASTE, self._waste[-1]))
        tops += [(CELL[i], c) for i, c in enumerate(self._cells) if c is not None]
        return tops

    def safe_automoves(self) -> list[Move]:
        """The safe moves to the foundations, in the order to play them, repeated until none
        is left (each may uncover another)."""
        moves: list[Move] = []
        position = self
        while True:
            counts = position.home_counts()
            for source, card in position._tops():
                if position.is_safe(card, counts):
                    move = position._foundation_move(source, card)
                    if move is not None:
                        moves.append(move)
                        position = position.play_unchecked(move)
                        break
            else:
                return moves

    def auto_finish(self) -> list[Move] | None:
        """Moves that win with foundation moves alone (and stock deals), tried on a copy;
        ``None`` when that would not win."""
        if self.is_won() or not self._finishes():
            return None
        moves: list[Move] = []
        position = self
        while not position.is_won():
            for source, card in position._tops():
                move = position._foundation_move(source, card)
                if move is not None:
                    break
            else:
                if not position._stock:
                    return None
                move = Move(STOCK, WASTE)
            moves.append(move)
            position = position.play_unchecked(move)
        return moves

    def _finishes(self) -> bool:
        """Would foundation moves alone (and stock deals) win? (:func:`.finish.finishes`)"""
        return finishes(self)

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The position document of docs/save-format.md (``position_json.position_document``)."""
        return position_document(self)

    @classmethod
    def from_json(cls, doc: Any) -> Position:
        """Read a position document; anything malformed or impossible raises
        ``PositionError`` saying what is wrong (:func:`solitaire.position_json.read_document`)."""
        return cls(*read_document(doc))
