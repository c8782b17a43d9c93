"""Each change the build makes to a pinned vendor file (the PYODIDE_* and PYSCRIPT_* patches
of tools/sitebuild/vendor_patches.py) still finds its text exactly once in the file node_modules
holds, so that a new pin fails here, naming the patch, rather than in the middle of a build; and
every JavaScript file the build runs or ships from this repository parses (``node --check``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sitebuild import bytecode, config  # tools/ is on pytest's pythonpath (pyproject.toml)
from sitebuild import vendor_patches as patches

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core" / "dist"


def _patches() -> list[tuple[str, Path, str]]:
    """(patch name, pinned file, exact text the patch replaces) of every vendor patch."""
    found = [
        (
            "PYODIDE_SLEEP_PATCH",
            PYODIDE / patches.PYODIDE_SLEEP_PATCH[0],
            patches.PYODIDE_SLEEP_PATCH[1],
        ),
        ("PYODIDE_NO_JSPI_PATCH", PYODIDE / "pyodide.asm.mjs", patches.PYODIDE_NO_JSPI_PATCH[0]),
        (
            "PYSCRIPT_CORE_PATCH",
            PYSCRIPT / patches.PYSCRIPT_CORE_PATCH[0],
            patches.PYSCRIPT_CORE_PATCH[2],
        ),
        (
            "PYSCRIPT_SETUP_PATCH",
            PYSCRIPT / patches.PYSCRIPT_CORE_PATCH[0],
            patches.PYSCRIPT_SETUP_PATCH[0],
        ),
    ]
    groups = (
        ("PYODIDE_LINKER_PATCHES", "pyodide.asm.mjs", patches.PYODIDE_LINKER_PATCHES),
        ("PYODIDE_SNAPSHOT_PATCHES", "pyodide.asm.mjs", patches.PYODIDE_SNAPSHOT_PATCHES),
        ("PYODIDE_TASK_PATCHES", "pyodide.asm.mjs", patches.PYODIDE_TASK_PATCHES),
        ("PYODIDE_LOADER_PATCHES", "pyodide.mjs", patches.PYODIDE_LOADER_PATCHES),
    )
    for name, file, pairs in groups:
        found += [(f"{name}[{i}]", PYODIDE / file, old) for i, (old, _) in enumerate(pairs)]
    return found


PATCHES = _patches()


@pytest.mark.parametrize(("name", "path", "old"), PATCHES, ids=[p[0] for p in PATCHES])
def test_vendor_patch_matches_the_pinned_file_once(name: str, path: Path, old: str) -> None:
    text = path.read_text(encoding="utf-8")
    count = text.count(old)
    assert count == 1, (
        f"{name}: its text occurs {count} times in {path.relative_to(ROOT)} (expected once): "
        f"the pinned package changed; check what the patch does and update it ({old[:80]!r})"
    )


def test_padded_pyscript_patches_keep_the_chunk_length() -> None:
    """PyScript's chunk is patched in place (its published source map stays valid)."""
    assert len(patches.PYSCRIPT_CORE_PATCH[2]) == len(patches.PYSCRIPT_CORE_PATCH[3])
    assert len(patches.PYSCRIPT_SETUP_PATCH[0]) == len(patches.PYSCRIPT_SETUP_PATCH[1])


SCRIPTS = sorted(
    p.relative_to(ROOT).as_posix()
    for pattern in ("tools/*.mjs", "tools/sitebuild/*.mjs", "web/*.mjs", "web/*.js")
    for p in ROOT.glob(pattern)
)


@pytest.mark.parametrize("rel", SCRIPTS)
def test_javascript_file_parses(rel: str) -> None:
    """With the Node the build runs (``sitebuild.config.NODE``): the build needs it anyway."""
    node = [config.NODE, "--check", rel]
    run = subprocess.run(node, cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, f"{rel} does not parse:\n{run.stderr}"


def test_compile_script_is_found() -> None:
    assert bytecode.COMPILE_PYC_SCRIPT.is_file()
    assert "tools/sitebuild/compile_pyc.mjs" in SCRIPTS
