"""tools/build_site.py writes the page's game list and rules pages from the game table
(solitaire.rules.GAMES) into index.html's placeholders, and fails without them. Pure CPython:
the rest of the build (runtime, bytecode, service worker) is tested by e2e/test_harness.py."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import importlib
import json
import re
import shutil
import tarfile
from html.parser import HTMLParser
from pathlib import Path

import build_site  # tools/ is on pytest's pythonpath (pyproject.toml)
import pytest
from sitebuild import config

from solitaire.rules import GAMES, GameRules, RulesText
from solitaire.web.lesson import boot_readings

ROOT = Path(__file__).resolve().parent.parent

VOID = frozenset({"meta", "link", "input", "br", "img", "source", "hr"})


@dataclasses.dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    children: list[Element | str] = dataclasses.field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    @property
    def inner(self) -> str:
        """The content as HTML again (attributes dropped: enough for inline marks)."""
        return "".join(
            c if isinstance(c, str) else f"<{c.tag}>{c.inner}</{c.tag}>" for c in self.children
        )

    def iter(self) -> list[Element]:
        found = [self]
        for c in self.children:
            if isinstance(c, Element):
                found += c.iter()
        return found

    def find_all(self, tag: str, **attrs: str) -> list[Element]:
        return [
            e
            for e in self.iter()
            if e.tag == tag and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]

    def one(self, tag: str, **attrs: str) -> Element:
        (found,) = self.find_all(tag, **attrs)
        return found


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse(html: str) -> Element:
    tree = _Tree()
    tree.feed(html)
    tree.close()
    assert tree.stack == [tree.root], "unclosed elements"
    return tree.root


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def page() -> str:
    return build_site.render_page((ROOT / "index.html").read_text(encoding="utf-8"), GAMES.values())


def test_the_game_list_has_every_game_once(page: str) -> None:
    select = parse(page).one("select", id="game-select")
    options = select.find_all("option")
    assert [o.attrs["value"] for o in options] == list(GAMES)
    for option, game in zip(options, GAMES.values(), strict=True):
        assert option.text == game.short_name
        assert option.attrs["title"] == game.name


def test_the_rules_tabs_have_every_game_once(page: str) -> None:
    dialog = parse(page).one("dialog", id="dlg-rules")
    tabs = dialog.one("div", **{"class": "rules-tabs"}).find_all("button")
    assert [t.attrs["data-game"] for t in tabs] == list(GAMES)
    for tab, game in zip(tabs, GAMES.values(), strict=True):
        assert tab.attrs["type"] == "button"
        assert tab.attrs["data-action"] == "rules-of"
        assert tab.text == game.short_name


def test_the_rules_sections_have_every_game_once_with_its_text(page: str) -> None:
    dialog = parse(page).one("dialog", id="dlg-rules")
    sections = [s for s in dialog.find_all("section") if "data-rules" in s.attrs]
    assert [s.attrs["data-rules"] for s in sections] == list(GAMES)
    # After them, the hand-written part for every game.
    assert dialog.find_all("section")[len(GAMES)].attrs.get("class") == "rules-common"
    for section, game in zip(sections, GAMES.values(), strict=True):
        text = game.rules_text
        assert section.one("h3").text == game.name
        headings = [h.text for h in section.find_all("h4")]
        assert headings == ["The deal", "Play"] + (
            ["Where other programs differ"] if text.other_programs else []
        )
        paragraphs = [build_site.inline_html(p) for p in (text.intro, text.deal)]
        if text.other_programs:
            paragraphs.append(build_site.inline_html(text.other_programs))
        assert [p.inner for p in section.find_all("p")] == paragraphs
        items = section.one("ul").find_all("li")
        assert [i.inner for i in items] == [build_site.inline_html(t) for t in text.play]


def test_the_title_and_description_name_every_game(page: str) -> None:
    doc = parse(page)
    title = doc.one("title").text
    description = doc.one("meta", name="description").attrs["content"] or ""
    for game in GAMES.values():
        assert game.short_name in title
        assert game.name in description
    assert "<!-- build:" not in page


def test_the_inline_marks_are_rendered_and_the_rest_escaped() -> None:
    assert build_site.inline_html("a **b** *c*−1 × 2^n^ <x> & “y”") == (
        "a <b>b</b> <i>c</i>−1 × 2<sup>n</sup> &lt;x&gt; &amp; “y”"
    )
    for bad in ("an *odd mark", "a **bold* one", "2^n"):
        with pytest.raises(build_site.BuildError, match="unmatched"):
            build_site.inline_html(bad)


def test_the_parts_keep_the_placeholders_indentation() -> None:
    html = (
        "<title>S: <!-- build: game short names --></title><meta content="
        '"<!-- build: game names -->">\n<select>\n    <!-- build: game options -->\n</select>\n'
        "  <!-- build: rules tabs -->\n<!-- build: rules -->\n<!-- build: first tables -->\n"
        "<!-- build: boot lessons -->\n"
    )
    one = list(GAMES.values())[:1]
    out = build_site.render_page(html, one)
    game = one[0]
    assert f"<title>S: {game.short_name}</title>" in out
    assert f'<meta content="{game.name}">' in out
    assert f'\n    <option value="{game.id}" title="{game.name}">' in out
    assert f'\n  <button type="button" data-action="rules-of" data-game="{game.id}">' in out
    assert f'\n<section data-rules="{game.id}">\n  <h3>' in out
    two = list(GAMES.values())[:2]
    assert f"{two[0].name} and {two[1].name}" in build_site.render_page(html, two)


def test_the_boot_lessons_block_holds_each_games_reading() -> None:
    """The page's "boot lessons" data block (web/boot-lesson.js reads it) is the lessons'
    readings of the page's games, and the game a first visit opens."""
    (line,) = build_site.page_parts(GAMES.values())["boot lessons"]
    prefix = '<script type="application/json" id="boot-lessons">'
    assert line.startswith(prefix)
    assert line.endswith("</script>")
    data = json.loads(line[len(prefix) : -len("</script>")])
    assert data == {"default": build_site.DEFAULT_GAME, "games": boot_readings()}
    assert set(data["games"]) == set(GAMES)
    (one,) = list(GAMES.values())[:1]
    (line,) = build_site.page_parts([one])["boot lessons"]
    assert list(json.loads(line[len(prefix) : -len("</script>")])["games"]) == [one.id]


