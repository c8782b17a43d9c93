"""The build: every stage in its order, into a new folder swapped in at the end.

In: a checkout (``root``: index.html, web/, py/solitaire/, node_modules/) and build()'s options.
Out: the site folder and a Site (its files, cache version, files maps, bytecode outcome); any
problem is a BuildError.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import snapshot_codec
import stdlib_trim

from sitebuild import config
from sitebuild.base import MAIN_MODULE, PACKAGE_DIR, ROOT, BuildError, copy_file, relative, walk
from sitebuild.boot import (
    BOOT_FILES,
    INTERPRETER_URL,
    pyscript_config,
    stamp_boot_module,
    stamp_boot_snapshot,
    stamp_packed_wasm,
)
from sitebuild.bytecode import (
    PAGE_ARCHIVE,
    Bytecode,
    pack_bytecode,
    precompile,
    pyc_url,
    sourceless,
    with_bytecode,
)
from sitebuild.imports import main_python_files, python_files, snapshot_modules
from sitebuild.page import check_page, check_plugins_off, first_tables, render_page, stamp_release
from sitebuild.service_worker import file_integrity, site_version, stamp_service_worker
from sitebuild.snapshot import PACKED_WASM, make_boot_snapshot, pack_wasm, unpack_snapshot
from sitebuild.stdlib import trim_stdlib
from sitebuild.vendor import (
    FULL_STDLIB,
    FZSTD_CLASSIC_FILE,
    FZSTD_CLASSIC_SOURCE,
    FZSTD_FILE,
    FZSTD_SOURCE,
    PYODIDE_FILES,
    STDLIB_URL,
    check_pins,
    hint_eager_compile,
    patch_pyodide,
    patch_pyscript_core,
    pyscript_package_files,
    pyscript_runtime_files,
    shipped_plugins,
)
from solitaire.rules import GAMES

#: Files and folders of web/ published at the site root instead of under web/.
WEB_AT_ROOT = ("manifest.webmanifest", "icons/")


@dataclass
class Site:
    """The result of a build."""

    out: Path
    version: str
    runtime: list[str] = field(default_factory=list)  # site-relative paths under vendor/
    own: list[str] = field(default_factory=list)  # every other file
    python_files: dict[str, str] = field(default_factory=dict)  # URL -> interpreter FS path
    bytecode: str = ""  # whether the .pyc files are shipped, and why not

    @property
    def files(self) -> list[str]:
        return sorted(self.runtime + self.own)


def build(
    out: Path | None = None,
    root: Path = ROOT,
    *,
    require_index: bool = True,
    bytecode: bool = True,
    release: str = "",
    boot_snapshot: bool = True,
) -> Site:
    """Build the site into ``out`` (default ``root/_site``) from the sources in ``root``,
    replacing what was there.

    ``require_index``: fail when ``root/index.html`` is missing (else the site has no page).
    ``bytecode``: ship our modules precompiled for the vendored Pyodide
    (``__pycache__/X.<tag>.pyc``, unchecked-hash pycs, next to the sources in both file maps),
    so that the page's interpreter imports them without compiling the sources on every boot
    (docs/build.md, "Bytecode"); sources only when false (``--no-bytecode``) or when Node cannot
    run the pinned Pyodide. The game table is this checkout's ``solitaire.rules.GAMES``.
    ``release``: the label written into index.html's ``<meta name="release">`` ("dev" when
    empty); a different label is a different site, hence a new service worker.
    ``boot_snapshot``: ship a memory snapshot of the started interpreter, made here by Node
    (``make_boot_snapshot``), for the page's first visit (``--no-boot-snapshot``: none).

    The site is assembled in a sibling folder and swapped in at the end, so that a server or a
    test run using ``out`` never sees a half-built site.
    """
    out = (out or root / "_site").resolve()
    index = root / "index.html"
    if require_index and not index.is_file():
        raise BuildError("index.html is missing")
    page = None
    if index.is_file():
        tables = first_tables(root / "web" / "winnable", release)
        text = render_page(index.read_text(encoding="utf-8"), GAMES.values(), tables=tables)
        page = stamp_release(text, release)
    check_pins(root)
    if not (root / "web" / "sw.js").is_file():
        raise BuildError("web/sw.js is missing")
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    old = out.with_name(f"{out.name}.old-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        site = _assemble(tmp, root, page, bytecode, boot_snapshot)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    site.out = out
    return site


def _assemble(
    out: Path, root: Path, page: str | None, bytecode_wanted: bool, snapshot_wanted: bool = True
) -> Site:
    """The site in ``out`` (a new folder); ``page``: index.html as rendered (None: no page)."""
    out.mkdir(parents=True)

    runtime: list[str] = []
    pyodide = root / "node_modules" / "pyodide"
    data_image = snapshot_codec.data_image((pyodide / "pyodide.asm.wasm").read_bytes())
    for name in PYODIDE_FILES:
        vendored = out / "vendor" / "pyodide" / name
        vendored.parent.mkdir(parents=True, exist_ok=True)
        vendored.write_bytes(patch_pyodide(name, (pyodide / name).read_bytes(), len(data_image)))
        if name != FULL_STDLIB:
            runtime.append(f"vendor/pyodide/{name}")
    dist = root / "node_modules" / "@pyscript" / "core" / "dist"
    pyscript = pyscript_runtime_files(dist, shipped_plugins(config.PYSCRIPT_PLUGINS_OFF))
    if config.PYSCRIPT_CORE_PATCH[0] not in pyscript:
        raise BuildError(
            f"PyScript's core chunk is no longer {config.PYSCRIPT_CORE_PATCH[0]}: "
            "check what it does with the error plugin and update PYSCRIPT_CORE_PATCH"
        )
    for name in pyscript:
        shipped_file = out / "vendor" / "pyscript" / name
        shipped_file.parent.mkdir(parents=True, exist_ok=True)
        shipped_file.write_bytes(patch_pyscript_core(name, (dist / name).read_bytes()))
        runtime.append(f"vendor/pyscript/{name}")
    copy_file(root / FZSTD_SOURCE, out / FZSTD_FILE)
    copy_file(root / FZSTD_CLASSIC_SOURCE, out / FZSTD_CLASSIC_FILE)
    runtime += [FZSTD_FILE, FZSTD_CLASSIC_FILE]
    packed_wasm = pack_wasm(out)
    if packed_wasm is not None:
        runtime.append(packed_wasm)
    core_chunk = (out / "vendor" / "pyscript" / config.PYSCRIPT_CORE_PATCH[0]).read_text("utf-8")
    stdlib_note = trim_stdlib(out, root, core_chunk)
    runtime.append(STDLIB_URL)
    for loader in ("pyodide-boot.mjs", "solver-worker.mjs", "pyodide-snapshot-worker.mjs"):
        text = (root / "web" / loader).read_text("utf-8")
        named = stdlib_trim.TRIMMED_NAME in text or "pyodide-boot.mjs" in text
        if "stdLibURL" not in text or not named:
            raise BuildError(f"web/{loader} must load {STDLIB_URL} (its stdLibURL)")

    own: list[str] = []
    if page is not None:
        (out / "index.html").write_text(page, encoding="utf-8")
        own.append("index.html")
    for path in walk(root / "web"):
        rel = relative(path, root / "web")
        if rel == "sw.js":
            continue  # stamped below, served from the root so that its scope is the whole site
        dest = rel if rel.startswith(WEB_AT_ROOT) else f"web/{rel}"
        copy_file(path, out / dest)
        own.append(dest)
    files = python_files(root / PACKAGE_DIR)
    for url in files:
        rel = url.removeprefix("./")
        copy_file(root / rel, out / rel)
        own.append(rel)
    if not (root / PACKAGE_DIR / MAIN_MODULE).is_file():
        raise BuildError(f"{PACKAGE_DIR}/{MAIN_MODULE} is missing")
    page_files = main_python_files(root / PACKAGE_DIR, files)
    sources = [root / url.removeprefix("./") for url in files]
    bytecode = (
        precompile(root, sources)
        if bytecode_wanted
        else Bytecode(note="sources only (bytecode=False)")
    )
    shipped: set[str] = set()
    for src, data in bytecode.pycs.items():
        url = pyc_url(f"./{relative(src, root)}", bytecode.cache_tag)
        (out / url).parent.mkdir(parents=True, exist_ok=True)
        (out / url).write_bytes(data)
        own.append(url.removeprefix("./"))
        shipped.add(f"./{relative(src, root)}")
    page_files = sourceless(page_files, shipped, bytecode.cache_tag)
    package = pyscript_package_files(core_chunk) if config.PYSCRIPT_LAZY_PACKAGE else {}
    if shipped:
        page_files = pack_bytecode(out, page_files, package)
        own.append(PAGE_ARCHIVE)
    else:
        for name, text in package.items():
            (out / "py" / name).parent.mkdir(parents=True, exist_ok=True)
            (out / "py" / name).write_text(text, encoding="utf-8")
            own.append(f"py/{name}")
            page_files[f"./py/{name}"] = f"./{name}"
    # made with the trimmed zip and the page archive, which must exist by now (the snapshot
    # fits only them)
    snapshot = (
        make_boot_snapshot(pyodide, out, data_image, snapshot_modules(root / PACKAGE_DIR))
        if snapshot_wanted
        else None
    )
    if snapshot is not None:
        runtime.append(snapshot)
    boot_module = out / "web" / "pyodide-boot.mjs"
    if boot_module.is_file():
        lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
        text = stamp_boot_module(boot_module.read_text(encoding="utf-8"), lock)
        size = len(unpack_snapshot((out / snapshot).read_bytes())) if snapshot else None
        snapshot_bytes = (out / snapshot).stat().st_size if snapshot else None
        text = stamp_boot_snapshot(
            text, f"./{snapshot}" if snapshot else None, size, snapshot_bytes
        )
        wasm_bytes = (out / packed_wasm).stat().st_size if packed_wasm else None
        text = stamp_packed_wasm(text, packed_wasm, wasm_bytes)
        boot_module.write_text(text, encoding="utf-8")
    if stdlib_note:
        print(f"build_site: warning: {stdlib_note}", file=sys.stderr)
    if bytecode.note.startswith("sources only:"):
        print(f"build_site: warning: {bytecode.note}", file=sys.stderr)
    configs = {
        "pyscript.json": pyscript_config(
            None, config.MAIN_INTERPRETER_URL, config.PYSCRIPT_PLUGINS_OFF
        ),
        "pyscript-worker.json": pyscript_config(with_bytecode(files, shipped, bytecode.cache_tag)),
        BOOT_FILES: page_files,
    }
    for name, contents in configs.items():
        (out / name).write_text(json.dumps(contents, indent=2) + "\n", encoding="utf-8")
        own.append(name)
    for url in (config.MAIN_INTERPRETER_URL, INTERPRETER_URL):
        if not (out / url).is_file():
            raise BuildError(f"interpreter {url} is not a file of the site")
    if page is not None:
        check_page(out, "index.html")
        check_plugins_off(page, "index.html", config.PYSCRIPT_PLUGINS_OFF)
    hint_eager_compile(out)
    # GitHub Pages: serve files as they are (no Jekyll processing).
    (out / ".nojekyll").write_text("", encoding="utf-8")

    version = site_version(out, runtime + own)
    precache = ["./", *(f"./{p}" for p in sorted(runtime + own))]
    template = (root / "web" / "sw.js").read_text(encoding="utf-8")
    # without a page, "./" is no file: the worker then only caches it unchecked
    integrity = file_integrity(out, [u for u in precache if u != "./" or page is not None])
    packed = {f"./{PACKED_WASM[0]}": f"./{packed_wasm}"} if packed_wasm else {}
    worker = stamp_service_worker(template, version, precache, integrity, packed)
    (out / "sw.js").write_text(worker, "utf-8")
    own.append("sw.js")
    return Site(
        out=out,
        version=version,
        runtime=sorted(runtime),
        own=sorted(own),
        python_files=files,
        bytecode=bytecode.note,
    )


def _sizes(out: Path, paths: list[str]) -> tuple[int, int]:
    raw = gz = 0
    for rel in paths:
        data = (out / rel).read_bytes()
        raw += len(data)
        gz += len(zlib.compress(data, 6))
    return raw, gz


def summary(site: Site) -> str:
    def mb(n: int) -> str:
        return f"{n / 1e6:7.2f} MB"

    lines = [f"built {site.out}  (cache version {site.version}; {site.bytecode})"]
    total_raw = total_gz = 0
    for label, paths in (("runtime (vendor/)", site.runtime), ("own files", site.own)):
        raw, gz = _sizes(site.out, paths)
        total_raw += raw
        total_gz += gz
        lines.append(f"  {label:18} {len(paths):4} files {mb(raw)} raw {mb(gz)} gzip")
    n = len(site.files)
    lines.append(f"  {'total':18} {n:4} files {mb(total_raw)} raw {mb(total_gz)} gzip")
    return "\n".join(lines)
