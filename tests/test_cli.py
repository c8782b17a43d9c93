"""``python -m solitaire``: run as a separate process, as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from engine_support import TESTS, cli_env, run_cli

from solitaire import GAMES, MAX_DEAL, Position
from solitaire.cli import main

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_deal_prints_the_position(game: str) -> None:
    result = run_cli("deal", game, "617")
    assert result.returncode == 0, result.stderr
    pos = Position.from_json(json.loads(result.stdout))
    assert pos == Position.deal_of(game, 617)
    assert pos.deal == 617
    assert pos.tableau == Position.deal_of(game, 617).tableau


def test_deal_extremes_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    for number in ("1", str(MAX_DEAL)):
        assert main(["deal", "double-rail", number]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert Position.from_json(doc) == Position.deal_of("double-rail", int(number))


def test_help() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    assert "deal" in result.stdout
    assert "usage:" in result.stdout
    result = run_cli("deal", "--help")
    assert result.returncode == 0
    for game in GAMES:
        assert game in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deal", "klondike", "1"), "invalid choice"),
        (("deal", "russian", "0"), "deal numbers run from 1 to 2147483647"),
        (("deal", "russian", str(2**31)), "deal numbers run from 1 to 2147483647"),
        (("deal", "russian", "abc"), "is not a whole number"),
        (("deal", "russian", "1.5"), "is not a whole number"),
        (("deal", "russian", "٣"), "is not a whole number"),
        (("deal", "russian", "--5"), ""),
        (("deal", "russian"), "the following arguments are required"),
        (("deal",), "the following arguments are required"),
        ((), "the following arguments are required"),
        (("shuffle",), "invalid choice"),
        (("deal", "russian", "1", "2"), "unrecognized arguments"),
    ],
)
def test_bad_arguments_exit_2_with_usage(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(list(args))
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m solitaire")
    assert message in err


def test_bad_arguments_in_a_process() -> None:
    for args, message in (
        (("deal", "klondike", "1"), "invalid choice"),
        (("deal", "russian", "0"), "deal numbers run from 1"),
        (("deal", "russian", "x"), "is not a whole number"),
        (("deal", "russian"), "required"),
    ):
        result = run_cli(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert result.stderr.startswith("usage: python -m solitaire")
        assert message in result.stderr
        assert result.stdout == ""


@pytest.mark.parametrize(
    ("stdin", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "nested too deeply"),
        (" " * 1_000_001, "larger than 1,000,000 characters"),
        ("not json", "error:"),
    ],
)
def test_solve_refuses_deep_huge_or_broken_input_with_one_line(stdin: str, says: str) -> None:
    done = run_cli("solve", "-", stdin=stdin)
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ("survey", "russian", "2147483647", "2147483648"),
        ("survey", "russian", "0", "3"),
        ("survey", "russian", "5", "3"),
        ("survey", "russian", "1", "2", "--budget", "nan"),
        ("solve", "russian", "1", "--budget", "nan"),
        ("solve", "russian", "1", "--budget", "-1"),
        ("solve", "russian", "1", "--budget", "inf"),
        ("solve", "russian", "1", "--budget", "0"),
    ],
)
def test_out_of_range_deals_and_budgets_are_refused(args: tuple[str, ...], tmp_path: Path) -> None:
    done = (
        run_cli(*args, "--out", str(tmp_path / "s.jsonl"))
        if args[0] == "survey"
        else run_cli(*args)
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "s.jsonl").exists()


def test_a_reader_that_goes_away_ends_the_output_quietly() -> None:
    """``python -m solitaire deal double-rail 5 | head -c 10``: the pipe closes before the
    position is printed; the command stops with the shell's 141 and no traceback."""
    proc = subprocess.Popen(  # run_cli's process, but one whose output pipe we can close
        [sys.executable, "-m", "solitaire", "deal", "double-rail", "5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cli_env(),
        cwd=TESTS,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first write
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141, err
    assert "Traceback" not in err, err
