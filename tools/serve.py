#!/usr/bin/env python3
"""Serve a folder (default ``_site/``) on localhost with the MIME types the site needs.

``.wasm`` must be ``application/wasm`` (otherwise Pyodide silently never boots), ``.mjs``
``text/javascript``, ``.webmanifest`` ``application/manifest+json``. Every response carries
``Cache-Control: no-cache`` so that a rebuilt site is picked up at once (the browser revalidates
and gets a 304 when nothing changed). Used by ``make play`` and by the e2e tests.

Usage: ``python tools/serve.py [--dir _site] [--port 8000] [--host 127.0.0.1]``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
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
    ".py": "text/x-python",
    ".css": "text/css",
    ".html": "text/html",
    ".png": "image/png",
}


class SiteHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}  # noqa: RUF012
    quiet = False

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

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
        self, directory: Path, host: str = "127.0.0.1", port: int = 0, quiet: bool = True
    ) -> None:
        handler = functools.partial(
            QuietHandler if quiet else SiteHandler, directory=str(directory)
        )
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
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").is_file():
        print(f"serve: {args.dir}/index.html not found: build the site first", file=sys.stderr)
        return 1
    try:
        server = SiteServer(args.dir, args.host, args.port, quiet=False)
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
