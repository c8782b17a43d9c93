"""Proves the build and the browser harness: MIME types, configs, the service worker stamp, and
a probe page that boots the vendored Pyodide through PyScript, fetching exactly the runtime
files the build ships, nothing from the network, with no console error; then plays offline."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shutil
import tarfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import urlopen

import build_site
import pytest
from conftest import OfflineSite
from harness import BOOT_TIMEOUT_MS, Watch, origin, wait_ready
from playwright.sync_api import Locator, Page
from serve import SiteServer
from sitebuild import config

# A page like index.html, reduced to what the harness needs: the early start of Pyodide, PyScript
# with our config, a check that the package is where Python imports it from, and the ready flag.
PROBE_PAGE = """<!doctype html>
<html lang="en" data-app="loading">
<head>
  <meta charset="utf-8">
  <title>harness probe</title>
  <link rel="icon" href="icons/icon.svg" type="image/svg+xml">
  <link rel="modulepreload" href="vendor/pyodide/pyodide.mjs">
  <script type="module" src="web/pyodide-boot.mjs" async></script>
  <script type="module" src="vendor/pyscript/core.js"></script>
  <mpy-config hidden>{"plugins": ["!error", "!deprecations-manager", "!donkey", "!py-editor",
    "!py-game", "!py-terminal"]}</mpy-config>
  <script src="web/register-sw.js" defer></script>
</head>
<body>
<script type="py" config="pyscript.json">
import importlib.util, json, os, sys, time
from importlib.machinery import SourceFileLoader
import js
files = sorted(
    os.path.join(d, f) for d, _, fs in os.walk("solitaire") for f in fs
    if f.endswith((".py", ".pyc"))
)
spec = importlib.util.find_spec("solitaire")
root = js.document.documentElement
# The page archive brought PyScript's pyscript package, which PyScript's set-up no longer
# writes and imports on the main thread (tools/build_site.py PYSCRIPT_SETUP_PATCH): the
# page's start-up does not need it.
root.dataset.pyscript = json.dumps(
    ["pyscript" in sys.modules, os.path.isfile("pyscript/__init__.py")]
)
root.dataset.python = sys.version.split()[0]
root.dataset.files = json.dumps(files)
root.dataset.package = spec.origin if spec else ""
# Import what the page imports, recording every module compiled from its source instead of
# loaded from the shipped bytecode (tools/build_site.py PRECOMPILE).
compiled = []
to_code = SourceFileLoader.source_to_code
def spy(self, data, path, *args, **kwargs):
    compiled.append(path)
    return to_code(self, data, path, *args, **kwargs)
SourceFileLoader.source_to_code = spy
start = time.perf_counter()
import solitaire.web.app
root.dataset.importMs = str(round((time.perf_counter() - start) * 1000))
SourceFileLoader.source_to_code = to_code
root.dataset.compiled = json.dumps(compiled)
root.dataset.cached = json.dumps(sorted(
    m.__cached__ for n, m in sys.modules.items() if n.startswith("solitaire")
))
# Line numbers and docstrings of the shipped bytecode (docstrings blanked by the build): the
# first line of every function of the page's modules, and where a raised exception says it was.
import inspect, traceback
from solitaire.piles import PileRef
lines = {}
for name, module in sorted(sys.modules.items()):
    if name.startswith("solitaire"):
        for owner in [module, *(c for _, c in inspect.getmembers(module, inspect.isclass))]:
            for attr, value in vars(owner).items():
                func = getattr(value, "__func__", value)
                code = getattr(func, "__code__", None)
                if code is not None and code.co_filename + "c" == module.__file__:
                    lines[f"{name}:{func.__qualname__}"] = code.co_firstlineno
try:
    PileRef.parse("no-such-pile")
except ValueError as err:
    raised = traceback.extract_tb(err.__traceback__)[-1]
