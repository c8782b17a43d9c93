"""A second move generator for the four games, written from the rules text alone, to check the
engine against something it does not share code with.

It follows ``docs/rules.md`` and imports nothing of the engine (no ``solitaire``): it deals
itself (rules.md, "Deal numbers", with the card numbering of docs/engine.md, "Cards":
``deck * 52 + suit * 13 + rank - 1``) and reads engine positions only as position documents
(docs/save-format.md: two-character card names, the ``copies`` string), which is how the tests
hand them over. It is plain and slow on purpose: its own position of plain lists, and for each
source pile every group that may be lifted, for each target pile the rule that accepts it, one
small function per rule.

What counts is a legal move of the position, as the engine's ``Position.legal_moves`` lists
them: auto-moves to the foundations are a setting of the page played after a move
(``Game.play``), not moves of a position, so they are left out here too.

``reference_perft(table, depth)`` gives, for depths 1 … ``depth``, the number of move
sequences of that length (each legal move a branch, as in chess perft) and the number of
distinct positions they end in. Positions are compared by :func:`key`, the whole table: every
pile by its index, every card with its deck (the two copies of a card are two cards, as on the
page) and whether it lies face up.

Run ``python tests/reference_rules.py --perft`` to print the counts of :data:`PERFT_POSITIONS`
(the numbers ``tests/test_perft.py`` pins and docs/engine.md lists).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, NamedTuple, TypeVar

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "SHDC"  # spades, hearts, diamonds, clubs: hearts and diamonds are red
KING = 13


class Card(NamedTuple):
    rank: int  # 1 (Ace) … 13 (King)
    suit: int  # index in SUIT_LETTERS
    deck: int  # 0 or 1: the two copies of a card in a two-deck game

    @property
    def red(self) -> bool:
        return self.suit in (1, 2)

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + SUIT_LETTERS[self.suit]


def card_from_number(number: int) -> Card:
    """docs/engine.md, "Cards": ``deck * 52 + suit * 13 + (rank - 1)``."""
    deck, rest = divmod(number, 52)
    suit, rank_less_one = divmod(rest, 13)
    return Card(rank_less_one + 1, suit, deck)


@dataclass(frozen=True)
class Layout:
    """One game as rules.md describes it."""

    decks: int
    piles: tuple[tuple[int, int], ...]  # per tableau pile: (face down, face up) dealt
    foundations: int
    build: str  # "same suit", "any suit", "other colour"
    groups: str  # "any face-up card" (Yukon) or "runs"
    empty_pile_takes: str  # "king" or "anything"
    cells: int = 0
    stock: bool = False
    laps: int = 1  # how many times a foundation goes Ace … King
    run_limit: bool = False  # the free-cell limit on a run's length


#: rules.md, game by game: decks, tableau (face down, face up per pile), foundations, building,
#: groups, what fills an empty pile, then free cells, stock, foundation laps, the run limit.
LAYOUTS = {
    "russian": Layout(
        1, ((0, 1), *((k, 5) for k in range(1, 7))), 4, "same suit", "any face-up card", "king"
    ),
    "double-russian": Layout(
        2, ((0, 5), *((k, 6) for k in range(1, 10))), 8, "same suit", "any face-up card", "king"
    ),
    "double-rail": Layout(2, ((0, 1),) * 5, 8, "any suit", "runs", "anything", stock=True),
    "double-freecell": Layout(
        2,
        ((0, 11),) * 4 + ((0, 10),) * 6,
        4,
        "other colour",
        "runs",
        "anything",
        cells=6,
        laps=2,
        run_limit=True,
    ),
}


@dataclass
class Table:
    """A position as plain lists: per tableau pile its face-down and face-up cards (bottom →
    top), the foundations, the free cells (``None`` when empty), the stock and the waste (top
    card last)."""

    game: str
    down: list[list[Card]]
    up: list[list[Card]]
    foundations: list[list[Card]]
    cells: list[Card | None] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    waste: list[Card] = field(default_factory=list)

    @property
    def layout(self) -> Layout:
        return LAYOUTS[self.game]

    def copy(self) -> Table:
        return Table(
            self.game,
            [list(p) for p in self.down],
            [list(p) for p in self.up],
            [list(p) for p in self.foundations],
            list(self.cells),
            list(self.stock),
            list(self.waste),
        )


def key(table: Table) -> Hashable:
    """The whole position, to tell positions apart."""
    return (
        table.game,
        tuple(map(tuple, table.down)),
        tuple(map(tuple, table.up)),
        tuple(map(tuple, table.foundations)),
        tuple(table.cells),
        tuple(table.stock),
        tuple(table.waste),
    )


# ----------------------------------------------------------------------------- dealing


def deal(game: str, number: int) -> Table:
    """Deal ``number`` of ``game``, as rules.md "Deal numbers" says: the cards 0 … 52·decks−1,
    the MS C runtime generator seeded with the deal number, Fisher-Yates from the end, then
    row by row onto the piles, each pile's first cards face down, the rest the stock."""
    layout = LAYOUTS[game]
    cards = list(range(52 * layout.decks))
    state = number
    for i in reversed(range(1, len(cards))):
        state = (state * 214013 + 2531011) % 2**31
        j = (state >> 16) % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    dealt: list[list[Card]] = [[] for _ in layout.piles]
    position = 0
    tallest = max(down + up for down, up in layout.piles)
    for row in range(tallest):
        for pile, (down, up) in zip(dealt, layout.piles, strict=True):
            if row < down + up:
                pile.append(card_from_number(cards[position]))
                position += 1
    return Table(
        game,
        down=[pile[:down] for pile, (down, _) in zip(dealt, layout.piles, strict=True)],
        up=[pile[down:] for pile, (down, _) in zip(dealt, layout.piles, strict=True)],
        foundations=[[] for _ in range(layout.foundations)],
        cells=[None] * layout.cells,
        stock=[card_from_number(c) for c in cards[position:]],
    )


