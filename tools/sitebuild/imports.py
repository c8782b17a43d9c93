"""Our package's Python files and its import graph, read from the sources (``ast``).

In: the package folder ``py/solitaire/``. Out: the PyScript ``files`` map of every module, the
import closure of the page's module (what pyodide-files.json lists) and the modules the build's
memory snapshot may import (none that reaches a browser-only module).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from sitebuild.base import MAIN_MODULE, PACKAGE, PACKAGE_DIR, BuildError, relative, walk

#: Modules that must not be imported in the build's snapshot: PyScript's, which exist only on
#: the page, and Pyodide's JS side. A module of ours that imports one of these, or imports a
#: module of ours that does, is left for the page to import (snapshot_modules). `js` and
#: `pyodide.ffi` may be: the snapshot keeps a JS object that was reached from the global scope
#: by its path (`from js import document`: ["document"]) and the page's restore looks it up there
#: again (tools/make_boot_snapshot.mjs, which stands in for the page's globals Node lacks).
BROWSER_MODULES = ("pyodide_js", "polyscript", "_pyscript", "pyscript")


def python_files(py_dir: Path) -> dict[str, str]:
    """``{"./py/solitaire/X.py": "./solitaire/X.py", ...}``: the PyScript ``files`` map for
    the package folder ``py_dir``."""
    mapping: dict[str, str] = {}
    for path in walk(py_dir):
        if path.suffix == ".py":
            rel = relative(path, py_dir)
            mapping[f"./{PACKAGE_DIR}/{rel}"] = f"./{PACKAGE}/{rel}"
    return mapping


def _module_file(py_dir: Path, parts: list[str]) -> Path | None:
    """The file of module ``solitaire.<parts>`` in ``py_dir`` (module or package), if any."""
    base = py_dir.joinpath(*parts)
    for candidate in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def _imported_modules(py_dir: Path, path: Path) -> Iterator[list[str]]:
    """The modules of our package that ``path`` may import, as name parts under ``solitaire``.

    Every import statement counts, also inside functions or ``if`` blocks (a module imported
    late is still needed at run time); ``from .pkg import name`` yields ``pkg`` and, in case
    ``name`` is a submodule, ``pkg.name``.
    """
    package = list(path.relative_to(py_dir).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names = alias.name.split(".")
                if names[0] == PACKAGE:
                    yield names[1:]
        elif isinstance(node, ast.ImportFrom):
            names = node.module.split(".") if node.module else []
            if node.level:
                if node.level - 1 > len(package):
                    raise BuildError(f"{path}: relative import beyond the package")
                module = package[: len(package) - (node.level - 1)] + names
            elif names and names[0] == PACKAGE:
                module = names[1:]
            else:
                continue
            yield module
            for alias in node.names:
                yield [*module, alias.name]


def _files_run_by(py_dir: Path, path: Path) -> list[Path]:
    """The files of our package that importing ``path`` runs directly: the ``__init__.py`` of
    every package on the way (Python imports a module's parents first) and the modules it
    imports."""
    found = []
    parent = path.parent
    while parent != py_dir.parent:
        init = parent / "__init__.py"
        if init.is_file():
            found.append(init)
        if parent == py_dir:
            break
        parent = parent.parent
    for parts in _imported_modules(py_dir, path):
        module = _module_file(py_dir, parts)
        if module is not None:
            found.append(module)
    return found


def _import_graph(py_dir: Path, entry: str) -> dict[Path, list[Path]]:
    """Each file of ``import_closure(py_dir, entry)`` with the files it runs directly
    (_files_run_by): every file is read once."""
    graph: dict[Path, list[Path]] = {}
    todo = [py_dir / entry]
    while todo:
        path = todo.pop()
        if path in graph:
            continue
        graph[path] = _files_run_by(py_dir, path)
        todo.extend(graph[path])
    return graph


def import_closure(py_dir: Path, entry: str) -> list[Path]:
    """``py_dir/entry`` and every module of our package it imports, transitively, with the
    ``__init__.py`` of every package on the way (Python imports a module's parents first)."""
    return sorted(_import_graph(py_dir, entry))


def main_python_files(py_dir: Path, files: dict[str, str]) -> dict[str, str]:
    """The part of the ``files`` map that the page needs: ``MAIN_MODULE``'s import closure."""
    needed = {f"./{PACKAGE_DIR}/{relative(p, py_dir)}" for p in import_closure(py_dir, MAIN_MODULE)}
    return {url: path for url, path in files.items() if url in needed}


def _imports_browser_module(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] in BROWSER_MODULES for name in names):
            return True
    return False


def snapshot_modules(py_dir: Path) -> list[str]:
    """The modules of the page (``MAIN_MODULE``'s import closure) that the build's snapshot
    imports: those whose own import closure imports no BROWSER_MODULES (anywhere, also inside
    functions), as dotted names: today all of them. The page's start then skips unmarshalling
    and running them (0.19-0.25 s of a phone's first and return visit for the 11 modules that
    use `js`, docs/performance.md "Build-time snapshot")."""
    runs = _import_graph(py_dir, MAIN_MODULE)
    closure = sorted(runs)
    # a module is the browser's when it imports a browser module or runs one that is
    browser = {path for path in closure if _imports_browser_module(path)}
    grew = True
    while grew:
        more = {path for path in closure if browser.intersection(runs[path])} - browser
        browser |= more
        grew = bool(more)
    names = []
    for path in closure:
        if path in browser:
            continue
        parts = [PACKAGE, *path.relative_to(py_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return sorted(names)
