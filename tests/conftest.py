"""Test settings shared by tests/ and e2e/ (hypothesis profiles; ``ROOT``). The package is
importable through pytest's ``pythonpath = ["py"]`` (pyproject.toml), installed or not.

(Test modules do not ``import conftest``: with tests/ and e2e/ in one run, that name is
ambiguous.)
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
#: What a subprocess needs on PYTHONPATH to import this checkout's package.
PACKAGE_PATH = str(ROOT / "py")

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


@pytest.fixture
def cpu_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solvers' budgets in CPU seconds of this process instead of wall seconds
    (``solitaire.solver.core.clock``): a test whose outcome depends on how much search a budget
    buys then passes the same on a loaded machine (other test workers, a browser) as on an
    idle one."""
    from solitaire.solver import core

    monkeypatch.setattr(core, "clock", time.process_time)
