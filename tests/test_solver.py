"""The solver (solitaire.solver), its command line, hints and the survey."""

from __future__ import annotations

import contextlib
import json
import os
import time

import pytest
from engine_support import run_cli

from solitaire import STOCK, TABLEAU, WASTE, Game, Move, Position
from solitaire.cards import RANKS, SUITS
from solitaire.cli.survey import done_deals, survey
from solitaire.rules import GAMES
from solitaire.solver import UNKNOWN, UNWINNABLE, WINNABLE, best_first, depth_first, solve
from solitaire.solver.hints import heuristic_move, hint, is_winnable_deal, was_winnable

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
    assert any(m.source == TABLEAU[0] and m.target.kind == "tableau" for m in result.line)


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
    assert sum(1 for m in result.line if m.source == STOCK) == 3


def test_double_rail_needs_a_free_pile_for_the_waste() -> None:
    """The QS and KS come out of the stock before the JS: the KS must wait on a pile."""
    position = build("double-rail", [EMPTY] * 5, stock=["JS", "KS", "QS"])
    result = solve(position)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert any(m.source == WASTE and m.target.kind == "tableau" for m in result.line)
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


def test_worker_warm_up_searches_every_game_and_imports_every_family() -> None:
    import sys

    from solitaire.rules import GAMES
    from solitaire.web import solver_worker

    kinds = json.loads(solver_worker.warm_up(0.01))
    assert set(kinds) == set(GAMES)
    assert set(kinds.values()) <= {"winning", "heuristic", "lost"}
    for rules in GAMES.values():
        assert f"solitaire.solver.{rules.solver}" in sys.modules
    assert "warm_up" not in solver_worker.__export__  # run by the worker itself, not the page


# --------------------------------------------------------------------------- command line


def test_cli_solve_json_shape_and_exit_codes() -> None:
    won = run_cli("solve", "russian", "16", "--json")
    assert won.returncode == 0, won.stderr
    doc = json.loads(won.stdout)
    assert set(doc) == {"result", "nodes", "seconds", "line"}
    assert doc["result"] == "winnable"
    assert isinstance(doc["nodes"], int)
    line = [Move.parse(s) for s in doc["line"]]
    assert replays_to_win(Position.deal_of("russian", 16), line)
    lost = run_cli("solve", "russian", "1", "--json")
    assert lost.returncode == 1
    assert json.loads(lost.stdout)["line"] is None
    unknown = run_cli("solve", "double-rail", "1", "--json", "--max-nodes", "100")
    assert unknown.returncode == 3
    assert json.loads(unknown.stdout)["result"] == "unknown"
    text = run_cli("solve", "russian", "16", "--budget", "5")
    assert text.returncode == 0
    assert text.stdout.startswith("winnable")


