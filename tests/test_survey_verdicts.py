"""The survey's verdicts (``survey/GAME.jsonl``, the data behind docs/winnability.md) checked
against the rules reference, which shares no code with the engine or the solver.

- **Claimed wins**: a seeded sample of the deals recorded as winnable is solved again and the
  solver's line is replayed move by move through ``tests/reference_rules.py`` (each move
  checked against its own legal moves); the deal must end with every card on the foundations.
- **Claimed losses**: a seeded sample of the deals recorded as unwinnable is searched
  completely by a plain depth-first search through the reference (no pruning, no canonical
  keys, every position told apart by every card), where the reachable positions are few
  enough: Russian's lost deals mostly are, some of Double Russian's are. Double Rail's are not:
  99 cards dealt one at a time with no redeal give even its quickest proofs (10 positions for
  the solver, thanks to the waste lock) more than 50 000 reachable positions; its losses are
  checked against the slow definition of the lock in ``tests/test_solver_rail.py`` instead.

The sample is drawn from each deal's last record with a fixed seed, so a failure names a deal
that can be solved again by hand (``python -m solitaire solve GAME N``).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import reference_rules as reference

from solitaire.solver import solve_deal

SURVEY = Path(__file__).resolve().parent.parent / "survey"
SEED = 20261126
WINS_PER_GAME = 3
#: re-solving a claimed win must stay quick: only wins that took at most this long are drawn
QUICK_WIN_SECONDS = 0.3
LOSSES_PER_GAME = 8
#: the plain search gives up past this many positions (the reference plays ~1 700 a second)
LOSS_CAP = 20_000


def last_records(game: str) -> dict[int, dict[str, object]]:
    """Each deal's last record: the one that counts (docs/winnability.md)."""
    records: dict[int, dict[str, object]] = {}
    with (SURVEY / f"{game}.jsonl").open() as lines:
        for line in lines:
            record = json.loads(line)
            records[int(record["deal"])] = record
    return records


def sample(game: str, result: str, count: int, most_seconds: float | None = None) -> list[int]:
    """A seeded sample of the deals whose last record is ``result`` (and, with
    ``most_seconds``, that the solver decided within that many seconds)."""
    deals = sorted(
        deal
        for deal, record in last_records(game).items()
        if record["result"] == result
        and (most_seconds is None or float(str(record["seconds"])) <= most_seconds)
    )
    return random.Random(f"{SEED}-{game}-{result}").sample(deals, min(count, len(deals)))


def is_won(table: reference.Table) -> bool:
    return sum(map(len, table.foundations)) == 52 * table.layout.decks


def plain_search(table: reference.Table, cap: int) -> bool | None:
    """Can the position be won? ``None`` when more than ``cap`` positions are reachable."""
    seen = {reference.key(table)}
    stack = [table]
    while stack:
        position = stack.pop()
        if is_won(position):
            return True
        for move in reference.legal_moves(position):
            after = reference.play(position, move)
            name = reference.key(after)
            if name not in seen:
                seen.add(name)
                stack.append(after)
        if len(seen) > cap:
            return None
    return False


GAMES = ["russian", "double-russian", "double-freecell", "double-rail"]


@pytest.mark.parametrize("game", GAMES)
def test_claimed_wins_replay_through_the_rules_reference(game: str) -> None:
    deals = sample(game, "winnable", WINS_PER_GAME, QUICK_WIN_SECONDS)
    assert len(deals) == WINS_PER_GAME, f"{game}: too few quick wins in the survey to sample"
    for deal in deals:
        result = solve_deal(game, deal, budget=20.0)
        assert result.result == "winnable", f"{game} {deal}: recorded winnable, now {result}"
        assert result.line is not None
        table = reference.replay(reference.deal(game, deal), [str(m) for m in result.line])
        assert is_won(table), f"{game} {deal}: the line does not win"


#: (game, losses the solver proved within this many seconds, how many must be checked): the
#: quick proofs are the ones whose whole tree a plain search can walk in a few seconds
LOSS_SAMPLES = [("russian", 0.1, 6), ("double-russian", 0.012, 2)]


@pytest.mark.parametrize(("game", "most_seconds", "at_least"), LOSS_SAMPLES)
def test_claimed_losses_agree_with_a_plain_search(
    game: str, most_seconds: float, at_least: int
) -> None:
    checked = []
    for deal in sample(game, "unwinnable", LOSSES_PER_GAME, most_seconds):
        verdict = plain_search(reference.deal(game, deal), LOSS_CAP)
        assert verdict is not True, f"{game} {deal}: recorded unwinnable, but a plain search wins"
        if verdict is False:
            checked.append(deal)
    assert len(checked) >= at_least, f"{game}: only {checked} were small enough to check"


def test_plain_search_tells_a_win_from_a_loss() -> None:
    """The checker itself: it finds the win of a won-in-one position and gives up when capped."""
    table = reference.deal("russian", 16)
    assert plain_search(table, cap=5) is None
    line = solve_deal("russian", 16, budget=20.0).line
    assert line is not None
    near_end = reference.replay(table, [str(m) for m in line[:-1]])
    assert plain_search(near_end, LOSS_CAP) is True
