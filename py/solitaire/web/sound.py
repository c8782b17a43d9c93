"""Optional sounds (Settings.sound, off by default): a card placed, a move refused, a win.

Synthesised with Web Audio (an oscillator and a gain envelope per note), so no sound file is
downloaded. The AudioContext is made on first use, and only once the page has had a user
gesture (``navigator.userActivation.hasBeenActive``; a browser without that API only gets here
from an input handler): nothing sounds before the player has touched the page, and browsers
start a context made earlier suspended anyway.
"""

from __future__ import annotations

import contextlib
from typing import Any

from js import window

#: A note: (start offset s, frequency Hz, end frequency Hz, duration s, peak gain, waveform).
Note = tuple[float, float, float, float, float, str]

PLACE: tuple[Note, ...] = ((0.0, 620.0, 300.0, 0.06, 0.22, "triangle"),)
REFUSE: tuple[Note, ...] = (
    (0.0, 160.0, 150.0, 0.07, 0.07, "square"),
    (0.1, 130.0, 120.0, 0.09, 0.07, "square"),
)
WIN: tuple[Note, ...] = tuple(
    (0.12 * i, f, f, 0.28, 0.18, "triangle") for i, f in enumerate((523.3, 659.3, 784.0, 1046.5))
)


def _had_gesture() -> bool:
    activation = getattr(window.navigator, "userActivation", None)
    return activation is None or bool(activation.hasBeenActive)


class Sounds:
    def __init__(self) -> None:
        self.enabled = False
        self.ctx: Any = None

    def _context(self) -> Any:
        """The AudioContext, made on first use after a gesture; None when there is none."""
        if self.ctx is None:
            if not _had_gesture():
                return None
            make = getattr(window, "AudioContext", None) or getattr(
                window, "webkitAudioContext", None
            )
            if make is None:
                return None
            self.ctx = make.new()
        if str(self.ctx.state) == "suspended":
            self.ctx.resume()
        return self.ctx

    def play(self, notes: tuple[Note, ...]) -> None:
        """Play ``notes`` now, if sounds are on (a failure of the audio system stays silent)."""
        if not self.enabled:
            return
        with contextlib.suppress(Exception):
            ctx = self._context()
            if ctx is None:
                return
            now = float(ctx.currentTime)
            for offset, freq, end_freq, length, peak, wave in notes:
                t0 = now + offset
                osc = ctx.createOscillator()
                osc.type = wave
                osc.frequency.setValueAtTime(freq, t0)
                if end_freq != freq:
                    osc.frequency.exponentialRampToValueAtTime(end_freq, t0 + length)
                gain = ctx.createGain()
                gain.gain.setValueAtTime(0.0001, t0)
                gain.gain.exponentialRampToValueAtTime(peak, t0 + 0.008)
                gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length)
                osc.connect(gain)
                gain.connect(ctx.destination)
                osc.start(t0)
                osc.stop(t0 + length + 0.02)

    def place(self) -> None:
        self.play(PLACE)

    def refuse(self) -> None:
        self.play(REFUSE)

    def win(self) -> None:
        self.play(WIN)
