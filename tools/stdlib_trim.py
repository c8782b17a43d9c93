"""The trimmed standard library that the site's interpreters load instead of Pyodide's
``python_stdlib.zip`` (docs/build.md, "Trimmed standard library").

Pyodide's zip holds the whole standard library as sources (614 files). The page, the solver's
worker and the snapshot worker import a fraction of it. The build keeps only:

- what Pyodide's own start-up imports (START_ROOTS: CPython's init and Pyodide's C and JS
  side import these by name) and every module of Pyodide's ``_pyodide`` and ``pyodide``
  packages;
- the standard-library modules that our page's and our solver worker's modules import
  (``solitaire.web.app``'s and ``solitaire.web.solver_worker``'s import closures: every import
  statement, also inside functions), and those of PyScript's ``pyscript`` package, which
  PyScript writes into the interpreter from its core chunk;
- transitively, every module that importing one of those runs: the import statements a
  module executes when it is imported (module level, class bodies, ``try``/``if`` blocks; not
  ``if __name__ == "__main__"``, ``if TYPE_CHECKING`` nor ``if sys.platform == "win32"`` and
  the like: KNOWN_FALSE). Imports inside the standard library's functions are not followed:
  following them pulls in nearly all of it (``_sitebuiltins`` -> ``pydoc`` -> ``http.server``
  ...: 295 modules, 5.9 MB). LAZY_ROOTS lists the lazily imported modules that the page does
  use.

The import table is read with the vendored Pyodide's own ``ast`` (its stdlib is Python 3.14,
which the build's Python may not parse), under Node, and kept in the bytecode cache. Sources are
shipped with their comments and the text of their docstrings removed (lines kept, so that
tracebacks point at the right line): 0.54 MB instead of 0.88 MB compressed. Bytecode was
measured and rejected: 1.68 MB.

:func:`check` fails the build, naming the module, when a module our code or the start-up needs
is not in the trimmed zip.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: The site's trimmed zip, next to Pyodide's (its folder is Pyodide's ``indexURL``); the page,
#: the solver's worker and the snapshot worker pass it as ``stdLibURL`` to ``loadPyodide``.
TRIMMED_NAME = "python_stdlib_trimmed.zip"

#: Modules imported by name at start-up, not through an import statement of a shipped module.
START_ROOTS = (
    # CPython's init: the codec registry (encodings, imported by C), the file system encoding's
    # codec (UTF-8), ``site`` (imported unless -S) and what ``importlib`` needs to import zips.
    "encodings",
    "encodings.utf_8",
    "site",
    "zipimport",
    # Pyodide's JS side (pyodide.asm.mjs: importlib.import_module / pyimport / runPython):
    # importlib, sys, os, __main__, builtins, functools (PyProxy sort), and its packages below.
    "importlib",
    "os",
    "functools",
    # Pyodide's C side imports these by name (strings in pyodide.asm.wasm).
    "_pyodide._importhook",
    "_pyodide.docstring",
    "_pyodide._core_docs",
    "_pyodide.jsbind",
    "_pyodide._future_helper",
    # PyScript's set-up code (its core chunk, run before the ``pyscript`` package is written):
    # ``import os as _os`` and ``from pathlib import Path as _Path``.
    "pathlib",
)
#: Whole packages that are Pyodide's own: every module of them is kept (its JS side imports
#: ``pyodide``, ``pyodide.code``, ``pyodide.ffi``, ``pyodide._package_loader``,
#: ``_pyodide._base`` by name, and the rest is its public API).
ROOT_PACKAGES = ("_pyodide", "pyodide")
#: Codecs looked up by name at run time (``codecs.lookup`` imports ``encodings.<name>``): the
#: ones CPython and Python code ask for in the page: ASCII and Latin-1 (``locale``'s C locale,
#: ``bytes.decode("latin-1")``) and UTF-8 with a BOM (``tokenize``, hence tracebacks).
CODEC_ROOTS = ("encodings.ascii", "encodings.latin_1", "encodings.utf_8_sig")
#: Imports made inside standard-library functions that the page or the workers run (the only
#: kind of import not followed): none found so far (the e2e tests run every feature on the
#: trimmed zip: e2e/test_ui_trimmed_runtime.py).
LAZY_ROOTS: tuple[str, ...] = ()
#: Modules that are no file of the zip: provided by the JS side at run time
#: (``register_js_module``: Pyodide's ``js``, ``pyodide_js``; PyScript's ``polyscript``,
#: ``_pyscript``) or compiled into the interpreter (sys.builtin_module_names, read from Pyodide).
JS_MODULES = ("js", "pyodide_js", "polyscript", "_pyscript")
#: ``if`` tests that are false in Pyodide (sys.platform is "emscripten", os.name "posix"):
#: the body's imports are not followed (its ``else`` is).
KNOWN_FALSE = (
    "__name__ == '__main__'",
    "TYPE_CHECKING",
    "typing.TYPE_CHECKING",
    "sys.platform == 'win32'",
    "_sys.platform == 'win32'",
    "os.name == 'nt'",
    "_os.name == 'nt'",
    "sys.platform == 'darwin'",
    "sys.platform.startswith('win')",
)


#: How :func:`trimmed_modules`'s callers name an import of PyScript's package ("PyScript's
#: pyscript/x.py"): modules absent from the full zip are not required of it.
PYSCRIPT_IMPORTER = "PyScript's "


class TrimError(Exception):
    """A module that is needed is missing from the trimmed standard library."""


@dataclass
class Module:
    """A module of the zip: its file, whether it is a package, and its imports."""

    path: str
    package: bool
    imports: list[tuple[str, bool]]  # (module name, inside a function)


#: Run by Node (its head comment says what it reads and writes); its text is part of the cache
#: key, so a change to it scans again.
SCAN_SCRIPT = Path(__file__).resolve().with_name("stdlib_scan.mjs")


@dataclass
class Scan:
    """The import table of Pyodide's stdlib zip and its stripped copy."""

    modules: dict[str, Module]
    builtin: frozenset[str]
    #: modules compiled into the interpreter as frozen bytecode (os, site, codecs, zipimport,
    #: importlib._bootstrap...): the import system finds them before any zip, so their files
    #: need not ship (read from Pyodide: ``_imp.is_frozen``)
    frozen: frozenset[str]
    stripped_zip: Path  # every file of the zip, sources stripped (STRIP)


