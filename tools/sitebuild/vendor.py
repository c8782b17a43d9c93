"""The runtime the site ships, from the pinned npm packages in node_modules/: which files of
Pyodide, PyScript and fzstd, the checked changes made to them, and V8's compile hint.

In: ``node_modules/`` (pyodide, @pyscript/core, fzstd, at the versions package.json pins) and
the patch texts of sitebuild.vendor_patches. Out: the names and contents of the files under
``vendor/`` (sitebuild.assemble writes them), or a BuildError naming the patch that no longer
applies.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

import stdlib_trim

from sitebuild import config, vendor_patches
from sitebuild.base import PYSCRIPT_BOOT_PLUGINS, BuildError, npm_version

#: Files of the ``pyodide`` npm package that the browser fetches on every boot.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The full standard library of the ``pyodide`` package: shipped (the benchmarks' bare page,
#: bench/pages/bare.html, loads it) but neither precached nor fetched by the site's pages and
#: workers, which load the trimmed one (STDLIB_URL, tools/stdlib_trim.py).
FULL_STDLIB = "python_stdlib.zip"
#: The trimmed standard library, site-relative; web/pyodide-boot.mjs, web/solver-worker.mjs and
#: web/pyodide-snapshot-worker.mjs pass it to loadPyodide() as ``stdLibURL``.
STDLIB_URL = f"vendor/pyodide/{stdlib_trim.TRIMMED_NAME}"
#: The zstd decoder of the page (npm package ``fzstd``, pure JS, 6.8 KB gzip, MIT), vendored
#: from its ES module build: web/pyodide-boot.mjs imports it in the worker that unpacks the
#: build's snapshot and the packed wasm (and on the page's thread where that worker cannot run).
FZSTD_FILE = "vendor/fzstd/fzstd.mjs"
FZSTD_SOURCE = Path("node_modules") / "fzstd" / "esm" / "index.mjs"
#: The same decoder as a classic script (fzstd's UMD build, which sets ``self.fzstd``), for the
#: service worker (web/sw.js, ``importScripts``), which cannot import an ES module.
FZSTD_CLASSIC_FILE = "vendor/fzstd/fzstd.js"
FZSTD_CLASSIC_SOURCE = Path("node_modules") / "fzstd" / "umd" / "index.js"
#: V8's explicit compile hint (Chromium 136+; a plain comment to other engines): at the top of a
#: script, V8 compiles all its functions as the file arrives, on a background thread, instead of
#: each one on the page's thread at its first call. The build puts it first in EAGER_COMPILE_FILES,
#: the scripts of a visit's start most of whose functions run then (Pyodide's glue alone is
#: 1.2 MB). It moves a line: the published source maps (not shipped) would be one line off.
EAGER_COMPILE_HINT = "//# allFunctionsCalledOnLoad\n"
EAGER_COMPILE_FILES = (
    "vendor/pyodide/pyodide.asm.mjs",
    "vendor/pyodide/pyodide.mjs",
    f"vendor/pyscript/{vendor_patches.PYSCRIPT_CORE_PATCH[0]}",
    "web/pyodide-boot.mjs",
    # its parts (web/boot/urls.mjs holds no function)
    "web/boot/downloads.mjs",
    "web/boot/page-files.mjs",
    "web/boot/page.mjs",
    "web/boot/unpack.mjs",
    FZSTD_FILE,
)


def check_pins(root: Path) -> None:
    """node_modules must hold exactly the versions pinned in package.json."""
    pins = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for name in ("pyodide", "@pyscript/core", "fzstd"):
        folder = root / "node_modules" / name
        if not (folder / "package.json").is_file():
            raise BuildError(f"node_modules/{name} is missing: run `npm ci` first")
        found = npm_version(folder)
        if found != pins[name]:
            raise BuildError(
                f"node_modules/{name} is {found} but package.json pins {pins[name]}: run `npm ci`"
            )


_STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\./[\w.-]+\.js)["']""")
_PLUGIN_ENTRY = re.compile(r""""?([\w-]+)"?:\(\)=>import\(["']\./([\w.-]+\.js)["']\)""")


