"""Shared by the page benchmarks (bench_page.py, bench_boot_options.py); not a benchmark itself
(``make bench`` skips files starting with ``_``).

- the built site (``_site/`` or ``$SOLITAIRE_SITE``) served next to bench/pages/ (as /bench/),
  without writing anything into ``_site/``;
- ``variant_site()``: the site rebuilt by ``tools/build_site.py`` from a copy of the sources with
  some files changed, to measure a proposed change to index.html, web/ or the build;
- Chromium launched exactly as the e2e tests launch it (e2e/harness.py);
- boot timing: navigation start -> ``<html data-app="ready">``, read in the page;
- move latency: clicks dispatched in the page, timed with performance.now();
- statistics helpers and the machine description.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "bench" / "pages"
_VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
try:
    import playwright  # noqa: F401
except ImportError:  # `python bench/x.py` with another Python: use the project's .venv
    if _VENV_PYTHON.exists() and Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        os.execv(_VENV_PYTHON, [str(_VENV_PYTHON), *sys.argv])
    sys.exit("playwright is missing: run `make test` or `make bench` (they create .venv/)")
for _p in (ROOT / "tools", ROOT / "e2e"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

import _solitaire_path  # noqa: E402
import build_site  # noqa: E402
from harness import CHROMIUM_ARGS, DEBIAN_CHROMIUM, VIEWPORT  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402
from serve import SiteServer  # noqa: E402

_solitaire_path.import_solitaire()
from solitaire.cards import card_name, long_name  # noqa: E402
from solitaire.game import Game  # noqa: E402
from solitaire.piles import STOCK, PileRef  # noqa: E402
from solitaire.position import Position  # noqa: E402
from solitaire.web.faces import SPRITE, face_html  # noqa: E402
from solitaire.web.layout import layout  # noqa: E402
from solitaire.web.store import MemoryBackend, Settings, Store, scope_of  # noqa: E402

BOOT_TIMEOUT_MS = 180_000
#: The page's Pyodide memory snapshot is in Cache Storage (web/pyodide-boot.mjs: made in the
#: background, or the build's snapshot kept there once a service worker controls the page): a
#: warm boot after this is the returning visitor's boot.
SNAPSHOT_SAVED = "() => document.documentElement.dataset.snapshot === 'saved'"
#: A first visit's work in the background is done: the snapshot is kept and the solver's worker
#: has started. A player's visit lasts longer than that; a return visit opened before it would
#: compete with it.
VISIT_SETTLED = (
    "() => document.documentElement.dataset.snapshot === 'saved'"
    " && ['ready', 'failed'].includes(document.documentElement.dataset.solver)"
)
#: How long a visit runs before the next one opens (measure_boot's ``later`` visits): Chromium
#: stores the wasm's compiled code a few seconds into a visit that compiled it.
LATER_VISIT_AFTER_MS = 5000

# ----------------------------------------------------------------------------- the site


def site_dir() -> Path:
    given = os.environ.get("SOLITAIRE_SITE")
    path = Path(given) if given else ROOT / "_site"
    if not path.is_absolute():
        path = ROOT / path
    if not (path / "index.html").is_file() or not (path / "sw.js").is_file():
        sys.exit(f"no built site in {path}: run `make site` (or `make test` / `make play`) first")
    return path


@contextlib.contextmanager
def served_root(site: Path) -> Iterator[Path]:
    """A temporary folder holding the site (symlinked, never written to) plus /bench/."""
    tmp = Path(tempfile.mkdtemp(prefix="solitaire-bench-root-"))
    try:
        for entry in site.iterdir():
            (tmp / entry.name).symlink_to(entry.resolve())
        (tmp / "bench").symlink_to(PAGES)
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def variant_site(
    changes: dict[str, str | None],
    constants: dict[str, Any] | None = None,
) -> Iterator[Path]:
    """Build the site from a copy of index.html, web/ and py/ with ``changes`` applied
    (path -> new text, or None to delete) and build_site constants overridden; yields the
    built folder (plus bench/ pages). The service worker is stamped as usual, so a variant
    is exactly what a deploy of that change would serve."""
    tmp = Path(tempfile.mkdtemp(prefix="solitaire-bench-variant-"))
    src = tmp / "src"
    out = tmp / "site"
    saved = {k: getattr(build_site, k) for k in (constants or {})}
    try:
        src.mkdir()
        for name in ("index.html", "package.json"):
            shutil.copy2(ROOT / name, src / name)
        for name in ("web", "py"):
            shutil.copytree(
                ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", ".*")
            )
        (src / "node_modules").symlink_to(ROOT / "node_modules")
        for rel, text in changes.items():
            target = src / rel
            if text is None:
                target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
        try:
            for k, v in (constants or {}).items():
                setattr(build_site, k, v)
            build_site.build(out, root=src)
        finally:
            # restored at once: the next variant may be built while this one is still served
            for k, v in saved.items():
                setattr(build_site, k, v)
        (out / "bench").symlink_to(PAGES)
        yield out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def each_site_served(sites: list[tuple[str, str]], profiles: str) -> Iterator[tuple[str, str, str]]:
    """For each profile (comma-separated) and each (name, folder) of ``sites``: the site
    served while its turn lasts; yields (name, profile, url)."""
    for profile in profiles.split(","):
        for name, folder in sites:
            print(f"  {name} ({folder}), {profile}:", flush=True)
            with served_root(Path(folder)) as served, SiteServer(served) as server:
                yield name, profile, server.url


def start_report(benchmark: str) -> dict[str, Any]:
    """Print a benchmark's first lines (its name and date, Pyodide and PyScript, the machine
    and its load) and return the machine's description."""
    info = machine()
    print(f"# {benchmark}  {info['date']}")
    print(f"Pyodide {info['pyodide']}, PyScript {info['pyscript']}")
    print(f"machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}")
    print(f"load average at start: {loadavg()}", flush=True)
    return info


