"""The service worker: ``web/sw.js`` stamped with the site's cache version, its precache list
and each precached file's size and SHA-256.

In: the built site's files and the template's marks. Out: sw.js's text (sitebuild.assemble
writes it at the site root, so that its scope is the whole site), or a BuildError when a mark
or a file is missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from sitebuild.base import BuildError

#: Placeholders in web/sw.js.
SW_VERSION_MARK = "__CACHE_VERSION__"
SW_PRECACHE_MARK = "/* __PRECACHE__ */"
SW_INTEGRITY_MARK = "/* __INTEGRITY__ */"
SW_PACKED_MARK = "/* __PACKED__ */"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_version(out: Path, paths: Iterable[str]) -> str:
    """A hash of every file's path and content: the cache version of the service worker."""
    h = hashlib.sha256()
    for rel in sorted(paths):
        h.update(f"{rel}\0{_digest(out / rel)}\n".encode())
    return h.hexdigest()[:16]


def file_integrity(out: Path, precache: Iterable[str]) -> dict[str, tuple[int, str]]:
    """``{url: (size, SHA-256 hex)}`` of each precached URL (``./`` is ``index.html``)."""
    table: dict[str, tuple[int, str]] = {}
    for url in precache:
        data = (out / (url.removeprefix("./") or "index.html")).read_bytes()
        table[url] = (len(data), hashlib.sha256(data).hexdigest())
    return table


def stamp_service_worker(
    template: str,
    version: str,
    precache: list[str],
    integrity: dict[str, tuple[int, str]],
    packed: dict[str, str] | None = None,
) -> str:
    """web/sw.js with the site's version, its files, their sizes and digests, and ``packed``
    ({"./file": "./file.zst"}: files the worker fetches as zstd and unpacks)."""
    marks = (SW_VERSION_MARK, SW_PRECACHE_MARK, SW_INTEGRITY_MARK, SW_PACKED_MARK)
    if any(template.count(mark) != 1 for mark in marks):
        raise BuildError(f"web/sw.js must contain each of {', '.join(marks)} once")
    if not set(integrity) <= set(precache):
        raise BuildError("the integrity table lists files that are not precached")
    packed = packed or {}
    if not {*packed, *packed.values()} <= set(integrity):
        raise BuildError("a packed file or its zstd copy is not precached with its digest")
    listing = "\n" + "".join(f"  {json.dumps(url)},\n" for url in precache)
    table = "\n" + "".join(
        f"  {json.dumps(url)}: [{size}, {json.dumps(digest)}],\n"
        for url, (size, digest) in integrity.items()
    )
    pairs = "".join(f"\n  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in packed.items())
    return (
        template.replace(SW_VERSION_MARK, version)
        .replace(SW_PRECACHE_MARK, listing)
        .replace(SW_INTEGRITY_MARK, table)
        .replace(SW_PACKED_MARK, pairs)
    )
