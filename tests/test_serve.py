"""tools/serve.py: gzip negotiated by Accept-Encoding, for the types GitHub Pages compresses."""

from __future__ import annotations

import gzip
import http.client
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import serve

ROOT = Path(__file__).resolve().parent.parent

FILES = {
    "index.html": b"<!doctype html><title>t</title>" + b"<p>hello</p>" * 200,
    "app.js": b"export const x = 1;\n" * 300,
    "data.json": b'{"a": [' + b"1, " * 500 + b"1]}",
    "core.wasm": b"\x00asm\x01\x00\x00\x00" + bytes(range(256)) * 40,
    "icon.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 3000,
    "page.tar.gz": gzip.compress(b"x" * 4000),
    "sub/index.html": b"<p>sub</p>" * 100,
}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, serve.SiteServer]]:
    for rel, data in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    with serve.SiteServer(tmp_path) as server:
        yield tmp_path, server


def get(
    server: serve.SiteServer, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


@pytest.mark.parametrize("rel", ["index.html", "app.js", "data.json", "core.wasm"])
def test_compressible_types_are_gzipped_when_accepted(
    site: tuple[Path, serve.SiteServer], rel: str
) -> None:
    _, server = site
    status, headers, body = get(server, f"/{rel}", {"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert headers["vary"] == "Accept-Encoding"
    assert int(headers["content-length"]) == len(body) < len(FILES[rel])
    assert gzip.decompress(body) == FILES[rel]


@pytest.mark.parametrize("rel", ["index.html", "core.wasm"])
@pytest.mark.parametrize("accept", [None, "identity", "br", "gzip;q=0", "*;q=0", "deflate"])
def test_identity_when_gzip_is_not_accepted(
    site: tuple[Path, serve.SiteServer], rel: str, accept: str | None
) -> None:
    _, server = site
    status, headers, body = get(server, f"/{rel}", {"Accept-Encoding": accept} if accept else {})
    assert status == 200
    assert "content-encoding" not in headers
    assert headers["vary"] == "Accept-Encoding"
    assert body == FILES[rel]


@pytest.mark.parametrize("rel", ["icon.png", "page.tar.gz"])
def test_types_github_pages_does_not_compress_stay_identity(
    site: tuple[Path, serve.SiteServer], rel: str
) -> None:
    _, server = site
    status, headers, body = get(server, f"/{rel}", {"Accept-Encoding": "gzip"})
    assert status == 200
    assert "content-encoding" not in headers
    assert body == FILES[rel]


def test_directory_index_and_mime_types(site: tuple[Path, serve.SiteServer]) -> None:
    _, server = site
    status, headers, body = get(server, "/sub/", {"Accept-Encoding": "gzip"})
    assert status == 200
    assert headers["content-type"] == "text/html"
    assert gzip.decompress(body) == FILES["sub/index.html"]
    status, headers, _ = get(server, "/core.wasm", {"Accept-Encoding": "gzip"})
    assert headers["content-type"] == "application/wasm"
    assert headers["cache-control"] == "no-cache"
    status, headers, _ = get(server, "/sub", {"Accept-Encoding": "gzip"})
    assert status == 301  # the directory redirect is unchanged


def test_compressed_bodies_are_cached_until_the_file_changes(
    site: tuple[Path, serve.SiteServer],
) -> None:
    root, server = site
    assert server.gzip_cache is not None
    for _ in range(3):
        get(server, "/app.js", {"Accept-Encoding": "gzip"})
    assert server.gzip_cache.compressions == 1
    new = b"export const y = 2;\n" * 100
    (root / "app.js").write_bytes(new)
    st = (root / "app.js").stat()
    os.utime(root / "app.js", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    _, _, body = get(server, "/app.js", {"Accept-Encoding": "gzip"})
    assert gzip.decompress(body) == new
    assert server.gzip_cache.compressions == 2


def test_not_modified_with_gzip(site: tuple[Path, serve.SiteServer]) -> None:
    _, server = site
    _, headers, _ = get(server, "/app.js", {"Accept-Encoding": "gzip"})
    status, _, body = get(
        server,
        "/app.js",
        {"Accept-Encoding": "gzip", "If-Modified-Since": headers["last-modified"]},
    )
    assert status == 304
    assert body == b""


def test_gzip_off(tmp_path: Path) -> None:
    (tmp_path / "app.js").write_bytes(FILES["app.js"])
    with serve.SiteServer(tmp_path, gzip=False) as server:
        _, headers, body = get(server, "/app.js", {"Accept-Encoding": "gzip"})
    assert "content-encoding" not in headers
    assert body == FILES["app.js"]


@pytest.mark.parametrize(
    ("header", "ok"),
    [
        ("gzip", True),
        ("GZIP;q=0.5", True),
        ("br, gzip;q=0", False),
        ("*", True),
        ("*;q=0, gzip", True),
        ("gzip;q=bad", False),
        ("", False),
    ],
)
def test_accepts_gzip(header: str, ok: bool) -> None:
    assert serve.accepts_gzip(header) is ok
