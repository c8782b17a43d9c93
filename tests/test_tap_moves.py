"""The one-tap order (``solitaire.web.tap_moves``): a card goes home first when it goes up
safely, as in Microsoft's and Google's games; otherwise builds come first."""

from __future__ import annotations

from engine_support import make

from solitaire import Position, parse_card
from solitaire.cards import face, rank
from solitaire.game import Game
from solitaire.piles import TABLEAU
from solitaire.tables import rule_tables
from solitaire.web.tap_moves import goes_up_safely, tap_moves


def test_double_russian_deal_1_sends_the_2_of_clubs_home_first() -> None:
    """The 2♣ on tableau-2 with one A♣ home and the other still covered on tableau-3: the
    2♣ could also go on the 3♣, but home comes first (the missing Ace never needs it)."""
    position = Position.deal_of("double-russian", 1)
    position = position.play(next(m for m in position.legal_moves()))  # the A♣ home
    two = position.tableau[2][-1]
    assert face(two) == parse_card("2C")
    assert not position.is_safe(two)  # the auto-move's stricter test still waits
    assert goes_up_safely(position, two)
    places = tap_moves(position, TABLEAU[2], len(position.tableau[2]) - 1)
    assert [m.target.kind for m in places] == ["foundation", "tableau"]


def test_a_card_another_card_may_need_builds_before_it_goes_home() -> None:
    """Double Russian: a 3♥ while the second 2♥ is in the tableau goes on the 4♥ first (the
    2♥ may want the 3♥ to sit on); with both 2♥ home it goes home first."""
    waiting = make(
        "double-russian",
        ["4H", "3H", "2H", "KS"],
        foundations=["AH 2H", "AH"],
    )
    three = waiting.tableau[1][-1]
    assert not goes_up_safely(waiting, three)
    kinds = [m.target for m in tap_moves(waiting, TABLEAU[1], 0)]
    assert kinds[0] == TABLEAU[0]
    assert kinds[1].kind == "foundation"
    both_home = make("double-russian", ["4H", "3H", "KS"], foundations=["AH 2H", "AH 2H"])
    assert goes_up_safely(both_home, both_home.tableau[1][-1])
    assert tap_moves(both_home, TABLEAU[1], 0)[0].target.kind == "foundation"


def test_double_freecell_keeps_the_strict_test_for_its_second_aces() -> None:
    """Double FreeCell's second A♣ waits for the club foundation's King, so a 2♣ there is
    safe only as ``Position.is_safe`` says: here a build comes first."""
    position = make("double-freecell", ["3H", "2C", "AC", "KS"], foundations=["AC"])
    two = position.tableau[1][-1]
    assert goes_up_safely(position, two) == position.is_safe(two)
    assert not goes_up_safely(position, two)
    assert tap_moves(position, TABLEAU[1], 0)[0].target == TABLEAU[0]


def test_russian_a_card_that_can_go_home_always_goes_home_first() -> None:
    """One deck: a card that a foundation takes has its one predecessor home, so it is
    always safe there and a tap sends it home before any build."""
    import random

    game = Game.new("russian", 3, automove=False)
    rng = random.Random(3)
    for _ in range(80):
        position = game.position
        for move in position.legal_moves():
            if move.target.kind == "foundation":
                start = len(position.pile(move.source)) - 1
                first = tap_moves(position, move.source, start)[0]
                assert first.target.kind == "foundation"
        moves = position.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))


def test_goes_up_safely_only_forgives_missing_aces() -> None:
    """Over random Double Russian and Double Rail games: a card goes up safely exactly when
    every card that could sit on it is home in both copies or is an Ace."""
    import random

    rng = random.Random(11)
    for game_id in ("double-russian", "double-rail"):
        game = Game.new(game_id, 9, automove=False)
        below = rule_tables(game.position.rules).below
        for _ in range(120):
            position = game.position
            home: dict[int, int] = {}
            for pile in position.foundations:
                for c in pile:
                    home[face(c)] = home.get(face(c), 0) + 1
            for card in position.all_cards():
                want = all(home.get(f, 0) >= 2 or rank(f) == 1 for f in below[face(card)])
                assert goes_up_safely(position, card) == want
            moves = position.legal_moves()
            if not moves:
                break
            game.play(rng.choice(moves))
