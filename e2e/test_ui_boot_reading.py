"""What a first visit sees while the game starts (docs/ui.md, "Boot and offline"): the rules of
the game that opens, readable, with the table uncovered (web/boot-lesson.js), then the lesson
itself once the game is ready; the bytes of the big downloads counted on the loading screen
(web/boot.js, web/boot/downloads.mjs), up to the sizes the build wrote. Each start is held
(Pyodide's wasm kept back) while the test looks, on phones upright and on their side and on a
desktop."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import Screen, screenshot, wait_ready
from playwright.sync_api import Page, expect
from ui_helpers import KEY_SETTINGS, HeldStart, boxes_overlap, with_lessons

from solitaire.web.documents import Settings
from solitaire.web.lesson import PLANS, boot_readings
from solitaire.web.store import VERSION

SIZES: list[Screen] = [(390, 844, True), (360, 740, True), (844, 390, True), (1280, 800, False)]

#: Each face-up or face-down card's box, and the box of the element ``sel``.
BOXES_JS = """(sel) => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  return {cards: [...document.querySelectorAll('#board .card')].map(box),
          panel: box(document.querySelector(sel))};
}"""


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("SOLITAIRE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        screenshot(page, str(Path(folder) / f"{name}.png"))


def size_id(size: Screen) -> str:
    return f"{size[0]}x{size[1]}"


def held_first_visit(page: Page, address: str = "./") -> HeldStart:
    """A first visit with lessons on, its start held in the wasm's download."""
    with_lessons(page)
    held = HeldStart(page)
    page.goto(address, wait_until="domcontentloaded")
    page.wait_for_function("document.getElementById('boot-msg')?.dataset.step === 'download'")
    return held


def check_reading(page: Page, box: str, game_id: str) -> None:
    reading = boot_readings()[game_id]
    expect(page.locator(f"{box} .reading-title")).to_have_text(f"How to play {reading['name']}")
    expect(page.locator(f"{box} .reading-goal")).to_have_text(reading["goal"])
    expect(page.locator(f"{box} .reading-rules li")).to_have_text(reading["rules"])
    size = page.locator(f"{box} .reading-rules li").first.evaluate(
        "(e) => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 13, size  # readable on a phone
    assert page.evaluate("document.documentElement.dataset.reading") == game_id


def check_lesson_took_over(page: Page, game_id: str) -> None:
    expect(page.locator("#tutorial-text")).to_have_text(PLANS[game_id].steps[0].text)
    expect(page.locator("#tutorial-reading")).to_be_hidden()
    assert page.locator("#tutorial-reading > *").count() == 0
    assert page.evaluate("document.documentElement.dataset.reading") is None
    assert page.locator("#tutorial").get_attribute("data-reading") is None


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_a_first_visit_reads_the_rules_beside_the_uncovered_table(
    screen_page: Callable[[Screen], Page], size: Screen
) -> None:
    page = screen_page(size)
    held = held_first_visit(page)
    game_id = page.locator("#board").get_attribute("data-game")
    assert game_id == "russian"  # the first-visit table is the default game's
    assert page.locator("#board").get_attribute("data-preview") == "first"
    panel = page.locator("#tutorial")
    expect(panel).to_be_visible()
    assert panel.get_attribute("data-reading") == ""
    check_reading(page, "#tutorial-reading", game_id)
    # the lesson's own parts wait for the game; the loading message and bar stand under the
    # rules, and the loading panel over the table is gone
    for part in ("#tutorial-counter", "#tutorial-text", "#tutorial-skip", "#boot"):
        expect(page.locator(part)).to_be_hidden()
    for part in ("#boot-msg", "#boot-bar"):
        expect(page.locator(f"#tutorial-reading {part}")).to_be_visible()
    expect(page.locator("#boot-msg")).to_have_text(
        "Getting the cards ready — next time it opens at once"
    )
    boxes = page.evaluate(BOXES_JS, "#tutorial")
    assert boxes["cards"], "no table shown"
    covered = [c for c in boxes["cards"] if boxes_overlap(c, boxes["panel"])]
    assert not covered, covered
    viewport = page.viewport_size
    assert viewport is not None
    assert boxes["panel"]["y"] + boxes["panel"]["h"] <= viewport["height"] + 0.5
    assert max(c["y"] + c["h"] for c in boxes["cards"]) <= viewport["height"] + 0.5
    shot(page, f"boot-reading-{size_id(size)}")
    held.release()
    wait_ready(page)
    check_lesson_took_over(page, game_id)
    shot(page, f"boot-reading-{size_id(size)}-lesson")


def test_a_link_to_another_game_reads_its_rules_on_the_loading_screen(phone_page: Page) -> None:
    page = phone_page
    held = held_first_visit(page, "./#double-freecell/5")
    expect(page.locator("#boot-lesson")).to_be_visible()
    check_reading(page, "#boot-lesson", "double-freecell")
    expect(page.locator("#tutorial")).to_be_hidden()  # no table: the loading screen is whole
    box = page.locator("#boot-lesson").bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 844
    shot(page, "boot-reading-link-390x844")
    held.release()
    wait_ready(page)
    expect(page.locator("#boot")).to_be_hidden()
    check_lesson_took_over(page, "double-freecell")


def test_no_reading_once_the_games_lesson_is_done_or_lessons_are_off(phone_page: Page) -> None:
    page = phone_page
    page.goto("./manifest.webmanifest")  # the site's origin, without starting the game
    settings = {**Settings(lessons_done=("double-rail",)).to_json(), "v": VERSION}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY_SETTINGS, json.dumps(settings)])
    with_lessons(page)
    held = HeldStart(page)
    page.goto("./#double-rail/3", wait_until="domcontentloaded")
    page.wait_for_function("document.getElementById('boot-msg')?.dataset.step === 'download'")
    assert page.evaluate("document.documentElement.dataset.reading") is None
    expect(page.locator("#boot-lesson")).to_be_hidden()
    expect(page.locator("#tutorial-reading")).to_be_hidden()
    held.release()
    wait_ready(page)
    expect(page.locator("#tutorial")).to_be_hidden()


