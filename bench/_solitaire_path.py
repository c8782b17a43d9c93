"""Makes ``import solitaire`` work in the bench scripts, also from a bare checkout; shared by
_benchlib.py (the page benchmarks) and the pure-Python benches, which must not need playwright.
Not a benchmark itself (``make bench`` skips files starting with ``_``)."""

from __future__ import annotations

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def import_solitaire() -> None:
    try:
        import solitaire  # noqa: F401
    except ImportError:
        # a bare checkout: the package is the folder py/, reached through a symlink
        holder = tempfile.mkdtemp(prefix="solitaire-bench-")
        os.symlink(os.path.join(ROOT, "py"), os.path.join(holder, "solitaire"))
        sys.path.insert(0, holder)
