"""The lessons (py/solitaire/web/lesson.py) under CPython: every plan's position is valid and
every step's move legal where the previous steps lead; a lesson refuses the moves its step
does not ask for; finishing or skipping marks the game done in the settings, which round-trip
(old saves without the key, a tampered value); the player's game comes back exactly as it was
(position, moves, undo history, clock), was never saved over and never counted."""

from __future__ import annotations

import json

import pytest
from test_controller import Clock, Grid, Winnable

from solitaire import GAMES, Move, Position
from solitaire.web.controller import Controller
from solitaire.web.documents import Settings
from solitaire.web.lesson import PLANS, RULE_CHIP_DEALS, boot_readings
from solitaire.web.store import MemoryBackend, Store


def teacher(game_id: str, done: tuple[str, ...] = ()) -> tuple[Controller, Clock]:
    """A controller with lessons on, booted on deal 5 of ``game_id``."""
    store = Store(MemoryBackend())
    store.save_settings(Settings(automove=True, winnable_only=False, lessons_done=done))
    clock = Clock()
    grid = Grid()
    c = Controller(store, Winnable(), grid, clock, random_deal=lambda g: 77)
    grid.controller = c
    c.teaching.enabled = True
    c.deals.boot(f"#{game_id}/5")
    c.teaching.begin_due()  # as App.act does after the intent
    c.take_effects()
    return c, clock


def test_every_game_has_a_plan() -> None:
    assert set(PLANS) == set(GAMES)


@pytest.mark.parametrize("game_id", list(PLANS))
def test_the_reading_while_the_game_starts_is_the_lessons_rules(game_id: str) -> None:
    """Each step names the rule it teaches as a sentence about the game (no card of the
    lesson's position in it); the reading lists them once each, in the lesson's order, after
    the rules page's goal without its emphasis marks."""
    steps = PLANS[game_id].steps
    for step in steps:
        assert step.rule[:1].isupper(), step
        assert step.rule.endswith("."), step
        assert not any(suit in step.rule for suit in "♠♥♦♣"), step
    reading = boot_readings()[game_id]
    assert reading["name"] == GAMES[game_id].name
    assert reading["rules"] == list(dict.fromkeys(step.rule for step in steps))
    assert "*" not in reading["goal"]
    assert reading["goal"] == GAMES[game_id].rules_text.intro.replace("*", "")


@pytest.mark.parametrize("game_id", list(PLANS))
def test_each_step_is_legal_where_the_previous_steps_lead(game_id: str) -> None:
    plan = PLANS[game_id]
    position = plan.start()
    assert position.rules.id == game_id
    assert Position.from_json(position.to_json()) == position
    assert not position.is_won()
    for step in plan.steps:
        legal = {str(m) for m in position.legal_moves()}
        playable = [m for m in step.moves if m in legal]
        assert playable, f"{game_id}: no move of {step.text!r} is legal"
        assert step.text.endswith(".")
        assert step.text.count(". ") == 0
        position = position.play(Move.parse(playable[0]))


def play_lesson(c: Controller) -> None:
    lesson = c.teaching.lesson
    assert lesson is not None
    for step in lesson.plan.steps:
        legal = {str(m) for m in c.position.legal_moves()}
        move = next(m for m in step.moves if m in legal)
        assert c.play(Move.parse(move))


@pytest.mark.parametrize("game_id", list(PLANS))
def test_the_lesson_shows_on_the_first_open_and_finishing_marks_it_done(game_id: str) -> None:
    c, _ = teacher(game_id)
    lesson = c.teaching.lesson
    assert lesson is not None
    assert lesson.plan.game_id == game_id
    assert c.position == PLANS[game_id].start()
    assert lesson.counter() == f"1 / {len(lesson.plan.steps)}"
    assert c.ui.progress.finish_moves is None  # no Finish button in a lesson
    play_lesson(c)
    assert lesson.finished
    assert game_id in c.settings.lessons_done
    assert game_id in c.store.load_settings().lessons_done
    assert c.skip_lesson()  # "Back to my game"
    assert c.teaching.lesson is None
    assert c.game.deal == 5
    again, _ = teacher(game_id, done=c.settings.lessons_done)
    assert again.teaching.lesson is None