# ----------------------------------------------------------------------------- the browser


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


@dataclass
class Boot:
    cold_ms: float
    warm_ms: float | None
    marks: dict[str, float]
    warm_marks: dict[str, float]
    requests: list[str] = field(default_factory=list)  # URLs of the cold boot, in order
    errors: list[str] = field(default_factory=list)  # console errors and uncaught exceptions
    # main-thread task time of the renderer during the boot (CDP Performance.TaskDuration):
    # the work done, much less sensitive than wall time to other processes competing for CPU
    cold_task_ms: float = float("nan")
    warm_task_ms: float | None = None
    # bytes received until ready on the first visit, by URL: the page's requests, its workers'
    # (with ``count_bytes``)
    page_bytes: dict[str, int] = field(default_factory=dict)
    worker_bytes: dict[str, int] = field(default_factory=dict)
    workers: list[str] = field(default_factory=list)  # workers the profile was applied to
    worker_replies: dict[str, list[str]] = field(default_factory=dict)
    # later visits after the return visit (``later``), to app:ready: from the second return
    # visit on, Chromium has the wasm's compiled code cached next to the service worker's copy
    later_ms: list[float] = field(default_factory=list)


def _open_timed(
    ctx: BrowserContext,
    path: str,
    requests: list[str] | None = None,
    throttle: tuple[float, float] | None = None,
    profile: Profile | None = None,
    count_bytes: bool = False,
) -> tuple[Page, dict[str, float], float, Emulation | None]:
    """Open ``path`` in a new tab (recording its requests' URLs into ``requests``); wait for
    ready; return the page, its marks, the main thread's task time until then and the
    profile's emulation (None without a profile)."""
    page = ctx.new_page()
    if requests is not None:
        page.on("request", lambda r: requests.append(r.url))
    cdp = ctx.new_cdp_session(page)
    cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
    emulation = Emulation(cdp, profile, count_bytes) if profile is not None else None
    if throttle is not None:  # (Mbit/s, round-trip ms) for this page's own requests
        mbps, rtt = throttle
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": rtt,
                "downloadThroughput": mbps * 1e6 / 8,
                "uploadThroughput": mbps * 1e6 / 8,
            },
        )

    def task_ms() -> float:
        metrics = cdp.send("Performance.getMetrics")["metrics"]
        return 1000 * next(m["value"] for m in metrics if m["name"] == "TaskDuration")

    before = task_ms()
    page.goto(path, wait_until="commit")
    marks = wait_ready(page)
    task = task_ms() - before
    marks["blocking"] = page.evaluate(BLOCKING_JS)  # after the task time: it waits 200 ms
    return page, marks, task, emulation


