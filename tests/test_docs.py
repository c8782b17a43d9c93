"""The example session in docs/engine.md runs as written."""

from __future__ import annotations

import doctest
from pathlib import Path


def test_engine_md_example_session() -> None:
    path = Path(__file__).resolve().parent.parent / "docs" / "engine.md"
    failures, tried = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert tried > 10
    assert failures == 0
