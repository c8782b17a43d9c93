"""The browser-test harness: every e2e test drives a real Chromium against the built site.

Fixtures (helpers such as ``open_game`` are in harness.py; see docs/build.md):

- ``site_dir`` (session): the built site. ``make test`` builds ``_site/`` and passes
  ``SOLITAIRE_SITE=_site`` so that the tests check exactly that build; a plain ``pytest e2e``
  builds the site afresh into a temporary folder.
- ``site_server`` (session), ``base_url``: the site served on 127.0.0.1 on a free port.
- ``browser`` (session): Chromium (``/usr/bin/chromium`` when present, else Playwright's own; or
  ``$CHROMIUM``), launched so that it cannot resolve any host but localhost.
- ``context``, ``page`` (per test): a fresh browser context (base URL = the local site, service
  workers blocked so that every request is seen) whose requests to anything but the local
  server are aborted. At teardown the test FAILS if any request was blocked, any local request
  got an HTTP error, any console error or uncaught page error happened, or the page's
  Content-Security-Policy refused anything (a ``securitypolicyviolation`` event, recorded by
  harness.guard's init script);
  ``watch.allow_console(regex)`` excuses an expected one. A failed test leaves a screenshot in
  test-results/.
- ``phone``, ``phone_page``: the same as a phone held upright (390x844, touch, mobile,
  device scale factor 2); fingers through CDP ``Input.dispatchTouchEvent`` (ui_helpers).
- ``any_page``: the test runs twice, with ``phone_page`` and with ``page``.
- ``shared_page`` / ``shared_watch``, ``shared_phone_page``: one page per test module (Python
  boots once), desktop or phone, its screen size put back before each test and checked like
  ``page`` after each; ``shared_screen_page`` is ``screen_page`` on them;
  ``ui_helpers.fresh_table`` deals a known table on them.
- ``offline_site``: a stoppable server of its own and a context where service workers are
  allowed, for the "plays offline after the first visit" test.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import build_site
import pytest
from harness import (
    ARTIFACTS,
    BOOT_TIMEOUT_MS,
    CHROMIUM_ARGS,
    DEBIAN_CHROMIUM,
    VIEWPORT,
    Screen,
    Watch,
    guard,
    origin,
    screenshot,
)
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    ViewportSize,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError
from serve import SiteServer

# tools/ (build_site, serve) and e2e/ (harness, ui_helpers) are on the import path through
# pytest's ``pythonpath`` setting in pyproject.toml.
ROOT = Path(__file__).resolve().parent.parent
_CALL_FAILED = pytest.StashKey[bool]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[_CALL_FAILED] = report.failed
    return report


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: $SOLITAIRE_SITE (as built by make), else a fresh build in a temp folder."""
    given = os.environ.get("SOLITAIRE_SITE")
    if given:
        path = Path(given) if Path(given).is_absolute() else ROOT / given
        if not (path / "sw.js").is_file():
            pytest.fail(f"SOLITAIRE_SITE={given}: no built site there (run make site)")
        return path
    out = tmp_path_factory.mktemp("site")
    try:
        build_site.build(out, require_index=False)
    except build_site.BuildError as exc:
        pytest.fail(f"cannot build the site: {exc}", pytrace=False)
    return out


@pytest.fixture(scope="session")
def site_server(site_dir: Path) -> Iterator[SiteServer]:
    with SiteServer(site_dir) as server:
        yield server


@pytest.fixture(scope="session")
def base_url(site_server: SiteServer) -> str:
    """``http://127.0.0.1:PORT/``: the site's root URL."""
    return site_server.url


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = os.environ.get("CHROMIUM", DEBIAN_CHROMIUM)
    browser = playwright.chromium.launch(
        executable_path=chromium if chromium and Path(chromium).exists() else None,
        args=CHROMIUM_ARGS,
        headless=os.environ.get("HEADED") != "1",
    )
    yield browser
    browser.close()


@pytest.fixture
def watch() -> Watch:
    """The record of the test's browser context; ``watch.allow_console(regex)`` to excuse."""
    return Watch()


