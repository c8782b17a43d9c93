"""Make ``import solitaire`` work in the infra's venv (package installed editable) and in a bare
checkout (the package is the folder ``py/``: a temporary ``solitaire`` symlink points at it).

(Test modules do not ``import conftest``: with tests/ and e2e/ in one run, that name is
ambiguous.)
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

try:
    import solitaire

    SOLITAIRE_PYTHONPATH: str | None = None  # importable as it is (an editable install)
    if Path(solitaire.__file__).resolve().parent != (ROOT / "py").resolve():
        raise ImportError("an installed solitaire that is not this checkout's py/")
except ImportError:
    for name in [m for m in sys.modules if m == "solitaire" or m.startswith("solitaire.")]:
        del sys.modules[name]
    holder = tempfile.mkdtemp(prefix="solitaire-tests-")
    os.symlink(ROOT / "py", Path(holder) / "solitaire")
    sys.path.insert(0, holder)
    SOLITAIRE_PYTHONPATH = holder
    import solitaire

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)
