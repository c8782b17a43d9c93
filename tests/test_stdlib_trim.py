"""tools/stdlib_trim.py: the trimmed standard library holds the import closure of our page's
and solver worker's modules and of Pyodide's start-up, and the build fails, naming the module,
when one of them is missing."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import build_site
import pytest
import stdlib_trim
from stdlib_trim import Module

ROOT = Path(__file__).resolve().parent.parent

TABLE = {
    "json": Module("json/__init__.py", True, [("json.decoder", False), ("json.tool", True)]),
    "json.decoder": Module("json/decoder.py", False, [("re", False)]),
    "json.tool": Module("json/tool.py", False, [("argparse", False)]),
    "re": Module("re/__init__.py", True, [("enum", False)]),
    "enum": Module("enum.py", False, []),
    "argparse": Module("argparse.py", False, []),
}


def test_the_closure_follows_what_importing_runs_not_imports_inside_functions() -> None:
    assert stdlib_trim.closure(TABLE, ["json"]) == {"json", "json.decoder", "re", "enum"}


def test_the_check_names_a_needed_module_that_is_missing() -> None:
    kept = stdlib_trim.closure(TABLE, ["json"])
    needed = {"json": "solitaire/web/app.py", "json.loads": "solitaire/web/app.py"}
    stdlib_trim.check(TABLE, kept, needed, builtin=["sys"])  # a name in a module is fine
    with pytest.raises(stdlib_trim.TrimError, match=r"re \(imported by json\.decoder\)"):
        stdlib_trim.check(TABLE, kept - {"re"}, {**needed, "re": "json.decoder"}, ["sys"])
    with pytest.raises(stdlib_trim.TrimError, match=r"nosuch \(imported by solitaire/x\.py\)"):
        stdlib_trim.check(TABLE, kept, {"nosuch": "solitaire/x.py"}, ["sys"])
    stdlib_trim.check(TABLE, kept, {"js.document": "solitaire/web/dom.py"}, ["sys"])


@pytest.fixture(scope="module")
def real() -> tuple[stdlib_trim.Scan, set[str], dict[str, str]]:
    """The vendored Pyodide's stdlib, scanned (by Pyodide under Node, cached), and trimmed."""
    pyodide_dir = (ROOT / "node_modules" / "pyodide").resolve()
    cache = build_site.PYC_CACHE / build_site._pyodide_id(pyodide_dir)
    try:
        scan = stdlib_trim.scan(pyodide_dir, cache, build_site.NODE, build_site.NODE_TIMEOUT)
    except (OSError, ValueError) as exc:
        pytest.skip(f"Pyodide cannot run under Node here: {exc}")
    core = ROOT / "node_modules/@pyscript/core/dist" / build_site.PYSCRIPT_CORE_PATCH[0]
    ours = build_site.stdlib_imports(ROOT / build_site.PACKAGE_DIR, core.read_text("utf-8"))
    kept, needed = stdlib_trim.trimmed_modules(scan, ours)
    return scan, kept, needed


def test_the_trimmed_zip_holds_the_closure_of_our_imports_and_the_start_up(
    real: tuple[stdlib_trim.Scan, set[str], dict[str, str]],
) -> None:
    scan, kept, needed = real
    stdlib_trim.check(scan.modules, kept, needed, scan.builtin)
    for name in ("json", "random", "dataclasses", "asyncio", "encodings.utf_8", "site"):
        assert name in kept  # imported by our modules or at start-up
        assert name in needed
    assert "pydoc" not in kept  # only reached from inside functions
    assert "email" not in kept
    data = stdlib_trim.write_zip(scan.stripped_zip, scan.modules, kept, scan.frozen)
    with zipfile.ZipFile(io.BytesIO(data)) as trimmed:
        names = set(trimmed.namelist())
    assert names == {scan.modules[m].path for m in kept - scan.frozen}
    # the interpreter's frozen modules are imported at every start and never read from a zip
    assert {"os", "site", "codecs", "zipimport", "importlib._bootstrap"} <= scan.frozen
    assert "os.py" not in names
    assert "json/__init__.py" in names


def test_removing_a_needed_module_fails_the_check(
    real: tuple[stdlib_trim.Scan, set[str], dict[str, str]],
) -> None:
    scan, kept, needed = real
    for name in ("json", "encodings.utf_8", "heapq"):
        with pytest.raises(stdlib_trim.TrimError, match=rf"{name} \(imported by"):
            stdlib_trim.check(scan.modules, kept - {name}, needed, scan.builtin)


def test_pyscript_package_reads_every_module_of_the_core_chunk() -> None:
    """PyScript's package as its core chunk holds it (a JS object literal of sources): all of
    its modules, also those after a source that holds ``}}`` (which once ended the scan early,
    leaving six modules' imports out of the trimmed zip's closure)."""
    chunk = build_site.ROOT / "node_modules/@pyscript/core/dist" / build_site.PYSCRIPT_CORE_PATCH[0]
    files = stdlib_trim.pyscript_package(chunk.read_text(encoding="utf-8"))
    assert {"pyscript/__init__.py", "pyscript/web.py", "pyscript/workers.py"} <= set(files)
    assert "class _ReadOnlyWorkersProxy" in files["pyscript/workers.py"]
    made = 'x=1,wo(".",{pyscript:{"__init__.py":"d = {1: {2: 3}}\\n","b.py":"y = \'}}\'"}}),z'
    assert stdlib_trim.pyscript_package(made) == {
        "pyscript/__init__.py": "d = {1: {2: 3}}\n",
        "pyscript/b.py": "y = '}}'",
    }
    with pytest.raises(stdlib_trim.TrimError, match="no longer holds"):
        stdlib_trim.pyscript_package("no package here")
    with pytest.raises(stdlib_trim.TrimError, match="cannot be read"):
        stdlib_trim.pyscript_package('{pyscript:{"__init__.py":"unterminated')
    with pytest.raises(stdlib_trim.TrimError, match="more than modules"):
        stdlib_trim.pyscript_package('{pyscript:{"__init__.py":"","sub":{"a.py":""}}}')
