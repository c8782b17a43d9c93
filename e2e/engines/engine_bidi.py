"""Firefox driven over WebDriver BiDi, with no driver binary between: Firefox's own Remote Agent
(``--remote-debugging-port``) speaks BiDi on a WebSocket, and this module speaks it back.

Debian packages no geckodriver, and Playwright's ``moz-firefox`` channel fails on Firefox ESR
(it sends ``emulation.setMediaFeaturesOverride``), so the few commands the smoke tests need are
sent here by hand: https://w3c.github.io/webdriver-bidi/ for what each one means.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

#: Firefox's preferences for a quiet, local-only test profile. Every request but those for
#: 127.0.0.1 and localhost goes to a proxy on the discard port, so it fails at once: nothing
#: leaves the machine even if the page (or the browser itself) tried.
PREFS = {
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": 9,
    "network.proxy.no_proxies_on": "127.0.0.1,localhost",
    "network.proxy.allow_hijacking_localhost": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
}

LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")


class BidiError(RuntimeError):
    """A command that Firefox answered with an error."""


class Bidi:
    """One WebDriver BiDi connection: ``send`` a command and wait for its answer; the events
    that arrive meanwhile are kept in ``events`` (method, params) for the caller to read."""

    def __init__(self, url: str) -> None:
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(url, max_size=None, open_timeout=30)
        )
        self.last_id = 0
        self.events: list[tuple[str, dict[str, Any]]] = []

    def send(self, method: str, params: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        self.last_id += 1
        wanted = self.last_id
        self.ws.send(json.dumps({"id": wanted, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"BiDi {method}: no answer in {timeout} s")
            message = json.loads(self.ws.recv(timeout=left))
            if message.get("type") == "event":
                self.events.append((message["method"], message["params"]))
            elif message.get("id") == wanted:
                if message.get("type") == "error":
                    raise BidiError(f"{method}: {message['error']}: {message.get('message')}")
                result: dict[str, Any] = message["result"]
                return result

    def drain(self) -> None:
        """Take in the events that have arrived without waiting for more."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=0))
            except TimeoutError:
                return
            if message.get("type") == "event":
                self.events.append((message["method"], message["params"]))

    def close(self) -> None:
        self.stack.close()


class Firefox:
    """A headless Firefox in a throw-away profile, and its BiDi connection (``bidi``)."""

    def __init__(self, binary: str, timeout: float = 60.0) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="firefox-profile-"))
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items())
        )
        self.log = (self.profile / "firefox.log").open("w+")
        self.process = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-remote",
                "--remote-debugging-port=0",
                "--profile",
                str(self.profile),
                "about:blank",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        try:
            url = self._wait_listening(timeout)
            self.bidi = Bidi(f"{url}/session")
            self.bidi.send("session.new", {"capabilities": {}})
        except BaseException:
            self.process.kill()
            self._stop()
            raise

    def _wait_listening(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.log.seek(0)
            found = LISTENING.search(self.log.read())
            if found:
                return found.group(1)
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.log.seek(0)
        raise RuntimeError(f"Firefox did not open its BiDi port:\n{self.log.read()[-2000:]}")

    def close(self) -> None:
        with contextlib.suppress(BidiError, TimeoutError, OSError, ConnectionClosed):
            self.bidi.send("browser.close", {}, timeout=10)
        self.bidi.close()
        self._stop()

    def _stop(self) -> None:
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)