def test_cli_solve_position_on_stdin() -> None:
    position = build("russian", LOST_RUSSIAN)
    out = run_cli("solve", "-", "--json", stdin=json.dumps(position.to_json()))
    assert out.returncode == 1
    assert json.loads(out.stdout)["result"] == "unwinnable"
    bad = run_cli("solve", "-", stdin="{}")
    assert bad.returncode == 2
    assert "error" in bad.stderr
    assert run_cli("solve", "nosuchgame", "1").returncode == 2
    assert run_cli("solve", "russian").returncode == 2


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
    from solitaire.solver import core

    out = os.path.join(str(tmp_path), "cpu.jsonl")
    survey("double-rail", 1, 1, budget=0.05, out=out, jobs=1, quiet=True, cpu=True)
    with open(out, encoding="utf-8") as f:
        (rec,) = [json.loads(x) for x in f]
    assert rec["clock"] == "cpu"
    assert rec["seconds"] < 1.0  # decided or not, the 0.05 s budget held
    assert core.clock is time.perf_counter
    done = run_cli("survey", "russian", "1", "1", "--cpu", "--out", out + "2", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    with open(out + "2", encoding="utf-8") as f:
        assert json.loads(f.readline())["clock"] == "cpu"


def test_survey_retry_unknown_resumes(tmp_path: object) -> None:
    """--retry-unknown solves again only the unknowns this run could search harder: a record
    from an older solver, another clock, a smaller budget or a tighter node cap is retried;
    one already searched with this solver, clock and budget is kept, so a stopped pass
    resumes instead of repeating its unknowns."""
    from solitaire.solver import VERSION

    out = os.path.join(str(tmp_path), "retry.jsonl")
    base = {"game": "russian", "result": "unknown", "nodes": -1, "seconds": 0.0, "moves": None}
    held = [
        (1, {"budget": 5.0, "clock": "cpu", "max_nodes": None, "solver": VERSION}),  # as hard
        (2, {"budget": 9.0, "clock": "cpu", "max_nodes": None, "solver": VERSION}),  # harder
        (3, {"budget": 2.0, "clock": "cpu", "max_nodes": None, "solver": VERSION}),  # smaller
        (4, {"budget": 5.0, "clock": "cpu", "max_nodes": None, "solver": "0ld50lver0"}),
        (5, {"budget": 5.0, "clock": "wall", "max_nodes": None, "solver": VERSION}),
        (6, {"budget": 5.0, "clock": "cpu", "max_nodes": 100, "solver": VERSION}),  # capped
        (7, {"budget": 5.0, "max_nodes": None, "solver": VERSION}),  # no clock: an old record
    ]
    with open(out, "w", encoding="utf-8") as f:
        for deal, extra in held:
            f.write(json.dumps({**base, "deal": deal, **extra}) + "\n")
        f.write(json.dumps({**base, "deal": 8, "result": "error", "error": "boom"}) + "\n")
        won = {**base, "deal": 9, "result": "winnable", "budget": 0.1, "solver": "0ld50lver0"}
        f.write(json.dumps(won) + "\n")
    assert done_deals(out, True, 5.0, "cpu", None) == {1, 2, 9}
    assert done_deals(out, True, 5.0, "cpu", 100) == {1, 2, 6, 9}
    assert done_deals(out, True, 5.0, "wall", None) == {5, 9}
    assert done_deals(out, True, 9.5, "cpu", None) == {9}
    assert done_deals(out) == set(range(1, 10))

    survey("russian", 1, 9, budget=5, out=out, jobs=1, quiet=True, retry_unknown=True)
    with open(out, encoding="utf-8") as f:
        lines = [json.loads(x) for x in f]
    solved_now = sorted(x["deal"] for x in lines[len(held) + 2 :])
    assert solved_now == [3, 4, 5, 6, 7, 8]
    # Russian deals are decided in well under 5 s: every retried deal has its verdict now
    assert all(x["result"] in (WINNABLE, UNWINNABLE) for x in lines[len(held) + 2 :])


def test_cli_survey_command(tmp_path: object) -> None:
    out = os.path.join(str(tmp_path), "s.jsonl")
    done = run_cli("survey", "russian", "1", "3", "--budget", "5", "--out", out, "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert done_deals(out) == {1, 2, 3}


# --------------------------------------------------------------------------- Double FreeCell


def _double_freecell_stuck() -> Position:
    """Every suit at 18 (the 6 is next, second lap); the 6s, 8s, 10s and Queens are buried
    under 7s, 9s, Jacks and Kings, which fit nowhere; the six cells are full."""
    buried = [r + s for r in "68TQ" for s in "SHDC"]
    tops = [r + s for r in "79JK" for s in "SHDC"]
    cols = [([], [*buried[2 * k : 2 * k + 2], tops[k]]) for k in range(6)]
    cols += [([], [buried[12 + k], tops[6 + k]]) for k in range(4)]
    return build("double-freecell", cols, cells=tops[10:])


def test_double_freecell_proved_lost() -> None:
    position = _double_freecell_stuck()
    assert not position.is_won()
    result = solve(position, budget=20)
    assert result.result == UNWINNABLE
    assert brute_force(position) is False


def test_double_freecell_next_card_needs() -> None:
    """The score's foundation order: with spades at 5 (A-5 up once) the 6S is next (0),
    the second AS waits for the first lap (8 more cards); both copies of a face whose
    first copy is not up count as the sooner one."""
    from solitaire.solver.freecell import FreeCell

    fam = FreeCell(GAMES["double-freecell"])
    need = fam._need((5, 0, 13, 26))
    assert need[5] == 0  # 6S
    assert need[0] == 8  # the second AS
    assert need[4] == 12  # the second 5S: the last card of the second lap's run to it
    assert need[13] == 0  # AH
    assert need[26] == 0  # diamonds in their second lap: the AD, then the 2D
    assert need[27] == 1
    assert need[39] == 99  # clubs are done


@pytest.mark.parametrize("deal_number", [9, 10])
def test_double_freecell_deals_replay(deal_number: int) -> None:
    position = Position.deal_of("double-freecell", deal_number)
    result = solve(position, budget=30)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_double_freecell_depth_penalty_is_complete() -> None:
    """Any depth penalty: the search still expands every position before "unwinnable",
    and wins the supermove position."""
    from solitaire.solver.freecell import weighted_best_first

    for penalty in (0.0, 0.5, 5.0):
        assert weighted_best_first(_double_freecell_stuck(), 20, None, penalty).result == (
            UNWINNABLE
        )


def test_double_freecell_portfolio_wins_where_one_search_stalls() -> None:
    """Deal 121: the single search with penalty 0.5 is still stuck after 30 000 positions;
    the portfolio wins in about 7 000, and its line replays to a win."""
    from solitaire.solver.freecell import search, weighted_best_first

    position = Position.deal_of("double-freecell", 121)
    assert weighted_best_first(position, 30, 30_000, 0.5).result == UNKNOWN
    result = search(position, 30, 30_000)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_double_freecell_portfolio_is_complete_and_capped() -> None:
    """Noisy members are complete too (the noise only reorders the heap): the stuck position
    is proved lost by each of them alone and by the portfolio; a node cap stops the
    portfolio with "unknown" close to the cap."""
    from solitaire.solver.freecell import PORTFOLIO, search

    stuck = _double_freecell_stuck()
    for member in PORTFOLIO:
        assert search(stuck, 20, None, [member]).result == UNWINNABLE
    assert search(stuck, 20, None).result == UNWINNABLE
    capped = search(Position.deal_of("double-freecell", 5), None, 5_000)
    assert capped.result == UNKNOWN
    assert 5_000 <= capped.nodes < 7_000


def test_double_freecell_random_weights_win_a_deal_the_fixed_weights_did_not() -> None:
    """Deal 8174: the portfolio scoring with FC_WEIGHTS left it unknown after 60 s of CPU
    (over two million positions) and is still stuck after 120 000; with the second weights
    that the solver's rounds draw (seed 0) it wins in about 40 000, and the line replays."""
    import random

    from solitaire.solver.freecell import random_fc_weights, search

    position = Position.deal_of("double-freecell", 8174)
    assert search(position, None, 120_000).result == UNKNOWN
    rng = random.Random(0)
    random_fc_weights(rng)
    result = search(position, None, 120_000, weights=random_fc_weights(rng))
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_double_freecell_rounds_of_random_weights_follow_the_fixed_weights(
    monkeypatch: pytest.MonkeyPatch, cpu_clock: None
) -> None:
    """With a budget beyond FIXED_WEIGHTS_FIRST the search starts again with random weights,
    round after round (here shortened: 0.2 s of fixed weights, rounds of 4 s): deal 8174 is
    won in the second random round; each round stays complete (the stuck position is proved
    lost after the fixed round too)."""
    from solitaire.solver import freecell

    monkeypatch.setattr(freecell, "FIXED_WEIGHTS_FIRST", 0.2)
    monkeypatch.setattr(freecell, "RANDOM_ROUND", 4.0)
    position = Position.deal_of("double-freecell", 8174)
    result = freecell.search(position, 15, None)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)
    assert result.nodes > 40_000  # the fixed round and the first random one came before
    assert freecell.search(_double_freecell_stuck(), 15, None).result == UNWINNABLE


# --------------------------------------------------------------------------- Double Rail


def _rail_kings(fifth: tuple[list[str], list[str]]) -> Position:
    """Four Kings on the tableau and ``fifth``; the rest of the Kings, Queens, the clubs from
    the Ten up in the waste (a KC on top), the stock empty. With the fifth pile empty one KC
    lies at the bottom of the waste (two Kings on the waste's top would lose)."""
    waste = ["QS", "QS", "QH", "QH", "QD", "QD", "TC", "TC", "JC", "JC", "QC", "QC", "KC"]
    kds = ["KD", "KC"] if fifth[1] else ["KC", "KD", "KD"]
    piles = [([], ["KS"]), ([], ["KS"]), ([], ["KH"]), ([], ["KH"]), fifth]
    return build("double-rail", piles, waste=[*kds, *waste])


def test_double_rail_rigid_tableau_takes_no_king() -> None:
    """Five single Kings: no run can be built, no pile ever empties, so the KC on the waste
    has nowhere to go (the rigid case of the multiset abstraction)."""
    from solitaire.solver.rail import abstract_search

    lost = _rail_kings(([], ["KD"]))
    assert abstract_search(lost, 10, None).result == UNWINNABLE
    assert solve(lost, budget=10).result == UNWINNABLE
    assert brute_force(lost) is False


def test_double_rail_fluid_tableau_takes_any_card() -> None:
    """The same with the fifth pile empty: the Kings go there and the game is won; the
    line the multiset search returns replays through the engine."""
    from solitaire.solver.rail import abstract_search

    won = _rail_kings(EMPTY)
    result = abstract_search(won, 10, None)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(won, result.line)
    assert brute_force(won) is True


def test_double_rail_abstract_moves_follow_the_counts() -> None:
    """Rigid tableau (no arrangement empties a pile): a card goes to the foundation only if
    a card of its rank is uncovered, the waste card only onto an uncovered card one rank
    higher. With a pile to spare (fluid), both are always possible."""
    from solitaire.cards import parse_card
    from solitaire.solver.rail.lock import A_T2F, A_W2T, RailAbstract

    fam = RailAbstract(GAMES["double-rail"])
    fam.stock = b""
    qh, js, nc = parse_card("QH"), parse_card("JS"), parse_card("9C")

    def state(cards: list[str]) -> tuple[bytes, tuple[int, ...], bytes, int]:
        cnt = bytearray(52)
        for c in cards:
            cnt[parse_card(c)] += 1
        fnd = (11, 11, 11, 11, 0, 0, 8, 8)  # S, H at the Jack; C at the Eight
        return (bytes(cnt), fnd, bytes((nc,)), 0)

    # QH under JS (one run), 9D, 7D, 5D, 3D: five runs at least, one Queen, one Jack
    rigid = state(["QH", "JS", "9D", "7D", "5D", "3D"])
    assert not fam.fluid(fam.ranks(rigid[0]))
    moves = fam.moves(rigid)
    assert (A_T2F, qh) not in moves  # the JS covers the only Queen
    assert (A_W2T,) not in moves  # no Ten for the 9C
    # without the 3D a pile is to spare: the JS can go there, the 9C too
    fluid = state(["QH", "JS", "9D", "7D", "5D"])
    assert fam.fluid(fam.ranks(fluid[0]))
    moves = fam.moves(fluid)
    assert (A_T2F, qh) in moves
    assert (A_W2T,) in moves
    # rigid, but a Ten uncovered: the 9C may go on it; the JS is covered by nothing but
    # the spades are not at the Ten
    ten = state(["KH", "QS", "TD", "7D", "5D", "3D"])
    assert not fam.fluid(fam.ranks(ten[0]))
    assert (A_W2T,) in fam.moves(ten)
    assert js not in (m[1] for m in fam.moves(fluid) if m[0] == A_T2F)


def test_double_rail_multiset_line_replays_from_mid_game() -> None:
    """Deal 12 (winnable) a third of the way into a winning line: the complete search over
    tableau multisets finds a line, which replays through the engine."""
    from solitaire.solver.rail import abstract_search

    position = Position.deal_of("double-rail", 12)
    line = solve(position, budget=30).line
    assert line
    for m in line[: 2 * len(line) // 3]:
        position = position.play(m)
    result = abstract_search(position, 20, None)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_double_rail_beams_win_what_one_depth_first_search_misses() -> None:
    """Deal 2833: the solver wins within 20 000 positions (its beams; the line replays
    through the engine), while the complete depth-first search over the same states alone
    does not, stuck undoing the last choices of its first line."""
    from solitaire.solver.rail import abstract_search

    position = Position.deal_of("double-rail", 2833)
    assert abstract_search(position, None, 20_000).result == UNKNOWN
    result = solve(position, budget=None, max_nodes=20_000)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


# --------------------------------------------------------------------------- Double Russian


def test_double_russian_fast_moves_match_the_plain_ones() -> None:
    """DoubleYukon's moves (one find per target in the joined piles) and autoplay (the
    lower foundation slot of the suit) give the same moves and states as the plain Yukon
    code, along random walks through a few deals."""
    import random

    from solitaire.solver.yukon import DoubleYukon, Yukon

    rules = GAMES["double-russian"]
    fast, plain = DoubleYukon(rules), Yukon(rules)
    steps = 0
    for deal in (1, 2, 3, 4):
        st, _ = fast.autoplay(fast.start(Position.deal_of(rules, deal)))
        rnd = random.Random(deal)
        for _ in range(150):
            ms = fast.moves(st)
            assert sorted(ms) == sorted(plain.moves(st))
            if not ms:
                break
            m = rnd.choice(ms)
            a, b = fast.autoplay(fast.apply(st, m)), plain.autoplay(plain.apply(st, m))
            assert a[0] == b[0]
            assert sorted(a[1]) == sorted(b[1])
            st = a[0]
            steps += 1
    assert steps > 300


#: Double Russian, spades only (every other card on the foundations): no legal move at all
#: (each top's parent is face down under it or under its twin, Kings have no empty pile).
STUCK_DOUBLE_RUSSIAN = [
    (["AS"], ["KS"]),
    (["AS"], ["KS"]),
    (["3S"], ["2S"]),
    (["3S"], ["2S"]),
    (["5S"], ["4S"]),
    (["5S"], ["4S"]),
    (["7S"], ["6S"]),
    (["7S"], ["6S"]),
    (["JS", "QS", "QS", "9S"], ["8S"]),
    (["JS", "TS", "TS", "9S"], ["8S"]),
]


def test_double_russian_beams_never_say_unwinnable() -> None:
    from solitaire.solver.yukon import wide_beam

    position = build("double-russian", STUCK_DOUBLE_RUSSIAN)
    assert position.legal_moves() == []
    for weights in ("main", "plain", "order"):
        assert wide_beam(position, 50, 5, None, weights).result == UNKNOWN
    assert solve(position).result == UNWINNABLE  # from the complete phase


@pytest.mark.parametrize(
    ("deal_number", "width", "weights"), [(4, 150, "main"), (11, 300, "plain"), (23, 300, "order")]
)
def test_double_russian_beams_win_and_replay(deal_number: int, width: int, weights: str) -> None:
    """Deals the plain best-first search did not win within 30 000 positions; a beam of the
    portfolio does (no time budget: the beam's answer is deterministic)."""
    from solitaire.solver.yukon import PHASES, wide_beam

    assert ("beam", width, weights) in PHASES
    position = Position.deal_of("double-russian", deal_number)
    result = wide_beam(position, width, None, None, weights)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_double_russian_random_beams_win_a_deal_the_fixed_portfolio_left_unknown() -> None:
    """Deal 385: the solver of PHASES and the complete search left it unknown after 60 s of
    CPU; the first random beam (seed 0, so every run draws the same weights) wins it, and its
    line replays to a win."""
    import random

    from solitaire.solver.yukon import RANDOM_BEAM_WIDTHS, random_weights, wide_beam

    rng = random.Random(0)
    weights = random_weights(rng)
    width = rng.choice(RANDOM_BEAM_WIDTHS)
    assert all(isinstance(w, float) for w in weights.values())
    position = Position.deal_of("double-russian", 385)
    result = wide_beam(position, width, None, None, weights)
    assert result.result == WINNABLE
    assert result.line is not None
    assert replays_to_win(position, result.line)


def test_double_russian_random_beams_stop_at_their_budget() -> None:
    """Random beams only answer "winnable" or "unknown", within their budget."""
    from solitaire.solver import core
    from solitaire.solver.yukon import random_beams

    position = build("double-russian", STUCK_DOUBLE_RUSSIAN)
    t0 = core.clock()
    result = random_beams(position, 0.5, None)
    assert result.result == UNKNOWN
    assert core.clock() - t0 < 2.0


def test_double_russian_portfolio_respects_the_node_budget() -> None:
    result = solve(Position.deal_of("double-russian", 25), budget=60, max_nodes=3000)
    assert result.result == UNKNOWN
    assert result.nodes <= 3000 + 2000  # a phase stops within its checking interval
