"""The knobs of a build: the values a test or a benchmark may change to steer one.

In: ``$SOLITAIRE_BUILD_NODE`` and the defaults below (PyScript's patches from
sitebuild.vendor_patches). Out: the values every stage reads as ``config.NAME`` at the time it
runs, never a copy bound at import, so that ``monkeypatch.setattr(config, "NODE", ...)`` or a
benchmark's variant (bench/benchlib/siteserve.py, variant_site) reaches the stage that uses it.
build_site reads each of KNOBS through to here, and refuses to have one set on itself.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from typing import Any

from sitebuild import vendor_patches
from sitebuild.base import PYSCRIPT_BOOT_PLUGINS, ROOT

#: The names below that a caller may set (tests/test_build_site.py checks that no other stage
#: module holds one of them).
KNOBS = (
    "NODE",
    "NODE_TIMEOUT",
    "PYC_CACHE",
    "PACKED_WASM_CACHE",
    "BOOT_SNAPSHOT_CACHE",
    "PYSCRIPT_PLUGINS_OFF",
    "PYSCRIPT_CORE_PATCH",
    "PYSCRIPT_SETUP_PATCH",
    "PYSCRIPT_LAZY_PACKAGE",
    "MAIN_INTERPRETER_URL",
    "snapshot_compressor",
)
#: The Node.js that runs the pinned Pyodide at build time (bytecode, the standard library's scan,
#: the memory snapshot): ``$SOLITAIRE_BUILD_NODE``, default ``node`` on the PATH.
NODE = os.environ.get("SOLITAIRE_BUILD_NODE", "node")
#: Seconds that Node may take to start Pyodide and compile everything.
NODE_TIMEOUT = 300
#: Compiled files, kept between builds, keyed by Pyodide version, path and source bytes (so a
#: build of another copy of the sources, such as the e2e tests' or a benchmark variant's, reuses
#: them); gitignored. Always the repository's own, whatever ``root`` a build reads.
PYC_CACHE = ROOT / ".cache" / "pyodide-pyc"
#: Packed wasms kept between builds, keyed by the wasm's bytes (zstd -19 takes ~4 s).
PACKED_WASM_CACHE = ROOT / ".cache" / "pyodide-packed-wasm"
#: Snapshots kept between builds, keyed by what makes them (gitignored, as PYC_CACHE).
BOOT_SNAPSHOT_CACHE = ROOT / ".cache" / "pyodide-boot-snapshot"
#: The page turns all of PyScript's boot plugins (base.PYSCRIPT_BOOT_PLUGINS) off in
#: pyscript.json: tags and helpers it does not use (code editor, pygame, terminal, the ``donkey``
#: helper, warnings about CDN URLs) and ``error``, which would append Python's error output to the
#: page's body (the page shows its own boot errors, and its body never scrolls to such a box).
#: PyScript imports ``error`` even when it is turned off, only to call its ``notOnDOM()``; the
#: build removes that import (PYSCRIPT_CORE_PATCH).
PYSCRIPT_PLUGINS_OFF = PYSCRIPT_BOOT_PLUGINS
#: The two changes to PyScript's core chunk (sitebuild.vendor_patches); a benchmark builds the
#: chunk as published by setting them here.
PYSCRIPT_CORE_PATCH = vendor_patches.PYSCRIPT_CORE_PATCH
PYSCRIPT_SETUP_PATCH = vendor_patches.PYSCRIPT_SETUP_PATCH
#: Whether the build applies PYSCRIPT_SETUP_PATCH and brings PyScript's package in the page
#: archive instead. False: the chunk's set-up as published (benchmarks).
PYSCRIPT_LAZY_PACKAGE = True
#: The page's interpreter module, in pyscript.json (sitebuild.boot.INTERPRETER_URL: the
#: workers'): web/pyodide-boot.mjs, which starts Pyodide early and restores a memory snapshot.
MAIN_INTERPRETER_URL = "./web/pyodide-boot.mjs"


def snapshot_compressor() -> Any | None:
    """The zstd module that compresses the build's snapshot: Python 3.14's
    ``compression.zstd``, else the ``backports.zstd`` package (the project's ``site`` extra,
    which ``make site`` installs); None without either (the snapshot is then gzipped)."""
    for name in ("compression.zstd", "backports.zstd"):
        with contextlib.suppress(ImportError):
            return importlib.import_module(name)
    return None
