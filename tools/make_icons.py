#!/usr/bin/env python3
"""Draw the site's icons (pure standard library: zlib + struct), written into web/icons/.

- ``icon-192.png``, ``icon-512.png``: a card on a rounded green tile, transparent corners;
- ``icon-maskable-512.png``: full-bleed green, the card inside the maskable safe zone;
- ``icon.svg``: the same picture as vector.

The PNGs are committed; run ``python tools/make_icons.py`` again only to change the design.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "web" / "icons"

FELT = (21, 101, 52)
CARD = (250, 250, 245)
EDGE = (200, 200, 190)
INK = (28, 28, 30)
Colour = tuple[int, int, int]


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An RGBA PNG from rows of ``width * 4`` bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def rounded_rect(x: float, y: float, cx: float, cy: float, hw: float, hh: float, r: float) -> bool:
    dx = max(abs(x - cx) - (hw - r), 0.0)
    dy = max(abs(y - cy) - (hh - r), 0.0)
    return dx * dx + dy * dy <= r * r


def spade(x: float, y: float) -> bool:
    """A spade in the unit box [-1, 1]² (y grows downwards)."""
    # Two round lobes at the bottom ...
    for cx in (-0.42, 0.42):
        if (x - cx) ** 2 + (y - 0.22) ** 2 <= 0.44**2:
            return True
    # ... a pointed top whose sides swell towards the lobes ...
    if -0.95 <= y <= 0.22:
        t = (y + 0.95) / 1.17
        if abs(x) <= 0.84 * math.sin(t * math.pi / 2) ** 1.3:
            return True
    # ... and a flared stem.
    if 0.3 <= y <= 0.95:
        return abs(x) <= 0.05 + (y - 0.3) * 0.45
    return False


def pixel(x: float, y: float, maskable: bool) -> tuple[Colour, float] | None:
    """Colour and coverage of the point (x, y) in the unit square [0, 1]²."""
    # Card: 0.58 x 0.78 of the tile (maskable: smaller, inside the 80 % safe circle).
    scale = 0.78 if maskable else 1.0
    hw, hh = 0.29 * scale, 0.39 * scale
    if rounded_rect(x, y, 0.5, 0.5, hw, hh, 0.06 * scale):
        if not rounded_rect(x, y, 0.5, 0.5, hw - 0.012, hh - 0.012, 0.05 * scale):
            return EDGE, 1.0
        sx = (x - 0.5) / (0.2 * scale)
        sy = (y - 0.5) / (0.2 * scale)
        return (INK if spade(sx, sy) else CARD), 1.0
    if maskable or rounded_rect(x, y, 0.5, 0.5, 0.5, 0.5, 0.18):
        return FELT, 1.0
    return None


def render(size: int, maskable: bool, samples: int = 4) -> bytes:
    rows: list[bytes] = []
    n = samples * samples
    for py in range(size):
        row = bytearray()
        for px in range(size):
            r = g = b = a = 0.0
            for i in range(samples):
                for j in range(samples):
                    x = (px + (i + 0.5) / samples) / size
                    y = (py + (j + 0.5) / samples) / size
                    hit = pixel(x, y, maskable)
                    if hit is not None:
                        (cr, cg, cb), cov = hit
                        r += cr * cov
                        g += cg * cov
                        b += cb * cov
                        a += cov
            if a:
                row += bytes((round(r / a), round(g / a), round(b / a), round(255 * a / n)))
            else:
                row += b"\x00\x00\x00\x00"
        rows.append(bytes(row))
    return png(size, size, rows)


def svg() -> str:
    """The same picture as vector (the spade built from the shapes of ``spade``)."""
    top = "M32 19.8C33.5 25 42.8 27.5 42.8 34.8H21.2C21.2 27.5 30.5 25 32 19.8Z"
    stem = "M31.36 35.8H32.64L36.38 44.2H27.62Z"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" rx="11.5" fill="rgb{FELT}"/>'
        f'<rect x="13.9" y="7.8" width="36.2" height="48.4" rx="3.8" fill="rgb{CARD}" '
        f'stroke="rgb{EDGE}" stroke-width="1.5"/>'
        f'<g fill="rgb{INK}"><circle cx="26.6" cy="34.8" r="5.63"/>'
        f'<circle cx="37.4" cy="34.8" r="5.63"/><path d="{top}"/><path d="{stem}"/></g>'
        "</svg>\n"
    )


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-maskable-512.png", 512, True),
    ):
        (OUT / name).write_bytes(render(size, maskable))
        print(f"wrote {OUT / name}")
    (OUT / "icon.svg").write_text(svg(), encoding="utf-8")
    print(f"wrote {OUT / 'icon.svg'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
