"""The page's bytecode: our modules compiled by the vendored Pyodide under Node
(compile_pyc.mjs), kept in a cache, and packed into one archive for the page.

In: the package's sources and the vendored Pyodide. Out: the pyc bytes (or a note saying why the
site ships sources only), the files maps with them, and ``py/page.tar.gz``.
"""

from __future__ import annotations

import _imp
import contextlib
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import stdlib_trim

from sitebuild import config
from sitebuild.base import (
    PACKAGE,
    PACKAGE_DIR,
    PYODIDE_HOME,
    ROOT,
    BuildError,
    npm_version,
    relative,
    write_atomic,
)

#: The page's bytecode in one gzipped tar archive, listed in pyodide-files.json as
#: ``{archive URL: folder}`` and unpacked into that folder by web/pyodide-boot.mjs: one request
#: instead of one per module, and one gzip stream over every module (smaller than a gzip of each).
#: A binary file: GitHub Pages serves it as it is (it gzips none of it for us).
PAGE_ARCHIVE = "py/page.tar.gz"
#: What the compiled files are, part of their cache folder's name: a change to how they are
#: compiled (here: docstrings blanked, no column positions, COMPILE_PYC_SCRIPT) must not reuse files
#: compiled before.
PYC_FLAVOUR = "docstrings-dot-no-columns"
#: Run by Node: starts the pinned Pyodide, writes the sources into its file system at the paths
#: the page uses, compiles them and copies the .pyc files out. argv: pyodide dir, jobs.json
#: ({FS path: host source file}), output dir; prints a JSON summary.
#: Each module is compiled from its AST with every docstring replaced by "." (docstrings are
#: ~12 % of the bytecode and nothing reads them; "." keeps ``__doc__`` truthy (" " is stripped):
#: ``dataclasses`` calls ``inspect.signature`` to make one for a class without), every node keeps
#: its position, so line numbers stay those of the source. The pyc is an unchecked-hash one (the
#: importer does not even hash the source) holding the hash of the original source bytes, as
#: py_compile would write it. Compiled without the column of each instruction
#: (PYTHONNODEBUGRANGES, as the build's snapshot: tools/make_boot_snapshot.mjs): only
#: tracebacks' ^^^ markers read them, and the bytecode is ~20 % smaller without.
COMPILE_PYC_SCRIPT = ROOT / "tools" / "sitebuild" / "compile_pyc.mjs"


@dataclass
class Bytecode:
    """The result of :func:`precompile`: ``{source file: pyc bytes}`` and what happened."""

    pycs: dict[Path, bytes] = field(default_factory=dict)
    cache_tag: str = ""
    note: str = "sources only"


def _pyc_key(rel: str, source: bytes) -> str:
    return hashlib.sha256(rel.encode() + b"\0" + source).hexdigest()


