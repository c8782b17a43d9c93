"""The loading screen never looks frozen: while the start is held (Pyodide's wasm kept back),
its bar moves by a compositor animation (transform only; opacity with reduced motion), which
keeps running while the main thread is busy; its text goes through the real steps of the
start, in order, and the screen is gone once the page is ready. On a phone and on a desktop,
light and dark."""

from __future__ import annotations

import base64

import pytest
from harness import wait_ready
from playwright.sync_api import CDPSession, Page, expect
from ui_helpers import HeldStart

#: Records every value #boot-msg's data-step takes (the attribute's old values, then its last).
STEP_RECORDER = """
window.__bootSteps = [];
new MutationObserver((records) => {
  for (const r of records) window.__bootSteps.push(r.oldValue);
}).observe(document, {subtree: true, attributeFilter: ['data-step'], attributeOldValue: true});
"""

#: The order of the steps (web/boot.js STEPS).
ORDER = ["page", "download", "start", "restore", "game", "deal"]

#: The bar's animations: name, state, iterations and the properties they animate.
ANIMATIONS_JS = """() => {
  const fill = document.querySelector('#boot-bar .boot-bar-fill');
  const meta = new Set(['offset', 'computedOffset', 'easing', 'composite']);
  return fill.getAnimations().map((a) => ({
    name: a.animationName,
    state: a.playState,
    iterations: a.effect.getTiming().iterations,
    props: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))]
      .filter((p) => !meta.has(p)).sort(),
  }));
}"""

#: Holds the main thread for `ms` milliseconds, starting in the next task (so that the call
#: returns at once and the test can look at the screen meanwhile).
BUSY_JS = """(ms) => { setTimeout(() => { const end = performance.now() + ms;
  while (performance.now() < end) {} }, 0); }"""


def bar_shots(cdp: CDPSession, page: Page, count: int, gap_ms: int) -> list[bytes]:
    """``count`` screenshots of the bar taken by the browser (CDP), ``gap_ms`` apart."""
    box = page.locator("#boot-bar").bounding_box()
    assert box is not None
    clip = {**box, "scale": 1}
    shots = []
    for _ in range(count):
        data = cdp.send("Page.captureScreenshot", {"format": "png", "clip": clip})["data"]
        shots.append(base64.b64decode(data))
        page.wait_for_timeout(gap_ms)
    return shots


def open_held(page: Page) -> HeldStart:
    held = HeldStart(page)
    page.add_init_script(STEP_RECORDER)
    page.goto("./#russian/1", wait_until="domcontentloaded")
    # the start has begun and waits for the wasm: the first visit's download step
    page.wait_for_function("document.getElementById('boot-msg').dataset.step === 'download'")
    return held


def check_ends_ready(page: Page, held: HeldStart) -> None:
    held.release()
    wait_ready(page)
    steps = page.evaluate(
        "[...window.__bootSteps, document.getElementById('boot-msg').dataset.step]"
    )
    assert steps == sorted(steps, key=ORDER.index), steps
    assert len(set(steps)) == len(steps), steps
    assert {"page", "download", "start", "game"} <= set(steps), steps
    assert "restore" not in steps  # no snapshot in a fresh profile
    expect(page.locator("#boot")).to_be_hidden()
    # the bar stopped with it (the board's own card transitions may run by now)
    boot_animations = "document.getAnimations().filter(a => a.effect?.target?.closest?.('#boot'))"
    assert page.evaluate(f"{boot_animations}.length") == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bar_moves_while_the_main_thread_is_busy(any_page: Page, scheme: str) -> None:
    page = any_page
    page.emulate_media(color_scheme=scheme)
    held = open_held(page)
    expect(page.locator("#boot")).to_be_visible()
    expect(page.locator("#boot-bar")).to_be_visible()
    expect(page.locator("#boot-msg")).to_have_text(
        "Getting the cards ready — next time it opens at once"
    )
    animations = page.evaluate(ANIMATIONS_JS)
    assert animations == [
        {
            "name": "boot-slide",
            "state": "running",
            "iterations": float("inf"),
            "props": ["transform"],
        }
    ]
    assert (
        page.locator(".boot-bar-fill").evaluate("(e) => getComputedStyle(e).willChange")
        == "transform"
    )
    # The browser draws the bar moving while a script holds the main thread: the compositor
    # runs the animation, not the page.
    cdp = page.context.new_cdp_session(page)
    page.evaluate(BUSY_JS, 1500)
    shots = bar_shots(cdp, page, 3, 250)
    assert len(set(shots)) >= 2, "the bar did not move while the main thread was busy"
    check_ends_ready(page, held)


def test_reduced_motion_pulses(phone_page: Page) -> None:
    page = phone_page
    page.emulate_media(reduced_motion="reduce")
    held = open_held(page)
    animations = page.evaluate(ANIMATIONS_JS)
    assert animations == [
        {"name": "boot-pulse", "state": "running", "iterations": float("inf"), "props": ["opacity"]}
    ]
    box = page.locator("#boot-bar").bounding_box()
    fill = page.locator(".boot-bar-fill").bounding_box()
    assert box
    assert fill
    assert fill["width"] == box["width"]  # the whole track, not a sliding stripe
    check_ends_ready(page, held)
