/* Makes a Pyodide memory snapshot at build time, in Node, with the vendored Pyodide
   (node_modules/pyodide): the interpreter's memory right after start-up, as
   web/pyodide-snapshot-worker.mjs makes it in the browser after a first visit.

       node tools/make_boot_snapshot.mjs OUT_FILE [STDLIB_ZIP [FILES_DIR MODULES]]

   STDLIB_ZIP: the standard library zip the page will load (the built site's trimmed one,
   vendor/pyodide/python_stdlib_trimmed.zip; default: Pyodide's full one). A snapshot only fits that zip: Python's zip
   importer keeps the zip's table of contents in memory. tools/build_site.py runs this.

   FILES_DIR, MODULES: the page's Python files (the build's page archive, unpacked) are written
   into the interpreter's working directory, where the page writes them too, and MODULES
   (comma-separated) are imported: the page then finds them in sys.modules instead of
   unmarshalling and running them on every visit (build_site.snapshot_modules picks them; one
   that imports PyScript fails the script). They may import from `js` what the page's global
   scope holds: made with `_makeSnapshot`, Pyodide hands Python the global scope through a proxy
   that records the path by which each JS object was reached, keeps that path in the snapshot,
   and on restore looks the object up by it in the page's global scope (`from js import
   document`: ["document"], the page's document). Names the page has and Node lacks get a
   stand-in while the snapshot is made (PAGE_GLOBALS); any other JS object held by Python
   (a proxy of a function, an object made by a call) makes Pyodide refuse the snapshot.

   Prints the Pyodide version and the snapshot's size. Such a snapshot restores in Chromium
   (`loadPyodide({_loadSnapshot: bytes})`): the JS objects it refers to are paths from the
   global scope, looked up again on restore, sys.platform is "emscripten" either way and
   the file system (standard library zip, /home/pyodide) is rebuilt by the loader on restore.
   What Node leaves in it: os.environ, read once at start-up. `_` would be the path of this
   script (the browser's is "./this.program") and is set here; LANG is "C.UTF-8" (a browser's
   follows navigator.language, e.g. "en_US.UTF-8"), which the game does not read.

   Before the snapshot is taken, memory nobody reads is zeroed (scrubDeadMemory): the free
   chunks of the C heap (~3 MB after start-up, holding whatever was freed there, e.g. the
   unmarshalled bytes of every .pyc imported) and the unused stack. Zeros cost next to nothing
   gzipped; the snapshot's contents are otherwise unchanged. tools/snapshot_codec.py then XORs
   the static data with the wasm's own data segments before gzip.

   Measured in docs/performance.md ("Build-time snapshot"); bench/bench_build_snapshot.py
   compares a first visit from it with a normal one. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [out, stdlibZip, filesDir, moduleList] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tools/make_boot_snapshot.mjs OUT_FILE [STDLIB_ZIP [FILES_DIR MODULES]]");
  process.exit(2);
}
const root = fileURLToPath(new URL("../", import.meta.url));
const { loadPyodide, version } = await import(`${root}node_modules/pyodide/pyodide.mjs`);

/* The page's globals that the page's modules import at their top level (`from js import
   document, window`) and Node lacks: stand-ins while the snapshot is made, found again by name on
   restore. Plain objects, as the page's are: a Python proxy keeps the kind of the object it was
   made for (a function's proxy is callable, an object's is not). */
const PAGE_GLOBALS = ["document", "window"];
for (const name of PAGE_GLOBALS) if (!(name in globalThis)) globalThis[name] = {};

/* PYTHONNODEBUGRANGES: code compiled by this interpreter (every module in the snapshot: the
   standard library zip holds sources) keeps line numbers but not the columns of each
   instruction, which only tracebacks' ^^^ markers read. That is ~0.25 MB less of the snapshot
   to download (zstd), and code the page compiles later skips them too. */
const options = {
  _makeSnapshot: true,
  env: { _: "./this.program", PYTHONNODEBUGRANGES: "1" },
};
if (stdlibZip) options.stdLibURL = resolve(stdlibZip);
try {
  const py = await loadPyodide(options);
  const preloaded = filesDir ? preload(py, filesDir, moduleList ? moduleList.split(",") : []) : [];
  const scrubbed = scrubDeadMemory(py._module);
  const snapshot = py.makeMemorySnapshot();
  writeFileSync(out, snapshot);
  console.log(JSON.stringify({ version, bytes: snapshot.length, scrubbed, preloaded }));
} catch (err) {
  // the message only: Node would print the minified line of pyodide.asm.mjs that threw (1 MB)
  console.error(`make_boot_snapshot: ${String(err?.message ?? err).slice(-3000)}`);
  process.exit(1);
}

/* Write the files of `dir` into the interpreter's working directory and import `modules`;
   the modules imported (theirs and what they import). */
function preload(py, dir, modules) {
  const cwd = py.FS.cwd();
  const walk = (rel) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        py.FS.mkdirTree(`${cwd}/${rel}`);
        py.FS.writeFile(`${cwd}/${path}`, readFileSync(join(dir, path)));
      }
    }
  };
  walk("");
  const names = JSON.stringify(modules.filter(Boolean));
  const imported = py.runPython(`
def _preload(names):
    import importlib, json, sys
    before = set(sys.modules)
    for name in names:
        importlib.import_module(name)
    new = sorted(set(sys.modules) - before)
    page_only = ("pyodide_js", "pyscript", "_pyscript", "polyscript")  # build_site.BROWSER_MODULES
    browser = [m for m in new if m.split(".")[0] in page_only]
    if browser:
        raise ImportError(f"preloading imported browser modules: {browser}")
    return json.dumps(new)
try:
    _preloaded = _preload(${names})
finally:
    del _preload
_preloaded
`);
  py.runPython("del _preloaded");
  return JSON.parse(imported);
}

/* Zero the C heap's free chunks and the stack below the current frame; the number of bytes
   zeroed. Free chunks are found by allocating them (largest sizes first, with the heap's
   footprint capped where it is, so that no request grows it), zeroing what malloc handed out,
   and freeing it all again: the heap ends with the same chunks in use and the same top, and
   no byte that live data can reach is touched. Throws if the heap or memory grew. */
function scrubDeadMemory(M) {
  const memoryBytes = M.HEAPU8.length;
  const top = M._sbrk(0);
  const limit = M._malloc_footprint_limit();
  M._malloc_set_footprint_limit(M._malloc_footprint());
  const held = [];
  let zeroed = 0;
  try {
    for (let size = 1 << 24; size >= 8; size >>= 1) {
      for (let p = M._malloc(size); p; p = M._malloc(size)) {
        const n = M._malloc_usable_size(p);
        M.HEAPU8.fill(0, p, p + n);
        zeroed += n;
        held.push(p);
      }
    }
  } finally {
    for (const p of held) M._free(p);
    M._malloc_set_footprint_limit(limit);
  }
  if (M._sbrk(0) !== top || M.HEAPU8.length !== memoryBytes || M._malloc_footprint_limit() !== limit) {
    throw new Error("scrubbing the free heap moved its top or grew memory");
  }
  // No wasm frame is live here: everything between the stack's end and its pointer is dead.
  const stackEnd = M._emscripten_stack_get_end();
  const stackPointer = M._emscripten_stack_get_current();
  M.HEAPU8.fill(0, stackEnd, stackPointer);
  return zeroed + (stackPointer - stackEnd);
}