def test_a_move_the_step_does_not_ask_for_is_refused_with_its_sentence() -> None:
    c, _ = teacher("russian")
    lesson = c.teaching.lesson
    assert lesson is not None
    wrong = Move.parse("tableau-3>foundation-0")  # Q♠ to its foundation: legal, not the step
    assert c.position.why_illegal(wrong) is None
    before = c.position
    assert not c.play(wrong)
    assert c.position is before
    assert any(getattr(e, "text", "") == lesson.step.text for e in c.take_effects())
    assert lesson.index == 0


def test_undo_in_the_lesson_steps_back_and_never_reaches_the_players_game() -> None:
    c, _ = teacher("russian", done=("russian",))
    c.play(next(iter(c.position.legal_moves())))
    c.take_effects()
    c.teaching.begin()  # the menu's "How to play"
    lesson = c.teaching.lesson
    assert lesson is not None
    c.play(Move.parse(lesson.plan.steps[0].moves[0]))
    assert lesson.index == 1
    c.undo()
    assert lesson.index == 0
    assert c.position == lesson.plan.start()
    c.undo()  # nothing more to undo in the lesson
    assert c.position == lesson.plan.start()
    assert c.teaching.lesson is lesson


@pytest.mark.parametrize("game_id", list(PLANS))
def test_the_players_game_comes_back_unchanged_after_a_skip(game_id: str) -> None:
    c, clock = teacher(game_id, done=(game_id,))
    for _ in range(2):
        c.play(next(m for m in c.position.legal_moves()))
    c.undo()
    clock.ms += 4000
    c.tick()
    game = c.game
    saved_text = c.store.backend.getItem(c.store.key(f"game.{game_id}"))  # type: ignore[attr-defined]
    stats = c.store.load_stats(game_id)
    shown = (game.position, game.move_count, list(game.steps), list(game.redo_steps))
    elapsed = game.elapsed
    c.teaching.begin()
    lesson = c.teaching.lesson
    assert lesson is not None
    assert c.game is not game
    play_lesson(c)  # to the end: the lesson is won or nearly, and never counted
    clock.ms += 60_000
    c.tick()
    assert c.persist() is None
    assert c.skip_lesson()
    assert c.game is game
    assert (game.position, game.move_count, list(game.steps), list(game.redo_steps)) == shown
    assert game.elapsed == pytest.approx(elapsed)  # the lesson's minute is not the game's
    assert c.store.backend.getItem(c.store.key(f"game.{game_id}")) == saved_text  # type: ignore[attr-defined]
    assert c.store.load_stats(game_id) == stats
    c.undo()
    assert c.game.move_count == 0  # the player's own undo history, not the lesson's


def test_escape_skips_the_lesson_and_it_is_not_shown_again() -> None:
    c, _ = teacher("double-rail")
    assert c.teaching.lesson is not None
    assert c.keys.press("Escape")
    assert c.teaching.lesson is None
    assert "double-rail" in c.store.load_settings().lessons_done
    assert not c.keys.press("Escape")  # nothing left to skip


def test_settings_round_trip_the_lessons_done() -> None:
    s = Settings(lessons_done=("russian", "double-rail"))
    assert Settings.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert "lessonsDone" not in Settings().to_json()
    old = Settings().to_json()
    assert Settings.from_json(old).lessons_done == ()  # a save from before the lessons
    for bad in ("russian", ["chess"], [1], {"russian": True}, ["russian"] * 9):
        with pytest.raises(ValueError):
            Settings.from_json({**old, "lessonsDone": bad})


def test_a_tampered_lessons_value_is_ignored_with_the_normal_warning() -> None:
    backend = MemoryBackend()
    store = Store(backend)
    store.save_settings(Settings(four_color=True))
    key = store.key("settings")
    doc = json.loads(backend.getItem(key))
    backend.setItem(key, json.dumps({**doc, "lessonsDone": "everything"}))
    assert store.load_settings() == Settings()
    assert store.notices  # said to the player, as for any settings refused


def test_the_rule_chip_shows_on_the_first_deals_only() -> None:
    c, _ = teacher("russian", done=("russian",))
    assert c.teaching.rule_chip() == GAMES["russian"].rule_line != ""
    stats = c.store.load_stats("russian")
    stats.played = RULE_CHIP_DEALS
    c.store.save_stats("russian", stats)
    assert c.teaching.rule_chip() == ""
    c.teaching.enabled = False
    assert c.teaching.rule_chip() == ""
