"""The build's memory snapshot and the packed wasm: made by Node with the vendored Pyodide
(tools/make_boot_snapshot.mjs), XOR-encoded (tools/snapshot_codec.py), packed with zstd (or
gzip), kept in caches between builds.

In: the vendored Pyodide, the site's trimmed standard library and page archive, the modules the
snapshot imports (sitebuild.imports.snapshot_modules). Out: the snapshot file and
``pyodide.asm.wasm.zst`` in the site, their site paths (None when they cannot be made), and the
packing and unpacking the page mirrors.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from pathlib import Path

import snapshot_codec
import stdlib_trim

from sitebuild import config
from sitebuild.base import ROOT, BuildError, copy_file, npm_version, write_atomic
from sitebuild.bytecode import PAGE_ARCHIVE
from sitebuild.vendor import STDLIB_URL

#: The build's memory snapshot (tools/make_boot_snapshot.mjs, run by Node with the vendored
#: Pyodide): named after the Pyodide version, since only that build can restore it. Encoded
#: (tools/snapshot_codec.py) and compressed by the build, unpacked by the page (GitHub Pages
#: serves a binary file as it is): zstd -19 (31 MB -> 2.53 MB, against 3.62 MB gzip -9: ~0.9 s
#: less on a 10 Mbit/s link, the page's largest download but one), decoded by the vendored
#: fzstd (FZSTD_FILE) in a worker as it arrives; gzip -9 when the build has no zstd
#: (snapshot_compressor), which the page inflates with DecompressionStream.
#: The name also holds a digest of the file: a snapshot only fits the page archive and the
#: standard library zip it was made with, and web/pyodide-boot.mjs keeps the unpacked snapshot in
#: Cache Storage under this name, so that a new deploy never restores an old one.
BOOT_SNAPSHOT_FILE = "vendor/pyodide/boot-snapshot-{version}-{digest}.bin.{ext}"
#: The zstd level and window of the build's snapshot: level 19 takes ~4.5 s (kept in
#: BOOT_SNAPSHOT_CACHE; 22 saves 3 KB more in 6 s). A 2 MB window (2**21) rather than level 19's
#: 8 MB: fzstd's streaming decoder copies its window at every block, and decoding the snapshot
#: took ~110 ms in Node against ~200 ms, for 72 KB more.
SNAPSHOT_ZSTD_LEVEL = 19
SNAPSHOT_ZSTD_WINDOW_LOG = 21
#: The first bytes of a zstd frame.
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: pyodide.asm.wasm as zstd (the snapshot's level and window), next to the file itself: 2.90 MB
#: against 3.53 MB as GitHub Pages gzips the wasm. A page that no service worker answers (a
#: first visit) downloads this instead and decodes it as it arrives, feeding the streaming
#: compile (web/pyodide-boot.mjs, PACKED_WASM; the solver's worker too, while the page is not
#: controlled); the service worker unpacks it into Cache Storage as the wasm itself (web/sw.js,
#: PACKED), which later visits compile from and Chromium keeps the compiled code of. None
#: without a zstd module (snapshot_compressor): the site then ships the wasm alone.
PACKED_WASM = ("vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.wasm.zst")
BOOT_SNAPSHOT_SCRIPT = ROOT / "tools" / "make_boot_snapshot.mjs"


def pack_snapshot(data: bytes) -> tuple[bytes, str]:
    """The build's snapshot compressed for the site and its file extension (snapshot_ext)."""
    packed = zstd_pack(data)
    if packed is None:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
    return packed, snapshot_ext(packed)


def zstd_pack(data: bytes) -> bytes | None:
    """``data`` as one zstd frame, at the level and window fzstd decodes well
    (SNAPSHOT_ZSTD_LEVEL, SNAPSHOT_ZSTD_WINDOW_LOG); None without a zstd module."""
    zstd = config.snapshot_compressor()
    if zstd is None:
        return None
    options = {
        zstd.CompressionParameter.compression_level: SNAPSHOT_ZSTD_LEVEL,
        zstd.CompressionParameter.window_log: SNAPSHOT_ZSTD_WINDOW_LOG,
    }
    return zstd.compress(data, options=options)  # type: ignore[no-any-return]


