"""The solver (solitaire.solver), its command line, hints and the survey."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time

import conftest
import pytest

from solitaire import Game, Move, Position
from solitaire.cards import RANKS, SUITS
from solitaire.hints import heuristic_move, hint, is_winnable_deal, was_winnable
from solitaire.rules import GAMES
from solitaire.solve_cli import done_deals, survey
from solitaire.solver import UNKNOWN, UNWINNABLE, WINNABLE, best_first, depth_first, solve

# --------------------------------------------------------------------------- helpers


def build(
    game: str,
    tableau: list[tuple[list[str], list[str]]],
    cells: list[str] = (),  # type: ignore[assignment]
    stock: list[str] = (),  # type: ignore[assignment]
    waste: list[str] = (),  # type: ignore[assignment]
) -> Position:
    """A position from its tableau (face-down, face-up cards per pile), cells, stock and
    waste; every other card is on the foundations, built up from the Ace."""
    rules = GAMES[game]
    rem: dict[str, int] = {}
    for down, up in tableau:
        for c in [*down, *up]:
            rem[c] = rem.get(c, 0) + 1
    for c in [*cells, *stock, *waste]:
        rem[c] = rem.get(c, 0) + 1
    fnd: list[list[str]] = []
    for s in SUITS:
        up = [rules.decks - rem.get(r + s, 0) for r in RANKS]
        if rules.foundation_laps == 2:
            h1 = next((i for i, u in enumerate(up) if u < 1), 13)
            h2 = next((i for i, u in enumerate(up) if u < 2), 13) if h1 == 13 else 0
            fnd.append([r + s for r in RANKS[:h1]] + [r + s for r in RANKS[:h2]])
        else:
            for k in range(rules.decks):
                h = next((i for i, u in enumerate(up) if u < k + 1), 13)
                fnd.append([r + s for r in RANKS[:h]])
    fnd.sort(key=len, reverse=True)
    doc: dict[str, object] = {
        "format": 1,
        "game": game,
        "tableau": [{"down": list(d), "up": list(u)} for d, u in tableau],
        "foundations": fnd,
    }
    if rules.cells:
        doc["cells"] = list(cells) + [None] * (rules.cells - len(cells))
    if rules.stock:
        doc["stock"] = list(stock)
        doc["waste"] = list(waste)
    return Position.from_json(doc)


def brute_force(position: Position, cap: int = 200_000) -> bool:
    """Plain exhaustive search through the engine (no pruning, no canonical keys)."""
    seen = {position}
    stack = [position]
    while stack:
        p = stack.pop()
        if p.is_won():
            return True
        for m in p.legal_moves():
            q = p.play(m)
            if q not in seen:
                seen.add(q)
                stack.append(q)
        assert len(seen) < cap, "position too big for the brute-force check"
    return False


def replays_to_win(position: Position, line: list[Move]) -> bool:
    for m in line:
        position = position.play(m)  # raises IllegalMove on a bad line
    return position.is_won()


EMPTY: tuple[list[str], list[str]] = ([], [])

# --------------------------------------------------------------------------- whole deals


@pytest.mark.parametrize(
    ("game", "deal_number"),
    [
        ("russian", 16),
        ("russian", 22),
        ("russian", 29),
        ("double-russian", 2),
        ("double-russian", 7),
        ("double-russian", 9),
        ("double-freecell", 2),
        ("double-freecell", 6),
        ("double-rail", 12),
    ],
)
def test_winning_lines_replay_through_the_engine(game: str, deal_number: int) -> None:
    position = Position.deal_of(game, deal_number)
    result = solve(position, budget=30)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


@pytest.mark.parametrize("deal_number", [1, 3, 6, 14])
def test_russian_unwinnable_agrees_with_brute_force(deal_number: int) -> None:
    position = Position.deal_of("russian", deal_number)
    assert solve(position, budget=30).result == UNWINNABLE
    assert brute_force(position) is False


def test_winnable_deal_from_mid_game_json() -> None:
    """Any position, not only a deal: play part of a winning line, solve from there."""
    position = Position.deal_of("russian", 16)
    line = solve(position).line
    assert line
    for m in line[:10]:
        position = position.play(m)
    again = solve(Position.from_json(position.to_json()))
    assert again.result == WINNABLE
    assert again.line is not None
    assert replays_to_win(position, again.line)


# --------------------------------------------------------------------------- small positions


def test_won_in_one_move() -> None:
    position = build("russian", [([], ["KS"]), EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY])
    result = solve(position)
    assert result.result == WINNABLE
    assert [str(m) for m in result.line or []] == ["tableau-0>foundation-0"] or (
        result.line is not None and len(result.line) == 1
    )
    assert replays_to_win(position, result.line or [])


def test_already_won() -> None:
    position = build("double-freecell", [EMPTY] * 10)
    assert position.is_won()
    result = solve(position)
    assert result.result == WINNABLE
    assert result.line == []


LOST_RUSSIAN = [
    (["3S"], ["AH"]),
    (["3H", "AS"], ["2H"]),
    (["2S", "KS", "QS", "JS"], ["TS", "9S", "8S", "7S", "6S", "5S", "4S"]),
    (["KH", "QH", "JH"], ["TH", "9H", "8H", "7H", "6H", "5H", "4H"]),
    EMPTY,
    EMPTY,
    EMPTY,
]


def test_proved_lost() -> None:
    position = build("russian", LOST_RUSSIAN)
    assert solve(position).result == UNWINNABLE
    assert brute_force(position) is False
    assert hint(position, 1)["kind"] == "lost"


def test_needs_a_king_to_an_empty_pile() -> None:
    spades = [r + "S" for r in "QJT98765432"]
    position = build("russian", [(["AS"], ["KS"]), ([], spades), EMPTY, EMPTY, EMPTY, EMPTY, EMPTY])
    result = solve(position)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert any(m.source == "tableau-0" and m.target.startswith("tableau-") for m in result.line)


def test_double_russian_small_position() -> None:
    position = build(
        "double-russian",
        [(["AS"], ["2S"]), (["AS"], ["KS"]), ([], [r + "S" for r in "QJT98765432"])]
        + [([], [r + "S" for r in "KQJT9876543"])]
        + [EMPTY] * 6,
    )
    result = solve(position)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_needs_a_supermove() -> None:
    """Double FreeCell: the 9S-8H-7S run must leave the 2H, onto the TH (two free cells:
    three cards may move as one unit)."""
    cols = [
        ([], ["2H", "9S", "8H", "7S"]),
        ([], ["TH"]),
        ([], ["KH", "QH", "JH"]),
        ([], ["5H"]),
        ([], ["6H"]),
        ([], ["7H"]),
        ([], ["9H"]),
        ([], ["KS"]),
        ([], ["8S"]),
        ([], ["QS"]),
    ]
    position = build("double-freecell", cols, cells=["TS", "JS", "3H", "4H"])
    result = solve(position, budget=20)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert any(m.count == 3 for m in result.line)


def test_double_rail_needs_the_stock() -> None:
    position = build("double-rail", [EMPTY] * 5, stock=["KS", "QS", "JS"])
    result = solve(position)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert sum(1 for m in result.line if m.source == "stock") == 3


def test_double_rail_needs_a_free_pile_for_the_waste() -> None:
    """The QS and KS come out of the stock before the JS: the KS must wait on a pile."""
    position = build("double-rail", [EMPTY] * 5, stock=["JS", "KS", "QS"])
    result = solve(position)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert any(m.source == "waste" and m.target.startswith("tableau") for m in result.line)
    assert brute_force(position) is True


def test_both_searches_agree_on_small_positions() -> None:
    lost = build("russian", LOST_RUSSIAN)
    assert best_first(lost).result == depth_first(lost).result == UNWINNABLE


# --------------------------------------------------------------------------- budgets


def test_budget_exhaustion_returns_unknown() -> None:
    position = Position.deal_of("double-rail", 1)
    result = solve(position, budget=None, max_nodes=200)
    assert result.result == UNKNOWN
    assert result.line is None
    result = solve(position, budget=0.05)
    assert result.result == UNKNOWN
    assert result.seconds < 2


# --------------------------------------------------------------------------- hints


def test_hint_kinds() -> None:
    h = hint(Position.deal_of("russian", 16), 2)
    assert h["kind"] == "winning"
    assert Position.deal_of("russian", 16).why_illegal(Move.parse(h["move"])) is None
    h = hint(Position.deal_of("russian", 1).to_json(), 2)
    assert h["kind"] == "lost"
    assert h["move"] is None
    # a budget far too small for Double Rail: a heuristic (legal) move
    position = Position.deal_of("double-rail", 3)
    h = hint(position, 0.02)
    assert h["kind"] == "heuristic"
    assert position.why_illegal(Move.parse(h["move"])) is None


def test_heuristic_move_is_legal_in_every_game() -> None:
    for game in GAMES:
        position = Position.deal_of(game, 5)
        move = heuristic_move(position)
        assert move is not None
        assert position.why_illegal(move) is None


def test_was_winnable_finds_the_last_good_step() -> None:
    start = Position.deal_of("russian", 16)
    game = Game(start, automove=False)
    line = solve(start).line
    assert line
    for m in line[:3]:
        game.play(m)
    # then a move that throws the game away, if one exists: try the legal ones
    report = was_winnable(game.to_json(), budget=10)
    assert report["from_start"] == WINNABLE
    assert report["last_winnable_step"] == 3
    assert report["exact"]
    lost_game = Game(Position.deal_of("russian", 1), automove=False)
    assert was_winnable(lost_game.to_json(), 5)["from_start"] == UNWINNABLE


def test_is_winnable_deal() -> None:
    assert is_winnable_deal("russian", 22, 10)["result"] == WINNABLE
    assert is_winnable_deal("russian", 3, 10)["result"] == UNWINNABLE


def test_worker_entry_points() -> None:
    from solitaire.web import solver_worker

    answer = json.loads(
        solver_worker.hint(json.dumps(Position.deal_of("russian", 22).to_json()), 2)
    )
    assert answer["kind"] == "winning"
    assert json.loads(solver_worker.is_winnable_deal("russian", 3, 5))["result"] == UNWINNABLE
    assert "error" in json.loads(solver_worker.hint("{not json", 1))
    assert json.loads(solver_worker.ping()) == "ready"
    assert set(solver_worker.__export__) == {"hint", "was_winnable", "is_winnable_deal", "ping"}


# --------------------------------------------------------------------------- command line


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if conftest.SOLITAIRE_PYTHONPATH:
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (conftest.SOLITAIRE_PYTHONPATH, env.get("PYTHONPATH")) if p
        )
    return subprocess.run(
        [sys.executable, "-m", "solitaire", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        cwd=conftest.ROOT / "tests",
        timeout=60,
        check=False,
    )


def test_cli_solve_json_shape_and_exit_codes() -> None:
    won = run("solve", "russian", "16", "--json")
    assert won.returncode == 0, won.stderr
    doc = json.loads(won.stdout)
    assert set(doc) == {"result", "nodes", "seconds", "line"}
    assert doc["result"] == "winnable"
    assert isinstance(doc["nodes"], int)
    line = [Move.parse(s) for s in doc["line"]]
    assert replays_to_win(Position.deal_of("russian", 16), line)
    lost = run("solve", "russian", "1", "--json")
    assert lost.returncode == 1
    assert json.loads(lost.stdout)["line"] is None
    unknown = run("solve", "double-rail", "1", "--json", "--max-nodes", "100")
    assert unknown.returncode == 3
    assert json.loads(unknown.stdout)["result"] == "unknown"
    text = run("solve", "russian", "16", "--budget", "5")
    assert text.returncode == 0
    assert text.stdout.startswith("winnable")


def test_cli_solve_position_on_stdin() -> None:
    position = build("russian", LOST_RUSSIAN)
    out = run("solve", "-", "--json", stdin=json.dumps(position.to_json()))
    assert out.returncode == 1
    assert json.loads(out.stdout)["result"] == "unwinnable"
    bad = run("solve", "-", stdin="{}")
    assert bad.returncode == 2
    assert "error" in bad.stderr
    assert run("solve", "nosuchgame", "1").returncode == 2
    assert run("solve", "russian").returncode == 2


def test_survey_writes_lines_and_resumes(tmp_path: object) -> None:
    out = os.path.join(str(tmp_path), "survey.jsonl")
    survey("russian", 1, 4, budget=10, out=out, jobs=1, quiet=True)
    with open(out, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f]
    assert sorted(x["deal"] for x in lines) == [1, 2, 3, 4]
    assert {"deal", "result", "nodes", "seconds", "moves"} <= set(lines[0])
    # mark deal 2 so a re-run that recomputed it would show; tear the last line
    with open(out, "w", encoding="utf-8") as f:
        for x in lines:
            if x["deal"] == 2:
                x["nodes"] = -7
            f.write(json.dumps(x) + "\n")
        f.write('{"deal": 9, "resu')
    survey("russian", 1, 6, budget=10, out=out, jobs=1, quiet=True)
    again = []
    with open(out, encoding="utf-8") as f:
        for x in f:
            with contextlib.suppress(ValueError):
                again.append(json.loads(x))
    assert sorted(x["deal"] for x in again) == [1, 2, 3, 4, 5, 6]
    assert next(x for x in again if x["deal"] == 2)["nodes"] == -7
    assert done_deals(out) == {1, 2, 3, 4, 5, 6}


def test_survey_cpu_clock(tmp_path: object) -> None:
    """--cpu counts the budget in CPU seconds: recorded, honoured, and the clock restored."""
    from solitaire import solver_core

    out = os.path.join(str(tmp_path), "cpu.jsonl")
    survey("double-rail", 1, 1, budget=0.05, out=out, jobs=1, quiet=True, cpu=True)
    with open(out, encoding="utf-8") as f:
        (rec,) = [json.loads(x) for x in f]
    assert rec["clock"] == "cpu"
    assert rec["seconds"] < 1.0  # decided or not, the 0.05 s budget held
    assert solver_core.clock is time.perf_counter
    done = run("survey", "russian", "1", "1", "--cpu", "--out", out + "2", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    with open(out + "2", encoding="utf-8") as f:
        assert json.loads(f.readline())["clock"] == "cpu"


def test_cli_survey_command(tmp_path: object) -> None:
    out = os.path.join(str(tmp_path), "s.jsonl")
    done = run("survey", "russian", "1", "3", "--budget", "5", "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert done_deals(out) == {1, 2, 3}
