"""What the page's loader is told: the PyScript configs and the values the build writes into
marked lines of ``web/pyodide-boot.mjs``.

In: the files maps, the vendored ``pyodide-lock.json``, the site paths of the build's snapshot
and of the packed wasm. Out: the configs' contents (pyscript.json, pyscript-worker.json;
pyodide-files.json is BOOT_FILES) and web/pyodide-boot.mjs stamped, or a BuildError when a
marked line is not there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from sitebuild import config
from sitebuild.base import BuildError

#: Where PyScript finds the interpreter (resolved against the page URL). Workers (the solver)
#: load Pyodide itself; the page loads it through web/pyodide-boot.mjs, which restores a memory
#: snapshot saved by an earlier visit (docs/performance.md) and falls back to a normal start.
INTERPRETER_URL = "./vendor/pyodide/pyodide.mjs"
#: The page's Python files: written into the interpreter by web/pyodide-boot.mjs, which fetches
#: them while Pyodide starts (not by PyScript's ``files`` map, which fetches them only once the
#: interpreter is up). Same format as a ``files`` map; at the site root.
BOOT_FILES = "pyodide-files.json"
#: web/pyodide-boot.mjs holds this line; the build writes the ``info`` of the vendored
#: ``pyodide-lock.json`` into it, so that the page gives Pyodide its package index (that info,
#: no package: the page loads none) instead of Pyodide fetching the lock file at start.
LOCKFILE_INFO_LINE = "const LOCKFILE_INFO = null;"
#: web/pyodide-boot.mjs holds this line; the build writes into it the site URL of the memory
#: snapshot it made (BOOT_SNAPSHOT_FILE), which the page restores on a first visit instead of
#: starting CPython (docs/performance.md, "Build-time snapshot").
BOOT_SNAPSHOT_LINE = "const BOOT_SNAPSHOT = null;"
#: ...and into this one its size unpacked, which lets Pyodide instantiate the wasm before the
#: snapshot's bytes are in (PYODIDE_LOADER_PATCHES).
BOOT_SNAPSHOT_SIZE_LINE = "const BOOT_SNAPSHOT_SIZE = null;"
#: web/pyodide-boot.mjs's line that the build fills with the packed wasm's site URL.
BOOT_PACKED_WASM_LINE = "const PACKED_WASM = null;"
#: ...and the lines of the two files' sizes as downloaded, which the loading screen's byte
#: progress counts against.
PACKED_WASM_BYTES_LINE = "const PACKED_WASM_BYTES = null;"
BOOT_SNAPSHOT_BYTES_LINE = "const BOOT_SNAPSHOT_BYTES = null;"


def pyscript_config(
    files: dict[str, str] | None,
    interpreter: str = INTERPRETER_URL,
    plugins_off: Iterable[str] = (),
) -> dict[str, object]:
    """A PyScript JSON config: our interpreter, our Python package (unless the interpreter
    module writes it), nothing from the network."""
    config: dict[str, object] = {"interpreter": interpreter}
    if files is not None:
        config["files"] = dict(files)
    if plugins_off:
        config["plugins"] = [f"!{name}" for name in plugins_off]
    return config


def stamp_boot_module(text: str, lock: dict[str, object]) -> str:
    """web/pyodide-boot.mjs with the ``info`` of ``lock`` (the vendored pyodide-lock.json)."""
    info = lock.get("info")
    if not isinstance(info, dict) or not isinstance(info.get("abi_version"), str):
        raise BuildError("vendor pyodide-lock.json has no info.abi_version")
    if text.count(LOCKFILE_INFO_LINE) != 1:
        raise BuildError(
            f"{config.MAIN_INTERPRETER_URL} must hold the line {LOCKFILE_INFO_LINE!r} once"
        )
    value = json.dumps(info, sort_keys=True, ensure_ascii=True)
    return text.replace(LOCKFILE_INFO_LINE, f"const LOCKFILE_INFO = {value};")


def stamp_boot_snapshot(
    text: str, url: str | None, size: int | None = None, downloaded: int | None = None
) -> str:
    """web/pyodide-boot.mjs with the site URL of the build's snapshot (None: it has none), its
    size unpacked (None: unknown; Pyodide then waits for its bytes to size the memory) and the
    bytes of its file (None: unknown; the loading screen then counts only the wasm's)."""
    if url is None or BOOT_SNAPSHOT_LINE not in text:
        return text
    text = text.replace(BOOT_SNAPSHOT_LINE, f"const BOOT_SNAPSHOT = {json.dumps(url)};")
    if size is not None:
        text = text.replace(BOOT_SNAPSHOT_SIZE_LINE, f"const BOOT_SNAPSHOT_SIZE = {int(size)};")
    if downloaded is not None:
        text = _stamp_once(text, BOOT_SNAPSHOT_BYTES_LINE, str(int(downloaded)))
    return text


def stamp_packed_wasm(text: str, packed: str | None, downloaded: int | None = None) -> str:
    """web/pyodide-boot.mjs with the site URL of the packed wasm (None: the site has none) and
    the bytes of its file (None: unknown)."""
    if packed is None:
        return text
    text = _stamp_once(text, BOOT_PACKED_WASM_LINE, json.dumps(f"./{packed}"))
    if downloaded is not None:
        text = _stamp_once(text, PACKED_WASM_BYTES_LINE, str(int(downloaded)))
    return text


def _stamp_once(text: str, line: str, value: str) -> str:
    """``text`` with the marked ``line`` (``const NAME = null;``) set to ``value``."""
    if text.count(line) != 1:
        raise BuildError(f"{config.MAIN_INTERPRETER_URL} must hold the line {line!r} once")
    return text.replace(line, line.replace("null", value, 1))