def _source_root(tmp_path: Path, index: str) -> Path:
    root = tmp_path / "src"
    (root / "web" / "winnable").mkdir(parents=True)
    (root / "index.html").write_text(index, encoding="utf-8")
    name = f"{build_site.DEFAULT_GAME}.json"  # the first-visit tables' deals
    shutil.copy(ROOT / "web" / "winnable" / name, root / "web" / "winnable" / name)
    return root


@pytest.mark.parametrize("name", list(build_site.PAGE_PARTS))
def test_a_missing_placeholder_fails_the_build(tmp_path: Path, name: str) -> None:
    mark = f"<!-- build: {name} -->"
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    assert index.count(mark) == 1
    root = _source_root(tmp_path, index.replace(mark, ""))
    message = f"index.html must hold the placeholder {mark} exactly once (found 0)"
    with pytest.raises(build_site.BuildError, match=re.escape(message)):
        build_site.build(tmp_path / "site", root=root)
    assert not (tmp_path / "site").exists()


def test_a_doubled_or_unknown_placeholder_fails_the_build(tmp_path: Path) -> None:
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    mark = "<!-- build: rules -->"
    with pytest.raises(build_site.BuildError, match=re.escape(f"{mark} exactly once (found 2)")):
        build_site.render_page(index.replace(mark, mark + mark), GAMES.values())
    with pytest.raises(build_site.BuildError, match="unknown build placeholders"):
        build_site.render_page(index + "<!-- build: rulez -->", GAMES.values())


def test_a_game_without_its_rules_text_fails_the_build() -> None:
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    bare: GameRules = dataclasses.replace(GAMES["russian"], rules_text=RulesText(), short_name="")
    games = [bare, *list(GAMES.values())[1:]]
    with pytest.raises(
        build_site.BuildError,
        match=r"'russian' has no short_name, rules_text.intro, rules_text.deal, rules_text.play",
    ):
        build_site.render_page(index, games)