def measure_boot(
    browser: Browser,
    base_url: str,
    path: str,
    *,
    warm: bool,
    service_worker: bool,
    warm_ready_js: str | None = None,
    check_warm: Callable[[Page], None] | None = None,
    throttle: tuple[float, float] | None = None,
    profile: Profile | None = None,
    later: int = 0,
) -> Boot:
    """Cold boot in a fresh context; then (``warm``) wait until the page's service worker
    controls it (and ``warm_ready_js`` is true), close the tab and open the page again in a
    new tab of the same context: the returning visitor, served by the worker's cache (or the
    HTTP cache when the page has no worker). ``check_warm(page)`` may then use the page.
    ``throttle`` = (Mbit/s, round-trip ms) emulates a network for the page's requests;
    ``profile``, a device (context options, CPU rate, network for the page and its workers),
    also counts the bytes of the first visit. ``later``: as many more visits after the warm
    one, each opened once the previous one has run for LATER_VISIT_AFTER_MS."""
    ctx = new_context(browser, base_url, service_workers=service_worker, profile=profile)
    errors: list[str] = []
    ctx.on("console", lambda m: errors.append(m.text[:300]) if m.type == "error" else None)
    ctx.on("weberror", lambda e: errors.append(str(e.error)[:300]))
    requests: list[str] = []
    try:
        page, marks, cold_task, emu = _open_timed(
            ctx, path, requests, throttle, profile, count_bytes=profile is not None
        )
        requests = list(requests)  # those made until ready, not the later ones
        ready_at = page.evaluate("performance.timeOrigin") + marks["app:ready"]
        counted = (
            (*emu.bytes_sent_before(ready_at), list(emu.workers), emu.replies)
            if emu is not None
            else ({}, {}, [], {})
        )
        cold = marks["app:ready"]
        warm_ms = None
        warm_marks: dict[str, float] = {}
        warm_task = None
        if warm:
            if service_worker:
                page.wait_for_function(
                    "() => navigator.serviceWorker.controller !== null", timeout=BOOT_TIMEOUT_MS
                )
            if warm_ready_js:
                page.wait_for_function(warm_ready_js, timeout=BOOT_TIMEOUT_MS)
            page.close()
            page, warm_marks, warm_task, _ = _open_timed(ctx, path, None, throttle, profile)
            warm_ms = warm_marks["app:ready"]
            if check_warm is not None:
                check_warm(page)
        later_ms = []
        for _ in range(later if warm else 0):
            page.wait_for_timeout(LATER_VISIT_AFTER_MS)
            page.close()
            page, later_marks, _, _ = _open_timed(ctx, path, None, throttle, profile)
            later_ms.append(later_marks["app:ready"])
        boot = Boot(
            cold, warm_ms, marks, warm_marks, requests, errors, cold_task, warm_task, *counted
        )
        boot.later_ms = later_ms
        return boot
    finally:
        ctx.close()


# ----------------------------------------------------------------------------- moves


def page_face(card: int) -> str:
    """The page's markup of a face-up card, its sprite addressed from the bench's pages."""
    return face_html(card).replace(f'href="{SPRITE}', f'href="../{SPRITE}')


def layout_of(position: Position) -> dict[str, Any]:
    """What bench/pages/js_board.html needs to draw ``position`` as the real board does
    (the grid of solitaire.web.layout; card faces from solitaire.web.faces, the page's own
    markup, with the sprite's address as seen from bench/js_board.html)."""
    rules = position.rules
    table = layout(rules)
    top = [None if ref is None else str(ref) for ref in table.top_slots]
    order = [str(ref) for ref in table.order]
    cols = table.cols
    piles = {
        str(ref): {"cards": list(position.pile(ref)), "down": position.face_down(ref)}
        for ref in table.order
    }
    return {
        "game": rules.id,
        "deal": position.deal,
        "cols": cols,
        "tcols": len(rules.tableau),
        "top": top,
        "order": order,
        "piles": piles,
        "plan": list(rules.card_plan),
        "rules": {
            "build": rules.build,
            "group": rules.group,
            "empty": rules.empty,
            "foundationSize": rules.foundation_size,
        },
        "cards": {
            str(c): {"name": card_name(c), "label": long_name(c), "html": page_face(c)}
            for c in position.all_cards()
        },
    }


