"""The lessons: one short interactive lesson per game, on a small fixed position.

Each game's ``LessonPlan`` is data: its position as the engine's position document
(docs/save-format.md) and its steps, each one sentence and the move(s) that complete it. The
player makes the moves with the normal input paths; a legal move that is not the step's move
is refused and the step's sentence is said again, so the position always follows the plan.
The step reached is the lesson game's move count, so Undo inside the lesson steps back too.
``Lesson`` holds the player's own game set aside while the lesson runs. No browser import.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..game import Game
from ..position import Move, Position
from ..rules import GAMES
from .documents import Saved
from .ports import Table

RANKS = "A23456789TJQK"


@dataclass(frozen=True)
class LessonStep:
    text: str  # one sentence, shown in the panel
    moves: tuple[str, ...]  # the move texts (``Move.parse``) that complete the step
    # the rule the step teaches, said of the game and not of the lesson's cards: the list a
    # first visit reads while the game starts (``boot_readings``, web/boot-lesson.js)
    rule: str = ""


@dataclass(frozen=True)
class LessonPlan:
    game_id: str
    position: dict[str, Any]  # a position document (``Position.from_json``)
    steps: tuple[LessonStep, ...]

    def start(self) -> Position:
        return Position.from_json(self.position)


def _suit(suit: str, ranks: int) -> list[str]:
    """The first ``ranks`` cards of ``suit`` in foundation order (past 13: a second round)."""
    return [RANKS[i % 13] + suit for i in range(ranks)]


def _piles(*piles: list[str]) -> list[dict[str, list[str]]]:
    return [{"down": [], "up": list(p)} for p in piles]


# Russian and Double Russian: Q♥ waits for the J♥, the 10♥ lies under the K♦ (not in order),
# and the J♥'s pile empties, ready for a King.
_RUSSIAN_TABLE = [["KH", "QH"], ["JH"], ["TH", "KD"], ["KS", "QS"], ["KC"]]
_RUSSIAN_FOUNDATIONS = [_suit("S", 11), _suit("H", 9), _suit("D", 12), _suit("C", 12)]
_RUSSIAN_STEPS = (
    LessonStep(
        "Build down in suit: drag the J♥ onto the Q♥ (tableau 2 onto tableau 1).",
        ("tableau-1>tableau-0",),
        "Build down in suit: a card goes on the card one rank higher of its own suit.",
    ),
    LessonStep(
        "Any face-up card moves with the cards on it, in any order: move the 10♥ and the K♦"
        " together onto the J♥.",
        ("2:tableau-2>tableau-0",),
        "Any face-up card moves together with the cards on it, in whatever order they are.",
    ),
    LessonStep(
        "Only a King fills an empty pile: move the K♦ to an empty pile.",
        tuple(f"tableau-0>tableau-{k}" for k in range(1, 10)),
        "Only a King fills an empty pile.",
    ),
    LessonStep(
        "Foundations build up in suit from the Ace: put the 10♥ on the 9♥'s foundation.",
        ("tableau-0>foundation-1",),
        "The foundations build up in suit, from the Ace to the King.",
    ),
)

_RAIL_STEPS = (
    LessonStep(
        "Tap the stock: it deals one card face up onto the waste.",
        ("stock>waste",),
        "The stock deals one card at a time, face up, onto the waste.",
    ),
    LessonStep(
        "Build down in any suit: put the waste's Q♣ on a King.",
        tuple(f"waste>tableau-{k}" for k in range(4)),
        "Build down in any suit: a card goes on any card one rank higher.",
    ),
    LessonStep(
        "Deal again: the stock goes through once only, there is no redeal.",
        ("stock>waste",),
        "The stock goes through once only: there is no redeal.",
    ),
    LessonStep(
        "Put the waste's Q♦ on its foundation, after the J♦.",
        ("waste>foundation-2",),
        "The foundations build up in suit, from the Ace to the King.",
    ),
)

_FREECELL_STEPS = (
    LessonStep(
        "A free cell holds any one card: move the Q♥ into a free cell.",
        tuple(f"tableau-0>cell-{k}" for k in range(6)),
        "Each of the six free cells holds any one card.",
    ),
    LessonStep(
        "Each foundation is built Ace to King twice: put the A♥ on the foundation's K♥.",
        ("tableau-0>foundation-1",),
        "Each foundation is built up in suit from the Ace to the King, twice.",
    ),
    LessonStep(
        "Build down in alternate colours: move the Q♥ from its cell onto the K♠.",
        tuple(f"cell-{k}>tableau-1" for k in range(6)),
        "Build down in alternate colours: red on black, black on red.",
    ),
)

PLANS: dict[str, LessonPlan] = {
    "russian": LessonPlan(
        "russian",
        {
            "format": 1,
            "game": "russian",
            "deal": None,
            "tableau": _piles(*_RUSSIAN_TABLE, [], []),
            "foundations": _RUSSIAN_FOUNDATIONS,
        },
        _RUSSIAN_STEPS,
    ),
    "double-russian": LessonPlan(
        "double-russian",
        {
            "format": 1,
            "game": "double-russian",
            "deal": None,
            "tableau": _piles(*_RUSSIAN_TABLE, [], [], [], [], []),
            "foundations": _RUSSIAN_FOUNDATIONS + [_suit(s, 13) for s in "SHDC"],
        },
        _RUSSIAN_STEPS,
    ),
    "double-rail": LessonPlan(
        "double-rail",
        {
            "format": 1,
            "game": "double-rail",
            "deal": None,
            "tableau": _piles(["KH"], ["KC"], ["KS"], ["KH"], []),
            "foundations": [_suit("S", 12), _suit("H", 12), _suit("D", 11), _suit("C", 11)]
            + [_suit(s, 13) for s in "SDC"]
            + [_suit("H", 12)],
            "stock": ["KD", "QD", "QC"],
            "waste": [],
        },
        _RAIL_STEPS,
    ),
    "double-freecell": LessonPlan(
        "double-freecell",
        {
            "format": 1,
            "game": "double-freecell",
            "deal": None,
            "tableau": _piles(
                ["AH", "QH"],
                ["KS"],
                ["2H"],
                ["3H", "9H"],
                ["4H", "TH"],
                ["5H", "JH"],
                ["6H", "KH"],
                ["7H"],
                ["8H"],
                [],
            ),
            "foundations": [_suit("S", 25), _suit("H", 13), _suit("D", 26), _suit("C", 26)],
            "cells": [None] * 6,
        },
        _FREECELL_STEPS,
    ),
}


def boot_readings() -> dict[str, dict[str, Any]]:
    """What a visit reads while the game starts, before its lesson can run: per game with a
    lesson, its name and the rules the lesson teaches, in the lesson's order, each once. The
    build writes it into the page (tools/sitebuild/page.py, "boot lessons"), and
    web/boot-lesson.js shows the one of the game that opens, when its lesson is due."""
    return {
        game_id: {
            "name": GAMES[game_id].name,
            # the rules page's opening sentences, without its emphasis marks
            "goal": GAMES[game_id].rules_text.intro.replace("*", ""),
            "rules": list(dict.fromkeys(step.rule for step in plan.steps)),
        }
        for game_id, plan in PLANS.items()
    }


@dataclass
class Lesson:
    """A lesson running: its plan, its game on the table, and the player's game set aside
    with its clock (``last_tick``), to be put back exactly as it was."""

    plan: LessonPlan
    saved: Saved  # the lesson's game (counted and recorded: never in the statistics)
    aside: Saved
    aside_tick: float | None
    refused: int = field(default=0)

    @classmethod
    def begin(cls, plan: LessonPlan, aside: Saved, aside_tick: float | None) -> Lesson:
        game = Game(plan.start(), automove=False)
        return cls(plan, Saved(game, counted=True, recorded=True), aside, aside_tick)

    @property
    def index(self) -> int:
        """The step the player is on (0-based): one accepted move per step."""
        return min(self.saved.game.move_count, len(self.plan.steps))

    @property
    def finished(self) -> bool:
        return self.saved.game.move_count >= len(self.plan.steps)

    @property
    def step(self) -> LessonStep:
        return self.plan.steps[min(self.index, len(self.plan.steps) - 1)]

    def counter(self) -> str:
        return f"{self.index + 1} / {len(self.plan.steps)}"

    def allows(self, move: Move) -> bool:
        """Is ``move`` the one the step asks for?"""
        return not self.finished and str(move) in self.step.moves


RULE_CHIP_DEALS = 3  # the rule chip shows on a game's first deals (statistics' played count)


class Teaching:
    """The controller's part that runs lessons: begins one on a game's first open (or from
    the menu's "How to play"), refuses the moves the step does not ask for, and ends it,
    putting the player's game back as it was."""

    def __init__(self, table: Table) -> None:
        self.c = table
        self.lesson: Lesson | None = None
        # off until the page turns them on (app.py; not for its e2e tests unless they ask)
        self.enabled = False
        self.due = False  # a game was opened: its lesson, once the intent is done

    def first_open(self) -> None:
        """A game came to the table as the player's choice (``Controller.show``): its lesson
        is due, begun by ``begin_due`` once the intent that opened it has finished (its undo
        step and its toast are about the player's game, not the lesson)."""
        self.due = True

    def begin_due(self) -> None:
        """The lesson of the game just opened, the first time it is opened."""
        c = self.c
        due, self.due = self.due, False
        if due and self.enabled and c.game_id not in c.settings.lessons_done:
            self.begin()

    def begin(self) -> None:
        """The lesson of the game shown; the player's game is set aside, its clock stopped."""
        c = self.c
        plan = PLANS.get(c.game_id)
        if plan is None or self.lesson is not None:
            return
        c.tick()  # the player's time so far is banked
        self.lesson = Lesson.begin(plan, c.saved, c.ui.clock.last_tick)
        c.seat(self.lesson.saved)
        c.saved.game.automove = False  # the plan's moves only, no auto-moves
        c.announce(f"How to play. {self.lesson.step.text}")

    def refuses(self, move: Move) -> bool:
        """A move the step does not ask for: refused, and the step's sentence said again."""
        lesson = self.lesson
        if lesson is None or lesson.allows(move):
            return False
        lesson.refused += 1
        c = self.c
        c.toast(lesson.step.text if not lesson.finished else "Well done. Tap “Back to my game”.")
        return True

    def played(self) -> None:
        """A lesson move was played: at the last one the lesson counts as done."""
        lesson = self.lesson
        if lesson is not None and lesson.finished:
            self.mark_done(lesson.plan.game_id)
            self.c.announce("Well done: that is the game. Back to your game when you like.")

    def mark_done(self, game_id: str) -> None:
        c = self.c
        if game_id not in c.settings.lessons_done:
            settings = replace(c.settings, lessons_done=(*c.settings.lessons_done, game_id))
            c.settings = settings
            c.store.save_settings(settings)

    def end(self) -> bool:
        """Skip or leave the lesson (Skip, Escape, Back to my game, another table): it is
        done for good, and the player's game comes back exactly as it was."""
        lesson = self.lesson
        if lesson is None:
            return False
        self.lesson = None
        self.mark_done(lesson.plan.game_id)
        c = self.c
        c.seat(lesson.aside)
        if lesson.aside_tick is not None:
            c.ui.clock.last_tick = c.now()  # the lesson's time is not the game's
        c.announce(f"Back to your game: {c.describe_table()}.")
        return True

    def skip(self) -> None:
        """The panel's Skip (or "Back to my game") button."""
        self.end()

    def rule_chip(self) -> str:
        """The status line's one-line rule, on the game's first deals."""
        c = self.c
        if not self.enabled or c.store.load_stats(c.game_id).played >= RULE_CHIP_DEALS:
            return ""
        return GAMES[c.game_id].rule_line
