"""The game table (solitaire.rules.GAMES) describes every game completely: adding a game is
one GameRules value, and the page's game list and rules pages (tools/build_site.py), the
board, the solver, the tools and the benchmarks read it from there."""

from __future__ import annotations

import importlib.util
import re
from typing import get_args

import pytest

from solitaire.rules import GAMES, GameRules, SolverFamily

ALL = list(GAMES.values())


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a parent that is a module, not a package
        return False


def _unmarked(text: str) -> str:
    """``text`` without RulesText's inline marks (``**b**``, ``*i*``, ``^sup^``)."""
    for mark in (r"\*\*", r"\*", r"\^"):
        text = re.sub(f"{mark}(.+?){mark}", r"\1", text)
    return text


def test_the_table_is_keyed_by_id_and_names_are_unique() -> None:
    assert GAMES
    assert all(key == game.id for key, game in GAMES.items())
    for field in ("id", "name", "short_name"):
        values = [getattr(g, field) for g in ALL]
        assert len(set(values)) == len(values), field


@pytest.mark.parametrize("game", ALL, ids=[g.id for g in ALL])
def test_every_descriptive_field_is_filled(game: GameRules) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", game.id)  # the URL's #id/deal
    for text in (game.name, game.short_name, game.summary, game.solver_sees):
        assert text
        assert text == text.strip()
    assert len(game.short_name) <= len(game.name)
    down, up = game.card_plan
    assert isinstance(down, int)
    assert isinstance(up, int)
    assert down >= 0
    assert up > 0
    assert game.solver in get_args(SolverFamily)
    assert _module_exists(f"solitaire.solver.{game.solver}"), (
        f"no solver module for the family {game.solver!r}"
    )


@pytest.mark.parametrize("game", ALL, ids=[g.id for g in ALL])
def test_every_game_has_its_rules_text(game: GameRules) -> None:
    text = game.rules_text
    assert text.intro
    assert text.deal
    assert text.play
    paragraphs = [text.intro, text.deal, *text.play]
    if text.other_programs:
        paragraphs.append(text.other_programs)
    for paragraph in paragraphs:
        assert paragraph == paragraph.strip()
        assert "  " not in paragraph
        assert paragraph[-1] in ".)", paragraph  # whole sentences
        plain = _unmarked(paragraph)
        # Plain text: the build escapes it, so HTML here would be shown as such.
        assert not set("*^<>&") & set(plain), paragraph
