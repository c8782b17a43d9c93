"""Proves the build and the browser harness: MIME types, configs, the service worker stamp, and
a probe page that boots the vendored Pyodide through PyScript, fetching exactly the runtime
files the build ships, nothing from the network, with no console error; then plays offline."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import urlopen

import build_site
import pytest
from conftest import OfflineSite
from harness import Watch, origin, wait_ready
from playwright.sync_api import Page
from serve import SiteServer

# A page like index.html, reduced to what the harness needs: the early start of Pyodide, PyScript
# with our config, a check that the package is where Python imports it from, and the ready flag.
PROBE_PAGE = """<!doctype html>
<html lang="en" data-app="loading">
<head>
  <meta charset="utf-8">
  <title>harness probe</title>
  <link rel="icon" href="icons/icon.svg" type="image/svg+xml">
  <script type="module" src="web/pyodide-boot.mjs" async></script>
  <script type="module" src="vendor/pyscript/core.js"></script>
  <mpy-config hidden>{"plugins": ["!deprecations-manager", "!donkey", "!py-editor",
    "!py-game", "!py-terminal"]}</mpy-config>
  <script src="web/register-sw.js" defer></script>
</head>
<body>
<script type="py" config="pyscript.json">
import importlib.util, json, os, sys
import js
files = sorted(
    os.path.join(d, f) for d, _, fs in os.walk("solitaire") for f in fs if f.endswith(".py")
)
spec = importlib.util.find_spec("solitaire")
root = js.document.documentElement
root.dataset.python = sys.version.split()[0]
root.dataset.files = json.dumps(files)
root.dataset.package = spec.origin if spec else ""
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
  <mpy-config hidden>{"plugins": ["!deprecations-manager", "!donkey", "!py-editor",
    "!py-game", "!py-terminal"]}</mpy-config>
</head>
<body>
<script type="py" worker name="probe" config="pyscript-worker.json">
import importlib.util, os
def probe_files():
    found = importlib.util.find_spec("solitaire") is not None
    return [found] + sorted(
        os.path.join(d, f) for d, _, fs in os.walk("solitaire") for f in fs if f.endswith(".py")
    )
__export__ = ["probe_files"]
</script>
<script type="py" config="pyscript.json">
import json
import js
from pyscript import workers
async def main():
    worker = await workers["probe"]
    answer = await worker.probe_files()
    js.document.documentElement.dataset.files = json.dumps(list(answer))
    js.document.documentElement.dataset.app = "ready"
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
        if entry.name != "index.html":
            (probe / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    (probe / "index.html").write_text(PROBE_PAGE, encoding="utf-8")
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
NOT_ON_THE_PAGE = {
    "__main__.py",
    "cli.py",
    "hints.py",
    "solve_cli.py",
    "solver.py",
    "solver_core.py",
    "solver_freecell.py",
    "solver_rail.py",
    "solver_yukon.py",
    "web/solver_worker.py",
}


def test_pyscript_configs_map_the_python_files(site_dir: Path) -> None:
    every = {
        f"./py/{p.relative_to(build_site.ROOT / 'py').as_posix()}": (
            f"./solitaire/{p.relative_to(build_site.ROOT / 'py').as_posix()}"
        )
        for p in (build_site.ROOT / "py").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    on_page = {k: v for k, v in every.items() if k.removeprefix("./py/") not in NOT_ON_THE_PAGE}
    unused_plugins = ["deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal"]
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
    page_files = json.loads((site_dir / "pyodide-files.json").read_text(encoding="utf-8"))
    assert page_files == on_page
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
    assert listed == ["./", *(f"./{f}" for f in files)]
    # Offline, the page and the snapshot worker load Pyodide through these.
    assert {"./web/pyodide-boot.mjs", "./web/pyodide-snapshot-worker.mjs"} <= set(listed)
    assert build_site.site_version(site_dir, files) == version.group(1)


def test_probe_page_boots_vendored_pyodide_fetching_exactly_the_runtime(
    page: Page, watch: Watch, probe_server: SiteServer, site_dir: Path
) -> None:
    watch.origins.add(origin(probe_server.url))
    page.goto(probe_server.url)
    wait_ready(page)

    root = page.locator("html")
    assert root.get_attribute("data-python", timeout=1000).startswith("3.")  # type: ignore[union-attr]
    files = json.loads(root.get_attribute("data-files") or "[]")
    config = json.loads((site_dir / "pyscript.json").read_text(encoding="utf-8"))
    page_files = json.loads((site_dir / "pyodide-files.json").read_text(encoding="utf-8"))
    assert files == sorted(v.removeprefix("./") for v in page_files.values())
    assert (root.get_attribute("data-package") or "").endswith("solitaire/__init__.py")

    # No snapshot in a fresh context (and none made: service workers are blocked here).
    assert root.get_attribute("data-boot") == "fresh"

    fetched = watch.local_paths()
    fetched_runtime = sorted(p for p in fetched if p.startswith("vendor/"))
    # The build ships exactly what the browser fetches: nothing missing, nothing unused.
    assert fetched_runtime == _runtime_files(site_dir)
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
    assert every_request.count("/vendor/pyodide/pyodide.asm.wasm") == 1  # one interpreter
    assert "web/pyodide-snapshot-worker.mjs" not in fetched
    assert sorted(p for p in fetched if p.startswith("py/")) == sorted(
        url.removeprefix("./") for url in page_files
    )
    assert not watch.blocked


def test_worker_config_gives_the_worker_the_package(
    page: Page, watch: Watch, probe_server: SiteServer, site_dir: Path
) -> None:
    watch.origins.add(origin(probe_server.url))
    # Expected: PyScript warns that a worker cannot reach the DOM without SharedArrayBuffer
    # (no cross-origin isolation on GitHub Pages); the solver needs no DOM.
    page.goto(probe_server.url + "worker.html")
    wait_ready(page)
    found, *files = json.loads(page.locator("html").get_attribute("data-files") or "[]")
    config = json.loads((site_dir / "pyscript-worker.json").read_text(encoding="utf-8"))
    assert found is True
    assert files == sorted(v.removeprefix("./") for v in config["files"].values())


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
