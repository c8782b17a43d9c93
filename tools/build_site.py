#!/usr/bin/env python3
"""Assemble the static site in ``_site/`` (standard library; zstd, where installed, packs the
build's memory snapshot: snapshot_compressor).

What goes in (see docs/build.md):

- ``index.html`` with the games' names, the game list (``<select>`` options) and the rules tabs
  and sections filled in from the game table, ``solitaire.rules.GAMES`` (its placeholders,
  ``<!-- build: NAME -->``: PAGE_PARTS);
- everything under ``web/``: ``web/sw.js`` (stamped),
  ``web/manifest.webmanifest`` and ``web/icons/`` are published at the site root (a service
  worker's and a manifest's scope is their folder), every other ``web/X`` at ``web/X``;
- every ``py/solitaire/**/*.py`` (served, and copied into the interpreter's file system as
  ``solitaire/**`` through the generated PyScript config), and its bytecode for the vendored
  Pyodide, ``py/solitaire/**/__pycache__/X.cpython-314.pyc``, compiled by that Pyodide under Node
  (cached in ``.cache/pyodide-pyc/``; sources only, with a warning, when Node cannot run it);
- the runtime files the browser really fetches, from the pinned npm packages in
  ``node_modules/``: five Pyodide files in ``vendor/pyodide/`` and PyScript's ``core.js``,
  its hashed core chunk and the plugin chunks it loads at boot in ``vendor/pyscript/`` (not
  ``core.css``: it only styles PyScript's own tags and editor/terminal, which the page has none of),
  and the zstd decoder ``fzstd`` in ``vendor/fzstd/`` (it unpacks the build's memory snapshot);
- ``pyscript.json`` (the page: interpreter ``web/pyodide-boot.mjs``, which starts Pyodide early,
  restores a memory snapshot when a visit saved one and writes the modules the page imports,
  listed in ``pyodide-files.json``, into the interpreter's file system; PyScript's plugins that
  the page does not use are turned off) and ``pyscript-worker.json`` (workers: the plain Pyodide
  module and every Python file in PyScript's ``files`` map);
- ``sw.js`` with the cache version (a hash of every other file), the precache list and each
  precached file's size and SHA-256 (the worker checks what it caches).

The stages are the modules of ``tools/sitebuild/`` (its docstring lists them); this script is
their command line, and it gathers the stages' names that tests and benchmarks use
(``build_site.build``, ``build_site.PAGE_ARCHIVE``, ...). What steers a build from outside (the
Node it runs, its caches, PyScript's patches) is set in ``sitebuild.config``: build_site reads
those knobs through to it and refuses to have one set on itself.

Usage: ``python tools/build_site.py [--out DIR] [--quiet] [--list] [--no-bytecode]
[--no-boot-snapshot] [--release LABEL]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import types
from pathlib import Path
from typing import Any

from sitebuild import config
from sitebuild.assemble import Site, build, summary
from sitebuild.base import MAIN_MODULE, PACKAGE_DIR, ROOT, BuildError
from sitebuild.boot import (
    BOOT_FILES,
    BOOT_PACKED_WASM_LINE,
    BOOT_SNAPSHOT_BYTES_LINE,
    BOOT_SNAPSHOT_LINE,
    BOOT_SNAPSHOT_SIZE_LINE,
    LOCKFILE_INFO_LINE,
    PACKED_WASM_BYTES_LINE,
    stamp_boot_module,
    stamp_boot_snapshot,
    stamp_packed_wasm,
)
from sitebuild.bytecode import (
    COMPILE_PYC_SCRIPT,
    PAGE_ARCHIVE,
    PYC_FLAVOUR,
    _hash_matches,
    _pyc_key,
    _pyodide_id,
    pack_bytecode,
    precompile,
    sourceless,
    with_bytecode,
)
from sitebuild.imports import _imports_browser_module, import_closure, snapshot_modules
from sitebuild.page import (
    FIRST_TABLES,
    PAGE_PARTS,
    RELEASE_MARK,
    check_package,
    first_tables,
    inline_html,
    page_parts,
    render_page,
    stamp_release,
)
from sitebuild.service_worker import file_integrity, site_version, stamp_service_worker
from sitebuild.snapshot import (
    BOOT_SNAPSHOT_FILE,
    PACKED_WASM,
    ZSTD_MAGIC,
    pack_snapshot,
    pack_wasm,
    unpack_snapshot,
)
from sitebuild.stdlib import stdlib_imports
from sitebuild.vendor import (
    EAGER_COMPILE_FILES,
    EAGER_COMPILE_HINT,
    FULL_STDLIB,
    FZSTD_CLASSIC_FILE,
    FZSTD_FILE,
    hint_eager_compile,
    patch_pyodide,
    patch_pyscript_core,
    pyscript_package_files,
)
from sitebuild.vendor_patches import (
    PYODIDE_LINKER_PATCHES,
    PYODIDE_LOADER_PATCHES,
    PYODIDE_NO_JSPI_PATCH,
    PYODIDE_SLEEP_PATCH,
    PYODIDE_SNAPSHOT_PATCHES,
    PYODIDE_TASK_PATCHES,
)

from solitaire.web.dealing import DEFAULT_GAME

# Every name of the stages that tests, e2e tests and benchmarks use as build_site.NAME.
__all__ = [
    "BOOT_FILES",
    "BOOT_PACKED_WASM_LINE",
    "BOOT_SNAPSHOT_BYTES_LINE",
    "BOOT_SNAPSHOT_FILE",
    "BOOT_SNAPSHOT_LINE",
    "BOOT_SNAPSHOT_SIZE_LINE",
    "COMPILE_PYC_SCRIPT",
    "DEFAULT_GAME",
    "EAGER_COMPILE_FILES",
    "EAGER_COMPILE_HINT",
    "FIRST_TABLES",
    "FULL_STDLIB",
    "FZSTD_CLASSIC_FILE",
    "FZSTD_FILE",
    "LOCKFILE_INFO_LINE",
    "MAIN_MODULE",
    "PACKAGE_DIR",
    "PACKED_WASM",
    "PACKED_WASM_BYTES_LINE",
    "PAGE_ARCHIVE",
    "PAGE_PARTS",
    "PYC_FLAVOUR",
    "PYODIDE_LINKER_PATCHES",
    "PYODIDE_LOADER_PATCHES",
    "PYODIDE_NO_JSPI_PATCH",
    "PYODIDE_SLEEP_PATCH",
    "PYODIDE_SNAPSHOT_PATCHES",
    "PYODIDE_TASK_PATCHES",
    "RELEASE_MARK",
    "ROOT",
    "ZSTD_MAGIC",
    "BuildError",
    "Site",
    "_hash_matches",
    "_imports_browser_module",
    "_pyc_key",
    "_pyodide_id",
    "build",
    "file_integrity",
    "first_tables",
    "hint_eager_compile",
    "import_closure",
    "inline_html",
    "pack_bytecode",
    "pack_snapshot",
    "pack_wasm",
    "page_parts",
    "patch_pyodide",
    "patch_pyscript_core",
    "precompile",
    "pyscript_package_files",
    "render_page",
    "site_version",
    "snapshot_modules",
    "sourceless",
    "stamp_boot_module",
    "stamp_boot_snapshot",
    "stamp_packed_wasm",
    "stamp_release",
    "stamp_service_worker",
    "stdlib_imports",
    "summary",
    "unpack_snapshot",
    "with_bytecode",
]


def __getattr__(name: str) -> Any:
    """A knob (sitebuild.config.KNOBS), read through to sitebuild.config: build_site keeps no
    copy, so that it always says what the stages will use."""
    if name in config.KNOBS:
        return getattr(config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _EntryModule(types.ModuleType):
    """build_site's module type: a knob set here would reach no stage (each reads
    sitebuild.config), so setting one fails and says where it goes."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in config.KNOBS:
            raise AttributeError(
                f"build_site.{name} is read from sitebuild.config: set config.{name} there"
            )
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _EntryModule


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=None, help="output folder (default _site/)")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    parser.add_argument("--list", action="store_true", help="also list every file built")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="ship the Python sources only (no .pyc)"
    )
    parser.add_argument(
        "--no-boot-snapshot",
        action="store_true",
        help="ship no memory snapshot for the first visit",
    )
    parser.add_argument(
        "--release",
        default=os.environ.get("SOLITAIRE_RELEASE", ""),
        help='label in index.html\'s <meta name="release"> (default $SOLITAIRE_RELEASE or "dev")',
    )
    args = parser.parse_args(argv)
    try:
        check_package()
        site = build(
            args.out,
            bytecode=not args.no_bytecode,
            release=args.release,
            boot_snapshot=not args.no_boot_snapshot,
        )
    except BuildError as exc:
        print(f"build_site: error: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(summary(site))
        if args.list:
            for rel in site.files:
                print(f"    {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
