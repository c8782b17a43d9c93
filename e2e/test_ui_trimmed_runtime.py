"""Every feature of the page on the trimmed standard library (tools/stdlib_trim.py): the page,
the solver's worker and the snapshot worker load ``vendor/pyodide/python_stdlib_trimmed.zip``
(their ``stdLibURL``) and never Pyodide's full ``python_stdlib.zip``. A module the trimming
dropped but the page needs would show as a Python error on the console (checked at teardown)
or a feature that never answers."""

from __future__ import annotations

from conftest import Watch
from harness import open_game
from playwright.sync_api import Page, expect
from test_ui_solver import (
    ANSWERED,
    QUICK_DEAL,
    SOLVER_TIMEOUT_MS,
    STUCK_DEAL,
    STUCK_MOVES,
    hinted,
)
from ui_helpers import game_key, open_and_close_menu_dialogs, saved_doc, seed_storage, wait_table

from solitaire import Game, Move
from solitaire.rules import GAMES
from solitaire.solver import WINNABLE
from solitaire.solver.hints import was_winnable

TRIMMED = "vendor/pyodide/python_stdlib_trimmed.zip"
FULL = "vendor/pyodide/python_stdlib.zip"


def test_every_feature_runs_on_the_trimmed_standard_library(page: Page, watch: Watch) -> None:
    stuck = Game.new("russian", STUCK_DEAL)
    for text in STUCK_MOVES:
        stuck.play(Move.parse(text))
    assert was_winnable(stuck.to_json(), 20)["from_start"] == WINNABLE
    seed_storage(page, {game_key("russian"): saved_doc(stuck, counted=True)})

    # Every game of the table, dealt as the engine deals it.
    for game_id in GAMES:
        if game_id == "russian":
            continue  # its saved game is the stuck one, below
        open_game(page, game_id, QUICK_DEAL)
        wait_table(page, Game.new(game_id, QUICK_DEAL).position)

    # A hint from the solver's worker (its own Pyodide, on the trimmed zip too).
    open_game(page, "double-russian", 2)
    position = Game.new("double-russian", 2).position
    page.locator("#btn-hint").click()
    page.wait_for_function(ANSWERED, timeout=SOLVER_TIMEOUT_MS)
    state = hinted(page)[0]
    assert state["hint"] in ("winning", "heuristic"), state  # proved or not within its budget
    assert position.why_illegal(Move.parse(state["hintMove"])) is None

    # "Was it winnable?" on the stuck Russian game.
    page.locator("#game-select").select_option("russian")
    wait_table(page, stuck.position)
    banner = page.locator("#stuck")
    expect(banner).to_be_visible()
    banner.get_by_role("button", name="Was it winnable?").click()
    expect(banner).to_have_attribute("data-verdict", "winnable", timeout=SOLVER_TIMEOUT_MS)

    # The statistics and settings dialogs.
    open_and_close_menu_dialogs(page)

    paths = watch.local_paths()
    assert TRIMMED in paths, paths
    assert FULL not in paths, paths
