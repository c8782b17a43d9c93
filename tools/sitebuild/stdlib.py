"""The trimmed standard library: Pyodide's zip with only the modules the page, the solver's
worker and PyScript's package can import (tools/stdlib_trim.py does the work).

In: the vendored Pyodide (scanned under Node), our modules' imports and PyScript's core chunk.
Out: ``vendor/pyodide/python_stdlib_trimmed.zip`` in the site (the full zip under that name, with
a warning, when Node cannot run Pyodide), or a BuildError when a needed module is missing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import stdlib_trim

from sitebuild import config
from sitebuild.base import MAIN_MODULE, PACKAGE_DIR, SOLVER_MODULE, BuildError, copy_file, relative
from sitebuild.bytecode import _pyodide_id
from sitebuild.imports import import_closure
from sitebuild.vendor import FULL_STDLIB, STDLIB_URL


def stdlib_imports(py_dir: Path, core_chunk: str) -> dict[str, str]:
    """``{module: importer}``: every module imported by the page's and the solver worker's
    modules (their import closures) and by PyScript's ``pyscript`` package (from its core
    chunk), also inside functions."""
    found: dict[str, str] = {}
    ours = {*import_closure(py_dir, MAIN_MODULE), *import_closure(py_dir, SOLVER_MODULE)}
    for path in sorted(ours):
        rel = path.relative_to(py_dir.parent).with_suffix("")
        package = rel.name == "__init__"
        name = ".".join(rel.parent.parts if package else rel.parts)
        for module in stdlib_trim.source_imports(path.read_text("utf-8"), name, package):
            found.setdefault(module, relative(path, py_dir.parent))
    for file, source in stdlib_trim.pyscript_package(core_chunk).items():
        package = file.endswith("/__init__.py")
        name = file.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for module in stdlib_trim.source_imports(source, name, package):
            found.setdefault(module, f"{stdlib_trim.PYSCRIPT_IMPORTER}{file}")
    return found


def trim_stdlib(out: Path, root: Path, core_chunk: str) -> str:
    """Write the trimmed standard library to ``out/STDLIB_URL`` (tools/stdlib_trim.py); a
    warning when it cannot be made (Node cannot run the pinned Pyodide: the full zip is
    shipped under that name). Raises BuildError when a module that is needed is missing."""
    pyodide_dir = (root / "node_modules" / "pyodide").resolve()
    try:
        scan = stdlib_trim.scan(
            pyodide_dir,
            config.PYC_CACHE / _pyodide_id(pyodide_dir),
            config.NODE,
            config.NODE_TIMEOUT,
        )
    except (OSError, ValueError, KeyError, subprocess.SubprocessError) as exc:
        copy_file(pyodide_dir / FULL_STDLIB, out / STDLIB_URL)
        return f"full standard library: could not run Pyodide under Node ({exc})"
    try:
        needed_by_us = stdlib_imports(root / PACKAGE_DIR, core_chunk)
        kept, needed = stdlib_trim.trimmed_modules(scan, needed_by_us)
        stdlib_trim.check(scan.modules, kept, needed, scan.builtin)
    except stdlib_trim.TrimError as exc:
        raise BuildError(str(exc)) from exc
    (out / STDLIB_URL).write_bytes(
        stdlib_trim.write_zip(scan.stripped_zip, scan.modules, kept, scan.frozen)
    )
    return ""