@pytest.fixture
def context(browser: Browser, site_server: SiteServer, watch: Watch) -> Iterator[BrowserContext]:
    """A fresh context: base URL = the local site, service workers blocked, network guarded."""
    ctx = browser.new_context(base_url=site_server.url, service_workers="block", viewport=VIEWPORT)
    watch.origins.add(origin(site_server.url))
    guard(ctx, watch)
    yield ctx
    ctx.close()


#: The first screen: a phone held upright (touch, mobile viewport, 2x pixels).
PHONE: ViewportSize = {"width": 390, "height": 844}
#: The context options of that phone.
PHONE_SCREEN: dict[str, Any] = {
    "viewport": PHONE,
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


@pytest.fixture
def phone(browser: Browser, site_server: SiteServer, watch: Watch) -> Iterator[BrowserContext]:
    """Like ``context``, as a phone: 390x844, touch, ``is_mobile``, device scale factor 2."""
    ctx = browser.new_context(base_url=site_server.url, service_workers="block", **PHONE_SCREEN)
    watch.origins.add(origin(site_server.url))
    guard(ctx, watch)
    yield ctx
    ctx.close()


@pytest.fixture
def phone_page(
    request: pytest.FixtureRequest, phone: BrowserContext, watch: Watch
) -> Iterator[Page]:
    """A page in a fresh guarded phone context, checked at teardown like ``page``."""
    pg = phone.new_page()
    yield pg
    _finish(request, pg, watch)


@pytest.fixture
def screen_page(
    request: pytest.FixtureRequest, browser: Browser, site_server: SiteServer, watch: Watch
) -> Iterator[Callable[[Screen], Page]]:
    """``screen_page(size)`` opens a page in a fresh guarded context of that screen; opening
    the next closes the one before. The last is checked at teardown like ``page``."""
    watch.origins.add(origin(site_server.url))
    opened: list[tuple[BrowserContext, Page]] = []

    def open_page(size: Screen) -> Page:
        width, height, touch = size
        if opened:
            opened.pop()[0].close()
        ctx = browser.new_context(
            base_url=site_server.url,
            service_workers="block",
            viewport={"width": width, "height": height},
            is_mobile=touch,
            has_touch=touch,
            device_scale_factor=2 if touch else 1,
        )
        guard(ctx, watch)
        pg = ctx.new_page()
        opened.append((ctx, pg))
        return pg

    yield open_page
    if opened:
        ctx, pg = opened.pop()
        try:
            _finish(request, pg, watch)
        finally:
            ctx.close()


@pytest.fixture(params=["phone", "desktop"])
def any_page(request: pytest.FixtureRequest) -> Page:
    """Each test twice: on a phone's page (390x844, touch, 2x) and on a desktop's
    (1280x800), each checked at teardown like ``page``."""
    name = "phone_page" if request.param == "phone" else "page"
    page: Page = request.getfixturevalue(name)
    return page


def _finish(request: pytest.FixtureRequest, page: Page, watch: Watch) -> None:
    """Teardown: a screenshot when the test failed, then fail on anything recorded."""
    if request.node.stash.get(_CALL_FAILED, False) and not page.is_closed():
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)[-150:]
        with contextlib.suppress(PlaywrightError):
            screenshot(page, str(ARTIFACTS / f"{name}.png"), full_page=True)
    problems = watch.problems()
    if problems:
        pytest.fail(watch.report(problems), pytrace=False)


@pytest.fixture
def page(request: pytest.FixtureRequest, context: BrowserContext, watch: Watch) -> Iterator[Page]:
    """A page in a fresh guarded context; the test fails at teardown on any recorded problem."""
    pg = context.new_page()
    yield pg
    _finish(request, pg, watch)


def _module_page(
    browser: Browser, site_server: SiteServer, **screen: Any
) -> Iterator[tuple[BrowserContext, Page, Watch]]:
    """A guarded context and its page for a whole module (``screen``: the context's options)."""
    watch = Watch(origins={origin(site_server.url)})
    ctx = browser.new_context(base_url=site_server.url, service_workers="block", **screen)
    guard(ctx, watch)
    yield ctx, ctx.new_page(), watch
    ctx.close()


