/* Makes a Pyodide memory snapshot at build time, in Node, with the vendored Pyodide
   (node_modules/pyodide): the interpreter's memory right after start-up, as
   web/pyodide-snapshot-worker.mjs makes it in the browser after a first visit.

       node tools/make_boot_snapshot.mjs OUT_FILE [STDLIB_ZIP]

   STDLIB_ZIP: the standard library zip the page will load (the built site's trimmed one,
   vendor/pyodide/python_stdlib_trimmed.zip; default: Pyodide's full one). A snapshot only fits that zip: Python's zip
   importer keeps the zip's table of contents in memory. tools/build_site.py runs this.

   Prints the Pyodide version and the snapshot's size. Such a snapshot restores in Chromium
   (`loadPyodide({_loadSnapshot: bytes})`): it holds no JS object (its hiwire table is empty;
   the `js` module is looked up again on restore), sys.platform is "emscripten" either way and
   the file system (standard library zip, /home/pyodide) is rebuilt by the loader on restore.
   What Node leaves in it: os.environ, read once at start-up. `_` would be the path of this
   script (the browser's is "./this.program") and is set here; LANG is "C.UTF-8" (a browser's
   follows navigator.language, e.g. "en_US.UTF-8"), which the game does not read.

   Measured in docs/performance.md ("Build-time snapshot"): 31,457,408 bytes raw, ~6.1 MB
   gzip -9; bench/bench_build_snapshot.py compares a first visit from it with a normal one. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [out, stdlibZip] = process.argv.slice(2);
if (!out) {
  console.error("usage: node tools/make_boot_snapshot.mjs OUT_FILE [STDLIB_ZIP]");
  process.exit(2);
}
const root = fileURLToPath(new URL("../", import.meta.url));
const { loadPyodide, version } = await import(`${root}node_modules/pyodide/pyodide.mjs`);

const options = { _makeSnapshot: true, env: { _: "./this.program" } };
if (stdlibZip) options.stdLibURL = resolve(stdlibZip);
const py = await loadPyodide(options);
const snapshot = py.makeMemorySnapshot();
writeFileSync(out, snapshot);
console.log(JSON.stringify({ version, bytes: snapshot.length }));
