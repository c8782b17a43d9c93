"""What every stage of the build shares: the checkout's paths, the names of our package and its
modules, PyScript's boot plugins, BuildError and small file helpers.

In: nothing (constants; the helpers take paths). Out: the names the stages import; no stage
state lives here (the knobs a caller may change are in sitebuild.config).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

#: The checkout: tools/sitebuild/ is two levels below it.
ROOT = Path(__file__).resolve().parent.parent.parent
#: The solver's worker's module (web/solver-worker.mjs imports it), relative to the package.
SOLVER_MODULE = "web/solver_worker.py"
#: Plugins that PyScript's core imports on every boot unless the config turns them off
#: (``"plugins": ["!name"]``; measured in Chromium).
PYSCRIPT_BOOT_PLUGINS = (
    "error",
    "deprecations-manager",
    "donkey",
    "py-editor",
    "py-game",
    "py-terminal",
)

#: The module the page runs (index.html: ``from solitaire.web.app import main``), relative to
#: the package folder. pyodide-files.json lists only it and what it imports, transitively.
MAIN_MODULE = "web/app.py"
#: The name of our package, and its folder in the repository (and in the site).
PACKAGE = "solitaire"
PACKAGE_DIR = "py/solitaire"
#: Where the interpreter's working directory is in the browser (the files maps' "./" paths).
PYODIDE_HOME = "/home/pyodide"


class BuildError(Exception):
    """A readable reason why the site cannot be built."""


def relative(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def walk(folder: Path) -> Iterator[Path]:
    """Regular files under ``folder``, sorted, skipping hidden files and caches."""
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if any(p.startswith(".") or p == "__pycache__" for p in parts):
            continue
        if path.is_file():
            yield path


def copy_file(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def npm_version(package_dir: Path) -> str:
    meta = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
    return str(meta["version"])


def write_atomic(path: Path, data: bytes) -> None:
    """Writes a file under a temporary name, then renames it: parallel builds share the caches,
    and none may read a file half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    part.write_bytes(data)
    part.replace(path)
