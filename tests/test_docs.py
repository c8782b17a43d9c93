"""The docs in ``docs/`` are references, and the one example session in them runs.

- docs/engine.md's example session runs as written (doctest).
- Each doc in ``docs/`` is at most 450 lines, ``docs/performance.md`` at most 400: a doc says
  how a part works and its current figures; history belongs in ``bench/results/`` and git.
- No Markdown table cell is over 300 characters: one figure per cell, not a run list.
- No dated run lists: a line of a doc in ``docs/`` may carry an ISO date (``YYYY-MM-DD``) only
  as part of a path under ``bench/results/`` (the dated raw results a figure comes from).
- Every relative link of ``docs/*.md`` and ``README.md`` names a file that exists.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))

MAX_LINES = 450
MAX_LINES_OF = {"performance.md": 400}
MAX_CELL = 300

#: An ISO date, and a path under bench/results/ (where a date may appear).
DATE = re.compile(r"(?<![0-9])[0-9]{4}-[0-9]{2}-[0-9]{2}(?![0-9])")
RESULTS_PATH = re.compile(r"bench/results/[^\s)`'\"]*")
#: A Markdown link's target: ``[text](target)``.
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_engine_md_example_session() -> None:
    path = ROOT / "docs" / "engine.md"
    failures, tried = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert tried > 10
    assert failures == 0


def test_docs_found() -> None:
    assert len(DOCS) >= 8


def table_cells(line: str) -> list[str]:
    """The cells of a Markdown table row (a line starting with ``|``); [] for other lines."""
    text = line.strip()
    if not text.startswith("|"):
        return []
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", text.strip("|"))]


def dated_text(line: str) -> list[str]:
    """The ISO dates of a line that are not part of a bench/results/ path."""
    return DATE.findall(RESULTS_PATH.sub("", line))


def test_rules_catch_diary_text() -> None:
    """The helpers see what the rules are about (so the doc tests below can fail)."""
    assert dated_text("| cold boot | 1.05x (2026-11-21 23:59 UTC) | met |") == ["2026-11-21"]
    assert dated_text("raw: `bench/results/2026-11-28-phone-profile-main.txt`") == []
    assert dated_text("[run](../bench/results/2026-11-29-x.md), 2026-11-29") == ["2026-11-29"]
    assert table_cells("| a | b \\| c | d |") == ["a", "b \\| c", "d"]
    assert table_cells("text | not a row") == []


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_doc_length(path: Path) -> None:
    limit = MAX_LINES_OF.get(path.name, MAX_LINES)
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= limit, f"{path.name}: {lines} lines, at most {limit}: split it by subject"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_table_cells_short(path: Path) -> None:
    long = [
        f"{number}: {cell[:60]}... ({len(cell)} characters)"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for cell in table_cells(line)
        if len(cell) > MAX_CELL
    ]
    assert not long, f"{path.name}: table cells over {MAX_CELL} characters:\n" + "\n".join(long)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_no_dated_runs(path: Path) -> None:
    dated = [
        f"{number}: {line[:80]}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if dated_text(line)
    ]
    assert not dated, (
        f"{path.name}: dates outside bench/results/ paths (move the dated runs to a "
        "bench/results/ file, keep the newest figure here):\n" + "\n".join(dated)
    )


@pytest.mark.parametrize("path", [*DOCS, ROOT / "README.md"], ids=lambda p: p.name)
def test_relative_links_resolve(path: Path) -> None:
    missing = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = target.split("#", 1)[0]
        if not (path.parent / file).exists():
            missing.append(target)
    assert not missing, f"{path.name}: links to files that do not exist: {missing}"
