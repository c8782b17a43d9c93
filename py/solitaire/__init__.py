"""Russian, Double Russian, Double Rail and Double FreeCell: rules, deals, undo, save format.

Pure Python with no dependencies and no browser imports, so the page (under Pyodide), the
tests, the solver and the command line all share it. See docs/engine.md.
"""

from .cards import card_name, card_symbol, is_red, long_name, parse_card, rank, suit
from .deals import MAX_DEAL
from .game import Game, SaveError
from .piles import CELL, FOUNDATION, STOCK, TABLEAU, WASTE, PileRef
from .position import IllegalMove, Move, Position, PositionError
from .position_json import POSITION_FORMAT
from .rules import GAMES, GameRules

__all__ = [
    "CELL",
    "FOUNDATION",
    "GAMES",
    "MAX_DEAL",
    "POSITION_FORMAT",
    "STOCK",
    "TABLEAU",
    "WASTE",
    "Game",
    "GameRules",
    "IllegalMove",
    "Move",
    "PileRef",
    "Position",
    "PositionError",
    "SaveError",
    "card_name",
    "card_symbol",
    "is_red",
    "long_name",
    "parse_card",
    "rank",
    "suit",
]