def test_lessons_off_no_reading(page: Page) -> None:
    """The harness's pages have lessons off (NO_LESSONS_SCRIPT): no reading either."""
    held = HeldStart(page)
    page.goto("./", wait_until="domcontentloaded")
    page.wait_for_function("document.getElementById('boot-msg')?.dataset.step === 'download'")
    assert page.evaluate("document.documentElement.dataset.reading") is None
    expect(page.locator("#tutorial")).to_be_hidden()
    expect(page.locator("#boot-bar")).to_be_visible()  # on the loading panel, as without lessons
    held.release()
    wait_ready(page)


#: Records every value the progress bar's aria-valuenow takes, and the bytes line's texts.
PROGRESS_RECORDER = """
window.__progress = [];
new MutationObserver(() => {
  const bar = document.getElementById('boot-bar');
  const bytes = document.getElementById('boot-bytes');
  if (bar && bar.hasAttribute('aria-valuenow')) {
    window.__progress.push([Number(bar.getAttribute('aria-valuenow')), bytes.textContent,
                            bar.style.getPropertyValue('--done')]);
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['aria-valuenow']});
"""


def stamped(site_dir: Path, name: str) -> int:
    """A size the build wrote into web/pyodide-boot.mjs's marked line ``const NAME = n;``."""
    text = (site_dir / "web" / "pyodide-boot.mjs").read_text(encoding="utf-8")
    match = re.search(rf"^const {name} = (\d+);$", text, re.MULTILINE)
    assert match, f"the build wrote no {name}"
    return int(match.group(1))


def test_the_first_visits_bytes_are_counted_up_to_the_builds_sizes(
    phone_page: Page, site_dir: Path
) -> None:
    """With the link slowed (CDP network emulation, ~8 Mbit/s), the bar fills in many steps,
    never backwards, and ends at the sizes of the packed wasm and the build's snapshot."""
    page = phone_page
    wasm = stamped(site_dir, "PACKED_WASM_BYTES")
    snapshot = stamped(site_dir, "BOOT_SNAPSHOT_BYTES")
    assert wasm == (site_dir / "vendor/pyodide/pyodide.asm.wasm.zst").stat().st_size
    snapshot_file = re.search(
        r'^const BOOT_SNAPSHOT = "\./([^"]+)";$',
        (site_dir / "web" / "pyodide-boot.mjs").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert snapshot_file
    assert snapshot == (site_dir / snapshot_file.group(1)).stat().st_size
    total = f"{(wasm + snapshot) / 1e6:.1f}"
    page.add_init_script(PROGRESS_RECORDER)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": 1_000_000, "uploadThroughput": 1e6},
    )
    page.goto("./#russian/1", wait_until="domcontentloaded")
    page.wait_for_function("window.__progress.some(([p]) => p >= 20 && p < 100)")
    expect(page.locator("#boot-bytes")).to_have_text(re.compile(rf"^\d+\.\d of {total} MB$"))
    shot(page, "boot-bytes-390x844")
    wait_ready(page, timeout_ms=120_000)
    seen = page.evaluate("window.__progress")
    percents = [p for p, _, _ in seen]
    assert percents == sorted(percents), percents
    assert len(set(percents)) >= 10, percents
    assert percents[-1] == 100, percents
    assert seen[-1][1] == f"{total} of {total} MB"
    assert float(seen[-1][2]) == 1
    assert page.locator("#boot-bar").get_attribute("aria-valuetext") == seen[-1][1]