def _pyodide_id(pyodide_dir: Path) -> str:
    """The cache folder name: the vendored Pyodide (npm version, its Python) and PYC_FLAVOUR."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    python = lock.get("info", {}).get("python", "unknown")
    return re.sub(r"[^\w.-]", "_", f"{npm_version(pyodide_dir)}-py{python}-{PYC_FLAVOUR}")


def _run_node_compiler(
    pyodide_dir: Path, jobs: dict[str, Path]
) -> tuple[dict[str, object], dict[str, bytes]]:
    """Compile ``jobs`` ({FS path: source file}) with the vendored Pyodide under Node."""
    with tempfile.TemporaryDirectory(prefix="solitaire-pyc-") as tmp:
        work = Path(tmp)
        (work / "jobs.json").write_text(
            json.dumps({k: str(v) for k, v in jobs.items()}), encoding="utf-8"
        )
        (work / "out").mkdir()
        try:
            stdout = stdlib_trim.run_node(
                config.NODE,
                [
                    str(COMPILE_PYC_SCRIPT),
                    str(pyodide_dir),
                    str(work / "jobs.json"),
                    str(work / "out"),
                ],
                config.NODE_TIMEOUT,
            )
        except ValueError as exc:
            raise BuildError(str(exc)) from exc
        meta = json.loads(stdout.strip().splitlines()[-1])
        names: dict[str, str] = meta.pop("files")
        pycs = {path: (work / "out" / name).read_bytes() for path, name in names.items()}
    return meta, pycs


def _hash_matches(pyc: bytes, source: bytes) -> bool:
    """Whether a hash-based pyc holds the hash of ``source`` (CPython's keyed SipHash-1-3,
    which this Python computes like Pyodide's; not checked on a Python built otherwise)."""
    source_hash = getattr(_imp, "source_hash", None)
    if source_hash is None or sys.hash_info.algorithm != "siphash13":
        return True
    return bool(source_hash(int.from_bytes(pyc[:4], "little"), source) == pyc[8:16])


def _save_pycs(cache: Path, runtime: dict[str, object], pycs: dict[str, bytes]) -> None:
    """Keep compiled files for the next build (atomically: builds may run in parallel). A cache
    that cannot be written is no error."""
    files = {f"{key}.pyc": data for key, data in pycs.items()}
    files["runtime.json"] = json.dumps(runtime).encode()
    try:
        for name, data in files.items():
            write_atomic(cache / name, data)
    except OSError:
        pass


def precompile(root: Path, sources: Iterable[Path]) -> Bytecode:
    """Bytecode of ``sources`` (files under ``root/PACKAGE_DIR``) for the vendored Pyodide, from
    PYC_CACHE or compiled by Pyodide under Node; sources only (``Bytecode.note`` says why) when
    that cannot be done. Never a pyc of other source bytes: the cache key holds them."""
    py_dir = root / PACKAGE_DIR
    pyodide_dir = (root / "node_modules" / "pyodide").resolve()
    cache = config.PYC_CACHE / _pyodide_id(pyodide_dir)
    wanted: dict[Path, str] = {}  # source file -> cache key
    for path in sources:
        rel = relative(path, py_dir)
        wanted[path] = _pyc_key(f"{PACKAGE}/{rel}", path.read_bytes())
    runtime: dict[str, object] | None = None
    with contextlib.suppress(OSError, ValueError):
        runtime = json.loads((cache / "runtime.json").read_text(encoding="utf-8"))
    missing = [p for p in wanted if runtime is None or not (cache / f"{wanted[p]}.pyc").is_file()]
    fresh: dict[str, bytes] = {}  # cache key -> pyc
    if missing or runtime is None:
        jobs = {f"{PYODIDE_HOME}/{PACKAGE}/{relative(p, py_dir)}": p for p in missing}
        try:
            if shutil.which(config.NODE) is None:
                raise BuildError(f"{config.NODE!r} not found")
            runtime, compiled = _run_node_compiler(pyodide_dir, jobs)
        except (BuildError, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as exc:
            return Bytecode(note=f"sources only: could not run Pyodide under Node ({exc})")
        fresh = {wanted[path]: compiled[fs_path] for fs_path, path in jobs.items()}
        _save_pycs(cache, runtime, fresh)
    magic = bytes.fromhex(str(runtime["magic"]))
    if runtime.get("optimize"):
        return Bytecode(note="sources only: Pyodide runs with -O (unexpected)")
    pycs: dict[Path, bytes] = {}
    for path, key in wanted.items():
        data = fresh[key] if key in fresh else (cache / f"{key}.pyc").read_bytes()
        # Magic number of this Pyodide's Python; flags 0b01: hash-based, unchecked.
        if data[:4] != magic or int.from_bytes(data[4:8], "little") != 1:
            return Bytecode(note=f"sources only: unexpected pyc header for {path.name}")
        if not _hash_matches(data, path.read_bytes()):
            return Bytecode(note=f"sources only: the pyc of {path.name} is not of its source")
        pycs[path] = data
    how = f"compiled {len(missing)}, cached {len(wanted) - len(missing)}"
    return Bytecode(pycs=pycs, cache_tag=str(runtime["cache_tag"]), note=f"bytecode ({how})")


def pyc_url(url: str, cache_tag: str) -> str:
    """``./a/b.py`` -> ``./a/__pycache__/b.<cache_tag>.pyc`` (also for FS paths)."""
    folder, _, name = url.rpartition("/")
    return f"{folder}/__pycache__/{name.removesuffix('.py')}.{cache_tag}.pyc"


def with_bytecode(files: dict[str, str], shipped: set[str], cache_tag: str) -> dict[str, str]:
    """A files map plus, after each source in ``shipped`` (URLs), its pyc."""
    out: dict[str, str] = {}
    for url, path in files.items():
        out[url] = path
        if url in shipped:
            out[pyc_url(url, cache_tag)] = pyc_url(path, cache_tag)
    return out


def sourceless(files: dict[str, str], shipped: set[str], cache_tag: str) -> dict[str, str]:
    """A files map in which each source in ``shipped`` (URLs) is replaced by its pyc, written
    where the source would be (``solitaire/x.pyc``): Python imports such a sourceless pyc
    directly, so the page fetches the bytecode alone (the sources are about a third of the
    page's own bytes). Tracebacks then name the file and line without quoting it."""
    out: dict[str, str] = {}
    for url, path in files.items():
        if url in shipped:
            out[pyc_url(url, cache_tag)] = path.removesuffix(".py") + ".pyc"
        else:
            out[url] = path
    return out


def tar_gz(members: Iterable[tuple[str, bytes]]) -> bytes:
    """A gzipped ustar archive of ``members`` ((name, bytes), regular files, in that order), the
    same bytes for the same members: no times, owners or modes of the build machine, no pax
    headers (web/pyodide-boot.mjs reads plain ustar)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), compresslevel=9, mtime=0)


def pack_bytecode(
    out: Path, files: dict[str, str], extra: dict[str, str] | None = None
) -> dict[str, str]:
    """Write the pycs of the files map ``files`` (URLs in ``out``) into ``out/PAGE_ARCHIVE``,
    each named by its path in the interpreter (``solitaire/x.pyc``), then the files ``extra``
    ({path: text}, PyScript's package: pyscript_package_files), and return the map with them
    replaced by ``{archive URL: "./"}`` (unpacked into the working directory); the map as it
    is when it holds no pyc."""
    pycs = {url: path for url, path in files.items() if url.endswith(".pyc")}
    if not pycs:
        return dict(files)
    members = [(path.removeprefix("./"), (out / url).read_bytes()) for url, path in pycs.items()]
    members += [(path, text.encode("utf-8")) for path, text in (extra or {}).items()]
    (out / PAGE_ARCHIVE).write_bytes(tar_gz(members))
    rest = {url: path for url, path in files.items() if url not in pycs}
    return {f"./{PAGE_ARCHIVE}": "./", **rest}
