"""The library of the page benchmarks (bench_page.py, bench_boot_options.py, bench_phone.py, ...);
not a benchmark itself (``make bench`` runs bench/*.py files only). One module per concern:

- ``siteserve``: the built site (``_site/`` or ``$SOLITAIRE_SITE``) served next to bench/pages/
  (as /bench/) without writing into ``_site/``; ``variant_site()``, the site rebuilt by
  ``tools/build_site.py`` from a copy of the sources with some files changed, to measure a
  proposed change to index.html, web/ or the build;
- ``chrome``: Chromium launched exactly as the e2e tests launch it (e2e/harness.py), the
  script every bench page runs first, device profiles (CPU rate, network) and their emulation;
- ``boottime``: boot timing, navigation start -> ``<html data-app="ready">``, read in the page,
  for a first visit and the returning visitor's;
- ``moveplay``: move latency, clicks dispatched in the page, timed with performance.now();
- ``payload``: a cold boot's requests, their sizes raw and compressed, and the files the game
  does not need;
- ``pageedits``: index.html, web/pyodide-boot.mjs and web/style.css with one change made or
  undone, as text, for bench_boot_options.py's variants;
- ``stats``: statistics, sizes, the machine description and Markdown tables.

The benches import the installed package ``solitaire`` (``make dev``: an editable install in
``.venv``) and, from the checkout, tools/build_site.py and tools/serve.py and e2e/harness.py:
those two folders come from ``PYTHONPATH`` (``make bench`` sets it), never from ``sys.path``
edits in the code. A bench run without them stops with ``checkout_hint``'s message.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: How to run a bench so that everything it imports is found.
RUN_AS = (
    "run `PYTHONPATH=tools:e2e .venv/bin/python bench/{script}` from the checkout's root "
    "(or `make bench`); `make dev` creates .venv"
)


def checkout_hint(missing: ModuleNotFoundError) -> str:
    """The message a bench stops with when ``missing`` (an import of the package, of playwright
    or of a tools/ or e2e/ module) failed: the module and how to run the bench instead."""
    script = Path(sys.argv[0]).name or "NAME.py"
    return f"cannot import {missing.name!r}: {RUN_AS.format(script=script)}"