def plan_moves(game_id: str, moves: int, seed: int) -> list[dict[str, Any]]:
    """A random game of ``moves`` player moves (auto-move on, as the page's default), from
    deal 1 on; a deal that is won, stuck or auto-finished is followed by the next deal.
    Each action says what to click and what the table must show afterwards."""
    rng = random.Random(f"{seed}:{game_id}")
    actions: list[dict[str, Any]] = []
    deal = 0
    game: Game | None = None
    done = 0
    while done < moves:
        position = game.position if game is not None else None
        legal = (
            [m for m in position.legal_moves() if not position.is_pointless(m)]
            if position is not None and not position.is_won()
            else []
        )
        if not legal:
            deal += 1
            game = Game.new(game_id, deal, automove=True)
            actions.append(
                {"type": "deal", "game": game_id, "deal": deal, "layout": layout_of(game.position)}
            )
            continue
        assert game is not None
        assert position is not None
        move = rng.choice(legal)
        step = game.play(move)
        first = position.play_unchecked(step[0])
        after = game.position
        finish = None
        if not after.is_won() and after.auto_finish():
            finish = [[str(m.source), str(m.target), m.count] for m in game.auto_finish()]
            after = game.position
        touched = {move.source, move.target} | {m.source for m in step} | {m.target for m in step}
        if finish:
            touched |= {PileRef.parse(m[0]) for m in finish} | {PileRef.parse(m[1]) for m in finish}
        src_cards = position.pile(move.source)
        actions.append(
            {
                "type": "move",
                "src": str(move.source),
                "start": None if move.source == STOCK else len(src_cards) - move.count,
                "dst": str(move.target),
                "auto": [[str(m.source), str(m.target), m.count] for m in step[1:]],
                "finish": finish,
                "first": {str(n): len(first.pile(n)) for n in (move.source, move.target)},
                "final": {str(n): len(after.pile(n)) for n in sorted(touched, key=str)},
            }
        )
        done += 1
    return actions


