"""The lesson's panel (``[data-tutorial]``, between the toolbar and the table) and the status
line's rule chip (``#st-rule``), drawn from the controller's ``Teaching`` after each intent;
each write only when the value changed. The first draw takes away the rules the panel showed
while the game started (web/boot-lesson.js: ``data-reading``, ``#tutorial-reading``)."""

from __future__ import annotations

from typing import Any

from js import document

from .dom import by_id
from .lesson import Teaching


class LessonView:
    def __init__(self) -> None:
        self.panel = by_id("tutorial")
        self.text = by_id("tutorial-text")
        self.counter = by_id("tutorial-counter")
        self.skip = by_id("tutorial-skip")
        self.chip = by_id("st-rule")
        self.shown: dict[str, Any] = {}
        self.reading = by_id("tutorial-reading")

    def end_reading(self) -> None:
        """The page is ready: the lesson (or nothing) takes the panel from the reading."""
        self.panel.removeAttribute("data-reading")
        document.documentElement.removeAttribute("data-reading")
        self.reading.hidden = True
        self.reading.replaceChildren()

    def put(self, name: str, el: Any, attr: str, value: Any) -> None:
        if self.shown.get(name) != value:
            self.shown[name] = value
            setattr(el, attr, value)

    def render(self, teaching: Teaching) -> None:
        if not self.shown:
            self.end_reading()
        lesson = teaching.lesson
        self.put("panel", self.panel, "hidden", lesson is None)
        if lesson is not None:
            done = lesson.finished
            self.put(
                "text",
                self.text,
                "textContent",
                "Well done: that is how this game plays." if done else lesson.step.text,
            )
            self.put("counter", self.counter, "textContent", "✓" if done else lesson.counter())
            self.put("skip", self.skip, "textContent", "Back to my game" if done else "Skip")
        chip = teaching.rule_chip()
        self.put("chip", self.chip, "textContent", chip)
        self.put("chip-hidden", self.chip, "hidden", not chip)