root.dataset.lines = json.dumps(lines)
root.dataset.raised = json.dumps([raised.filename, raised.name, raised.lineno, raised.colno])
root.dataset.docs = json.dumps([sys.modules["solitaire.piles"].__doc__, PileRef.parse.__doc__])
root.dataset.app = "ready"
</script>
</body>
</html>
"""

# The solver will run in a PyScript worker: its config must work from a worker too. The main
# thread calls the worker's exported function (no SharedArrayBuffer needed for that direction).
WORKER_PAGE = """<!doctype html>
<html lang="en" data-app="loading">
<head>
  <meta charset="utf-8">
  <title>harness worker probe</title>
  <link rel="icon" href="icons/icon.svg" type="image/svg+xml">
  <script type="module" src="vendor/pyscript/core.js"></script>
  <mpy-config hidden>{"plugins": ["!error", "!deprecations-manager", "!donkey", "!py-editor",
    "!py-game", "!py-terminal"]}</mpy-config>
</head>
<body>
<script type="py" worker name="probe" config="pyscript-worker.json">
import importlib.util, json, os
from importlib.machinery import SourceFileLoader
def probe_files():
    found = importlib.util.find_spec("solitaire") is not None
    compiled = []  # modules compiled from source instead of loaded from the shipped bytecode
    to_code = SourceFileLoader.source_to_code
    def spy(self, data, path, *args, **kwargs):
        compiled.append(path)
        return to_code(self, data, path, *args, **kwargs)
    SourceFileLoader.source_to_code = spy
    import solitaire.solver
    SourceFileLoader.source_to_code = to_code
    return [found, json.dumps(compiled)] + sorted(
        os.path.join(d, f) for d, _, fs in os.walk("solitaire") for f in fs
        if f.endswith((".py", ".pyc"))
    )
__export__ = ["probe_files"]
</script>
<script type="py" config="pyscript.json">
import asyncio, json, sys
import js
lazy = "pyscript" not in sys.modules  # not imported at boot on the main thread
async def main():
    # PyScript's package imports modules that the build's snapshot lacks: say the page is ready
    # (as app.py does), then wait until the standard library zip is in, which the page fetches
    # only then (web/pyodide-boot.mjs, STDLIB_LATER_URL)
    js.document.documentElement.dataset.app = "ready"
    while not js.performance.getEntriesByName("pyodide-boot:stdlib").length:
        await asyncio.sleep(0.05)
    from pyscript import workers  # imported now, on first use
    worker = await workers["probe"]
    answer = await worker.probe_files()
    js.document.documentElement.dataset.lazy = json.dumps(lazy)
    js.document.documentElement.dataset.files = json.dumps(list(answer))
