"""The site a bench measures: the built one (``_site/`` or ``$SOLITAIRE_SITE``) or a variant
rebuilt from changed sources, served next to bench/pages/ (as /bench/) without writing into
the build."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchlib import checkout_hint

try:
    import build_site
    from serve import SiteServer
    from sitebuild import config
except ModuleNotFoundError as missing:
    raise SystemExit(checkout_hint(missing)) from None

ROOT = Path(__file__).resolve().parent.parent.parent
PAGES = ROOT / "bench" / "pages"


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
    # a knob of the build is set where its stages read it (sitebuild.config), any other name
    # (``build``) on build_site
    owner = {k: config if k in config.KNOBS else build_site for k in (constants or {})}
    saved = {k: getattr(owner[k], k) for k in owner}
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
                setattr(owner[k], k, v)
            build_site.build(out, root=src)
        finally:
            # restored at once: the next variant may be built while this one is still served
            for k, v in saved.items():
                setattr(owner[k], k, v)
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