# Runs in the page (real or JS board): plays the actions, timing each click from just before
# the pointerdown is dispatched to just after the handlers have returned and style and layout
# are up to date (a forced layout), i.e. the DOM shows the move. Returns times and mismatches.
DRIVER_JS = """
async ([actions, isJs]) => {
  const board = document.getElementById('board');
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const pileEl = (name) => board.querySelector(`[data-pile="${name}"]`);
  const size = (name) => pileEl(name).querySelectorAll(':scope > .card').length;
  const sizesOk = (want) => Object.entries(want).every(([n, k]) => size(n) === k);
  async function until(pred, ms) {
    const t = performance.now();
    while (!pred()) {
      if (performance.now() - t > ms) return false;
      await frame();
    }
    return true;
  }
  function click(target) {
    const r = target.getBoundingClientRect();
    const base = { bubbles: true, cancelable: true, composed: true, view: window,
      clientX: r.left + r.width / 2, clientY: r.top + Math.min(r.height / 2, 10), button: 0 };
    const p = { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true };
    const t0 = performance.now();
    target.dispatchEvent(new PointerEvent('pointerdown', { ...p, buttons: 1 }));
    target.dispatchEvent(new PointerEvent('pointerup', { ...p, buttons: 0 }));
    target.dispatchEvent(new MouseEvent('click', { ...base, detail: 1 }));
    const t1 = performance.now();
    void document.body.offsetHeight;  // style and layout of the new DOM
    const t2 = performance.now();
    handler.push(t1 - t0);
    return t2 - t0;
  }
  const topOf = (name) => {
    const cards = pileEl(name).querySelectorAll(':scope > .card');
    return cards.length ? cards[cards.length - 1] : pileEl(name);
  };
  const out = { select: [], move: [], handler: [], errors: [] };
  const handler = [];
  for (const a of actions) {
    if (a.type === 'deal') {
      if (isJs) window.jsBoard.setup(a.layout);
      else location.hash = `#${a.game}/${a.deal}`;
      const ok = await until(() => board.dataset.game === a.game
        && board.dataset.deal === String(a.deal)
        && Object.entries(a.layout.piles).every(([n, p]) => size(n) === p.cards.length), 30000);
      if (!ok) { out.errors.push(`deal ${a.game}/${a.deal} not shown`); return out; }
      await sleep(50);
      continue;
    }
    if (a.start !== null) {
      const card = pileEl(a.src).querySelectorAll(':scope > .card')[a.start];
      out.select.push(click(card));
      await frame();
    }
    // click-to-move: the second click makes the move; the stock deals on one click
    out.move.push(click(topOf(a.src === 'stock' ? 'stock' : a.dst)));
    out.handler.push(handler[handler.length - 1]);
    if (!sizesOk(a.first)) {
      out.errors.push(`move ${a.src}->${a.dst}: expected ${JSON.stringify(a.first)}`);
      return out;
    }
    if (isJs) {
      if (a.auto.length) window.jsBoard.apply(a.auto);
      if (a.finish) window.jsBoard.apply(a.finish);
    }
    const ok = await until(() => sizesOk(a.final), a.finish ? 30000 : 10000);
    if (!ok) {
      out.errors.push(`after ${a.src}->${a.dst}: expected ${JSON.stringify(a.final)}`);
      return out;
    }
    await frame();
  }
  return out;
}
"""


def click_to_move_settings(ctx: BrowserContext) -> None:
    """Turn "tap a card to move it" off in the pages of ``ctx`` (the setting, stored in
    localStorage as the page stores it, unless already set): on a touch screen it is on by
    default, and a tap then plays the card at once, where DRIVER_JS's clicks expect
    click-to-move (select, then the destination) as on a desktop."""
    backend = MemoryBackend()
    Store(backend, scope_of("/")).save_settings(Settings(tap_move=False))
    entries = dict(backend.data)
    ctx.add_init_script(
        f"""for (const [k, v] of Object.entries({json.dumps(entries)}))
              if (localStorage.getItem(k) === null) localStorage.setItem(k, v);"""
    )


def play_in_page(page: Page, actions: list[dict[str, Any]], is_js: bool) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(DRIVER_JS, [actions, is_js])
    if result["errors"]:
        raise RuntimeError(f"{page.url}: the page did not follow the moves: {result['errors']}")
    return result


# ----------------------------------------------------------------------------- numbers


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = max(0, min(len(s) - 1, round(q / 100 * len(s) + 0.5) - 1))
    return s[k]


def gzip9(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def brotli_size(data: bytes) -> int | None:
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        return None
    return len(brotli.compress(data, quality=11))


def machine() -> dict[str, Any]:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with contextlib.suppress(OSError, ValueError, IndexError):
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / 1e6:.1f} GB"
    pins = json.loads((ROOT / "package.json").read_text())["dependencies"]
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "host": platform.node(),
        "os": platform.platform(terse=True),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "pyodide": pins.get("pyodide"),
        "pyscript": pins.get("@pyscript/core"),
    }


def loadavg() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def fmt_ms(x: float | None) -> str:
    if x is None or x != x:
        return "–"
    return f"{x:,.0f} ms" if x >= 100 else f"{x:.2f} ms"


def table(rows: list[list[str]], header: list[str]) -> str:
    """A Markdown table (readable as plain text too)."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep, *(line(r) for r in rows)])


def alternate(n: int, makers: list[Callable[[], Any]]) -> list[list[Any]]:
    """Run each maker ``n`` times, interleaved (A B, B A, A B, ...), results per maker."""
    results: list[list[Any]] = [[] for _ in makers]
    for i in range(n):
        order = list(range(len(makers)))
        if i % 2:
            order.reverse()
        for k in order:
            results[k].append(makers[k]())
    return results