@pytest.fixture(scope="module")
def _shared(
    browser: Browser, site_server: SiteServer
) -> Iterator[tuple[BrowserContext, Page, Watch]]:
    yield from _module_page(browser, site_server, viewport=VIEWPORT)


@pytest.fixture(scope="module")
def _shared_phone(
    browser: Browser, site_server: SiteServer
) -> Iterator[tuple[BrowserContext, Page, Watch]]:
    yield from _module_page(browser, site_server, **PHONE_SCREEN)


@pytest.fixture
def shared_page(
    request: pytest.FixtureRequest, _shared: tuple[BrowserContext, Page, Watch]
) -> Iterator[Page]:
    """One page for all the tests of a module that ask for it: Python boots once.

    ``open_game`` on it changes only the URL's hash when the page is already loaded (no reboot),
    so a test sees whatever state the app keeps across a hash change. Each test is still
    checked at its teardown for what happened during it (``shared_watch`` to excuse errors).
    """
    _, pg, watch = _shared
    watch.reset()
    pg.set_viewport_size(VIEWPORT)  # a test before may have changed it
    yield pg
    _finish(request, pg, watch)


@pytest.fixture
def shared_watch(_shared: tuple[BrowserContext, Page, Watch]) -> Watch:
    """The ``Watch`` of ``shared_page``."""
    return _shared[2]


@pytest.fixture
def shared_phone_page(
    request: pytest.FixtureRequest, _shared_phone: tuple[BrowserContext, Page, Watch]
) -> Iterator[Page]:
    """Like ``shared_page``, as a phone (the context of ``phone``): one page per module."""
    _, pg, watch = _shared_phone
    watch.reset()
    pg.set_viewport_size(PHONE)  # a test before may have changed it
    yield pg
    _finish(request, pg, watch)


@pytest.fixture
def shared_screen_page(
    request: pytest.FixtureRequest,
    _shared: tuple[BrowserContext, Page, Watch],
    _shared_phone: tuple[BrowserContext, Page, Watch],
) -> Iterator[Callable[[Screen], Page]]:
    """``screen_page`` on the module's shared pages: ``open(size)`` gives the shared phone page
    for a touch screen, the shared desktop page for any other, at that size (the context's
    other options are those ``screen_page`` gives). Each page used is checked at teardown
    like ``page``; ``ui_helpers.fresh_table`` deals a known table on it."""
    used: dict[int, tuple[Page, Watch]] = {}

    def open_page(size: Screen) -> Page:
        width, height, touch = size
        _, pg, watch = _shared_phone if touch else _shared
        if id(pg) not in used:
            watch.reset()
            used[id(pg)] = (pg, watch)
        pg.set_viewport_size({"width": width, "height": height})
        return pg

    yield open_page
    for pg, watch in used.values():
        _finish(request, pg, watch)


@dataclass
class OfflineSite:
    """A site served by a server of its own, in a context where service workers are allowed.

    Usage: ``open_game(o.page)``; ``o.go_offline()``; ``o.page.reload()``; ``wait_ready(o.page)``.
    """

    server: SiteServer
    context: BrowserContext
    page: Page
    watch: Watch

    def wait_controlled(self, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
        """Wait until the service worker has precached the site and controls the page."""
        self.page.wait_for_function(
            "() => navigator.serviceWorker.controller !== null", timeout=timeout_ms
        )

    def go_offline(self) -> None:
        """Wait for the service worker, then stop the server and cut the network."""
        self.wait_controlled()
        self.server.stop()
        self.context.set_offline(True)


@pytest.fixture
def offline_root(site_dir: Path) -> Path:
    """The folder that ``offline_site`` serves (a test module may override this fixture)."""
    return site_dir


@pytest.fixture
def offline_site(
    request: pytest.FixtureRequest, browser: Browser, offline_root: Path, watch: Watch
) -> Iterator[OfflineSite]:
    server = SiteServer(offline_root).start()
    ctx = browser.new_context(base_url=server.url, service_workers="allow", viewport=VIEWPORT)
    watch.origins.add(origin(server.url))
    guard(ctx, watch)
    pg = ctx.new_page()
    try:
        yield OfflineSite(server, ctx, pg, watch)
        _finish(request, pg, watch)
    finally:
        ctx.close()
        server.stop()
