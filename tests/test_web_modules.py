"""Our own JavaScript parses, and the interpreter module's parts load in one round.

Nothing else of the unit tests runs the files of ``web/``; the e2e tests do, but only once a
site is built and a browser runs it (the build's Node modules in ``tools/`` only when a build
runs them). ``node --check`` parses a file without running it: every
ES module (``web/**/*.mjs``) as a module, every classic script (``web/**/*.js``: the service
worker, the loading screen, the scripts of the page's <head>) as a script.

The interpreter module (web/pyodide-boot.mjs) is split into modules under ``web/boot/``. The
browser learns of a module's imports only once it has the module, so each of them is imported
by the entry itself, and they import only each other: all are fetched in the round after the
entry, none later.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
ENTRY = WEB / "pyodide-boot.mjs"
BOOT = WEB / "boot"
NODE = shutil.which("node")
#: The module specifier of each static import of a module: ``import ... from "x"``,
#: ``export ... from "x"`` and ``import "x"``.
STATIC_IMPORT = re.compile(
    r'^(?:(?:import|export)\b[^;"]*?\bfrom\s+|import\s+)"([^"]+)";', re.MULTILINE
)
#: A dynamic import of a neighbour, which the browser would fetch only when it runs.
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["'`]\./""")


def scripts() -> list[Path]:
    """The page's scripts and modules, and the Node modules of the build (tools/)."""
    page = [p for p in WEB.rglob("*") if p.suffix in (".js", ".mjs") and p.is_file()]
    return sorted(page + list((ROOT / "tools").rglob("*.mjs")))


def node_check(path: Path) -> subprocess.CompletedProcess[str]:
    """``node --check`` of one file: .mjs parsed as an ES module, .js as a script. From stdin
    with ``--input-type``: given a file, Node parses a .js with ``export`` in it as a module."""
    if NODE is None:
        pytest.fail("node is not on PATH (the build needs it too)")
    kind = "module" if path.suffix == ".mjs" else "commonjs"
    return subprocess.run(
        [NODE, f"--input-type={kind}", "--check"],
        input=path.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def imports_of(path: Path) -> list[str]:
    return STATIC_IMPORT.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", scripts(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_each_script_parses(path: Path) -> None:
    result = node_check(path)
    assert result.returncode == 0, f"{path.relative_to(ROOT)}:\n{result.stderr}"


def test_the_check_fails_on_a_syntax_error(tmp_path: Path) -> None:
    """The check above can fail: a module with a syntax error, and a script with an ``export``
    (a classic script cannot have one), are refused."""
    module = tmp_path / "broken.mjs"
    module.write_text('export const x = ;\nimport { y } from "./y.mjs";\n', encoding="utf-8")
    script = tmp_path / "module-as-script.js"
    script.write_text("export const x = 1;\n", encoding="utf-8")
    for path in (module, script):
        result = node_check(path)
        assert result.returncode != 0
        assert "SyntaxError" in result.stderr


def test_the_parts_of_the_interpreter_module_are_found_in_one_round() -> None:
    """Each module of web/boot/ is imported statically by web/pyodide-boot.mjs and imports only
    its neighbours in web/boot/, none of them on demand."""
    parts = sorted(p.name for p in BOOT.glob("*.mjs"))
    assert parts, "web/boot/ holds no module"
    entry = {spec for spec in imports_of(ENTRY) if spec.startswith("./boot/")}
    assert entry == {f"./boot/{name}" for name in parts}
    for name in parts:
        source = (BOOT / name).read_text(encoding="utf-8")
        for spec in imports_of(BOOT / name):
            assert re.fullmatch(r"\./[a-z-]+\.mjs", spec), f"web/boot/{name} imports {spec}"
            assert spec.removeprefix("./") in parts, f"web/boot/{name} imports {spec}"
        assert not DYNAMIC_IMPORT.search(source), f"web/boot/{name} imports a neighbour late"


def test_the_page_preloads_what_the_interpreter_module_imports() -> None:
    """index.html starts web/pyodide-boot.mjs from its <head>; a ``modulepreload`` for each of
    its static imports fetches them along with it instead of one round trip later."""
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    wanted = {
        (ENTRY.parent / spec).resolve().relative_to(ROOT).as_posix() for spec in imports_of(ENTRY)
    }
    assert wanted, "web/pyodide-boot.mjs imports nothing"
    assert preloaded == wanted


def test_the_import_patterns_read_every_form_of_an_import() -> None:
    text = (
        'import {\n  a,\n  b,\n} from "./a.mjs";\nexport { c } from "./c.mjs";\n'
        'import * as d from "../d.mjs";\nimport "./e.mjs";\nexport const f = 1;\n'
        'const g = `import x from "./no.mjs";`;\n'
    )
    assert STATIC_IMPORT.findall(text) == ["./a.mjs", "./c.mjs", "../d.mjs", "./e.mjs"]
    assert DYNAMIC_IMPORT.search('const h = () => import("./h.mjs");')
    assert not DYNAMIC_IMPORT.search("const zstd = () => import(FZSTD_URL);")