def _static_closure(dist: Path, entries: Iterable[str]) -> list[str]:
    """``entries`` plus every chunk they import statically (``import x from "./y.js"``)."""
    seen: list[str] = []
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if not (dist / name).is_file():
            raise BuildError(f"@pyscript/core/dist/{name} is missing")
        seen.append(name)
        text = (dist / name).read_text(encoding="utf-8")
        todo.extend(m.removeprefix("./") for m in _STATIC_IMPORT.findall(text))
    return sorted(seen)


def pyscript_runtime_files(dist: Path, plugins: Iterable[str] = PYSCRIPT_BOOT_PLUGINS) -> list[str]:
    """The files of ``@pyscript/core/dist`` that a page fetches at boot with a JSON config.

    ``core.js`` re-exports the hashed core chunk; the core chunk holds a map from plugin name
    to a lazy ``import("./plugin-HASH.js")`` and loads the boot plugins unconditionally. Chunks
    behind other dynamic imports (TOML parser, zip, code editor, terminal back ends) are not
    fetched by our page and are not shipped.
    """
    core = _static_closure(dist, ["core.js"])
    found: dict[str, str] = {}
    for name in core:
        found.update(_PLUGIN_ENTRY.findall((dist / name).read_text(encoding="utf-8")))
    missing = [p for p in PYSCRIPT_BOOT_PLUGINS if p not in found]
    if missing:
        raise BuildError(
            f"PyScript plugin map not found or changed (missing {missing}); "
            "re-measure what the page fetches and update PYSCRIPT_BOOT_PLUGINS"
        )
    chunks = _static_closure(dist, [found[p] for p in plugins])
    return sorted({*core, *chunks})


def shipped_plugins(plugins_off: Iterable[str]) -> tuple[str, ...]:
    """The boot plugins the build ships: all but those turned off, and ``error`` always (the
    page imports it only for a config that cannot be parsed: PYSCRIPT_CORE_PATCH)."""
    off = set(plugins_off) - {"error"}
    return tuple(p for p in PYSCRIPT_BOOT_PLUGINS if p not in off)


def patch_pyscript_core(name: str, data: bytes) -> bytes:
    """PyScript file ``name`` as shipped: PYSCRIPT_CORE_PATCH (and, with PYSCRIPT_LAZY_PACKAGE,
    PYSCRIPT_SETUP_PATCH) applied to the core chunk."""
    chunk, sha256, old, new = config.PYSCRIPT_CORE_PATCH
    if name != chunk:
        return data
    if hashlib.sha256(data).hexdigest() != sha256:
        raise BuildError(
            f"@pyscript/core/dist/{chunk} is not the file PYSCRIPT_CORE_PATCH was made for: "
            "check what it does with the error plugin and with its Python set-up, "
            "and update PYSCRIPT_CORE_PATCH and PYSCRIPT_SETUP_PATCH"
        )
    text = data.decode("utf-8")
    patches = [("PYSCRIPT_CORE_PATCH", old, new)]
    if config.PYSCRIPT_LAZY_PACKAGE:
        patches.append(("PYSCRIPT_SETUP_PATCH", *config.PYSCRIPT_SETUP_PATCH))
    for label, old, new in patches:
        if len(old) != len(new):
            raise BuildError(f"{label} does not apply to {chunk}")
        text = _replace_once(text, old, new, f"{label} does not apply to {chunk}")
    return text.encode("utf-8")


def pyscript_package_files(core_chunk: str) -> dict[str, str]:
    """``{"pyscript/x.py": source}``: PyScript's package, which its Python set-up writes into
    the interpreter and which the page archive brings to the page's main thread instead
    (PYSCRIPT_SETUP_PATCH)."""
    try:
        return stdlib_trim.pyscript_package(core_chunk)
    except stdlib_trim.TrimError as exc:
        raise BuildError(str(exc)) from exc


