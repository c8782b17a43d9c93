#!/usr/bin/env python3
"""Serve a folder (default ``_site/``) on localhost with the MIME types the site needs.

``.wasm`` must be ``application/wasm`` (otherwise Pyodide silently never boots), ``.mjs``
``text/javascript``, ``.webmanifest`` ``application/manifest+json``. Every response carries
``Cache-Control: no-cache`` so that a rebuilt site is picked up at once (the browser revalidates
and gets a 304 when nothing changed). Used by ``make play``, the e2e tests and the benchmarks.

Compressed as GitHub Pages serves a site, so that local byte counts and load times match a
deploy: a request whose ``Accept-Encoding`` allows gzip gets ``Content-Encoding: gzip`` for the
types in ``GZIP_TYPES`` (text, JavaScript, JSON, the web manifest, SVG, XML and WebAssembly);
images, zip files and the gzipped archives stay as they are (identity). GitHub Pages names types
after the ``mime-db`` package and compresses on the fly the types it marks compressible, which
include ``application/wasm`` (a ``.wasm`` file of a github.io site is sent gzipped). Responses of
a compressible type carry ``Vary: Accept-Encoding``. A compressed body is kept in memory, keyed by
the file's path, size and modification time, so each file is compressed once per server.

Usage: ``python tools/serve.py [--dir _site] [--port 8000] [--host 127.0.0.1] [--no-gzip]``.
"""

from __future__ import annotations

import argparse
import contextlib
import email.utils
import functools
import gzip
import io
import os
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".zip": "application/zip",
    ".zst": "application/zstd",  # mime-db: not compressible, so sent as it is
    ".py": "text/x-python",
    ".css": "text/css",
    ".html": "text/html",
    ".png": "image/png",
}

#: Content types sent gzipped to a client that accepts it (any ``text/*`` too).
GZIP_TYPES = frozenset(
    {
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "application/wasm",
        "application/xml",
        "image/svg+xml",
    }
)
#: gzip level of the compressed bodies (zlib's default, a usual server setting).
GZIP_LEVEL = 6


def compressible(content_type: str) -> bool:
    """Whether GitHub Pages (and so this server) compresses a body of this type."""
    base = content_type.split(";", 1)[0].strip().lower()
    return base.startswith("text/") or base in GZIP_TYPES


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip (``gzip`` or ``*`` with q > 0)."""
    if not header:
        return False
    allowed: dict[str, bool] = {}
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        allowed[name.strip().lower()] = q > 0
    if "gzip" in allowed:
        return allowed["gzip"]
    return allowed.get("*", False)


class GzipCache:
    """Compressed bodies by (path, size, mtime): a file is compressed once while unchanged."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bodies: dict[str, tuple[tuple[int, int], bytes]] = {}
        self.compressions = 0  # how many times a body was compressed (the tests read it)

    def get(self, path: str, stamp: tuple[int, int]) -> bytes:
        with self._lock:
            hit = self._bodies.get(path)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        with open(path, "rb") as f:
            body = gzip.compress(f.read(), compresslevel=GZIP_LEVEL, mtime=0)
        with self._lock:
            self._bodies[path] = (stamp, body)
            self.compressions += 1
        return body


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}  # noqa: RUF012
    quiet = False
    #: None: no compression; otherwise the server's cache of compressed bodies.
    gzip_cache: GzipCache | None = None
    _vary = False  # the response being sent is a compressible type's identity variant

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> Any:
        """As SimpleHTTPRequestHandler's, plus the gzip variant of a compressible file."""
        self._vary = False
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
            index = os.path.join(path, "index.html")
            path = index if os.path.isfile(index) else path
        if self.gzip_cache is None or not os.path.isfile(path):
            return super().send_head()
        ctype = self.guess_type(path)
        if not compressible(ctype):
            return super().send_head()
        if not accepts_gzip(self.headers.get("Accept-Encoding")):
            self._vary = True
            return super().send_head()
        st = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and not self.headers.get("If-None-Match"):
            with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                when = email.utils.parsedate_to_datetime(since)
                if int(st.st_mtime) <= when.timestamp():
                    self.send_response(304)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
        body = self.gzip_cache.get(path, (st.st_size, st.st_mtime_ns))
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def send_header(self, keyword: str, value: str) -> None:
        super().send_header(keyword, value)
        # an identity response of a compressible type names the header its variants differ by
        if keyword.lower() == "content-type" and self._vary:
            self._vary = False
            super().send_header("Vary", "Accept-Encoding")

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class QuietHandler(SiteHandler):
    quiet = True

    def handle(self) -> None:
        # A browser closing a connection mid-response is not an error worth a traceback.
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            super().handle()


class SiteServer:
    """A threaded static server in a background thread: ``start()``, ``url``, ``stop()``."""

    def __init__(
        self,
        directory: Path,
        host: str = "127.0.0.1",
        port: int = 0,
        quiet: bool = True,
        gzip: bool = True,
    ) -> None:
        base = QuietHandler if quiet else SiteHandler
        #: compressed bodies, shared by this server's requests (None: gzip off)
        self.gzip_cache = GzipCache() if gzip else None
        handler_class = type(base.__name__, (base,), {"gzip_cache": self.gzip_cache})
        handler = functools.partial(handler_class, directory=str(directory))
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.host = host
        self.port = int(self.httpd.server_address[1])
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> SiteServer:
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, daemon=True, name=f"site-server-{self.port}"
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (idempotent)."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self.httpd.server_close()

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the built site on localhost.")
    parser.add_argument("--dir", type=Path, default=ROOT / "_site")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--no-gzip", action="store_true", help="send every file as it is (no Content-Encoding)"
    )
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").is_file():
        print(f"serve: {args.dir}/index.html not found: build the site first", file=sys.stderr)
        return 1
    try:
        server = SiteServer(args.dir, args.host, args.port, quiet=False, gzip=not args.no_gzip)
    except OSError as exc:
        print(
            f"serve: cannot listen on {args.host}:{args.port}: {exc} (try PORT=8001 make play)",
            file=sys.stderr,
        )
        return 1
    print(f"\n  Serving {args.dir} -- open {server.url}  (Ctrl+C to stop)\n", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