def _scan_key() -> str:
    script = SCAN_SCRIPT.read_text(encoding="utf-8")
    return hashlib.sha256((script + json.dumps(KNOWN_FALSE)).encode()).hexdigest()[:16]


def run_node(node: str, args: list[str], timeout: float) -> str:
    """Run a Node script of the build (``args``: the script and its arguments) and return its
    standard output; ValueError with the last lines of its output when it exits non-zero
    (OSError, subprocess.TimeoutExpired when it cannot run)."""
    done = subprocess.run(
        [node, *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        tail = [line for line in lines if len(line) < 300][-3:]  # not minified JS
        raise ValueError(f"{node} exited with {done.returncode}: " + " | ".join(tail))
    return done.stdout


def scan(pyodide_dir: Path, cache: Path, node: str, timeout: float) -> Scan:
    """The import table of ``pyodide_dir``'s stdlib zip, read by that Pyodide under Node
    (kept in ``cache``, a folder per Pyodide build). Raises OSError, ValueError or
    subprocess errors when Node cannot run it."""
    key = _scan_key()
    table_file = cache / f"stdlib-imports-{key}.json"
    zip_file = cache / f"stdlib-stripped-{key}.zip"
    if not (table_file.is_file() and zip_file.is_file()):
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="solitaire-stdlib-") as tmp:
            work = Path(tmp)
            run_node(
                node,
                [
                    str(SCAN_SCRIPT),
                    str(pyodide_dir),
                    json.dumps(KNOWN_FALSE),
                    str(work / "table.json"),
                    str(work / "stripped.zip"),
                ],
                timeout,
            )
            # atomically: builds may run in parallel
            (work / "table.json").replace(table_file.with_suffix(".tmp"))
            table_file.with_suffix(".tmp").replace(table_file)
            (work / "stripped.zip").replace(zip_file.with_suffix(".tmp"))
            zip_file.with_suffix(".tmp").replace(zip_file)
    raw = json.loads(table_file.read_text(encoding="utf-8"))
    modules = {
        name: Module(path, bool(pkg), [(str(m), bool(lazy)) for m, lazy in found])
        for name, (path, pkg, found) in raw["modules"].items()
    }
    return Scan(modules, frozenset(raw["builtin"]), frozenset(raw["frozen"]), zip_file)


def source_imports(source: str, name: str, is_package: bool = False) -> list[str]:
    """Every module that the source of module ``name`` imports (also inside functions: our own
    code and PyScript's are followed whole), absolute names."""
    package = name if is_package else name.rpartition(".")[0]
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append(module)
            found.extend(f"{module}.{a.name}" for a in node.names if a.name != "*")
    return found


def pyscript_package(core_chunk: str) -> dict[str, str]:
    """``{"pyscript/x.py": source}``: the ``pyscript`` package as PyScript's core chunk writes
    it into the interpreter (a JS object literal ``{pyscript:{"__init__.py":"...",...}}``, whose
    inner object is JSON)."""
    marker = "{pyscript:"
    start = core_chunk.find(marker + '{"__init__.py":')
    if start < 0:
        raise TrimError("PyScript's core chunk no longer holds its pyscript package as expected")
    try:
        files, _ = json.JSONDecoder().raw_decode(core_chunk, start + len(marker))
    except ValueError as exc:
        raise TrimError(f"PyScript's pyscript package cannot be read: {exc}") from exc
    if not all(isinstance(v, str) and re.fullmatch(r"\w+\.py", k) for k, v in files.items()):
        raise TrimError("PyScript's pyscript package holds more than modules")
    return {f"pyscript/{name}": source for name, source in files.items()}


def closure(modules: Mapping[str, Module], roots: Iterable[str]) -> set[str]:
    """``roots`` (the ones that are modules of the zip), their parent packages and every module
    of the zip that importing them runs, transitively (imports inside functions are not)."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        parts = todo.pop().split(".")
        for i in range(1, len(parts) + 1):
            name = ".".join(parts[:i])
            if name in modules and name not in seen:
                seen.add(name)
                todo.extend(m for m, lazy in modules[name].imports if not lazy)
    return seen


def check(
    modules: Mapping[str, Module],
    kept: set[str],
    needed: Mapping[str, str],
    builtin: Iterable[str],
    provided: Iterable[str] = JS_MODULES,
) -> None:
    """Raise TrimError naming each module of ``needed`` ({module: who needs it}) that the
    trimmed zip (``kept``) lacks, unless the interpreter has it built in or the JS side
    provides it. ``from pkg import name`` also lists ``pkg.name``, which may be a name, not a
    module (``from collections.abc import Callable``: ``collections.abc`` is no file either,
    ``collections`` makes it): a dotted name counts as a module only when the full zip has it
    or no prefix of it is a module that is there."""
    have = set(builtin) | set(provided) | kept
    missing = []
    for name, who in sorted(needed.items()):
        parts = name.split(".")
        if parts[0] in set(builtin) | set(provided) or name in have:
            continue
        if name not in modules and any(
            ".".join(parts[:i]) in have for i in range(len(parts) - 1, 0, -1)
        ):
            continue  # a name in a module that is there, not a module of the zip
        missing.append(f"{name} (imported by {who})")
    if missing:
        raise TrimError(
            "the trimmed standard library lacks modules that are imported: "
            + "; ".join(missing)
            + " (add the importer's module to the roots in tools/stdlib_trim.py)"
        )


def trimmed_modules(scan_result: Scan, ours: Mapping[str, str]) -> tuple[set[str], dict[str, str]]:
    """The modules to keep, and every module that must be there ({module: who needs it}),
    for ``ours`` ({imported module: importer}, our code's and PyScript's imports)."""
    modules = scan_result.modules
    package_modules = [m for m in modules if m.split(".")[0] in ROOT_PACKAGES]
    roots = [*START_ROOTS, *CODEC_ROOTS, *LAZY_ROOTS, *package_modules]
    needed = dict.fromkeys(roots, "the start-up (tools/stdlib_trim.py roots)")
    for name, who in ours.items():
        top = name.split(".")[0]
        if top == "pyscript" or top == "solitaire":
            continue  # not of the standard library
        if who.startswith(PYSCRIPT_IMPORTER) and name not in modules:
            continue  # PyScript's MicroPython alternatives (uio, jsffi...), in try blocks
        needed.setdefault(name, who)
    kept = closure(modules, needed)
    # Every import that a kept module runs when imported must be there too (unless it is one
    # that is missing from Pyodide's full zip as well: optional, guarded by try/except).
    for name in sorted(kept):
        for imported, lazy in modules[name].imports:
            if not lazy and imported in modules:
                needed.setdefault(imported, name)
    return kept, needed


def write_zip(
    stripped_zip: Path, modules: Mapping[str, Module], kept: set[str], frozen: Iterable[str] = ()
) -> bytes:
    """The trimmed zip: the kept modules' stripped sources, deflated (level 9), in a fixed
    order with fixed times (the same bytes for the same input); the ``frozen`` ones are left
    out (the interpreter has them already)."""
    paths = sorted(modules[name].path for name in kept - set(frozen))
    out = io.BytesIO()
    with (
        zipfile.ZipFile(stripped_zip) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target,
    ):
        for path in paths:
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, source.read(path))
    return out.getvalue()
