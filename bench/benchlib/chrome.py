"""Chromium as the e2e tests launch it (e2e/harness.py), the script every measured page runs
first (INIT_SCRIPT: the page's progress events, performance marks, paints, long tasks and
``<html data-app>`` changes, in ``window.__bench``), and the devices a bench measures on
(PROFILES, applied through CDP by Emulation)."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchlib import checkout_hint

try:
    from harness import CHROMIUM_ARGS, DEBIAN_CHROMIUM, VIEWPORT
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ModuleNotFoundError as missing:
    raise SystemExit(checkout_hint(missing)) from None

BOOT_TIMEOUT_MS = 180_000


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    exe = os.environ.get("CHROMIUM", DEBIAN_CHROMIUM)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=exe if exe and Path(exe).exists() else None,
            args=CHROMIUM_ARGS,
            headless=os.environ.get("HEADED") != "1",
        )
        try:
            yield browser
        finally:
            browser.close()


# Installed before any script of the page: timestamps (ms since navigation start) of PyScript's
# progress events, of the page's performance marks and of <html data-app> changing.
INIT_SCRIPT = """
window.__bench = { marks: {}, errors: [] };
addEventListener('py:progress', (e) => { window.__bench.marks[e.detail] = performance.now(); });
// the page's own performance marks too (web/pyodide-boot.mjs: pyodide-boot:start/started/ready)
// and the first paints (first-paint, first-contentful-paint)
const noteMarks = (list) => {
  for (const e of list.getEntries()) window.__bench.marks[e.name] = e.startTime;
};
new PerformanceObserver(noteMarks).observe({ type: 'mark', buffered: true });
new PerformanceObserver(noteMarks).observe({ type: 'paint', buffered: true });
// the largest contentful paint: its last candidate before ready (the table before Python
// with its card backs, on a page that shows one)
new PerformanceObserver((list) => {
  const marks = window.__bench.marks;
  for (const e of list.getEntries()) {
    if (!('app:ready' in marks)) marks['largest-contentful-paint'] = e.startTime;
  }
}).observe({ type: 'largest-contentful-paint', buffered: true });
// the main thread's long tasks, [start, duration] (BLOCKING_JS)
window.__bench.longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__bench.longtasks.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: true });
addEventListener('error', (e) => { window.__bench.errors.push(String(e.message)); });
// resolved once <html data-app> leaves "loading" (wait_ready awaits it)
window.__bench.settled = new Promise((resolve) => { window.__bench.settle = resolve; });
new MutationObserver(() => {
  const root = document.documentElement;
  const app = root && root.dataset.app;
  if (app && !(('app:' + app) in window.__bench.marks)) {
    window.__bench.marks['app:' + app] = performance.now();
  }
  if (app && app !== 'loading') window.__bench.settle(app);
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-app'] });
"""

# The main thread's blocking time from the first contentful paint to ready, as Lighthouse's
# Total Blocking Time counts it (each long task's time after the paint, beyond 50 ms) but
# measured, not simulated. Long tasks reach their observer only after they end, at a low
# priority: read 200 ms after ready.
BLOCKING_JS = """() => new Promise((resolve) => setTimeout(() => {
  const marks = window.__bench.marks;
  const from = marks['first-contentful-paint'] ?? 0;
  const to = marks['app:ready'];
  let blocking = 0;
  for (const [start, duration] of window.__bench.longtasks) {
    if (start >= to || start + duration <= from) continue;
    blocking += Math.max(0, start + duration - Math.max(start, from) - 50);
  }
  resolve(blocking);
}, 200))"""

# Awaits INIT_SCRIPT's promise: one evaluation, made once the page has settled. Not
# page.wait_for_function(): that makes Playwright evaluate its injected script (~30 ms of main
# thread in this Chromium) in the page as it loads, in the middle of the real page's boot (its
# early-start module was still waiting to run) but after the bare page's (docs/performance.md,
# "PyScript's package, the loading screen's animation, the benchmark's own script").
SETTLED_JS = """(ms) => new Promise((resolve, reject) => {
  const app = () => document.documentElement && document.documentElement.dataset.app;
  const wait = () => {
    if (app() && app() !== "loading") resolve(app()); // e.g. a page that is ready as served
    else if (window.__bench) window.__bench.settled.then(resolve);
    else setTimeout(wait, 10);
  };
  wait();
  setTimeout(() => reject(new Error("not ready after " + ms + " ms")), ms);
})"""


@dataclass(frozen=True)
class Profile:
    """A device to measure on: the browser context's options, a CPU slow-down (CDP
    ``Emulation.setCPUThrottlingRate``) and an emulated network (CDP
    ``Network.emulateNetworkConditions``: Mbit/s each way, round trip in ms)."""

    name: str
    context: dict[str, Any]
    cpu_rate: float = 1.0
    network: tuple[float, float] | None = None


PROFILES = {
    "desktop": Profile("desktop", {"viewport": VIEWPORT}),
    "phone": Profile(
        "phone",
        {
            "viewport": {"width": 390, "height": 844},
            "device_scale_factor": 2,
            "is_mobile": True,
            "has_touch": True,
        },
        cpu_rate=4,
        network=(10, 40),
    ),
}
#: The same phone on a fast link (Wi-Fi): the downloads end early, and the work the slow link
#: spreads over its seconds (unpacking as bytes arrive) comes all at once.
PROFILES["phone-wifi"] = Profile("phone-wifi", PROFILES["phone"].context, 4, (100, 10))


def network_conditions(mbps: float, rtt_ms: float) -> dict[str, Any]:
    return {
        "offline": False,
        "latency": rtt_ms,
        "downloadThroughput": mbps * 1e6 / 8,
        "uploadThroughput": mbps * 1e6 / 8,
    }


class Emulation:
    """A profile applied to a page through its CDP session ``cdp``: CPU rate and network on
    the page, and the network (CPU rate too) on every worker the page's target is related to,
    the service worker included: each is a target of its own, whose requests (e.g. the service
    worker's precache) the page's conditions do not cover. Workers are found with
    ``Target.setAutoAttach`` on the page's session (``waitForDebuggerOnStart``: a new worker
    waits until its conditions are set); Playwright's CDP session cannot address a flattened
    child session, so the commands go through ``Target.sendMessageToTarget``. Also counts the
    bytes received (``encodedDataLength``: compressed bodies plus headers) by the page and by
    its workers."""

    def __init__(self, cdp: Any, profile: Profile, count_bytes: bool = False) -> None:
        self.cdp = cdp
        self.profile = profile
        self.workers: list[str] = []  # "type url" of every worker attached
        self.replies: dict[str, list[str]] = {}  # "method (type)" -> "ok" or the error
        self._urls: dict[str, str] = {}
        # request -> when it was sent (ms since the epoch, as performance.timeOrigin), and
        # (worker?, url, bytes, sent) of each finished request of the page or of a worker
        self._sent_at: dict[str, float] = {}
        self._finished_requests: list[tuple[bool, str, int, float]] = []
        self._sent: dict[int, str] = {}
        self._next = 1000
        if profile.cpu_rate != 1:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile.cpu_rate})
        if profile.network or count_bytes:
            cdp.send("Network.enable")
        if profile.network:
            cdp.send("Network.emulateNetworkConditions", network_conditions(*profile.network))
        if count_bytes:
            cdp.on("Network.requestWillBeSent", self._request)
            cdp.on("Network.responseReceived", self._response)
            cdp.on("Network.loadingFinished", self._finished)
        if profile.network or profile.cpu_rate != 1 or count_bytes:
            cdp.on("Target.attachedToTarget", self._attached)
            cdp.on("Target.receivedMessageFromTarget", self._message)
            cdp.send(
                "Target.setAutoAttach",
                {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False},
            )

    def _request(self, e: dict[str, Any]) -> None:
        self._sent_at[e["requestId"]] = 1000 * float(e["wallTime"])

    def _response(self, e: dict[str, Any]) -> None:
        self._urls[e["requestId"]] = e["response"]["url"]

    def _finished(self, e: dict[str, Any]) -> None:
        self._count(e["requestId"], False, int(e["encodedDataLength"]))

    def _count(self, key: str, worker: bool, size: int) -> None:
        """Note the finished request ``key`` (of a worker or the page) and its ``size``."""
        url = self._urls.get(key)
        if url is not None:
            self._finished_requests.append((worker, url, size, self._sent_at.get(key, 0.0)))

    def bytes_sent_before(self, epoch_ms: float) -> tuple[dict[str, int], dict[str, int]]:
        """(page, workers): url -> bytes of the requests sent before ``epoch_ms`` (ms since the
        epoch) that have finished: what a page asked for until it was ready, however long the
        benchmark then waits before it reads the counts."""
        page: dict[str, int] = {}
        workers: dict[str, int] = {}
        for worker, url, size, sent in self._finished_requests:
            if sent <= epoch_ms:
                (workers if worker else page)[url] = size
        return page, workers

    def _to(
        self, session: str, kind: str, method: str, params: dict[str, Any] | None = None
    ) -> None:
        self._next += 1
        self._sent[self._next] = f"{method} ({kind})"
        message = {"id": self._next, "method": method, "params": params or {}}
        self.cdp.send(
            "Target.sendMessageToTarget", {"sessionId": session, "message": json.dumps(message)}
        )

    def _attached(self, e: dict[str, Any]) -> None:
        info, session = e["targetInfo"], e["sessionId"]
        kind = info["type"]
        if kind in ("service_worker", "worker", "shared_worker"):
            self.workers.append(f"{kind} {info['url']}")
            self._to(session, kind, "Network.enable")
            if self.profile.network:
                self._to(
                    session,
                    kind,
                    "Network.emulateNetworkConditions",
                    network_conditions(*self.profile.network),
                )
        self._to(session, kind, "Runtime.runIfWaitingForDebugger")

    def _message(self, e: dict[str, Any]) -> None:
        msg = json.loads(e["message"])
        if "id" in msg and msg["id"] in self._sent:
            method = self._sent.pop(msg["id"])
            reply = "ok" if "error" not in msg else str(msg["error"].get("message"))
            self.replies.setdefault(method, []).append(reply)
        elif msg.get("method") == "Network.requestWillBeSent":
            p = msg["params"]
            self._sent_at[e["sessionId"] + p["requestId"]] = 1000 * float(p["wallTime"])
        elif msg.get("method") == "Network.responseReceived":
            p = msg["params"]
            self._urls[e["sessionId"] + p["requestId"]] = p["response"]["url"]
        elif msg.get("method") == "Network.loadingFinished":
            p = msg["params"]
            self._count(e["sessionId"] + p["requestId"], True, int(p["encodedDataLength"]))


def new_context(
    browser: Browser, base_url: str, service_workers: bool, profile: Profile | None = None
) -> BrowserContext:
    ctx = browser.new_context(
        base_url=base_url,
        service_workers="allow" if service_workers else "block",
        **(profile.context if profile is not None else {"viewport": VIEWPORT}),
    )
    ctx.add_init_script(INIT_SCRIPT)
    return ctx


def wait_ready(page: Page) -> dict[str, float]:
    """Wait for data-app=ready; return the page's marks (fails on data-app=failed)."""
    page.evaluate(SETTLED_JS, BOOT_TIMEOUT_MS)
    state = page.evaluate("document.documentElement.dataset.app")
    if state != "ready":
        text = page.evaluate("(document.getElementById('boot-error') || {}).textContent || ''")
        raise RuntimeError(f"{page.url}: data-app={state!r} {text.strip()[:300]}")
    marks: dict[str, float] = page.evaluate("window.__bench.marks")
    return marks
