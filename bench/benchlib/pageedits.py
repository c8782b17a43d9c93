"""The page's sources with one change made or undone, as text: index.html, web/pyodide-boot.mjs
and web/style.css edited, or a file as it was at a commit. bench_boot_options.py's variants
hand these to ``siteserve.variant_site``, which builds a site from them.

Why a module of its own: these are plain text edits, with no browser, no build and no
measurement, each raising ``ValueError`` when the text it edits is no longer in the source (the
page has changed, and the variant must be looked at again); the table of variants, which pairs
them with the build's constants, stays with the benchmark.
"""

from __future__ import annotations

import re
import subprocess

from benchlib import siteserve

PRELOADS = """  <link rel="modulepreload" href="vendor/pyodide/pyodide.mjs">
  <link rel="modulepreload" href="vendor/pyodide/pyodide.asm.mjs">
  <link rel="preload" href="vendor/pyodide/pyodide.asm.wasm" as="fetch" crossorigin>
  <link rel="preload" href="vendor/pyodide/python_stdlib.zip" as="fetch" crossorigin>
"""

#: Fetch Pyodide's loader along with web/pyodide-boot.mjs instead of after it.
MODULEPRELOAD = """  <link rel="modulepreload" href="vendor/pyodide/pyodide.mjs">
"""

# index.html without PyScript: the same Pyodide, the same files, the same main(). Through
# web/pyodide-boot.mjs the interpreter comes with the files already written.
NO_PYSCRIPT_LOADER = """<script type="module">
  import { loadPyodide } from "./%(module)s";
  const py = await loadPyodide();
  await py.runPythonAsync("from solitaire.web.app import main\\nawait main()");
</script>
"""
NO_PYSCRIPT_PLAIN_LOADER = """<script type="module">
  import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
  const files = await (await fetch("./pyodide-files.json")).json();
  const source = Promise.all(Object.entries(files).map(async ([url, path]) => {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return [path, await r.text()];
  }));
  const py = await loadPyodide();
  for (const [path, text] of await source) {
    const dir = path.slice(0, path.lastIndexOf("/"));
    py.FS.mkdirTree(dir);
    py.FS.writeFile(path, text);
  }
  await py.runPythonAsync("from solitaire.web.app import main\\nawait main()");
</script>
"""


#: The commit before the cheaper first board (one innerHTML per board, lazy proxies, tables
#: without n² calls, no inspect.signature for the store's dataclasses): "before-board-html"
#: builds the site with these files as they were there.
BEFORE_BOARD_HTML = "9522c18"
BOARD_HTML_FILES = (
    "py/solitaire/web/board.py",
    "py/solitaire/web/store.py",
    "py/solitaire/position.py",
)


def _at(commit: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(siteserve.ROOT), "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _index() -> str:
    return (siteserve.ROOT / "index.html").read_text(encoding="utf-8")


def _with_preloads(html: str) -> str:
    return _with_head_links(html, PRELOADS)


def _without_pyscript(html: str, module: str) -> str:
    html, _ = re.subn(r'\s*<link rel="stylesheet" href="vendor/pyscript/core\.css">', "", html)
    html, n2 = re.subn(
        r'\s*<script type="module" src="vendor/pyscript/core\.js"></script>', "", html
    )
    html, n3 = re.subn(
        r'<script type="py"[^>]*>.*?</script>',
        lambda m: (
            NO_PYSCRIPT_PLAIN_LOADER
            if module.startswith("vendor/")
            else NO_PYSCRIPT_LOADER % {"module": module}
        ),
        html,
        flags=re.S,
    )
    if not (n2 and n3):
        raise ValueError("index.html: PyScript script tags not found")
    return html


EARLY_START = re.compile(
    r"\s*(?:<!--(?:(?!-->).)*-->\s*)?"
    r'<script type="module" src="web/pyodide-boot\.mjs" async></script>',
    re.S,
)


def _without_early_start(html: str) -> str:
    """index.html as before the early start: Pyodide starts only when PyScript, once loaded,
    imports web/pyodide-boot.mjs and calls its loadPyodide()."""
    html, n = EARLY_START.subn("", html, count=1)
    if not n:
        raise ValueError("index.html: no <script type=module src=web/pyodide-boot.mjs async>")
    return html


MPY_CONFIG = re.compile(r"\s*(?:<!--(?:(?!-->).)*-->\s*)?<mpy-config\b.*?</mpy-config>", re.S)


def _without_mpy_config(html: str) -> str:
    html, n = MPY_CONFIG.subn("", html, count=1)
    if not n:
        raise ValueError("index.html: no <mpy-config>")
    return html


def _with_head_links(html: str, links: str) -> str:
    """``links`` inserted before the early-start script (or core.js's, without one)."""
    anchor = re.search(
        r'\n\s*(?:<!--(?:(?!-->).)*-->\s*)?<script type="module" src="(?:web/pyodide-boot\.mjs|'
        r'vendor/pyscript/core\.js)"',
        html,
        re.S,
    )
    if not anchor:
        raise ValueError("index.html: no early-start or core.js script")
    return html[: anchor.start()] + "\n" + links.rstrip("\n") + html[anchor.start() :]


#: The loading screen's card as it was until 2026-11-21 23:45: bobbing all along the start-up (a
#: compositor animation, which keeps the compositor and raster threads drawing frames while
#: Pyodide compiles and starts).
BOBBING_CARD = """  <style>
    .boot-card { animation: boot-bob 1.6s ease-in-out infinite; }
    html[data-app="failed"] .boot-card { animation: none; }
    @keyframes boot-bob { 50% { transform: translateY(-8px) rotate(-4deg); } }
  </style>
"""


def _bobbing_boot_card(html: str, steps: int = 0) -> str:
    """index.html with the bobbing card back (``steps``: in that many steps per half cycle)."""
    if "</head>" not in html:
        raise ValueError("index.html: no </head>")
    style = BOBBING_CARD
    if steps:
        style = style.replace("ease-in-out", f"steps({steps})")
    return html.replace("</head>", style + "</head>", 1)


def _fetching_lock_file(boot_module: str) -> str:
    old = "return LOCKFILE_INFO && !own ?"
    if old not in boot_module:
        raise ValueError("web/pyodide-boot.mjs: no package index to take back")
    return boot_module.replace(old, "return null && !own ?", 1)


def _always_looking_for_snapshot(boot_module: str) -> str:
    old = "const cache = snapshotSaved() ? await openCache() : null;"
    if old not in boot_module:
        raise ValueError("web/pyodide-boot.mjs: no snapshot flag to take back")
    return boot_module.replace(old, "const cache = await openCache();", 1)


def _without_modulepreload(html: str) -> str:
    if MODULEPRELOAD not in html:
        raise ValueError("index.html: no modulepreload of Pyodide's loader")
    return html.replace(MODULEPRELOAD, "", 1)


def _style() -> str:
    return (siteserve.ROOT / "web" / "style.css").read_text(encoding="utf-8")


APP_HIDDEN = 'html:not([data-app="ready"]) .app { visibility: hidden; }'


def _app_display_none(css: str) -> str:
    """The page's frame not laid out at all until ready (display: none instead of hidden)."""
    if APP_HIDDEN not in css:
        raise ValueError("web/style.css: the app frame is not hidden while loading")
    return css.replace(APP_HIDDEN, APP_HIDDEN.replace("visibility: hidden", "display: none"), 1)


def _with_error_plugin(html: str) -> str:
    if '"!error", ' not in html:
        raise ValueError("index.html: the error plugin is not turned off")
    return html.replace('"!error", ', "", 1)
