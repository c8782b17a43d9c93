"""A position of any of the games, its legal moves, and playing a move.

Positions are immutable: ``play`` returns a new one. Piles are tuples of card ints, so a copy
is a few tuple references and undo is keeping the earlier position.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import card_name, card_symbol, face, is_red, parse_card, rank, suit
from .deal import deal_piles, shuffled
from .rules import GAMES, GameRules

Pile = tuple[int, ...]


class IllegalMove(ValueError):
    """A move the rules refuse; ``str(error)`` is a sentence for the player."""


class PositionError(ValueError):
    """A position document that is malformed or describes an impossible position."""


class Move(NamedTuple):
    """Take ``count`` cards from the top of ``source`` and put them on ``target``.

    Piles are named as on the page: ``tableau-0``, ``foundation-0``, ``cell-0``, ``stock``,
    ``waste``. Dealing a card from the stock is ``Move("stock", "waste")``.
    """

    source: str
    target: str
    count: int = 1

    def __str__(self) -> str:
        text = f"{self.source}>{self.target}"
        return text if self.count == 1 else f"{self.count}:{text}"

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a move")
        count_text, colon, rest = text.partition(":")
        if not colon:
            count_text, rest = "1", text
        source, arrow, target = rest.partition(">")
        if not arrow or not source or not target or not count_text.isdigit():
            raise ValueError(f"{text!r} is not a move (expected 'tableau-2>tableau-5' or '3:…')")
        return cls(source, target, int(count_text))


def _split(name: str) -> tuple[str, int]:
    """``"tableau-3"`` → ``("tableau", 3)``; ``"stock"`` → ``("stock", 0)``; bad → ``("", -1)``."""
    if name in ("stock", "waste"):
        return name, 0
    kind, dash, index = name.partition("-")
    if dash and index.isdigit() and kind in ("tableau", "foundation", "cell"):
        if len(index) == 1 or index[0] != "0":
            return kind, int(index)
    return "", -1


_BUILD_WORDS = {
    "same-suit": "build down by one rank in the same suit",
    "alternate-colour": "build down by one rank in alternating colours",
    "any-suit": "build down by one rank, any suit",
}


class Position:
    """Everything on the table. Equal positions have equal piles (the deal number aside)."""

    __slots__ = ("rules", "deal", "tableau", "down", "foundations", "cells", "stock", "waste", "_hash")

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
        self.rules = rules
        self.deal = deal
        self.tableau = tableau
        self.down = down
        self.foundations = foundations
        self.cells = cells
        self.stock = stock
        self.waste = waste
        self._hash: int | None = None

    # ----------------------------------------------------------------- construction

    @classmethod
    def deal_of(cls, game: str | GameRules, deal: int) -> Position:
        rules = GAMES[game] if isinstance(game, str) else game
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
            self.rules.id,
            self.tableau,
            self.down,
            self.foundations,
            self.cells,
            self.stock,
            self.waste,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def __repr__(self) -> str:
        return f"<Position {self.rules.id} deal={self.deal}>"

    # ----------------------------------------------------------------- looking

    def pile(self, name: str) -> Pile:
        kind, i = _split(name)
        if kind == "tableau" and i < len(self.tableau):
            return self.tableau[i]
        if kind == "foundation" and i < len(self.foundations):
            return self.foundations[i]
        if kind == "cell" and i < len(self.cells):
            card = self.cells[i]
            return () if card is None else (card,)
        if kind == "stock" and self.rules.stock:
            return self.stock
        if kind == "waste" and self.rules.stock:
            return self.waste
        raise KeyError(name)

    def pile_names(self) -> list[str]:
        names = [f"tableau-{i}" for i in range(len(self.tableau))]
        names += [f"foundation-{i}" for i in range(len(self.foundations))]
        names += [f"cell-{i}" for i in range(len(self.cells))]
        if self.rules.stock:
            names += ["stock", "waste"]
        return names

    def all_cards(self) -> list[int]:
        cards = [c for p in self.tableau for c in p]
        cards += [c for p in self.foundations for c in p]
        cards += [c for c in self.cells if c is not None]
        return cards + list(self.stock) + list(self.waste)

    def is_won(self) -> bool:
        return sum(map(len, self.foundations)) == self.rules.cards

    def is_stuck(self) -> bool:
        """Not won, and no move left but shifting a whole pile to an empty one (which
        changes nothing a player cares about)."""
        if self.is_won():
            return False
        return all(self.is_pointless(m) for m in self.legal_moves())

    def is_pointless(self, move: Move) -> bool:
        """A whole tableau pile, nothing face down under it, moved onto an empty pile."""
        kind, i = _split(move.source)
        tkind, t = _split(move.target)
        return (
            kind == "tableau"
            and tkind == "tableau"
            and not self.tableau[t]
            and move.count == len(self.tableau[i])
            and self.down[i] == 0
        )

    # ----------------------------------------------------------------- rules

    def fits_on(self, card: int, under: int) -> bool:
        """Can ``card`` be placed on the tableau card ``under``?"""
        if rank(under) != rank(card) + 1:
            return False
        build = self.rules.build
        if build == "same-suit":
            return suit(card) == suit(under)
        if build == "alternate-colour":
            return is_red(card) != is_red(under)
        return True

    def foundation_accepts(self, card: int, pile: Pile) -> bool:
        if not pile:
            return rank(card) == 1
        top = pile[-1]
        if suit(top) != suit(card) or len(pile) >= self.rules.foundation_size:
            return False
        return rank(card) == rank(top) + 1 or (rank(top) == 13 and rank(card) == 1)

    def group_limit(self, to_empty_pile: bool) -> int:
        """Most cards that may move as one group (the free-cell "supermove" count)."""
        if self.rules.group_limit == "none":
            return 10**6
        free_cells = sum(1 for c in self.cells if c is None)
        empty = sum(1 for p in self.tableau if not p) - (1 if to_empty_pile else 0)
        return (free_cells + 1) << max(empty, 0)

    def _movable_from(self, i: int) -> int:
        """How many cards at the top of tableau pile ``i`` could move together (ignoring any
        group limit): the deepest face-up card for Yukon groups, else the ordered run."""
        pile = self.tableau[i]
        if not pile:
            return 0
        if self.rules.group == "any-face-up":
            return len(pile) - self.down[i]
        n = 1
        lowest = self.down[i]
        for j in range(len(pile) - 1, lowest, -1):
            if self.fits_on(pile[j], pile[j - 1]):
                n += 1
            else:
                break
        return n

    def legal_moves(self) -> list[Move]:
        """Every legal move: to foundations first, then tableau, cells, and the stock deal."""
        rules = self.rules
        moves: list[Move] = []
        foundations = self.foundations
        tableau = self.tableau
        # single top cards: tableau tops, waste top, cells
        tops = self._tops()
        for source, card in tops:
            for f, pile in enumerate(foundations):
                if self.foundation_accepts(card, pile):
                    moves.append(Move(source, f"foundation-{f}"))
        # groups from the tableau
        for i, pile in enumerate(tableau):
            n = self._movable_from(i)
            source = f"tableau-{i}"
            for count in range(1, n + 1):
                card = pile[-count]
                for t, target in enumerate(tableau):
                    if t == i:
                        continue
                    if target:
                        if not self.fits_on(card, target[-1]):
                            continue
                        if count > self.group_limit(False):
                            continue
                    else:
                        if rules.empty == "king" and rank(card) != 13:
                            continue
                        if count > self.group_limit(True):
                            continue
                    moves.append(Move(source, f"tableau-{t}", count))
        # single cards from waste and cells onto the tableau
        for source, card in tops:
            if source.startswith("tableau"):
                continue
            for t, target in enumerate(tableau):
                if target:
                    if self.fits_on(card, target[-1]):
                        moves.append(Move(source, f"tableau-{t}"))
                elif rules.empty == "any" or rank(card) == 13:
                    moves.append(Move(source, f"tableau-{t}"))
        # tableau tops into empty cells
        empty_cells = [k for k, c in enumerate(self.cells) if c is None]
        if empty_cells:
            for i, pile in enumerate(tableau):
                if pile:
                    for k in empty_cells:
                        moves.append(Move(f"tableau-{i}", f"cell-{k}"))
        if self.stock:
            moves.append(Move("stock", "waste"))
        return moves

    def why_illegal(self, move: Move) -> str | None:
        """``None`` when ``move`` is legal, else the reason, worded for the player."""
        rules = self.rules
        try:
            source, target, count = move
        except (TypeError, ValueError):
            return "That is not a move."
        if not isinstance(source, str) or not isinstance(target, str):
            return "That is not a move."
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            return "A move takes at least one card."
        for name in (source, target):
            try:
                self.pile(name)
            except KeyError:
                return f"There is no pile called “{name}” in {rules.name}."
        if source == target:
            return "The cards are already there."
        skind, s = _split(source)
        tkind, t = _split(target)
        if skind == "foundation":
            return "Cards never come back off a foundation."
        if skind == "stock":
            if tkind != "waste":
                return "Cards from the stock go to the waste: click the stock to deal one."
            if not self.stock:
                return "The stock is empty, and there is no redeal."
            return None if count == 1 else "The stock deals one card at a time."
        if tkind == "stock":
            return "Nothing can be put on the stock."
        if tkind == "waste":
            return "Only the stock deals onto the waste."
        cards = self.pile(source)
        if not cards:
            return "There is no card there to move."
        if count > len(cards):
            return f"That pile has only {len(cards)} card{'s' if len(cards) > 1 else ''}."
        if skind in ("waste", "cell") and count > 1:
            return "Only the top card of the waste moves." if skind == "waste" else (
                "A free cell holds one card."
            )
        card = cards[-count]
        if skind == "tableau":
            if len(cards) - count < self.down[s]:
                return "Face-down cards cannot be moved."
            if count > 1 and rules.group == "sequence" and self._movable_from(s) < count:
                return (
                    f"Only a run that follows the building rule ({_BUILD_WORDS[rules.build]}) "
                    "moves together."
                )
        if tkind == "foundation":
            if count > 1:
                return "Cards go to a foundation one at a time."
            pile = self.foundations[t]
            if self.foundation_accepts(card, pile):
                return None
            if not pile:
                return "Only an Ace can start a foundation."
            if len(pile) >= rules.foundation_size:
                return "That foundation is complete."
            return (
                f"The {card_symbol(card)} cannot go on the {card_symbol(pile[-1])}: "
                "foundations build up by suit."
            )
        if tkind == "cell":
            if skind == "cell":
                return "A card cannot move from one free cell to another."
            if count > 1:
                return "A free cell holds one card."
            if self.cells[t] is not None:
                return "That free cell is taken."
            return None
        # onto the tableau
        pile = self.tableau[t]
        if pile:
            if not self.fits_on(card, pile[-1]):
                return (
                    f"The {card_symbol(card)} cannot go on the {card_symbol(pile[-1])}: "
                    f"{_BUILD_WORDS[rules.build]}."
                )
        elif rules.empty == "king" and rank(card) != 13:
            return "Only a King can go to an empty pile."
        if skind == "tableau" and count > 1:
            limit = self.group_limit(not pile)
            if count > limit:
                free = sum(1 for c in self.cells if c is None)
                empty = sum(1 for p in self.tableau if not p) - (0 if pile else 1)
                return (
                    f"With {free} free cell{'s' if free != 1 else ''} and {empty} empty "
                    f"column{'s' if empty != 1 else ''} to spare, at most {limit} cards "
                    "move at once."
                )
        return None

    # ----------------------------------------------------------------- playing

    def play(self, move: Move) -> Position:
        """The position after ``move``; raises ``IllegalMove`` with the reason."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(reason)
        return self._apply(Move(*move))

    def _apply(self, move: Move) -> Position:
        """Play a move already known to be legal (the solver's fast path)."""
        source, target, count = move
        skind, s = _split(source)
        tkind, t = _split(target)
        tableau = list(self.tableau)
        down = self.down
        foundations = self.foundations
        cells = self.cells
        stock = self.stock
        waste = self.waste
        if skind == "tableau":
            pile = tableau[s]
            moving = pile[-count:]
            rest = pile[:-count]
            tableau[s] = rest
            if down[s] >= len(rest) and down[s]:
                d = list(down)
                d[s] = max(len(rest) - 1, 0)
                down = tuple(d)
        elif skind == "waste":
            moving = waste[-1:]
            waste = waste[:-1]
        elif skind == "cell":
            moving = (cells[s],)  # type: ignore[assignment]
            c = list(cells)
            c[s] = None
            cells = tuple(c)
        else:  # stock
            moving = stock[-1:]
            stock = stock[:-1]
        if tkind == "tableau":
            tableau[t] = tableau[t] + moving
        elif tkind == "foundation":
            f = list(foundations)
            f[t] = f[t] + moving
            foundations = tuple(f)
        elif tkind == "cell":
            c = list(cells)
            c[t] = moving[0]
            cells = tuple(c)
        else:  # waste
            waste = waste + moving
        return Position(
            self.rules, tuple(tableau), down, foundations, cells, stock, waste, self.deal
        )

    # ----------------------------------------------------------------- automatic play

    def _on_foundations(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for pile in self.foundations:
            for c in pile:
                counts[face(c)] = counts.get(face(c), 0) + 1
        return counts

    def is_safe(self, card: int, on_foundations: dict[int, int] | None = None) -> bool:
        """No card that could ever be built on ``card`` in the tableau is left off the
        foundations, so sending it up cannot cost the player anything."""
        r = rank(card)
        if r == 1:
            return True
        counts = self._on_foundations() if on_foundations is None else on_foundations
        decks = self.rules.decks
        below = r - 2  # rank index of r-1
        build = self.rules.build
        if build == "same-suit":
            suits: tuple[int, ...] = (suit(card),)
        elif build == "alternate-colour":
            suits = (0, 3) if is_red(card) else (1, 2)
        else:
            suits = (0, 1, 2, 3)
        return all(counts.get(s * 13 + below, 0) >= decks for s in suits)

    def _foundation_move(self, source: str, card: int) -> Move | None:
        for f, pile in enumerate(self.foundations):
            if self.foundation_accepts(card, pile):
                return Move(source, f"foundation-{f}")
        return None

    def _tops(self) -> list[tuple[str, int]]:
        tops = [(f"tableau-{i}", p[-1]) for i, p in enumerate(self.tableau) if p]
        if self.waste:
            tops.append(("waste", self.waste[-1]))
        tops += [(f"cell-{i}", c) for i, c in enumerate(self.cells) if c is not None]
        return tops

    def safe_automoves(self) -> list[Move]:
        """The safe moves to the foundations, in the order to play them, repeated until none
        is left (each may uncover another)."""
        moves: list[Move] = []
        position = self
        while True:
            counts = position._on_foundations()
            for source, card in position._tops():
                if position.is_safe(card, counts):
                    move = position._foundation_move(source, card)
                    if move is not None:
                        moves.append(move)
                        position = position._apply(move)
                        break
            else:
                return moves

    def auto_finish(self) -> list[Move] | None:
        """Moves that win with foundation moves alone (and stock deals), tried on a copy;
        ``None`` when that would not win."""
        if self.is_won():
            return None
        moves: list[Move] = []
        position = self
        while not position.is_won():
            for source, card in position._tops():
                move = position._foundation_move(source, card)
                if move is not None:
                    break
            else:
                if not position.stock:
                    return None
                move = Move("stock", "waste")
            moves.append(move)
            position = position._apply(move)
        return moves

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The position document of docs/save-format.md; two copies of a card both read as
        e.g. "QS" (loading numbers the copies in reading order)."""
        doc: dict[str, Any] = {
            "format": 1,
            "game": self.rules.id,
            "deal": self.deal,
            "tableau": [
                {
                    "down": [card_name(c) for c in p[: self.down[i]]],
                    "up": [card_name(c) for c in p[self.down[i] :]],
                }
                for i, p in enumerate(self.tableau)
            ],
            "foundations": [[card_name(c) for c in p] for p in self.foundations],
        }
        if self.rules.cells:
            doc["cells"] = [None if c is None else card_name(c) for c in self.cells]
        if self.rules.stock:
            doc["stock"] = [card_name(c) for c in self.stock]
            doc["waste"] = [card_name(c) for c in self.waste]
        return doc

    @classmethod
    def from_json(cls, doc: Any) -> Position:
        """Read a position document; anything malformed or impossible raises PositionError
        saying what is wrong."""
        if not isinstance(doc, dict):
            raise PositionError("A position must be a JSON object.")
        if doc.get("format") != 1:
            raise PositionError(
                f"Unknown position format {doc.get('format')!r}; this version reads format 1."
            )
        rules = GAMES.get(doc.get("game"))  # type: ignore[arg-type]
        if rules is None:
            raise PositionError(f"Unknown game {doc.get('game')!r}.")
        deal = doc.get("deal")
        if deal is not None and (
            not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal < 2**31
        ):
            raise PositionError(f"Bad deal number {deal!r}.")
        allowed = {"format", "game", "deal", "tableau", "foundations", "cells", "stock", "waste"}
        extra = set(doc) - allowed
        if extra:
            raise PositionError(f"Unexpected keys: {', '.join(sorted(extra))}.")
        seen: dict[int, int] = {}

        def card(text: Any, where: str) -> int:
            try:
                c = parse_card(text)
            except ValueError as error:
                raise PositionError(f"{where}: {error}") from None
            copy = seen.get(c, 0)
            if copy >= rules.decks:
                raise PositionError(f"{where}: the card {text} appears too many times.")
            seen[c] = copy + 1
            return copy * 52 + c

        def card_list(value: Any, where: str) -> list[int]:
            if not isinstance(value, list):
                raise PositionError(f"{where} must be a list of cards.")
            return [card(v, where) for v in value]

        tableau_doc = doc.get("tableau")
        if not isinstance(tableau_doc, list) or len(tableau_doc) != len(rules.tableau):
            raise PositionError(f"{rules.name} has {len(rules.tableau)} tableau piles.")
        tableau: list[Pile] = []
        down: list[int] = []
        for i, pile_doc in enumerate(tableau_doc):
            where = f"tableau pile {i + 1}"
            if not isinstance(pile_doc, dict) or set(pile_doc) - {"down", "up"}:
                raise PositionError(f"{where} must be an object with 'down' and 'up'.")
            d = card_list(pile_doc.get("down", []), where)
            u = card_list(pile_doc.get("up", []), where)
            if d and not u:
                raise PositionError(f"{where}: its top card must be face up.")
            tableau.append(tuple(d + u))
            down.append(len(d))
        f_doc = doc.get("foundations")
        if not isinstance(f_doc, list) or len(f_doc) != rules.foundations:
            raise PositionError(f"{rules.name} has {rules.foundations} foundations.")
        foundations = [tuple(card_list(p, f"foundation {k + 1}")) for k, p in enumerate(f_doc)]
        cells: list[int | None] = []
        cells_doc = doc.get("cells", [] if not rules.cells else None)
        if rules.cells:
            if not isinstance(cells_doc, list) or len(cells_doc) != rules.cells:
                raise PositionError(f"{rules.name} has {rules.cells} free cells.")
            cells = [None if c is None else card(c, f"cell {k + 1}") for k, c in enumerate(cells_doc)]
        elif cells_doc:
            raise PositionError(f"{rules.name} has no free cells.")
        stock: list[int] = []
        waste: list[int] = []
        if rules.stock:
            stock = card_list(doc.get("stock", []), "stock")
            waste = card_list(doc.get("waste", []), "waste")
        elif doc.get("stock") or doc.get("waste"):
            raise PositionError(f"{rules.name} has no stock or waste.")
        missing = rules.cards - sum(seen.values())
        if missing:
            raise PositionError(f"{missing} card{'s are' if missing > 1 else ' is'} missing.")
        position = cls(
            rules,
            tuple(tableau),
            tuple(down),
            tuple(foundations),
            tuple(cells),
            tuple(stock),
            tuple(waste),
            deal,
        )
        for k, pile in enumerate(foundations):
            built: Pile = ()
            for c in pile:
                if not position.foundation_accepts(c, built):
                    raise PositionError(f"foundation {k + 1} is not built up by suit from an Ace.")
                built = built + (c,)
        return position


def deal(game: str, number: int) -> Position:
    """Deal ``number`` of the game ``game`` (a game id such as "russian")."""
    if game not in GAMES:
        raise KeyError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return Position.deal_of(game, number)
