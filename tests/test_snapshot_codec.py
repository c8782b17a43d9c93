"""tools/snapshot_codec.py: the build's snapshot, XORed with the wasm's data segments, and the
patched pyodide.asm.mjs that undoes it (restored for real in Node); the patched linker, which
must lay out the function table as the published one that made the snapshot."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from pathlib import Path

import build_site
import pytest
import snapshot_codec

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
SCRIPT = ROOT / "tools" / "make_boot_snapshot.mjs"


def _uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _sleb(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if (n == 0 and not byte & 0x40) or (n == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def _module(*segments: bytes) -> bytes:
    body = _uleb(len(segments)) + b"".join(segments)
    custom = b"\x00" + _uleb(5) + b"\x04name"  # a section before the data section is skipped
    return b"\0asm\x01\0\0\0" + custom + b"\x0b" + _uleb(len(body)) + body


def _active(offset: int, data: bytes, flags: int = 0) -> bytes:
    memory = _uleb(0) if flags == 2 else b""
    return _uleb(flags) + memory + b"\x41" + _sleb(offset) + b"\x0b" + _uleb(len(data)) + data


def _passive(data: bytes) -> bytes:
    return _uleb(1) + _uleb(len(data)) + data


def _snapshot(memory: bytes, text: bytes = b'{"a": 1}') -> bytes:
    offset = 32
    header = struct.pack("<4I", 0x12345678, offset, len(text), 0) + text
    return header.ljust(offset, b"\0") + memory


def test_data_image_places_active_segments_and_skips_passive_ones() -> None:
    wasm = _module(_active(4, b"abc"), _passive(b"never"), _active(200, b"xy" * 100, flags=2))
    image = snapshot_codec.data_image(wasm)
    assert len(image) == 400  # 200 + 200, a multiple of 16
    assert image[4:7] == b"abc"
    assert image[200:400] == b"xy" * 100
    assert image[:4] == bytes(4)
    assert image[7:200] == bytes(193)
    assert b"never" not in image


@pytest.mark.parametrize(
    ("wasm", "message"),
    [
        (b"\0wasm", "not a WebAssembly module"),
        (_module(b"\x00\x23\x00\x0b\x01a"), "not an i32.const"),  # global.get 0
        (_module(b"\x00\x41\x00\x41\x00\x0b\x01a"), "more than one instruction"),
        (_module(b"\x02\x01\x41\x00\x0b\x01a"), "for memory 1"),
        (_module(b"\x05\x00"), "flags 5"),
    ],
)
def test_data_image_refuses_what_it_cannot_place(wasm: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        snapshot_codec.data_image(wasm)


def test_encode_then_decode_gives_the_snapshot_back() -> None:
    image = bytes(range(16)) * 4
    memory = bytes(range(16)) * 3 + b"changed!" * 2 + b"heap" * 100
    snapshot = _snapshot(memory)
    encoded = snapshot_codec.encode(snapshot, image)
    assert struct.unpack_from("<I", encoded, snapshot_codec.XOR_WORD) == (len(image),)
    assert encoded[32 : 32 + 48] == bytes(48)  # unchanged static data: zeros
    assert encoded[32 + 64 :] == memory[64:]  # past the image: as it was
    assert encoded[16:32] == snapshot[16:32]  # the JSON
    assert snapshot_codec.decode(encoded, image) == snapshot
    assert snapshot_codec.decode(snapshot, image) == snapshot  # word 3 zero: not encoded


def test_encode_refuses_bad_input() -> None:
    image = bytes(32)
    snapshot = _snapshot(bytes(64))
    with pytest.raises(ValueError, match="encoded already"):
        snapshot_codec.encode(snapshot_codec.encode(snapshot, image), image)
    with pytest.raises(ValueError, match="does not fit"):
        snapshot_codec.encode(snapshot, bytes(128))
    with pytest.raises(ValueError, match="does not fit"):
        snapshot_codec.encode(snapshot, bytes(20))
    with pytest.raises(ValueError, match="too short"):
        snapshot_codec.encode(b"\0" * 8, image)
    with pytest.raises(ValueError, match="memory offset"):
        snapshot_codec.encode(struct.pack("<4I", 1, 17, 0, 0) + bytes(64), image)
    with pytest.raises(ValueError, match="more data than the image"):
        snapshot_codec.decode(snapshot_codec.encode(snapshot, image), bytes(16))


@pytest.fixture(scope="module")
def shipped_pyodide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """node_modules/pyodide as the build ships it (patched), in a temporary folder."""
    if shutil.which(build_site.NODE) is None or not PYODIDE.is_dir():
        pytest.fail("Node and node_modules/pyodide are needed (make setup installs them)")
    folder = tmp_path_factory.mktemp("pyodide")
    data_end = len(snapshot_codec.data_image((PYODIDE / "pyodide.asm.wasm").read_bytes()))
    for path in PYODIDE.iterdir():
        if path.is_file():
            data = build_site.patch_pyodide(path.name, path.read_bytes(), data_end)
            (folder / path.name).write_bytes(data)
    return folder


def _node(script: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [build_site.NODE, "--input-type=module", "-e", script, *args],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


TABLE = """
const dir = process.argv[1];
let modules = 0;
const Published = WebAssembly.Module;
WebAssembly.Module = new Proxy(Published, {
  construct(target, args) { modules++; return new target(...args); },
});
const { loadPyodide } = await import(`${dir}/pyodide.mjs`);
const py = await loadPyodide({ indexURL: `${dir}/` });
const m = py._module, table = m.wasmTable, arity = [];
for (let i = 0; i < table.length; i++) { const f = table.get(i); arity.push(f ? f.length : -1); }
const got = Object.fromEntries(Object.entries(m.GOT ?? {}).map(([k, g]) => [k, Number(g.value)]));
const js = m.reportUndefinedSymbols.toString().includes("linkJsFunctions");
console.log(JSON.stringify({ modules, arity, got, js, py: py.runPython("str(sum(range(10)))") }));
"""


def test_the_shipped_linker_fills_the_same_table_slots_from_one_module(
    shipped_pyodide: Path,
) -> None:
    """PYODIDE_LINKER_PATCHES: the ~260 JS functions the linker puts into the function table get
    their wrappers from one wasm module instead of one module each, in the very slots the
    published linker gives them (a snapshot holds those indices): same table, slot by slot (the
    arity of each entry), same addresses in the linker's table of symbols (GOT)."""
    published = _node(TABLE, str(PYODIDE))
    shipped = _node(TABLE, str(shipped_pyodide))
    assert published["py"] == shipped["py"] == "45"
    assert not published["js"]
    assert shipped["js"]
    assert published["modules"] > 200  # one per JS function, as published
    assert shipped["modules"] <= published["modules"] - 200
    assert shipped["arity"] == published["arity"]
    assert len(shipped["got"]) > 200
    assert shipped["got"] == published["got"]