def from_document(doc: dict[str, Any]) -> Table:
    """A position document (docs/save-format.md): cards by name, the copies of a two-deck
    game numbered in reading order unless ``copies`` gives each card's deck."""
    copies = doc.get("copies")
    seen: Counter[str] = Counter()
    read = 0

    def card(name: str) -> Card:
        nonlocal read
        if copies is not None:
            deck = int(copies[read])
        else:
            deck = seen[name]
            seen[name] += 1
        read += 1
        return Card(RANK_LETTERS.index(name[0]) + 1, SUIT_LETTERS.index(name[1]), deck)

    down, up = [], []
    for pile in doc["tableau"]:
        down.append([card(n) for n in pile["down"]])
        up.append([card(n) for n in pile["up"]])
    foundations = [[card(n) for n in pile] for pile in doc["foundations"]]
    cells = [None if n is None else card(n) for n in doc.get("cells", [])]
    stock = [card(n) for n in doc.get("stock", [])]
    waste = [card(n) for n in doc.get("waste", [])]
    return Table(doc["game"], down, up, foundations, cells, stock, waste)


# ----------------------------------------------------------------------------- the rules


def builds_on(layout: Layout, card: Card, under: Card) -> bool:
    """May ``card`` be placed on the tableau card ``under``? One rank lower, and the suit rule."""
    if card.rank != under.rank - 1:
        return False
    if layout.build == "same suit":
        return card.suit == under.suit
    if layout.build == "other colour":
        return card.red != under.red
    return True  # any suit


def liftable(table: Table, pile: int) -> list[int]:
    """How many cards may be picked up from the top of a tableau pile: any face-up card with
    everything on it (Yukon), or the top part of a run that follows the building rule."""
    face_up = table.up[pile]
    if table.layout.groups == "any face-up card":
        return list(range(1, len(face_up) + 1))
    counts = []
    for count in range(1, len(face_up) + 1):
        group = face_up[-count:]
        if all(builds_on(table.layout, a, b) for b, a in pairwise(group)):
            counts.append(count)
        else:
            break
    return counts


def run_limit(table: Table, onto_empty_pile: bool) -> int | None:
    """Double FreeCell: (empty free cells + 1) × 2^(empty columns), not counting the empty
    column the run goes to. ``None`` where runs have no limit."""
    if not table.layout.run_limit:
        return None
    free_cells = sum(1 for c in table.cells if c is None)
    empty_columns = sum(1 for d, u in zip(table.down, table.up, strict=True) if not d and not u)
    if onto_empty_pile:
        empty_columns -= 1
    return int((free_cells + 1) * 2**empty_columns)