def pack_wasm(out: Path) -> str | None:
    """Writes PACKED_WASM's zstd copy of the site's wasm (cached in PACKED_WASM_CACHE); its site
    path, or None without a zstd module."""
    if config.snapshot_compressor() is None:
        return None
    plain, packed_rel = PACKED_WASM
    data = (out / plain).read_bytes()
    key = hashlib.sha256(data)
    key.update(json.dumps([SNAPSHOT_ZSTD_LEVEL, SNAPSHOT_ZSTD_WINDOW_LOG]).encode())
    cached = config.PACKED_WASM_CACHE / f"{key.hexdigest()[:32]}.zst"
    if cached.is_file():
        copy_file(cached, out / packed_rel)
        return packed_rel
    packed = zstd_pack(data)
    assert packed is not None  # a compressor, above
    (out / packed_rel).write_bytes(packed)
    with contextlib.suppress(OSError):  # a cache that cannot be written is no error
        write_atomic(cached, packed)
    return packed_rel


def snapshot_ext(packed: bytes) -> str:
    """The file extension of a packed snapshot, told by its first bytes, as the page tells
    them: zst or gz."""
    return "zst" if packed[:4] == ZSTD_MAGIC else "gz"


def unpack_snapshot(packed: bytes) -> bytes:
    """The bytes pack_snapshot() packed (zstd or gzip), as the page unpacks them."""
    if snapshot_ext(packed) == "zst":
        zstd = config.snapshot_compressor()
        if zstd is None:
            raise BuildError("a zstd snapshot, and no zstd module to unpack it")
        return bytes(zstd.decompress(packed))
    return gzip.decompress(packed)


def make_boot_snapshot(
    pyodide_dir: Path, out: Path, data_image: bytes, modules: Iterable[str] = ()
) -> str | None:
    """Write the build's memory snapshot into the site ``out``; its path in the site, or None
    (with a warning) when Node cannot make one: the page then starts CPython on a first visit.
    Made with the site's trimmed standard library (Python's zip importer keeps the zip's table of
    contents in memory: a snapshot only fits the zip it was made with) and, when the site has a
    page archive (PAGE_ARCHIVE), with ``modules`` of it imported (snapshot_modules); kept in
    BOOT_SNAPSHOT_CACHE, keyed by all of these, the Pyodide files and the scripts. Encoded with
    ``data_image``, the wasm's data segments (snapshot_codec.data_image)."""
    modules = sorted(modules)
    archive = out / PAGE_ARCHIVE
    if not archive.is_file():
        modules = []
    key = hashlib.sha256(json.dumps(modules).encode())
    for path in (
        pyodide_dir / "pyodide.asm.wasm",
        pyodide_dir / "pyodide.asm.mjs",
        out / STDLIB_URL,
        BOOT_SNAPSHOT_SCRIPT,
        Path(snapshot_codec.__file__),
        *([archive] if modules else []),
    ):
        key.update(hashlib.sha256(path.read_bytes()).digest())
    # how it is packed (pack_snapshot): the file's own first bytes tell it apart again below
    zstd = config.snapshot_compressor() is not None
    key.update(json.dumps([zstd, SNAPSHOT_ZSTD_LEVEL, SNAPSHOT_ZSTD_WINDOW_LOG]).encode())
    cached = config.BOOT_SNAPSHOT_CACHE / f"{key.hexdigest()[:32]}.bin"
    if not cached.is_file():
        part = cached.with_name(f"{cached.name}.tmp-{os.getpid()}")
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="solitaire-snapshot-") as files:
                args = [str(BOOT_SNAPSHOT_SCRIPT), str(part), str(out / STDLIB_URL)]
                if modules:
                    with tarfile.open(archive, "r:gz") as tar:
                        tar.extractall(files, filter="data")
                    args += [files, ",".join(modules)]
                stdlib_trim.run_node(config.NODE, args, config.NODE_TIMEOUT)
            if not part.is_file():
                raise ValueError(f"{BOOT_SNAPSHOT_SCRIPT.name} wrote no snapshot")
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
            print(f"build_site: warning: no boot snapshot: {exc}", file=sys.stderr)
            part.unlink(missing_ok=True)
            return None
        encoded = snapshot_codec.encode(part.read_bytes(), data_image)
        part.write_bytes(pack_snapshot(encoded)[0])
        part.replace(cached)
    data = cached.read_bytes()
    rel = BOOT_SNAPSHOT_FILE.format(
        version=npm_version(pyodide_dir),
        digest=hashlib.sha256(data).hexdigest()[:12],
        ext=snapshot_ext(data),
    )
    target = out / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return rel
