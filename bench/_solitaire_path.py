"""Makes ``import solitaire`` work in the bench scripts from a bare checkout (the package is
``py/solitaire/``); shared by _benchlib.py (the page benchmarks) and the pure-Python benches,
which must not need playwright. Not a benchmark itself (``make bench`` skips files starting
with ``_``)."""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE_PATH = os.path.join(ROOT, "py")


def import_solitaire() -> None:
    if PACKAGE_PATH not in sys.path:
        sys.path.insert(0, PACKAGE_PATH)