def pile_takes(table: Table, pile: int, bottom: Card, count: int) -> bool:
    """May ``count`` cards whose lowest is ``bottom`` go onto tableau pile ``pile``?"""
    if table.up[pile]:
        fits = builds_on(table.layout, bottom, table.up[pile][-1])
    elif table.layout.empty_pile_takes == "king":
        fits = bottom.rank == KING
    else:
        fits = True
    limit = run_limit(table, onto_empty_pile=not table.up[pile])
    return fits and (limit is None or count <= limit)


def foundation_takes(table: Table, index: int, card: Card) -> bool:
    """Up by suit from the Ace; Double FreeCell: Ace … King twice, one foundation per suit."""
    pile = table.foundations[index]
    layout = table.layout
    if not pile:
        if card.rank != 1:
            return False
        if layout.laps == 2:  # the second Ace of a suit waits for its suit's King
            return not any(p and p[0].suit == card.suit for p in table.foundations)
        return True
    top = pile[-1]
    if card.suit != top.suit or len(pile) == 13 * layout.laps:
        return False
    if top.rank == KING:
        return card.rank == 1
    return card.rank == top.rank + 1


# ----------------------------------------------------------------------------- moves


class Move(NamedTuple):
    source: str  # a pile name as in move text: tableau-K, foundation-K, cell-K, stock, waste
    target: str
    count: int = 1  # type: ignore[assignment]  # (shadows tuple.count)

    def __str__(self) -> str:
        text = f"{self.source}>{self.target}"
        return text if self.count == 1 else f"{self.count}:{text}"


MOVE_TEXT = re.compile(r"(?:(\d+):)?([a-z]+(?:-\d+)?)>([a-z]+(?:-\d+)?)")


def parse_move(text: str) -> Move:
    """Move text of docs/save-format.md: ``3:tableau-2>tableau-5``, ``stock>waste``."""
    found = MOVE_TEXT.fullmatch(text)
    if found is None:
        raise ValueError(f"not a move: {text!r}")
    count, source, target = found.groups()
    return Move(source, target, int(count or 1))


def legal_moves(table: Table) -> list[Move]:
    """Every legal move of the position."""
    layout = table.layout
    piles = range(len(table.up))
    foundations = range(len(table.foundations))
    moves: list[Move] = []
    # from the tableau: groups to other piles, top cards to foundations and free cells
    for source in piles:
        for count in liftable(table, source):
            bottom = table.up[source][-count]
            moves += [
                Move(f"tableau-{source}", f"tableau-{target}", count)
                for target in piles
                if target != source and pile_takes(table, target, bottom, count)
            ]
            if count == 1:
                moves += [
                    Move(f"tableau-{source}", f"foundation-{f}")
                    for f in foundations
                    if foundation_takes(table, f, bottom)
                ]
                moves += [
                    Move(f"tableau-{source}", f"cell-{c}")
                    for c, held in enumerate(table.cells)
                    if held is None
                ]
    # single cards: the waste's top card and each free cell's card, to foundations and piles
    singles: list[tuple[str, Card]] = [
        (f"cell-{c}", held) for c, held in enumerate(table.cells) if held is not None
    ]
    if table.waste:
        singles.append(("waste", table.waste[-1]))
    for name, card in singles:
        moves += [
            Move(name, f"foundation-{f}") for f in foundations if foundation_takes(table, f, card)
        ]
        moves += [Move(name, f"tableau-{t}") for t in piles if pile_takes(table, t, card, 1)]
    if layout.stock and table.stock:
        moves.append(Move("stock", "waste"))
    return moves


def _pile_list(table: Table, name: str) -> list[Any]:
    kind, _, index = name.partition("-")
    if kind == "tableau":
        return table.up[int(index)]
    if kind == "foundation":
        return table.foundations[int(index)]
    if kind == "stock":
        return table.stock
    if kind == "waste":
        return table.waste
    raise ValueError(f"no list for {name}")