main()
</script>
</body>
</html>
"""


@pytest.fixture(scope="module")
def probe_dir(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site with the probe page as its index.html (everything else linked)."""
    probe = tmp_path_factory.mktemp("probe")
    for entry in site_dir.iterdir():
        if entry.name not in ("index.html", "sw.js"):
            (probe / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    (probe / "index.html").write_text(PROBE_PAGE, encoding="utf-8")
    # The service worker checks the size and SHA-256 of every file it caches, the page
    # included ("./" and "./index.html"): its table gets the probe page's, so that it installs
    # over this folder as over the site.
    probe_bytes = PROBE_PAGE.encode("utf-8")
    figures = f'[{len(probe_bytes)}, "{hashlib.sha256(probe_bytes).hexdigest()}"]'
    worker = (site_dir / "sw.js").read_text(encoding="utf-8")
    probed, found = re.subn(
        r'("\./(?:index\.html)?"): \[\d+, "[0-9a-f]{64}"\]', rf"\1: {figures}", worker
    )
    assert found == 2, "sw.js has no size and SHA-256 for ./ and ./index.html"
    (probe / "sw.js").write_text(probed, encoding="utf-8")
    (probe / "worker.html").write_text(WORKER_PAGE, encoding="utf-8")
    return probe


@pytest.fixture(scope="module")
def probe_server(probe_dir: Path) -> Iterator[SiteServer]:
    with SiteServer(probe_dir) as server:
        yield server


@pytest.fixture
def offline_root(probe_dir: Path) -> Path:
    return probe_dir


def _vendor_refs(html: str) -> list[str]:
    return sorted(re.findall(r'(?:src|href)="(vendor/[^"]+)"', html))


def _runtime_files(site_dir: Path) -> list[str]:
    return sorted(
        p.relative_to(site_dir).as_posix() for p in (site_dir / "vendor").rglob("*") if p.is_file()
    )


@pytest.mark.parametrize(
    ("path", "mime"),
    [
        ("vendor/pyodide/pyodide.mjs", "text/javascript"),
        ("vendor/pyodide/pyodide.asm.mjs", "text/javascript"),
        ("vendor/pyodide/pyodide.asm.wasm", "application/wasm"),
        ("vendor/pyscript/core.js", "text/javascript"),
        ("web/style.css", "text/css"),
        ("manifest.webmanifest", "application/manifest+json"),
        ("sw.js", "text/javascript"),
        ("pyscript.json", "application/json"),
    ],
)
def test_server_sends_the_mime_types_the_browser_needs(base_url: str, path: str, mime: str) -> None:
    with urlopen(base_url + path, timeout=10) as response:
        assert response.status == 200
        assert response.headers.get_content_type() == mime


# What `from solitaire.web.app import main` imports, transitively, on the page; the solver, the
# hints and the command lines run only in the solver's worker or under CPython.
#: sys.implementation.cache_tag of the vendored Pyodide: the name of the shipped .pyc files.
CACHE_TAG = "cpython-314"

NOT_ON_THE_PAGE = {
    "__main__.py",
    "cli/__init__.py",
    "cli/solve.py",
    "cli/survey.py",
    "solver/__init__.py",
    "solver/core.py",
    "solver/freecell.py",
    "solver/hints.py",
    "solver/rail/__init__.py",
    "solver/rail/beams.py",
    "solver/rail/concrete.py",
    "solver/rail/lock.py",
    "solver/rail/lockfit.py",
    "solver/yukon.py",
    "web/solver_worker.py",
}


def test_pyscript_configs_map_the_python_files(site_dir: Path) -> None:
    package_dir = build_site.ROOT / build_site.PACKAGE_DIR
    every = {
        f"./{build_site.PACKAGE_DIR}/{p.relative_to(package_dir).as_posix()}": (
            f"./solitaire/{p.relative_to(package_dir).as_posix()}"
        )
        for p in package_dir.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    prefix = f"./{build_site.PACKAGE_DIR}/"
    on_page = {k: v for k, v in every.items() if k.removeprefix(prefix) not in NOT_ON_THE_PAGE}
    # Workers: each source is followed by its bytecode for the vendored Pyodide; the page:
    # the bytecode alone, written where the source would be (a sourceless pyc).
    every = build_site.with_bytecode(every, set(every), CACHE_TAG)
    on_page = build_site.sourceless(on_page, set(on_page), CACHE_TAG)
    unused_plugins = [
        "error",
        "deprecations-manager",
        "donkey",
        "py-editor",
        "py-game",
        "py-terminal",
    ]
    expected = {
        # The page: the early-starting, snapshot-restoring wrapper, which writes the page's
        # files itself (pyodide-files.json: only the modules it imports); no unused plugin.
        "pyscript.json": {
            "interpreter": "./web/pyodide-boot.mjs",
            "plugins": [f"!{p}" for p in unused_plugins],
        },
        # Workers: Pyodide itself, every module.
        "pyscript-worker.json": {"interpreter": "./vendor/pyodide/pyodide.mjs", "files": every},
    }
    for name, want in expected.items():
        config = json.loads((site_dir / name).read_text(encoding="utf-8"))
        assert config == want, name
        assert (site_dir / config["interpreter"]).is_file()
    # The page's pycs come in one archive, unpacked into the working directory: the same
    # files, under the same paths, as the sourceless map would write one by one, and PyScript's
    # package (PYSCRIPT_SETUP_PATCH).
    page_files = json.loads((site_dir / "pyodide-files.json").read_text(encoding="utf-8"))
    assert page_files == {f"./{build_site.PAGE_ARCHIVE}": "./"}
    with tarfile.open(site_dir / build_site.PAGE_ARCHIVE) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}  # type: ignore[union-attr]
    package = {name for name in members if name.startswith("pyscript/")}
    assert len(package) == 14
    assert sorted(set(members) - package) == sorted(
        path.removeprefix("./") for path in on_page.values()
    )
    for url, path in on_page.items():
        assert members[path.removeprefix("./")] == (site_dir / url).read_bytes()
    for url in [*page_files, *every]:
        assert (site_dir / url).is_file()


def test_service_worker_is_stamped_with_version_and_every_file(site_dir: Path) -> None:
    sw = (site_dir / "sw.js").read_text(encoding="utf-8")
    assert "__CACHE_VERSION__" not in sw
    assert "__PRECACHE__" not in sw
    version = re.search(r'const CACHE_VERSION = "([0-9a-f]{16})";', sw)
    assert version, "no cache version in sw.js"
    listed = json.loads(
        "[" + sw.split("const PRECACHE = [", 1)[1].split("];", 1)[0].rstrip(",\n ") + "]"
    )
    files = sorted(
        p.relative_to(site_dir).as_posix()
        for p in site_dir.rglob("*")
        if p.is_file() and p.name not in {"sw.js", ".nojekyll"}
    )
    # Pyodide's full standard library is shipped for the bare baseline page of the benchmarks
    # only: the page and its workers load the trimmed one (tools/stdlib_trim.py).
    full_stdlib = f"vendor/pyodide/{build_site.FULL_STDLIB}"
    assert full_stdlib in files
    assert listed == ["./", *(f"./{f}" for f in files if f != full_stdlib)]
    # Offline, the page and the snapshot worker load Pyodide through these.
    assert {"./web/pyodide-boot.mjs", "./web/pyodide-snapshot-worker.mjs"} <= set(listed)
    assert build_site.site_version(
        site_dir, [f for f in files if f != full_stdlib]
    ) == version.group(1)


def test_probe_page_boots_vendored_pyodide_fetching_exactly_the_runtime(
    page: Page, watch: Watch, probe_server: SiteServer, site_dir: Path
) -> None:
    watch.origins.add(origin(probe_server.url))
    page.goto(probe_server.url)
    wait_ready(page)

    root = page.locator("html")
    assert root.get_attribute("data-python", timeout=1000).startswith("3.")  # type: ignore[union-attr]
    files = json.loads(root.get_attribute("data-files") or "[]")
    # Written, not imported: the main thread imports PyScript's package on first use only.
    assert json.loads(root.get_attribute("data-pyscript") or "null") == [False, True]
    config = json.loads((site_dir / "pyscript.json").read_text(encoding="utf-8"))
    page_files = json.loads((site_dir / "pyodide-files.json").read_text(encoding="utf-8"))
    with tarfile.open(site_dir / build_site.PAGE_ARCHIVE) as tar:
        members = sorted(name for name in tar.getnames() if name.startswith("solitaire/"))
    assert files == members  # the archive's pycs, no source
    assert (root.get_attribute("data-package") or "").endswith("solitaire/__init__.pyc")
    # Python imported the page's modules from the shipped bytecode, compiling none of them.
    assert json.loads(root.get_attribute("data-compiled") or "null") == []
    cached = json.loads(root.get_attribute("data-cached") or "[]")
    assert cached == ["/home/pyodide/" + m for m in members]

    _assert_lines_and_docstrings_as_built(root)

    # No snapshot in Cache Storage in a fresh context (and none made: service workers are
    # blocked here): the page starts from the build's snapshot.
    assert root.get_attribute("data-boot") == "build-snapshot"

    fetched = watch.local_paths()
    fetched_runtime = sorted(p for p in fetched if p.startswith("vendor/"))
    # The build ships exactly what the browser fetches: nothing missing, nothing unused; but for
    # Pyodide's lock file (the page hands Pyodide its package index, web/pyodide-boot.mjs; the
    # solver's worker and the snapshot worker fetch it) and PyScript's error plugin (imported
    # only to report a config that cannot be parsed: build_site.PYSCRIPT_CORE_PATCH), and
    # Pyodide's full standard library (the trimmed one is loaded instead); and, no service
    # worker answering, the wasm comes packed: the wasm itself and the decoder as a classic
    # script are the service worker's (it unpacks the wasm into its cache, web/sw.js).
    error_chunk = sorted((site_dir / "vendor" / "pyscript").glob("error-*.js"))
    assert len(error_chunk) == 1
    not_on_page = [
        "vendor/pyodide/pyodide-lock.json",
        error_chunk[0].relative_to(site_dir).as_posix(),
        f"vendor/pyodide/{build_site.FULL_STDLIB}",
        build_site.PACKED_WASM[0],
        build_site.FZSTD_CLASSIC_FILE,
    ]
    assert build_site.PACKED_WASM[1] in fetched_runtime
    assert fetched_runtime == [p for p in _runtime_files(site_dir) if p not in not_on_page]
    # PyScript's core.css only styles its own tags, editor and terminal: not loaded, not shipped.
    assert "vendor/pyscript/core.css" not in fetched_runtime
    # The probe loads the runtime exactly as index.html does.
    assert _vendor_refs((site_dir / "index.html").read_text(encoding="utf-8")) == _vendor_refs(
        PROBE_PAGE
    )
    # The page loads Pyodide through our wrapper (once: the early start and PyScript share it),
    # which fetches exactly the Python files of pyodide-files.json; the snapshot worker is not
    # started without a service worker.
    assert config["interpreter"] == "./web/pyodide-boot.mjs"
    every_request = [urlsplit(u).path for u in watch.requested if watch.is_local(u)]
    assert every_request.count(f"/{build_site.PACKED_WASM[1]}") == 1  # one interpreter
    assert "web/pyodide-snapshot-worker.mjs" not in fetched
    assert sorted(p for p in fetched if p.startswith("py/")) == sorted(
        url.removeprefix("./") for url in page_files
    )
    assert not watch.blocked


def _first_lines(source: Path, module: str) -> dict[str, int]:
    """``{"module:qualname": line}`` of each function and method defined at a module's or a
    class's top level: its first decorator's line, else its ``def`` line (``co_firstlineno``)."""
    lines: dict[str, int] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines[f"{module}:{prefix}{node.name}"] = first
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(ast.parse(source.read_bytes()).body, "")
    return lines


def _assert_lines_and_docstrings_as_built(root: Locator) -> None:
    """The page's bytecode has its docstrings blanked (".") and no column positions, but
    every line number of the source: each function's first line, and the line a raised
    exception reports."""
    package_dir = build_site.ROOT / build_site.PACKAGE_DIR
    seen = json.loads(root.get_attribute("data-lines") or "{}")
    expected: dict[str, int] = {}
    for module in {key.partition(":")[0] for key in seen}:
        rel = Path(*module.split(".")[1:])
        source = package_dir / rel / "__init__.py"
        if not source.is_file():
            source = (package_dir / rel).with_suffix(".py")
        expected.update(_first_lines(source, module))
    assert len(seen) > 200
    assert seen == {key: expected[key] for key in seen}
    filename, function, line, column = json.loads(root.get_attribute("data-raised") or "[]")
    assert (filename, function) == ("/home/pyodide/solitaire/piles.py", "parse")
    assert column is None  # compiled without column positions (build_site._COMPILE_MJS)
    source_lines = (package_dir / "piles.py").read_text(encoding="utf-8").splitlines()
    assert source_lines[line - 1].strip().startswith("raise ValueError")
    assert json.loads(root.get_attribute("data-docs") or "[]") == [".", "."]


def test_worker_config_gives_the_worker_the_package(
    page: Page, watch: Watch, probe_server: SiteServer, site_dir: Path
) -> None:
    watch.origins.add(origin(probe_server.url))
    # Expected: PyScript warns that a worker cannot reach the DOM without SharedArrayBuffer
    # (no cross-origin isolation on GitHub Pages); the solver needs no DOM.
    page.goto(probe_server.url + "worker.html")
    wait_ready(page)
    page.wait_for_function("document.documentElement.dataset.files", timeout=BOOT_TIMEOUT_MS)
    found, compiled, *files = json.loads(page.locator("html").get_attribute("data-files") or "[]")
    config = json.loads((site_dir / "pyscript-worker.json").read_text(encoding="utf-8"))
    assert found is True
    # The main thread imported PyScript's package only when asked (PYSCRIPT_SETUP_PATCH), and
    # the worker still works (PyScript imports the package in a worker at start, as published).
    assert page.locator("html").get_attribute("data-lazy") == "true"
    assert json.loads(compiled) == []  # the worker imports the shipped bytecode too
    expected = {v.removeprefix("./") for v in config["files"].values()}
    assert expected <= set(files)
    # PyScript starts the probe's worker with the page's interpreter module too
    # (web/pyodide-boot.mjs), which also unpacks the page's archive there: sourceless pycs
    # beside the sources, never imported (a source comes first; nothing was compiled above).
    assert all(f.endswith(".pyc") and "__pycache__" not in f for f in set(files) - expected)


def test_guard_blocks_and_records_non_local_requests(
    page: Page, watch: Watch, base_url: str
) -> None:
    page.goto(base_url + "manifest.webmanifest")
    outcome = page.evaluate(
        """() => fetch("https://cdn.jsdelivr.net/pyodide/v0/full/pyodide.mjs")
                   .then(() => "fetched", () => "refused")"""
    )
    assert outcome == "refused"
    assert watch.blocked == ["https://cdn.jsdelivr.net/pyodide/v0/full/pyodide.mjs"]
    assert any("cdn.jsdelivr.net" in p for p in watch.problems())
    watch.blocked.clear()  # the teardown check would (rightly) fail this test otherwise
    watch.allow_console(r"ERR_BLOCKED_BY_CLIENT|Failed to fetch|cdn\.jsdelivr")


def test_offline_after_first_visit(offline_site: OfflineSite) -> None:
    page = offline_site.page
    page.goto("./")
    wait_ready(page)
    offline_site.go_offline()
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")


@pytest.fixture(scope="module")
def boots() -> list[float]:
    return []


@pytest.mark.parametrize("visit", [1, 2])
def test_shared_page_boots_once_per_module(
    shared_page: Page,
    shared_watch: Watch,
    probe_server: SiteServer,
    boots: list[float],
    visit: int,
) -> None:
    shared_watch.origins.add(origin(probe_server.url))
    if not shared_page.url.startswith(probe_server.url):
        shared_page.goto(probe_server.url)
    wait_ready(shared_page)
    boots.append(shared_page.evaluate("performance.timeOrigin"))
    assert len(set(boots)) == 1, "the shared page was loaded again"


@pytest.mark.parametrize("node", ["missing", "failing"])
def test_build_without_usable_node_ships_sources_only(
    node: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No Node, or one that cannot run Pyodide: the build says so and ships the sources alone
    (nothing from the bytecode cache either: it is empty here)."""
    command = str(tmp_path / "no-such-node") if node == "missing" else "false"
    monkeypatch.setattr(config, "NODE", command)
    monkeypatch.setattr(config, "PYC_CACHE", tmp_path / "cache")
    site = build_site.build(tmp_path / "site", require_index=False)
    assert site.bytecode.startswith("sources only: could not run Pyodide under Node")
    assert "build_site: warning: sources only" in capsys.readouterr().err
    assert not list(site.out.rglob("*.pyc"))
    assert not list(site.out.rglob("__pycache__"))
    page_files = json.loads((site.out / "pyodide-files.json").read_text(encoding="utf-8"))
    worker = json.loads((site.out / "pyscript-worker.json").read_text(encoding="utf-8"))
    assert page_files
    assert all(url.endswith(".py") for url in [*page_files, *worker["files"]])
    assert all(p.endswith(".py") for p in site.own if p.startswith("py/"))
    # PyScript's package, one file each (PYSCRIPT_SETUP_PATCH), where its set-up wrote it
    package = {url: path for url, path in page_files.items() if "/pyscript/" in url}
    assert len(package) == 14
    assert package["./py/pyscript/__init__.py"] == "./pyscript/__init__.py"
    assert all((site.out / url).is_file() for url in package)


def test_build_never_ships_bytecode_of_other_source(
    site_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A cached pyc whose source hash is not its source's (a corrupted cache): sources only,
    with a warning, never that pyc."""
    source = build_site.ROOT / build_site.PACKAGE_DIR / "game.py"
    assert build_site.precompile(build_site.ROOT, [source]).pycs  # cached (or compiled) now
    cache = tmp_path / "cache"
    shutil.copytree(build_site.PYC_CACHE, cache)
    key = build_site._pyc_key("solitaire/game.py", source.read_bytes())
    (pyc,) = cache.glob(f"*-{build_site.PYC_FLAVOUR}/{key}.pyc")  # this flavour's cache
    data = bytearray(pyc.read_bytes())
    data[8:16] = bytes(8)
    pyc.write_bytes(bytes(data))
    monkeypatch.setattr(config, "PYC_CACHE", cache)
    monkeypatch.setattr(config, "NODE", str(tmp_path / "no-such-node"))
    site = build_site.build(tmp_path / "site", require_index=False)
    assert site.bytecode.startswith("sources only: the pyc of ")
    assert "build_site: warning: sources only" in capsys.readouterr().err
    assert not list(site.out.rglob("*.pyc"))


def test_build_fails_when_the_pyscript_setup_patch_does_not_apply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Same chunk hash, patch text not found (e.g. the constant edited by mistake): the build
    fails instead of shipping the chunk unpatched; PYSCRIPT_LAZY_PACKAGE off ships the set-up
    as published."""
    chunk = build_site.PYSCRIPT_CORE_PATCH[0]
    pinned = (build_site.ROOT / "node_modules/@pyscript/core/dist" / chunk).read_bytes()
    monkeypatch.setattr(config, "PYSCRIPT_SETUP_PATCH", ("no such text", "no such txt!"))
    with pytest.raises(build_site.BuildError, match="PYSCRIPT_SETUP_PATCH does not apply"):
        build_site.patch_pyscript_core(chunk, pinned)
    monkeypatch.setattr(config, "PYSCRIPT_LAZY_PACKAGE", False)
    published = build_site.patch_pyscript_core(chunk, pinned)
    assert published.count(b"import pyscript as _pyscript") == 1
    assert published.count(b'const n="mpy"===t?Ao.replace(bo,""):Ao,') == 1


def test_build_patches_pyscript_and_stamps_the_boot_module_or_fails(site_dir: Path) -> None:
    """The two build-time changes to what the page loads (docs/build.md): PyScript's core chunk
    no longer imports the error plugin it turns off, and web/pyodide-boot.mjs carries the lock
    file's info; either fails the build when the file it was made for changed."""
    chunk, _, old, new = build_site.PYSCRIPT_CORE_PATCH
    shipped = (site_dir / "vendor" / "pyscript" / chunk).read_text(encoding="utf-8")
    pinned = (build_site.ROOT / "node_modules/@pyscript/core/dist" / chunk).read_text("utf-8")
    assert old in pinned
    assert old not in shipped
    assert new in shipped
    # same length after the compile hint's line: offsets match the published chunk's lines
    assert shipped.startswith(build_site.EAGER_COMPILE_HINT)
    assert len(shipped) == len(pinned) + len(build_site.EAGER_COMPILE_HINT)
    with pytest.raises(build_site.BuildError, match="not the file"):
        build_site.patch_pyscript_core(chunk, pinned.replace(old, old + " ").encode())
    # The second change: PyScript's Python set-up (write its package, import it) runs in
    # workers only; the page archive brings the package, all 14 modules of it, as published.
    setup_old, setup_new = build_site.PYSCRIPT_SETUP_PATCH
    assert setup_old in pinned
    assert setup_old not in shipped
    assert setup_new in shipped
    assert "import pyscript as _pyscript" not in shipped
    assert 'ho.push("import pyscript\\ndel _Path,_path,_os,pyscript")' in shipped
    assert 'const n=e===vo?"":"mpy"===t?Ao.replace(bo,""):Ao,' in shipped
    with tarfile.open(site_dir / build_site.PAGE_ARCHIVE) as archive:
        members = {
            m.name: archive.extractfile(m).read().decode()  # type: ignore[union-attr]
            for m in archive.getmembers()
            if m.name.startswith("pyscript/")
        }
    assert len(members) == 14
    for name, source in members.items():
        literal = json.dumps(source, ensure_ascii=False)[1:-1]  # as the chunk holds it
        assert f'"{name.removeprefix("pyscript/")}":"{literal}"' in pinned, name
    lock = json.loads((site_dir / "vendor/pyodide/pyodide-lock.json").read_text("utf-8"))
    boot = (site_dir / "web" / "pyodide-boot.mjs").read_text(encoding="utf-8")
    assert f"const LOCKFILE_INFO = {json.dumps(lock['info'], sort_keys=True)};" in boot
    with pytest.raises(build_site.BuildError, match="must hold the line"):
        build_site.stamp_boot_module(boot, lock)
    with pytest.raises(build_site.BuildError, match="abi_version"):
        build_site.stamp_boot_module(build_site.LOCKFILE_INFO_LINE, {"packages": {}})