def test_the_build_has_no_experiment_switches() -> None:
    """Variants of the build for benchmarks live in the benchmarks; the bytecode switch is a
    parameter of build() (``--no-bytecode``), and so are the release label (``--release``) and
    the build's memory snapshot (``--no-boot-snapshot``)."""
    for name in ("FILES_BY_BOOT_MODULE", "PRECOMPILE"):
        assert not hasattr(build_site, name)
    assert build_site.build.__kwdefaults__ == {
        "require_index": True,
        "bytecode": True,
        "release": "",
        "boot_snapshot": True,
    }


def test_a_knob_is_set_in_config_where_every_stage_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The knobs that steer a build (sitebuild.config.KNOBS) live in one place: build_site reads
    each through to config, refuses to have one set on itself (it would reach no stage), and no
    stage module binds one of its own at import (vendor_patches holds the PyScript patches'
    defaults, which config takes)."""
    assert config.KNOBS
    for name in config.KNOBS:
        assert hasattr(config, name), name
        assert name not in vars(build_site), name
        assert getattr(build_site, name) is getattr(config, name)
        with pytest.raises(AttributeError, match=f"set config.{name} there"):
            setattr(build_site, name, None)
    monkeypatch.setattr(config, "NODE", "/no/such/node")
    assert build_site.NODE == "/no/such/node"
    stages = sorted((ROOT / "tools" / "sitebuild").glob("*.py"))
    assert len(stages) > 5
    for path in stages:
        if path.stem in ("config", "vendor_patches", "__init__"):
            continue
        module = importlib.import_module(f"sitebuild.{path.stem}")
        assert not set(config.KNOBS) & set(vars(module)), path.name


# ----------------------------------------------------------------------------- release, sw.js


def test_the_release_label_is_written_into_the_page_once() -> None:
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    assert page.count(build_site.RELEASE_MARK) == 1
    assert '<meta name="release" content="second">' in build_site.stamp_release(page, "second")
    assert '<meta name="release" content="dev">' in build_site.stamp_release(page, "")
    for bad in ('a"b', "x" * 65, "a b", "<x>"):
        with pytest.raises(build_site.BuildError, match="release label"):
            build_site.stamp_release(page, bad)


def test_the_service_worker_gets_each_precached_file_size_and_sha256(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_bytes(b"<!doctype html>")
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "a.js").write_bytes(b"x" * 10)
    precache = ["./", "./web/a.js"]
    integrity = build_site.file_integrity(tmp_path, precache)
    assert integrity == {
        url: (len(data), hashlib.sha256(data).hexdigest())
        for url, data in (("./", b"<!doctype html>"), ("./web/a.js", b"x" * 10))
    }
    template = (ROOT / "web" / "sw.js").read_text(encoding="utf-8")
    worker = build_site.stamp_service_worker(template, "0123456789abcdef", precache, integrity)
    assert 'const CACHE_VERSION = "0123456789abcdef";' in worker
    for url, (size, digest) in integrity.items():
        assert f'  "{url}": [{size}, "{digest}"],\n' in worker
        assert f'  "{url}",\n' in worker
    with pytest.raises(build_site.BuildError, match="not precached"):
        build_site.stamp_service_worker(template, "v", ["./"], integrity)
    with pytest.raises(build_site.BuildError, match="__INTEGRITY__"):
        build_site.stamp_service_worker(template.replace("/* __INTEGRITY__ */", ""), "v", [], {})
    with pytest.raises(build_site.BuildError, match="packed"):
        build_site.stamp_service_worker(
            template, "v", precache, integrity, {"./web/a.js": "./web/a.js.zst"}
        )


def test_the_bytecode_archive_holds_the_given_pycs_under_their_interpreter_paths(
    tmp_path: Path,
) -> None:
    """pack_bytecode: the map's pycs go into one gzipped ustar archive (named by their path in
    the interpreter, same bytes, same archive bytes on every build); other files stay listed."""
    cache = tmp_path / "py" / "solitaire" / "__pycache__"
    cache.mkdir(parents=True)
    (cache / "a.cpython-314.pyc").write_bytes(b"a" * 700)
    (cache / "b.cpython-314.pyc").write_bytes(b"")
    files = {
        "./py/solitaire/__pycache__/a.cpython-314.pyc": "./solitaire/a.pyc",
        "./py/solitaire/__pycache__/b.cpython-314.pyc": "./solitaire/web/b.pyc",
        "./py/solitaire/data.txt": "./solitaire/data.txt",
    }
    packed = build_site.pack_bytecode(tmp_path, files)
    assert packed == {
        f"./{build_site.PAGE_ARCHIVE}": "./",
        "./py/solitaire/data.txt": "./solitaire/data.txt",
    }
    archive = (tmp_path / build_site.PAGE_ARCHIVE).read_bytes()
    assert archive[:2] == b"\x1f\x8b"
    with tarfile.open(tmp_path / build_site.PAGE_ARCHIVE) as tar:
        members = tar.getmembers()
        assert [(m.name, m.size, m.mtime, m.isfile()) for m in members] == [
            ("solitaire/a.pyc", 700, 0, True),
            ("solitaire/web/b.pyc", 0, 0, True),
        ]
        assert tar.extractfile(members[0]).read() == b"a" * 700  # type: ignore[union-attr]
    assert build_site.pack_bytecode(tmp_path, files) == packed
    assert (tmp_path / build_site.PAGE_ARCHIVE).read_bytes() == archive  # reproducible
    sources_only = {"./py/solitaire/a.py": "./solitaire/a.py"}
    assert build_site.pack_bytecode(tmp_path / "none", sources_only) == sources_only


def test_the_site_ships_the_page_modules_in_one_archive_without_docstrings(
    tmp_path: Path,
) -> None:
    """A built site: the archive holds exactly the page's modules (app.py's import closure), each
    a sourceless unchecked-hash pyc holding its source's hash, with the docstrings' text gone
    (their line numbers are checked in the browser: e2e/test_harness.py); the service worker
    precaches it with its size and SHA-256."""
    site = build_site.build(tmp_path / "site", require_index=False)
    assert site.bytecode.startswith("bytecode"), site.bytecode
    page_files = json.loads((site.out / build_site.BOOT_FILES).read_text(encoding="utf-8"))
    assert page_files == {f"./{build_site.PAGE_ARCHIVE}": "./"}
    py_dir = ROOT / build_site.PACKAGE_DIR
    closure = build_site.import_closure(py_dir, build_site.MAIN_MODULE)
    expected = {
        f"solitaire/{p.relative_to(py_dir).with_suffix('.pyc').as_posix()}": p for p in closure
    }
    with tarfile.open(site.out / build_site.PAGE_ARCHIVE) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar}  # type: ignore[union-attr]
    # and PyScript's package, as its core chunk holds it (PYSCRIPT_SETUP_PATCH)
    chunk = (site.out / "vendor/pyscript" / build_site.PYSCRIPT_CORE_PATCH[0]).read_text("utf-8")
    package = build_site.pyscript_package_files(chunk)
    assert len(package) == 14
    for name, text in package.items():
        assert members.pop(name) == text.encode("utf-8")
    assert sorted(members) == sorted(expected)
    docstring = b"Only the canonical spelling is a pile name"
    magic = members["solitaire/__init__.pyc"][:4]
    for name, data in members.items():
        source = expected[name].read_bytes()
        assert int.from_bytes(data[4:8], "little") == 1  # hash-based, unchecked
        assert build_site._hash_matches(data, source)
        assert data[:4] == magic
        assert len(data) > 16
        if name == "solitaire/piles.pyc":
            assert docstring in source
            assert docstring not in data
    sw = (site.out / "sw.js").read_text(encoding="utf-8")
    archive = (site.out / build_site.PAGE_ARCHIVE).read_bytes()
    url = f"./{build_site.PAGE_ARCHIVE}"
    assert f'  "{url}",\n' in sw
    assert f'  "{url}": [{len(archive)}, "{hashlib.sha256(archive).hexdigest()}"],\n' in sw


def test_pyodide_makes_no_shared_memory_at_load() -> None:
    # Creating a SharedArrayBuffer outside cross-origin isolation is deprecated (Lighthouse's
    # "Uses deprecated APIs"): the shipped module makes its sleep's memory on first use only.
    module = ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs"
    if not module.exists():
        pytest.skip("node_modules/pyodide is not installed")
    shipped = build_site.patch_pyodide("pyodide.asm.mjs", module.read_bytes(), 16).decode("utf-8")
    target, old, new = build_site.PYODIDE_SLEEP_PATCH
    assert old not in shipped
    assert shipped.count(new) == 1
    assert shipped.count("shared:!0") == 1  # the only shared memory, now inside the sleep
    assert build_site.patch_pyodide("pyodide-lock.json", b"shared:!0", 16) == b"shared:!0"
    with pytest.raises(build_site.BuildError, match="PYODIDE_SLEEP_PATCH"):
        build_site.patch_pyodide(target, b"var io=1;", 16)


def test_pyodide_never_switches_stacks() -> None:
    """PYODIDE_NO_JSPI_PATCH: the shipped module says no stack switching, wherever it runs."""
    module = ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs"
    if not module.exists():
        pytest.skip("node_modules/pyodide is not installed")
    shipped = build_site.patch_pyodide("pyodide.asm.mjs", module.read_bytes(), 16).decode("utf-8")
    old, new = build_site.PYODIDE_NO_JSPI_PATCH
    assert old not in shipped
    assert shipped.count(new) == 1
    assert '"Suspending"in WebAssembly' not in shipped
    broken = module.read_bytes().replace(old.encode(), b"var newJspiSupported=1;")
    with pytest.raises(build_site.BuildError, match="PYODIDE_NO_JSPI_PATCH"):
        build_site.patch_pyodide("pyodide.asm.mjs", broken, 16)


def test_the_linker_patch_applies_once_or_fails_the_build() -> None:
    """PYODIDE_LINKER_PATCHES: the shipped linker collects the JS functions and links them at
    the loop's end (tests/test_snapshot_codec.py runs it in Node); a module whose linker reads
    otherwise fails the build."""
    module = (ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs").read_bytes()
    shipped = build_site.patch_pyodide("pyodide.asm.mjs", module, 16).decode("utf-8")
    for old, new in build_site.PYODIDE_LINKER_PATCHES:
        assert old not in shipped
        assert shipped.count(new) == 1
    assert shipped.count("linkJsFunctions(pending)};") == 1
    first = build_site.PYODIDE_LINKER_PATCHES[1][0]
    broken = module.replace(first.encode(), first.replace("addFunction(", "addFn(").encode())
    with pytest.raises(build_site.BuildError, match="PYODIDE_LINKER_PATCHES do not apply"):
        build_site.patch_pyodide("pyodide.asm.mjs", broken, 16)


def test_the_linker_patch_for_shorter_tasks_applies_once_or_fails_the_build() -> None:
    """PYODIDE_TASK_PATCHES: the main module's exports enter the offset table, and its imports
    are resolved, each after a macrotask of their own, in the order they had (the Node tests in
    tests/test_snapshot_codec.py check the table's slots and a restore through this module)."""
    module = (ROOT / "node_modules" / "pyodide" / "pyodide.asm.mjs").read_bytes()
    shipped = build_site.patch_pyodide("pyodide.asm.mjs", module, 16).decode("utf-8")
    for old, new in build_site.PYODIDE_TASK_PATCHES:
        assert old not in shipped
        assert shipped.count(new) == 1
    assert "updateGOT(origExports)" not in shipped  # now in loadDylibs, after a task
    body = shipped[shipped.index("loadDylibs=async main=>") :]
    order = ["await task();var part={}", "updateGOT(part)", "await task();reportUndefinedSymbols()"]
    places = [body.index(each) for each in order]
    assert places == sorted(places)
    assert places[-1] < body.index("for(var lib of")
    # the set-up's first step, once: by the loader after a restore, else by finalizeBootstrap
    assert shipped.count("Wr();") == 2
    broken = module.replace(b"if(!dynamicLibraries.length)", b"if(dynamicLibraries.length<1)")
    with pytest.raises(build_site.BuildError, match="PYODIDE_TASK_PATCHES do not apply"):
        build_site.patch_pyodide("pyodide.asm.mjs", broken, 16)


def test_the_loader_takes_the_build_snapshot_size_instead_of_waiting_for_its_bytes() -> None:
    loader = ROOT / "node_modules" / "pyodide" / "pyodide.mjs"
    if not loader.exists():
        pytest.skip("node_modules/pyodide is not installed")
    shipped = build_site.patch_pyodide("pyodide.mjs", loader.read_bytes(), 16).decode("utf-8")
    for _old, new in build_site.PYODIDE_LOADER_PATCHES:
        assert shipped.count(new) == 1
    assert shipped.count("_snapshotSize") == 4  # asked for, sized from, checked, reported
    # given a size, link | restore | sync | set up in four tasks (setTimeout: a macrotask between)
    assert shipped.count("await y();") == 3
    assert shipped.count("r.API.syncSnapshot();") == 1
    assert shipped.count("let y=()=>new Promise(f=>setTimeout(f,0));") == 1
    with pytest.raises(build_site.BuildError, match="PYODIDE_LOADER_PATCHES"):
        build_site.patch_pyodide("pyodide.mjs", b"export {};", 16)


def test_the_boot_module_gets_the_build_snapshot_url_and_size() -> None:
    text = f"{build_site.BOOT_SNAPSHOT_LINE}\n{build_site.BOOT_SNAPSHOT_SIZE_LINE}\n"
    stamped = build_site.stamp_boot_snapshot(text, "./vendor/pyodide/s.bin.gz", 31_457_408)
    assert stamped == (
        'const BOOT_SNAPSHOT = "./vendor/pyodide/s.bin.gz";\nconst BOOT_SNAPSHOT_SIZE = 31457408;\n'
    )
    assert build_site.stamp_boot_snapshot(text, None, 31_457_408) == text  # no snapshot
    unsized = build_site.stamp_boot_snapshot(text, "./s.bin.gz")
    assert build_site.BOOT_SNAPSHOT_SIZE_LINE in unsized  # Pyodide then waits for the bytes


def test_the_boot_module_gets_the_downloads_sizes_for_the_byte_progress() -> None:
    """The loading screen counts the packed wasm and the build's snapshot against the sizes
    of their files, which the build writes into their marked lines (each exactly once)."""
    lines = [
        build_site.BOOT_SNAPSHOT_LINE,
        build_site.BOOT_SNAPSHOT_SIZE_LINE,
        build_site.BOOT_PACKED_WASM_LINE,
        build_site.PACKED_WASM_BYTES_LINE,
        build_site.BOOT_SNAPSHOT_BYTES_LINE,
    ]
    text = "\n".join(lines) + "\n"
    stamped = build_site.stamp_boot_snapshot(text, "./s.bin.zst", 31_457_408, 2_589_648)
    stamped = build_site.stamp_packed_wasm(stamped, "vendor/pyodide/w.wasm.zst", 2_903_465)
    assert stamped.splitlines() == [
        'const BOOT_SNAPSHOT = "./s.bin.zst";',
        "const BOOT_SNAPSHOT_SIZE = 31457408;",
        'const PACKED_WASM = "./vendor/pyodide/w.wasm.zst";',
        "const PACKED_WASM_BYTES = 2903465;",
        "const BOOT_SNAPSHOT_BYTES = 2589648;",
    ]
    # sizes unknown: the lines stay null (the loading screen then counts nothing of them)
    plain = build_site.stamp_packed_wasm(build_site.stamp_boot_snapshot(text, "./s"), "w")
    assert build_site.PACKED_WASM_BYTES_LINE in plain
    assert build_site.BOOT_SNAPSHOT_BYTES_LINE in plain
    with pytest.raises(build_site.BuildError, match="PACKED_WASM_BYTES"):
        build_site.stamp_packed_wasm(build_site.BOOT_PACKED_WASM_LINE, "w", 10)
    # the source holds each line once
    source = (ROOT / "web" / "pyodide-boot.mjs").read_text(encoding="utf-8")
    for line in lines:
        assert source.count(line) == 1, line


def test_the_snapshot_is_packed_with_zstd_where_the_build_has_it_and_gzip_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a snapshot's kind of content: long runs of zeros between repeated structures
    data = b"".join(bytes(4096) + b"PyObject %d\x00" % (i % 97) * 40 for i in range(400))
    packed, ext = build_site.pack_snapshot(data)
    assert ext == "zst"
    assert packed[:4] == build_site.ZSTD_MAGIC
    assert len(packed) < len(gzip.compress(data, compresslevel=9))
    assert build_site.unpack_snapshot(packed) == data
    monkeypatch.setattr(config, "snapshot_compressor", lambda: None)
    gzipped, ext = build_site.pack_snapshot(data)
    assert ext == "gz"
    assert gzipped[:2] == b"\x1f\x8b"
    assert build_site.unpack_snapshot(gzipped) == data
    with pytest.raises(build_site.BuildError, match="no zstd module"):
        build_site.unpack_snapshot(packed)


def test_the_zstd_decoder_is_vendored_and_precached(tmp_path: Path) -> None:
    """The page imports the decoder from FZSTD_FILE (web/boot/unpack.mjs, FZSTD_URL); the
    service worker keeps it, as every runtime file, for offline visits."""
    site = build_site.build(tmp_path / "site", boot_snapshot=False)
    assert build_site.FZSTD_FILE in site.runtime
    shipped = (tmp_path / "site" / build_site.FZSTD_FILE).read_text("utf-8")
    assert "export { Decompress }" in shipped
    unpack = (ROOT / "web" / "boot" / "unpack.mjs").read_text("utf-8")
    fzstd_url = build_site.FZSTD_FILE.removeprefix("vendor/")
    assert f'new URL("../../vendor/{fzstd_url}", import.meta.url)' in unpack
    assert f'"./{build_site.FZSTD_FILE}",' in (tmp_path / "site" / "sw.js").read_text("utf-8")


def test_the_start_up_scripts_ask_v8_to_compile_them_eagerly(tmp_path: Path) -> None:
    """EAGER_COMPILE_FILES carry EAGER_COMPILE_HINT as their first line, once, and are otherwise
    the files as patched; the service worker checks the hinted bytes. A file the list names and
    the site lacks fails the build."""
    site = build_site.build(tmp_path / "site", boot_snapshot=False)
    out = tmp_path / "site"
    worker = (out / "sw.js").read_text("utf-8")
    pyodide = ROOT / "node_modules" / "pyodide"
    for rel in build_site.EAGER_COMPILE_FILES:
        assert rel in site.runtime + site.own
        data = (out / rel).read_bytes()
        assert data.startswith(build_site.EAGER_COMPILE_HINT.encode())
        assert data.count(b"allFunctionsCalledOnLoad") == 1
        digest = hashlib.sha256(data).hexdigest()
        assert f'  "./{rel}": [{len(data)}, "{digest}"],\n' in worker
    loader = (out / "vendor" / "pyodide" / "pyodide.mjs").read_text("utf-8")
    published = build_site.patch_pyodide("pyodide.mjs", (pyodide / "pyodide.mjs").read_bytes(), 16)
    assert loader == build_site.EAGER_COMPILE_HINT + published.decode("utf-8")
    build_site.hint_eager_compile(out)  # a second pass adds nothing
    assert (out / "vendor" / "pyodide" / "pyodide.mjs").read_text("utf-8") == loader
    with pytest.raises(build_site.BuildError, match=r"EAGER_COMPILE_FILES: web/gone\.mjs"):
        build_site.hint_eager_compile(out, ["web/gone.mjs"])


def test_the_wasm_ships_packed_too_and_the_service_worker_unpacks_it(tmp_path: Path) -> None:
    """PACKED_WASM: the wasm as zstd next to the wasm, decoding to its very bytes; the boot
    module is told its URL (a first visit fetches it), the service worker which file it packs
    and loads the decoder as a classic script (fzstd's UMD build), both files precached with
    their digests."""
    if build_site.snapshot_compressor() is None:
        pytest.fail("no zstd module: install the project's dev extra (backports.zstd)")
    site = build_site.build(tmp_path / "site", boot_snapshot=False)
    plain, packed = build_site.PACKED_WASM
    assert packed in site.runtime
    assert plain in site.runtime
    out = tmp_path / "site"
    data = (out / packed).read_bytes()
    assert data[:4] == build_site.ZSTD_MAGIC
    assert build_site.unpack_snapshot(data) == (out / plain).read_bytes()
    assert len(data) < 0.85 * len(gzip.compress((out / plain).read_bytes(), 9))
    boot = (out / "web" / "pyodide-boot.mjs").read_text("utf-8")
    assert f'const PACKED_WASM = "./{packed}";' in boot
    worker = (out / "sw.js").read_text("utf-8")
    assert f'  "./{plain}": "./{packed}",\n' in worker
    assert f'importScripts("./{build_site.FZSTD_CLASSIC_FILE}")' in worker
    for url in (plain, packed, build_site.FZSTD_CLASSIC_FILE):
        assert f'  "./{url}": [' in worker
    classic = (out / build_site.FZSTD_CLASSIC_FILE).read_text("utf-8")
    assert ".fzstd=f()" in classic  # sets self.fzstd


def test_the_packed_wasm_is_written_even_where_its_cache_cannot_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pack_wasm(): the copy lands in the site whether or not .cache/ takes it (a read-only
    checkout builds too); a writable cache serves the next build the same bytes."""
    if build_site.snapshot_compressor() is None:
        pytest.fail("no zstd module: install the project's dev extra (backports.zstd)")
    plain, packed = build_site.PACKED_WASM
    wasm = b"\0asm\1\0\0\0" + bytes(range(256)) * 64
    blocker = tmp_path / "not-a-directory"
    blocker.write_bytes(b"")
    for cache in (blocker / "cache", tmp_path / "cache", tmp_path / "cache"):
        monkeypatch.setattr(config, "PACKED_WASM_CACHE", cache)
        out = tmp_path / f"site-{len(list(tmp_path.iterdir()))}"
        (out / plain).parent.mkdir(parents=True)
        (out / plain).write_bytes(wasm)
        assert build_site.pack_wasm(out) == packed
        assert build_site.unpack_snapshot((out / packed).read_bytes()) == wasm
    assert len(list((tmp_path / "cache").glob("*.zst"))) == 1
    assert not list((tmp_path / "cache").glob("*.tmp-*"))


def test_a_build_without_zstd_ships_the_wasm_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(config, "snapshot_compressor", lambda: None)
    site = build_site.build(tmp_path / "site", boot_snapshot=False)
    assert build_site.PACKED_WASM[1] not in site.runtime
    assert not (tmp_path / "site" / build_site.PACKED_WASM[1]).exists()
    boot = (tmp_path / "site" / "web" / "pyodide-boot.mjs").read_text("utf-8")
    assert build_site.BOOT_PACKED_WASM_LINE in boot
    assert "const PACKED = {};" in (tmp_path / "site" / "sw.js").read_text("utf-8")


def test_the_snapshot_preloads_only_modules_that_touch_no_browser_module() -> None:
    py_dir = ROOT / build_site.PACKAGE_DIR
    names = build_site.snapshot_modules(py_dir)
    # the engine, the browser-free part of the page, and what draws the page or talks to the
    # solver worker through `js` (none of ours imports PyScript)
    for name in (
        "solitaire.game",
        "solitaire.rules",
        "solitaire.web.controller",
        "solitaire.web.app",
        "solitaire.web.board",
        "solitaire.web.solver_client",
    ):
        assert name in names
    page = {
        ".".join(["solitaire", *p.relative_to(py_dir).with_suffix("").parts]).removesuffix(
            ".__init__"
        )
        for p in build_site.import_closure(py_dir, build_site.MAIN_MODULE)
    }
    assert set(names) <= page
    for name in names:
        rel = name.removeprefix("solitaire").lstrip(".").replace(".", "/")
        path = (
            py_dir / f"{rel}.py"
            if (py_dir / f"{rel}.py").is_file()
            else py_dir / rel / "__init__.py"
        )
        for module in build_site.import_closure(py_dir, str(path.relative_to(py_dir))):
            assert not build_site._imports_browser_module(module), (name, module)


def test_a_module_importing_pyscript_anywhere_counts_as_a_browser_module(tmp_path: Path) -> None:
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from pyscript import display\n    return display\n")
    page_js = tmp_path / "page_js.py"
    page_js.write_text("import js\nfrom js import document\nfrom pyodide.ffi import create_proxy\n")
    plain = tmp_path / "plain.py"
    plain.write_text("import json\nfrom .lazy import f\n")
    assert build_site._imports_browser_module(lazy)
    assert not build_site._imports_browser_module(page_js)  # looked up again on restore
    assert not build_site._imports_browser_module(plain)


def test_the_build_refuses_a_package_that_is_not_this_checkouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's game table must come from the sources the build ships (an editable install),
    not from another copy of the package: the build says so instead of mixing the two."""
    from sitebuild.page import check_package

    import solitaire

    check_package()  # this checkout's, installed editable
    monkeypatch.setattr(solitaire, "__file__", "/elsewhere/solitaire/__init__.py")
    with pytest.raises(build_site.BuildError, match="not this checkout's"):
        check_package()