def play(table: Table, move: Move) -> Table:
    """The position after a legal move: the cards taken off the source and put on the target,
    a face-down card left on top turned face up."""
    after = table.copy()
    if move.source.startswith("cell-"):
        index = int(move.source[5:])
        lifted: list[Card] = [after.cells[index]]  # type: ignore[list-item]
        after.cells[index] = None
    else:
        source = _pile_list(after, move.source)
        lifted = source[-move.count :]
        del source[-move.count :]
    if move.target.startswith("cell-"):
        after.cells[int(move.target[5:])] = lifted[0]
    else:
        _pile_list(after, move.target).extend(lifted)
    for down, up in zip(after.down, after.up, strict=True):
        if down and not up:
            up.append(down.pop())
    return after


def replay(table: Table, moves: Iterable[str]) -> Table:
    """Play move texts one after another, each checked against :func:`legal_moves`."""
    for text in moves:
        move = parse_move(text)
        if move not in legal_moves(table):
            raise ValueError(f"{text} is not a legal move here")
        table = play(table, move)
    return table


# ----------------------------------------------------------------------------- perft

P = TypeVar("P")


def perft(
    start: P,
    depth: int,
    moves_of: Callable[[P], list[Any]],
    play_move: Callable[[P, Any], P],
    key_of: Callable[[P], Hashable],
) -> list[tuple[int, int]]:
    """Per depth 1 … ``depth``: (move sequences of that length, distinct positions they end
    in). Level by level, each distinct position expanded once and weighted by how many
    sequences reach it. Generic so the tests count the engine's positions the same way."""
    level: dict[Hashable, tuple[P, int]] = {key_of(start): (start, 1)}
    counts = []
    for _ in range(depth):
        following: dict[Hashable, tuple[P, int]] = {}
        sequences = 0
        for position, ways in level.values():
            for move in moves_of(position):
                sequences += ways
                after = play_move(position, move)
                k = key_of(after)
                known = following.get(k)
                following[k] = (after, ways + (known[1] if known else 0))
        counts.append((sequences, len(following)))
        level = following
    return counts


def reference_perft(table: Table, depth: int) -> list[tuple[int, int]]:
    return perft(table, depth, legal_moves, play, key)


class PerftPosition(NamedTuple):
    """A position counted in the perft table: a deal, then a fixed move sequence."""

    name: str
    game: str
    deal: int
    moves: str  # move texts, separated by spaces
    depth: int

    def table(self) -> Table:
        return replay(deal(self.game, self.deal), self.moves.split())


