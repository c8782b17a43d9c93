"""Boot timing: a first visit in a fresh browser context, then the returning visitor's (the page
opened again once its service worker controls it), each from navigation start to
``<html data-app="ready">``, with the main thread's task time, the requests and, on a device
profile, the bytes received."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from benchlib.chrome import (
    BLOCKING_JS,
    BOOT_TIMEOUT_MS,
    Browser,
    BrowserContext,
    Emulation,
    Page,
    Profile,
    new_context,
    wait_ready,
)

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


def open_timed(
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
        page, marks, cold_task, emu = open_timed(
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
            page, warm_marks, warm_task, _ = open_timed(ctx, path, None, throttle, profile)
            warm_ms = warm_marks["app:ready"]
            if check_warm is not None:
                check_warm(page)
        later_ms = []
        for _ in range(later if warm else 0):
            page.wait_for_timeout(LATER_VISIT_AFTER_MS)
            page.close()
            page, later_marks, _, _ = open_timed(ctx, path, None, throttle, profile)
            later_ms.append(later_marks["app:ready"])
        boot = Boot(
            cold, warm_ms, marks, warm_marks, requests, errors, cold_task, warm_task, *counted
        )
        boot.later_ms = later_ms
        return boot
    finally:
        ctx.close()