def _replace_once(text: str, old: str, new: str, error: str) -> str:
    """``text`` with its one ``old`` replaced by ``new``; BuildError(``error``) unless ``old``
    occurs exactly once (a patch written for another version of the file)."""
    if text.count(old) != 1:
        raise BuildError(error)
    return text.replace(old, new)


def _replace_each(text: str, patches: Iterable[tuple[str, str]], error: str) -> str:
    """``text`` with each ``(old, new)`` of ``patches`` applied by _replace_once; the error
    names the patches, what to check, and the beginning of the text not found."""
    for old, new in patches:
        text = _replace_once(text, old, new, f"{error} ({old[:80]!r})")
    return text


def patch_pyodide(name: str, data: bytes, data_end: int) -> bytes:
    """Pyodide file ``name`` as shipped: PYODIDE_SLEEP_PATCH, PYODIDE_NO_JSPI_PATCH,
    PYODIDE_LINKER_PATCHES, PYODIDE_SNAPSHOT_PATCHES (for a wasm whose data segments end at
    ``data_end``) and PYODIDE_TASK_PATCHES applied to pyodide.asm.mjs, PYODIDE_LOADER_PATCHES to
    pyodide.mjs."""
    if name == "pyodide.mjs":
        loader = _replace_each(
            data.decode("utf-8"),
            vendor_patches.PYODIDE_LOADER_PATCHES,
            f"PYODIDE_LOADER_PATCHES do not apply to {name}: check where this Pyodide's "
            "loadPyodide awaits a snapshot",
        )
        return loader.encode("utf-8")
    target, old, new = vendor_patches.PYODIDE_SLEEP_PATCH
    if name != target:
        return data
    text = _replace_once(
        data.decode("utf-8"),
        old,
        new,
        f"PYODIDE_SLEEP_PATCH does not apply to {target}: check where this Pyodide makes "
        "its shared memory (syncSleep) and update the patch",
    )
    text = _replace_once(
        text,
        *vendor_patches.PYODIDE_NO_JSPI_PATCH,
        f"PYODIDE_NO_JSPI_PATCH does not apply to {target}: check how this Pyodide detects "
        "WebAssembly stack switching (JSPI) and update the patch",
    )
    text = _replace_each(
        text,
        vendor_patches.PYODIDE_LINKER_PATCHES,
        f"PYODIDE_LINKER_PATCHES do not apply to {target}: check how this Pyodide's linker "
        "adds JS functions to the table",
    )
    text = _replace_each(
        text,
        [
            (old, new.replace("{data_end}", str(data_end)))
            for old, new in vendor_patches.PYODIDE_SNAPSHOT_PATCHES
        ],
        f"PYODIDE_SNAPSHOT_PATCHES do not apply to {target}: check where this Pyodide "
        "instantiates its wasm and restores a snapshot",
    )
    text = _replace_each(
        text,
        vendor_patches.PYODIDE_TASK_PATCHES,
        f"PYODIDE_TASK_PATCHES do not apply to {target}: check how this Pyodide's linker "
        "receives the instance (receiveInstance, loadDylibs)",
    )
    return text.encode("utf-8")


def hint_eager_compile(out: Path, files: Iterable[str] = EAGER_COMPILE_FILES) -> None:
    """Put EAGER_COMPILE_HINT first in each of ``files`` of the site ``out``; a file missing
    (renamed by a new package version) fails the build rather than losing the hint unseen."""
    for rel in files:
        path = out / rel
        if not path.is_file():
            raise BuildError(f"EAGER_COMPILE_FILES: {rel} is not a file of the site")
        text = path.read_text(encoding="utf-8")
        if not text.startswith(EAGER_COMPILE_HINT):
            path.write_text(EAGER_COMPILE_HINT + text, encoding="utf-8")
