"""Test settings shared by tests/ and e2e/ (hypothesis profiles; ``ROOT``). The package is
importable through pytest's ``pythonpath = ["py"]`` (pyproject.toml), installed or not.

(Test modules do not ``import conftest``: with tests/ and e2e/ in one run, that name is
ambiguous.)
"""

from __future__ import annotations

import os
from pathlib import Path

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
