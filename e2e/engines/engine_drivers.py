"""One small interface over two ways of driving a browser: Firefox over WebDriver BiDi
(engine_bidi) and WebKitGTK's MiniBrowser through Selenium and WebKitWebDriver under Xvfb.

The smoke tests (test_engines_smoke.py) speak only this interface: run a JavaScript function in
the page, press the mouse and keys at viewport coordinates, size the viewport, take a picture,
and read what went wrong (console errors, uncaught errors, requests that left 127.0.0.1).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socketserver
import subprocess
import tempfile
import threading
import time
import warnings
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from engine_bidi import Firefox
from selenium.common.exceptions import WebDriverException

FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"

#: Runs before the page's own scripts where the engine allows it (Firefox), else right after
#: each navigation (WebKit): no lessons (as in the Chromium harness), and a record of every
#: console error, uncaught error, rejected promise and Content-Security-Policy violation in
#: ``__smokeErrors`` (read by ``Driver.errors``, which WebKit's driver cannot read otherwise).
WATCH_SCRIPT = """() => {
  if (globalThis.__smokeErrors) return;
  globalThis.solitaireNoLessons = true;
  const errors = globalThis.__smokeErrors = [];
  const error = console.error.bind(console);
  console.error = (...args) => {
    errors.push('console error: ' + args.join(' '));
    error(...args);
  };
  addEventListener('error',
    e => errors.push(`uncaught error: ${e.message} [${e.filename}:${e.lineno}]`));
  addEventListener('unhandledrejection', e => errors.push(`unhandled rejection: ${e.reason}`));
  addEventListener('securitypolicyviolation', e => errors.push(
    `CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || '(inline)'}`), true);
}"""

#: GTK's style sheet for MiniBrowser's window (in the $HOME it is given).
GTK_CSS = """
* { min-width: 0; min-height: 0; }
button, entry { padding: 0; margin: 0; border-width: 0; }
"""

#: Forgets what WATCH_SCRIPT recorded.
CLEAR_PAGE = "() => { (globalThis.__smokeErrors || []).length = 0; }"

#: Every URL the page has fetched, as its Resource Timing entries list them.
RESOURCE_URLS = (
    "() => [location.href, ...performance.getEntriesByType('resource').map(e => e.name)]"
)


def is_local(url: str) -> bool:
    if url.startswith(("data:", "blob:", "about:")):
        return True
    return urlsplit(url).hostname in ("127.0.0.1", "localhost")


class Driver(ABC):
    """A browser page to drive; coordinates are CSS px from the viewport's top left."""

    name: str
    #: the kinds of WATCH_SCRIPT's records that the engine does not report by itself
    page_kinds: tuple[str, ...]

    @abstractmethod
    def load(self, url: str) -> None:
        """Navigate to ``url`` and return once its DOM is there."""

    @abstractmethod
    def call(self, function: str, *args: Any) -> Any:
        """Run the JavaScript function ``function`` (source text, may be async) with the JSON
        values ``args`` and return its result through JSON."""

    @abstractmethod
    def pointer(self, steps: list[dict[str, Any]]) -> None:
        """W3C pointer actions of a mouse: pointerMove (x, y, duration), pointerDown, pointerUp."""

    @abstractmethod
    def keys(self, *keys: str) -> None:
        """Press ``keys`` down in order, then release them in reverse (a chord such as Ctrl+Z)."""

    @abstractmethod
    def set_viewport(self, width: int, height: int) -> None: ...

    @abstractmethod
    def screenshot(self, path: Path) -> None: ...

    @abstractmethod
    def engine_errors(self) -> list[str]:
        """Errors the engine itself reported since the last ``reset`` (empty when it cannot)."""

    @abstractmethod
    def requested(self) -> list[str]:
        """URLs requested since the last ``reset``, as the engine saw them."""

    @abstractmethod
    def reset(self) -> None:
        """Forget the errors and requests recorded so far."""

    @abstractmethod
    def close(self) -> None: ...

    # -- built on the above

    def open(self, url: str) -> None:
        """Load ``url`` as a fresh document, even when only its hash differs from the page's
        (a navigation that would otherwise stay in the same document)."""
        here = self.call("() => location.href") or ""
        if here.split("#")[0] == url.split("#")[0]:
            self.load("about:blank")
        self.load(url)

    def reload(self) -> None:
        self.open(self.call("() => location.href"))

    def wait_for(self, function: str, timeout: float = 60.0, *args: Any) -> Any:
        """Call ``function`` until it returns something truthy; return that."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.call(function, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: still false after {timeout} s: {function}")
            time.sleep(0.1)

    def click(self, x: float, y: float) -> None:
        self.pointer(
            [
                {"type": "pointerMove", "x": round(x), "y": round(y)},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0},
            ]
        )

    def drag(self, x0: float, y0: float, x1: float, y1: float, steps: int = 8) -> None:
        """Press at (x0, y0), move to (x1, y1) in ``steps`` moves, release."""
        moves = [
            {
                "type": "pointerMove",
                "x": round(x0 + (x1 - x0) * i / steps),
                "y": round(y0 + (y1 - y0) * i / steps),
                "duration": 30,
            }
            for i in range(1, steps + 1)
        ]
        self.pointer(
            [
                {"type": "pointerMove", "x": round(x0), "y": round(y0)},
                {"type": "pointerDown", "button": 0},
                *moves,
                {"type": "pointerUp", "button": 0},
            ]
        )

    def errors(self) -> list[str]:
        """Everything that went wrong in the page since the last ``reset``."""
        seen: list[str] = self.call("() => globalThis.__smokeErrors || []")
        return [*self.engine_errors(), *[e for e in seen if e.startswith(self.page_kinds)]]


# ----------------------------------------------------------------------------- Firefox


class FirefoxDriver(Driver):
    """Headless Firefox ESR over WebDriver BiDi: console and network events as they happen."""

    name = "firefox"
    page_kinds = ("CSP violation",)

    def __init__(self) -> None:
        self.firefox = Firefox(FIREFOX)
        self.bidi = self.firefox.bidi
        self.context = self.bidi.send("browsingContext.getTree", {})["contexts"][0]["context"]
        self.bidi.send("session.subscribe", {"events": ["log.entryAdded", "network"]})
        self.bidi.send("script.addPreloadScript", {"functionDeclaration": WATCH_SCRIPT})

    def load(self, url: str) -> None:
        self.bidi.send(
            "browsingContext.navigate",
            {"context": self.context, "url": url, "wait": "interactive"},
        )

    def call(self, function: str, *args: Any) -> Any:
        expression = f"(async () => JSON.stringify(await ({function})(...{json.dumps(args)})))()"
        answer = self.bidi.send(
            "script.evaluate",
            {"expression": expression, "target": {"context": self.context}, "awaitPromise": True},
        )
        if answer["type"] == "exception":
            raise AssertionError(f"firefox: {answer['exceptionDetails']['text']} in {function}")
        result = answer["result"]
        return json.loads(result["value"]) if result["type"] == "string" else None

    def pointer(self, steps: list[dict[str, Any]]) -> None:
        source = {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}}
        self.bidi.send(
            "input.performActions",
            {"context": self.context, "actions": [{**source, "actions": steps}]},
        )

    def keys(self, *keys: str) -> None:
        steps = [{"type": "keyDown", "value": k} for k in keys]
        steps += [{"type": "keyUp", "value": k} for k in reversed(keys)]
        self.bidi.send(
            "input.performActions",
            {"context": self.context, "actions": [{"type": "key", "id": "keys", "actions": steps}]},
        )

    def set_viewport(self, width: int, height: int) -> None:
        self.bidi.send(
            "browsingContext.setViewport",
            {"context": self.context, "viewport": {"width": width, "height": height}},
        )

    def screenshot(self, path: Path) -> None:
        data = self.bidi.send("browsingContext.captureScreenshot", {"context": self.context})
        path.write_bytes(base64.b64decode(data["data"]))

    def engine_errors(self) -> list[str]:
        self.bidi.drain()
        out = []
        for method, params in self.bidi.events:
            if method == "log.entryAdded" and params.get("level") == "error":
                where = (params.get("stackTrace") or {}).get("callFrames") or [{}]
                out.append(
                    f"{params.get('type')} error: {params.get('text')} [{where[0].get('url')}]"
                )
        return out

    def requested(self) -> list[str]:
        self.bidi.drain()
        return [
            p["request"]["url"] for m, p in self.bidi.events if m == "network.beforeRequestSent"
        ]

    def reset(self) -> None:
        self.bidi.drain()
        self.bidi.events.clear()
        self.call(CLEAR_PAGE)

    def close(self) -> None:
        self.firefox.close()


# ----------------------------------------------------------------------------- WebKit


class Xvfb:
    """A virtual X display of our own, for MiniBrowser (a GTK window)."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


