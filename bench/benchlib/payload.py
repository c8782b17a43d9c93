"""The payload of a cold boot (bench_page.py's "Payload"): every request's bytes, raw and
gzip -9 (brotli too when the module is installed), the runtime (vendor/) apart from our own
files, the files the service worker precaches after ready, and the files the game does not
need, each with the reason.

Why a module of its own: it times nothing and drives no browser; given the requests of one
cold boot it reads the served site and the import statements of the package
(:func:`imported_modules`), so it can be read and changed apart from the timing benchmarks.
"""

from __future__ import annotations

import ast
import re
import tarfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from benchlib import siteserve, stats


def imported_modules(py_dir: Path, entry: str = "web/app.py") -> set[str]:
    """Files of py/ that importing solitaire.web.app loads (package __init__ files included),
    found by reading the import statements."""
    seen: set[str] = set()
    todo = ["__init__.py", "web/__init__.py", entry]
    while todo:
        rel = todo.pop()
        if rel in seen or not (py_dir / rel).is_file():
            continue
        seen.add(rel)
        package = rel.split("/")[:-1]  # e.g. ["web"] for web/app.py
        for node in ast.walk(ast.parse((py_dir / rel).read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            mod = [*base, *(node.module.split(".") if node.module else [])]
            prefix = "/".join(mod)
            for name in ["", *(a.name for a in node.names)]:
                stem = f"{prefix}/{name}" if name and prefix else (name or prefix)
                todo += [f"{stem}.py", f"{stem}/__init__.py"]
    return seen


UNNEEDED_PLUGINS = re.compile(
    r"vendor/pyscript/(py-editor|py-game|py-terminal|donkey|"
    r"deprecations-manager|error)-"
)


def _source_of(rel: str) -> str:
    """``web/__pycache__/app.cpython-314.pyc`` -> ``web/app.py`` (the bytecode the build ships
    next to each source is needed exactly when its source is); a source -> itself."""
    m = re.fullmatch(r"(.*?)__pycache__/([^/.]+)\.[^/]+\.pyc", rel)
    return f"{m.group(1)}{m.group(2)}.py" if m else rel


def _archive_members(path: Path) -> list[str]:
    """The regular files of a gzipped tar archive (the page's bytecode, py/page.tar.gz)."""
    with tarfile.open(path) as tar:
        return [m.name for m in tar if m.isfile()]


def why_unneeded(rel: str, needed_py: set[str], site: Path | None = None) -> str:
    if UNNEEDED_PLUGINS.match(rel):
        return "PyScript plugin, imported by its core on every boot; unused by the game"
    if rel == "vendor/pyscript/core.css":
        return "styles py-script/py-editor/py-terminal tags; the page has none"
    package = "py/solitaire/"
    if rel.endswith(".tar.gz") and site is not None:
        # the page's pycs, named by their path in the interpreter (solitaire/x.pyc)
        members = [m.removeprefix("solitaire/") for m in _archive_members(site / rel)]
        unused = [m for m in members if m.removesuffix(".pyc") + ".py" not in needed_py]
        return f"holds modules solitaire.web.app does not import: {unused}" if unused else ""
    if rel.startswith(package) and _source_of(rel.removeprefix(package)) not in needed_py:
        return "not imported by solitaire.web.app (copied by the files map anyway)"
    if rel == "vendor/pyodide/pyodide-lock.json":
        return "only used to load packages; the game loads none"
    return ""


def bench_payload(served: Path, requests: list[str], base_url: str) -> dict[str, Any]:
    site = served
    needed_py = imported_modules(siteserve.ROOT / "py" / "solitaire")
    files = []
    for url in requests:
        parts = urlsplit(url)
        if not url.startswith(base_url):
            files.append({"path": url, "external": True})
            continue
        rel = parts.path.lstrip("/") or "index.html"
        path = site / rel
        if not path.is_file():
            files.append({"path": rel, "missing": True})
            continue
        data = path.read_bytes()
        # a gzip file (the page's bytecode archive) is served as it is: its size is the transfer
        served_as_is = data[:2] == b"\x1f\x8b"
        brotli = stats.brotli_size(data)  # None: no brotli module here
        files.append(
            {
                "path": rel,
                "raw": len(data),
                "gzip": len(data) if served_as_is else stats.gzip9(data),
                "brotli": len(data) if served_as_is and brotli is not None else brotli,
                "runtime": rel.startswith("vendor/"),
                "unneeded": why_unneeded(rel, needed_py, site),
            }
        )
    # what the service worker precaches after ready that the boot did not fetch
    sw = (site / "sw.js").read_text(encoding="utf-8")
    listed = re.findall(r'^\s*"\./([^"]*)",\s*$', sw, flags=re.M)
    fetched = {f["path"] for f in files}
    extra = []
    for rel in listed:
        rel = rel or "index.html"
        if rel in fetched or not (site / rel).is_file():
            continue
        data = (site / rel).read_bytes()
        extra.append({"path": rel, "raw": len(data), "gzip": stats.gzip9(data)})
    return {"files": files, "precache_extra": extra}


def report_payload(p: dict[str, Any]) -> tuple[str, list[tuple[str, bool, str]]]:
    files = [f for f in p["files"] if "raw" in f]
    has_br = any(f["brotli"] is not None for f in files)

    def kb(n: int) -> str:
        return f"{n / 1000:,.1f} KB"

    rows = []
    for f in files:
        row = [f["path"], kb(f["raw"]), kb(f["gzip"])]
        if has_br:
            row.append(kb(f["brotli"]))
        row.append(f["unneeded"] or "")
        rows.append(row)
    sums = []
    for label, group in (
        ("runtime (vendor/)", [f for f in files if f["runtime"]]),
        ("own files", [f for f in files if not f["runtime"]]),
        ("total", files),
    ):
        row = [
            f"= {label}, {len(group)} requests",
            kb(sum(f["raw"] for f in group)),
            kb(sum(f["gzip"] for f in group)),
        ]
        if has_br:
            row.append(kb(sum(f["brotli"] for f in group)))
        row.append("")
        sums.append(row)
    extra = p["precache_extra"]
    sums.append(
        [
            f"+ precached after ready, not fetched at boot ({len(extra)} files)",
            kb(sum(f["raw"] for f in extra)),
            kb(sum(f["gzip"] for f in extra)),
            *([""] if has_br else []),
            ", ".join(f["path"] for f in extra),
        ]
    )
    header = (
        ["cold boot request", "raw", "gzip -9"]
        + (["brotli"] if has_br else [])
        + ["not needed by the game?"]
    )
    text = stats.table(rows + sums, header)
    odd = [f["path"] for f in p["files"] if f.get("external") or f.get("missing")]
    if odd:
        text += "\nNOT SERVED FROM THE SITE: " + ", ".join(odd)
    own_gz = sum(f["gzip"] for f in files if not f["runtime"])
    verdicts = [
        ("own files < 200 KB compressed", own_gz < 200_000, f"{own_gz / 1000:.1f} KB gzip"),
        (
            "nothing loaded that the game does not use",
            not any(f["unneeded"] for f in files) and not odd,
            f"{sum(1 for f in files if f['unneeded'])} requests flagged",
        ),
    ]
    return text, verdicts
