"""The numbers a bench prints: medians and percentiles, compressed sizes, the machine and its
load, Markdown tables, and runs of alternatives interleaved so that a change in the machine's
load falls on each of them alike."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchlib.siteserve import ROOT


def start_report(benchmark: str) -> dict[str, Any]:
    """Print a benchmark's first lines (its name and date, Pyodide and PyScript, the machine
    and its load) and return the machine's description."""
    info = machine()
    print(f"# {benchmark}  {info['date']}")
    print(f"Pyodide {info['pyodide']}, PyScript {info['pyscript']}")
    print(f"machine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}")
    print(f"load average at start: {loadavg()}", flush=True)
    return info


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