class RefusingProxy(socketserver.ThreadingTCPServer):
    """An HTTP proxy on 127.0.0.1 that refuses every request and records what was asked
    (``asked``, as URLs): the browser's way off the machine, where nothing gets through."""

    daemon_threads = True

    def __init__(self) -> None:
        self.asked: list[str] = []
        super().__init__(("127.0.0.1", 0), RefusingProxy.Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            assert isinstance(self.server, RefusingProxy)
            words = self.rfile.readline(8192).decode("latin-1").split()
            if len(words) >= 2:
                method, target = words[0], words[1]
                self.server.asked.append(f"https://{target}/" if method == "CONNECT" else target)
            self.wfile.write(
                b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server_address[1]}"

    def close(self) -> None:
        self.shutdown()
        self.server_close()


class WebKitDriver(Driver):
    """WebKitGTK's MiniBrowser through WebKitWebDriver (classic WebDriver, via Selenium).

    Classic WebDriver has neither console nor network events: errors are those that
    WATCH_SCRIPT records once a page is open (installed right after each navigation, so an
    error in the first scripts is seen only as a failed start), and requests are the page's
    Resource Timing entries plus what reached RefusingProxy: every request but those for
    127.0.0.1 and localhost goes there and is refused."""

    name = "webkit"
    page_kinds = ("console error", "uncaught error", "unhandled rejection", "CSP violation")

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.xvfb = Xvfb()
        self.proxy = RefusingProxy()
        self.tmp = Path(tempfile.mkdtemp(prefix="webkit-"))
        # MiniBrowser's tool bar would keep its window 447 px wide or more: let its parts
        # shrink, so that the page can be as narrow as a small phone
        gtk = self.tmp / ".config" / "gtk-3.0"
        gtk.mkdir(parents=True)
        (gtk / "gtk.css").write_text(GTK_CSS)
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        # "none": no command waits for a navigation to end. With "normal" or "eager",
        # WebKitWebDriver now and then never answers a get() or a script run just after one
        # (the game's start changes the address with history.replaceState): open() waits
        # for the new document itself
        options.page_load_strategy = "none"
        options.set_capability(
            "proxy",
            {
                "proxyType": "manual",
                "httpProxy": self.proxy.address,
                "sslProxy": self.proxy.address,
                "noProxy": ["127.0.0.1", "localhost"],
            },
        )
        env = {**os.environ, "DISPLAY": self.xvfb.display, "HOME": str(self.tmp)}
        service = Service(executable_path=WEBKIT_DRIVER, env=env)
        try:
            with warnings.catch_warnings():
                # Selenium's own WebKitGTK class still passes remote_server_addr, which Selenium
                # itself has deprecated: not ours to fix
                warnings.simplefilter("ignore", DeprecationWarning)
                self.driver = webdriver.WebKitGTK(options=options, service=service)
        except BaseException:
            self.xvfb.close()
            self.proxy.close()
            raise
        self.driver.set_script_timeout(120)
        self.seen: list[str] = []

    def _watch(self) -> None:
        self.driver.execute_script(f"({WATCH_SCRIPT})()")

    def load(self, url: str) -> None:
        self.seen += self._resources()
        self.call("() => { window.__smokeOld = true; }")
        self.driver.get(url)
        self._arrived()

    def reload(self) -> None:
        self.seen += self._resources()
        self.call("() => { window.__smokeOld = true; }")
        self.driver.refresh()
        self._arrived()

    def _arrived(self, timeout: float = 60.0) -> None:
        """Wait until the new document (not the old one, marked) has its DOM; then watch it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.call("() => !window.__smokeOld && document.readyState !== 'loading'"):
                    self._watch()
                    return
            except WebDriverException:
                pass  # the document is going away or not there yet
            time.sleep(0.05)
        raise AssertionError(f"webkit: the page did not load in {timeout} s")

    def call(self, function: str, *args: Any) -> Any:
        script = (
            "const done = arguments[arguments.length - 1];"
            f"Promise.resolve().then(() => ({function})(...{json.dumps(args)}))"
            ".then(v => done({ok: JSON.stringify(v)}), e => done({error: String(e)}));"
        )
        answer = self.driver.execute_async_script(script)
        if "error" in answer:
            raise AssertionError(f"webkit: {answer['error']} in {function}")
        return None if answer.get("ok") is None else json.loads(answer["ok"])

    def pointer(self, steps: list[dict[str, Any]]) -> None:
        self.driver.execute(
            "actions",
            {
                "actions": [
                    {
                        "type": "pointer",
                        "id": "mouse",
                        "parameters": {"pointerType": "mouse"},
                        "actions": [
                            {**s, "origin": "viewport"} if s["type"] == "pointerMove" else s
                            for s in steps
                        ],
                    }
                ]
            },
        )

    def keys(self, *keys: str) -> None:
        steps = [{"type": "keyDown", "value": k} for k in keys]
        steps += [{"type": "keyUp", "value": k} for k in reversed(keys)]
        self.driver.execute(
            "actions", {"actions": [{"type": "key", "id": "keys", "actions": steps}]}
        )

    def set_viewport(self, width: int, height: int) -> None:
        # the window's size less the viewport's is MiniBrowser's chrome: size the window so
        # that what is left for the page is width x height. The window takes a moment to
        # change size, so the viewport is read again until it has.
        inner: list[int] = []
        for _ in range(3):
            size = self.driver.get_window_size()
            inner = self.driver.execute_script("return [innerWidth, innerHeight]")
            if inner == [width, height]:
                return
            target = (width + size["width"] - inner[0], height + size["height"] - inner[1])
            self.driver.set_window_size(*target)
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline:
                if self.driver.get_window_size() == {"width": target[0], "height": target[1]}:
                    time.sleep(0.2)  # the page's own resize comes after the window's
                    break
                time.sleep(0.05)
        raise AssertionError(f"webkit: cannot make the viewport {width}x{height}: {inner}")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(self.driver.get_screenshot_as_png())

    def engine_errors(self) -> list[str]:
        return []

    def _resources(self) -> list[str]:
        try:
            urls: list[str] = self.call(RESOURCE_URLS)
        except Exception:  # no page yet, or the page is going away
            return []
        return urls

    def requested(self) -> list[str]:
        return [*self.seen, *self._resources(), *self.proxy.asked]

    def reset(self) -> None:
        self.seen.clear()
        self.proxy.asked.clear()
        self.call("() => performance.clearResourceTimings()")
        self.call(CLEAR_PAGE)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self.xvfb.close()
            self.proxy.close()
            shutil.rmtree(self.tmp, ignore_errors=True)