#: The moves that lead to the mid-game positions of the perft table (found by biased random
#: play, then written down): cards on the foundations, empty piles, free cells taken, the
#: stock partly dealt.
RUSSIAN_2_MOVES = (
    "tableau-3>tableau-0 4:tableau-4>tableau-0 tableau-0>tableau-2 tableau-0>foundation-3 "
    "tableau-4>tableau-0 tableau-4>foundation-3 3:tableau-2>tableau-3 2:tableau-0>tableau-5 "
    "3:tableau-2>tableau-0 2:tableau-0>tableau-1 tableau-6>tableau-5 tableau-0>foundation-0 "
    "tableau-0>foundation-0 tableau-0>foundation-0 tableau-0>foundation-0"
)
DOUBLE_RUSSIAN_2_MOVES = (
    "tableau-5>tableau-8 6:tableau-7>tableau-8 2:tableau-3>tableau-1 4:tableau-9>tableau-4 "
    "2:tableau-2>tableau-5 7:tableau-8>tableau-6 5:tableau-0>tableau-7 2:tableau-7>tableau-3 "
    "9:tableau-4>tableau-0 tableau-5>tableau-3 4:tableau-8>tableau-9 13:tableau-6>tableau-4 "
    "7:tableau-0>tableau-8 7:tableau-4>tableau-9 5:tableau-9>tableau-6 3:tableau-4>tableau-1 "
    "4:tableau-1>tableau-0 2:tableau-3>tableau-7 2:tableau-4>tableau-9 6:tableau-8>tableau-1 "
    "3:tableau-2>tableau-0 2:tableau-3>tableau-0 2:tableau-4>tableau-5 tableau-4>tableau-9 "
    "tableau-4>tableau-0 3:tableau-1>tableau-3 8:tableau-9>tableau-6 2:tableau-8>tableau-4 "
    "2:tableau-6>tableau-4 tableau-8>tableau-5 2:tableau-9>tableau-8 10:tableau-6>tableau-5 "
    "19:tableau-5>tableau-4 tableau-9>tableau-6 tableau-9>foundation-3 tableau-0>foundation-3 "
    "tableau-0>foundation-3 tableau-0>foundation-3 tableau-0>foundation-3 "
    "tableau-0>foundation-7"
)
DOUBLE_RAIL_3_MOVES = (
    "stock>waste stock>waste stock>waste stock>waste stock>waste waste>tableau-0 stock>waste "
    "stock>waste waste>tableau-3 tableau-4>tableau-3 tableau-0>tableau-4 tableau-4>tableau-0 "
    "waste>tableau-4 waste>tableau-4 stock>waste stock>waste stock>waste stock>waste "
    "stock>waste stock>waste waste>foundation-6 tableau-1>foundation-6 tableau-3>tableau-1 "
    "tableau-1>tableau-3 2:tableau-3>tableau-1 2:tableau-1>tableau-3 waste>tableau-1 "
    "tableau-4>tableau-1 tableau-2>tableau-4 tableau-0>tableau-2 stock>waste "
    "tableau-2>tableau-0 waste>tableau-2 stock>waste stock>waste stock>waste stock>waste "
    "stock>waste stock>waste stock>waste waste>foundation-3 tableau-4>foundation-3 "
    "tableau-1>tableau-4 stock>waste tableau-4>tableau-1 stock>waste waste>tableau-0 "
    "waste>tableau-0 tableau-1>tableau-4 tableau-4>tableau-1 tableau-4>tableau-0"
)
DOUBLE_FREECELL_2_MOVES = (
    "tableau-2>cell-2 tableau-2>tableau-1 tableau-2>foundation-2 tableau-4>cell-5 "
    "tableau-4>cell-0 tableau-4>cell-1 tableau-7>tableau-8 tableau-9>cell-3 "
    "2:tableau-8>tableau-9 tableau-5>cell-4 cell-0>tableau-5 tableau-9>tableau-5 "
    "tableau-5>tableau-9 tableau-2>tableau-5 tableau-8>cell-0 cell-0>tableau-8 tableau-4>cell-0 "
    "tableau-4>foundation-3 tableau-4>tableau-9 cell-3>tableau-9 tableau-4>foundation-3 "
    "cell-2>foundation-3 2:tableau-9>tableau-5 tableau-4>foundation-2 2:tableau-8>tableau-4 "
    "3:tableau-4>tableau-3 tableau-4>tableau-3"
)

#: The two deals of each game in the perft table.
PERFT_DEALS = (1, 617)


def _perft_positions(
    title: str, game: str, depth: int, deal_number: int, moves: str
) -> list[PerftPosition]:
    """A game's rows of the perft table: its two deals, then a deal some moves in."""
    rows = [PerftPosition(f"{title}, deal {n}", game, n, "", depth) for n in PERFT_DEALS]
    after = f"{title}, deal {deal_number} after {len(moves.split())} moves"
    return [*rows, PerftPosition(after, game, deal_number, moves, depth)]


#: The positions of the perft table (tests/test_perft.py, docs/engine.md), the depth each is
#: counted to (Double FreeCell's depth 4 takes the engine about 25 s).
PERFT_POSITIONS: tuple[PerftPosition, ...] = (
    *_perft_positions("Russian", "russian", 4, 2, RUSSIAN_2_MOVES),
    *_perft_positions("Double Russian", "double-russian", 4, 2, DOUBLE_RUSSIAN_2_MOVES),
    *_perft_positions("Double Rail", "double-rail", 4, 3, DOUBLE_RAIL_3_MOVES),
    *_perft_positions("Double FreeCell", "double-freecell", 3, 2, DOUBLE_FREECELL_2_MOVES),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--perft", action="store_true", help="print the perft table")
    args = parser.parse_args(argv)
    if not args.perft:
        parser.print_help()
        return 2
    print("| position | depth 1 | depth 2 | depth 3 | depth 4 |")
    print("|---|---|---|---|---|")
    for spot in PERFT_POSITIONS:
        began = time.process_time()
        counts = reference_perft(spot.table(), spot.depth)
        cells = [f"{n:,} / {d:,}" for n, d in counts] + ["–"] * (4 - len(counts))
        print(f"| {spot.name} | {' | '.join(cells)} |", flush=True)
        print(f"{spot.name}: {time.process_time() - began:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
