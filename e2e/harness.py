"""Helpers for the browser tests (the fixtures are in conftest.py).

``from harness import open_game, wait_ready`` in an e2e test; see docs/build.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    Request,
    Response,
    Route,
    ViewportSize,
    WebError,
)

ROOT = Path(__file__).resolve().parent.parent

#: Debian's Chromium, used when it exists (else Playwright's own browser).
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    # Nothing but the local server can even be resolved (this also covers requests that
    # Playwright's routing cannot see, such as a service worker's own fetches).
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
#: Cold Pyodide boot is 3-5 s on the CI machine; leave room for a loaded 2-core box.
BOOT_TIMEOUT_MS = 60_000
ACTION_TIMEOUT_MS = 15_000
#: A screenshot waits for the page to paint a stable frame; on a loaded 2-core box (the
#: solver worker booting beside the page) that has taken longer than an action's 15 s.
SCREENSHOT_TIMEOUT_MS = 60_000
VIEWPORT: ViewportSize = {"width": 1280, "height": 800}
ARTIFACTS = ROOT / "test-results"


def screenshot(target: Page | Locator, path: str, **options: Any) -> None:
    """Keep a picture of the page (or of one element) for the eye: the tests' pictures are
    looked at, not compared. ``options`` go to Playwright's ``screenshot`` (``clip``,
    ``full_page``); the timeout is a screenshot's, longer than an action's."""
    target.screenshot(path=path, timeout=SCREENSHOT_TIMEOUT_MS, **options)


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


#: A screen to open a page on (conftest's ``screen_page``): (width, height, touch). A touch
#: screen is a mobile one with 2x pixels; the others are desktops with a mouse.
Screen = tuple[int, int, bool]


@dataclass
class Watch:
    """What a browser context did that a clean run never does."""

    origins: set[str] = field(default_factory=set)  # "http://127.0.0.1:PORT"
    blocked: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)  # securitypolicyviolation events
    failed_requests: list[str] = field(default_factory=list)  # diagnostics only
    console: list[str] = field(default_factory=list)  # every console line, for reports
    requested: list[str] = field(default_factory=list)  # every URL requested, in order
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def reset(self) -> None:
        """Forget everything recorded and every allowance (the origins stay)."""
        for name in (
            "blocked",
            "http_errors",
            "console_errors",
            "page_errors",
            "csp_violations",
            "failed_requests",
            "console",
            "requested",
            "allowed",
        ):
            getattr(self, name).clear()

    def allow_console(self, pattern: str) -> None:
        """Excuse console errors and page errors matching ``pattern`` (deliberate errors)."""
        self.allowed.append(re.compile(pattern))

    def is_local(self, url: str) -> bool:
        return origin(url) in self.origins

    def local_paths(self) -> list[str]:
        """Site-relative paths of the local requests made so far (no duplicates, in order)."""
        seen: dict[str, None] = {}
        for url in self.requested:
            if self.is_local(url):
                seen.setdefault(urlsplit(url).path.lstrip("/") or "index.html", None)
        return list(seen)

    def problems(self) -> list[str]:
        def excused(text: str) -> bool:
            return any(p.search(text) for p in self.allowed)

        out = [f"blocked non-local request: {u}" for u in self.blocked]
        out += [f"HTTP error: {u}" for u in self.http_errors]
        out += [f"console error: {t}" for t in self.console_errors if not excused(t)]
        out += [f"page error: {t}" for t in self.page_errors if not excused(t)]
        out += [f"Content-Security-Policy violation: {t}" for t in self.csp_violations]
        return out

    def report(self, problems: list[str]) -> str:
        lines = ["the browser did something a clean run never does:"]
        lines += [f"  - {p}" for p in problems]
        if self.failed_requests:
            lines.append("failed requests:")
            lines += [f"    {r}" for r in self.failed_requests[-20:]]
        if self.console:
            lines.append("last console lines:")
            lines += [f"    {c}" for c in self.console[-30:]]
        return "\n".join(lines)

    def assert_clean(self) -> None:
        """Fail now (rather than at teardown) if anything was recorded."""
        problems = self.problems()
        if problems:
            pytest.fail(self.report(problems), pytrace=False)

    # -- listeners

    def on_console(self, msg: ConsoleMessage) -> None:
        where = msg.location.get("url", "") if msg.location else ""
        text = msg.text + (f"  [{where}]" if where else "")
        self.console.append(f"{msg.type}: {text}")
        if msg.type == "error":
            self.console_errors.append(text)

    def on_web_error(self, error: WebError) -> None:
        self.page_errors.append(f"{error.error.name}: {error.error.message}")

    def on_request(self, request: Request) -> None:
        self.requested.append(request.url)

    def on_response(self, response: Response) -> None:
        if response.status >= 400 and self.is_local(response.url):
            self.http_errors.append(f"{response.status} {response.url}")

    def on_request_failed(self, request: Request) -> None:
        self.failed_requests.append(f"{request.failure} {request.url}")


#: Runs in every page (and frame) before its own scripts: reports each Content-Security-Policy
#: violation to the test (``__cspViolation``, bound by ``guard``).
CSP_WATCH_SCRIPT = """
addEventListener('securitypolicyviolation', (e) => {
  const where = e.sourceFile ? ` at ${e.sourceFile}:${e.lineNumber}` : '';
  globalThis.__cspViolation?.(
    `${e.effectiveDirective} refused ${e.blockedURI || '(inline)'}${where} [${location.href}]`);
}, true);
"""


#: Runs in every page before its own scripts: no lesson and no rule chip (docs/ui-input.md,
#: "Lessons"), so that every test starts on the game itself; ``ui_helpers.with_lessons`` turns
#: them back on for a test that asks.
NO_LESSONS_SCRIPT = "globalThis.solitaireNoLessons = true;"


def guard(context: BrowserContext, watch: Watch) -> None:
    """Abort and record every request not for ``watch.origins``; record errors, requests and
    Content-Security-Policy violations (each one fails the test at teardown)."""

    def route(route: Route) -> None:
        url = route.request.url
        if watch.is_local(url) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            watch.blocked.append(url)
            route.abort("blockedbyclient")

    context.route("**/*", route)

    def on_csp_violation(text: str) -> None:
        watch.csp_violations.append(text)

    context.expose_function("__cspViolation", on_csp_violation)
    context.add_init_script(CSP_WATCH_SCRIPT)
    context.add_init_script(NO_LESSONS_SCRIPT)
    context.on("console", watch.on_console)
    context.on("weberror", watch.on_web_error)
    context.on("request", watch.on_request)
    context.on("response", watch.on_response)
    context.on("requestfailed", watch.on_request_failed)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.set_default_navigation_timeout(BOOT_TIMEOUT_MS)


#: Whether a page that restored the build's snapshot has its standard library zip in: it asks
#: for the zip once it is ready (web/pyodide-boot.mjs, STDLIB_LATER_URL) and marks this then.
STDLIB_INSTALLED = "performance.getEntriesByName('pyodide-boot:stdlib').length > 0"


def open_game(
    page: Page, game: str = "russian", deal: int = 1, *, timeout_ms: int = BOOT_TIMEOUT_MS
) -> None:
    """Open ``#game/deal`` (relative to the context's base URL) and wait until Python is ready."""
    page.goto(f"./#{game}/{deal}", wait_until="domcontentloaded", timeout=timeout_ms)
    wait_ready(page, timeout_ms=timeout_ms)


def wait_ready(page: Page, *, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
    """Wait for ``<html data-app="ready">``; fail with the page's own message on "failed"."""
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement.dataset.app)",
        timeout=timeout_ms,
    )
    state = page.evaluate("document.documentElement.dataset.app")
    if state != "ready":
        text = page.evaluate("(document.getElementById('boot-error-text') || {}).textContent || ''")
        pytest.fail(f"the game did not start (data-app={state!r}): {text}", pytrace=False)