RESTORE = """
import { readFileSync } from "node:fs";
const [dir, file] = process.argv.slice(1);
const { loadPyodide } = await import(`${dir}/pyodide.mjs`);
const py = await loadPyodide({ indexURL: `${dir}/`, _loadSnapshot: readFileSync(file) });
const answer = py.runPython(
  "import json, sys; json.dumps({'v': sys.version_info[:2], 'sum': sum(range(10**5)), " +
  "'pkg': sys.modules['pkg.m'].VALUE, 'columns': sorted({p[2] for f in " +
  "(sys.modules['pkg.m'].value, json.dumps) for p in f.__code__.co_positions()}, key=str)})");
console.log(JSON.stringify({ answer, pristineDropped: py._module.__pristine === null }));
"""


def test_the_build_snapshot_restores_through_the_patched_module(
    shipped_pyodide: Path, tmp_path: Path
) -> None:
    # The whole chain as the page runs it: made in Node (free heap and dead stack zeroed),
    # encoded, then restored by the shipped pyodide.asm.mjs, which XORs the data back.
    # With a package preloaded, as the build does with the page's pure modules.
    raw = tmp_path / "raw.bin"
    files = tmp_path / "files"
    (files / "pkg").mkdir(parents=True)
    (files / "pkg" / "__init__.py").write_text("")
    (files / "pkg" / "m.py").write_text(
        "import json\nVALUE = json.dumps([42])\n\ndef value():\n    return VALUE\n"
    )
    done = subprocess.run(
        [
            build_site.NODE,
            str(SCRIPT),
            str(raw),
            str(PYODIDE / "python_stdlib.zip"),
            str(files),
            "pkg.m",
        ],
        check=True,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert "pkg.m" in json.loads(done.stdout.strip().splitlines()[-1])["preloaded"]
    image = snapshot_codec.data_image((PYODIDE / "pyodide.asm.wasm").read_bytes())
    snapshot = raw.read_bytes()
    encoded = snapshot_codec.encode(snapshot, image)
    memory = struct.unpack_from("<I", encoded, 4)[0]
    xored = encoded[memory : memory + len(image)]
    # The image is what instantiation wrote: start-up changed few of those bytes.
    assert xored.count(0) > 0.95 * len(xored)
    (tmp_path / "encoded.bin").write_bytes(encoded)
    result = _node(RESTORE, str(shipped_pyodide), str(tmp_path / "encoded.bin"))
    answer = json.loads(str(result["answer"]))
    # compiled without column positions (PYTHONNODEBUGRANGES), ours and the standard library's
    assert answer == {"v": [3, 14], "sum": 4999950000, "pkg": "[42]", "columns": [None]}
    assert result["pristineDropped"] is True
    # The same module restores a snapshot nobody encoded (the page's own) unchanged.
    (tmp_path / "plain.bin").write_bytes(snapshot)
    plain = _node(RESTORE, str(shipped_pyodide), str(tmp_path / "plain.bin"))
    assert plain["answer"] == result["answer"]


def _make(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    """make_boot_snapshot.mjs with one module, ``page``, of ``source`` preloaded."""
    (tmp_path / "page.py").write_text(source)
    return subprocess.run(
        [build_site.NODE, str(SCRIPT), str(tmp_path / "out.bin"), "", str(tmp_path), "page"],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


@pytest.mark.parametrize(
    "source",
    [
        "import pyscript\n",  # PyScript exists only on the page
        "import js\nOBJECT = js.Object.new()\n",  # a JS object the global scope does not hold
        "from pyodide.ffi import create_proxy\nPROXY = create_proxy(print)\n",  # a function
    ],
    ids=["pyscript", "made-object", "proxy"],
)
def test_preloading_a_module_that_holds_what_a_restore_cannot_find_fails(
    tmp_path: Path, source: str
) -> None:
    done = _make(tmp_path, source)
    assert done.returncode != 0, done.stdout
    assert not (tmp_path / "out.bin").exists()


RESTORE_PAGE = """
import { readFileSync } from "node:fs";
const [dir, file] = process.argv.slice(1);
globalThis.document = { title: "the page's document" };
globalThis.window = { name: "the page's window" };
const { loadPyodide } = await import(`${dir}/pyodide.mjs`);
const py = await loadPyodide({ indexURL: `${dir}/`, _loadSnapshot: readFileSync(file) });
const answer = py.runPython(
  "import sys; page = sys.modules['page']; " +
  "[page.document.title, page.window.name, page.Object.keys(page.document).length, " +
  "page.document == sys.modules['js'].document]").toJs();
console.log(JSON.stringify({ answer }));
"""


def test_a_module_importing_the_page_globals_finds_the_restoring_side_s(
    shipped_pyodide: Path, tmp_path: Path
) -> None:
    """`from js import document, window` (Node has neither: the script stands in for them) is
    kept as paths from the global scope and looked up again where the snapshot is restored."""
    done = _make(tmp_path, "from js import Object, document, window\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "page" in json.loads(done.stdout.strip().splitlines()[-1])["preloaded"]
    result = _node(RESTORE_PAGE, str(shipped_pyodide), str(tmp_path / "out.bin"))
    assert result["answer"] == ["the page's document", "the page's window", 1, True]
