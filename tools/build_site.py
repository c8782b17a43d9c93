#!/usr/bin/env python3
"""Assemble the static site in ``_site/`` (standard library; zstd, where installed, packs the
build's memory snapshot: snapshot_compressor).

What goes in (see docs/build.md):

- ``index.html`` with the games' names, the game list (``<select>`` options) and the rules tabs
  and sections filled in from the game table, ``solitaire.rules.GAMES`` (its placeholders,
  ``<!-- build: NAME -->``: PAGE_PARTS);
- everything under ``web/``: ``web/sw.js`` (stamped),
  ``web/manifest.webmanifest`` and ``web/icons/`` are published at the site root (a service
  worker's and a manifest's scope is their folder), every other ``web/X`` at ``web/X``;
- every ``py/solitaire/**/*.py`` (served, and copied into the interpreter's file system as
  ``solitaire/**`` through the generated PyScript config), and its bytecode for the vendored
  Pyodide, ``py/solitaire/**/__pycache__/X.cpython-314.pyc``, compiled by that Pyodide under Node
  (cached in ``.cache/pyodide-pyc/``; sources only, with a warning, when Node cannot run it);
- the runtime files the browser really fetches, from the pinned npm packages in
  ``node_modules/``: five Pyodide files in ``vendor/pyodide/`` and PyScript's ``core.js``,
  its hashed core chunk and the plugin chunks it loads at boot in ``vendor/pyscript/`` (not
  ``core.css``: it only styles PyScript's own tags and editor/terminal, which the page has none of),
  and the zstd decoder ``fzstd`` in ``vendor/fzstd/`` (it unpacks the build's memory snapshot);
- ``pyscript.json`` (the page: interpreter ``web/pyodide-boot.mjs``, which starts Pyodide early,
  restores a memory snapshot when a visit saved one and writes the modules the page imports,
  listed in ``pyodide-files.json``, into the interpreter's file system; PyScript's plugins that
  the page does not use are turned off) and ``pyscript-worker.json`` (workers: the plain Pyodide
  module and every Python file in PyScript's ``files`` map);
- ``sw.js`` with the cache version (a hash of every other file), the precache list and each
  precached file's size and SHA-256 (the worker checks what it caches).

Usage: ``python tools/build_site.py [--out DIR] [--quiet] [--list] [--no-bytecode]
[--no-boot-snapshot] [--release LABEL]``.
"""

from __future__ import annotations

import _imp
import argparse
import ast
import contextlib
import gzip
import hashlib
import html
import importlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
# The game table: solitaire.rules of this checkout (standard library only, like this script).
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))
from solitaire.position import Position  # noqa: E402
from solitaire.rules import GAMES, GameRules  # noqa: E402
from solitaire.web.controller import DEFAULT_GAME  # noqa: E402
from solitaire.web.markup import table_preview  # noqa: E402

if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))
import snapshot_codec  # noqa: E402
import stdlib_trim  # noqa: E402

#: Files of the ``pyodide`` npm package that the browser fetches on every boot.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The full standard library of the ``pyodide`` package: shipped (the benchmarks' bare page,
#: bench/pages/bare.html, loads it) but neither precached nor fetched by the site's pages and
#: workers, which load the trimmed one (STDLIB_URL, tools/stdlib_trim.py).
FULL_STDLIB = "python_stdlib.zip"
#: The trimmed standard library, site-relative; web/pyodide-boot.mjs, web/solver-worker.mjs and
#: web/pyodide-snapshot-worker.mjs pass it to loadPyodide() as ``stdLibURL``.
STDLIB_URL = f"vendor/pyodide/{stdlib_trim.TRIMMED_NAME}"
#: The solver's worker's module (web/solver-worker.mjs imports it), relative to the package.
SOLVER_MODULE = "web/solver_worker.py"
#: Plugins that PyScript's core imports on every boot unless the config turns them off
#: (``"plugins": ["!name"]``; measured in Chromium).
PYSCRIPT_BOOT_PLUGINS = (
    "error",
    "deprecations-manager",
    "donkey",
    "py-editor",
    "py-game",
    "py-terminal",
)
#: The page turns all of them off in pyscript.json: tags and helpers it does not use (code editor,
#: pygame, terminal, the ``donkey`` helper, warnings about CDN URLs) and ``error``, which would
#: append Python's error output to the page's body (the page shows its own boot errors, and its
#: body never scrolls to such a box). PyScript imports ``error`` even when it is turned off, only
#: to call its ``notOnDOM()``; the build removes that import (PYSCRIPT_CORE_PATCH).
PYSCRIPT_PLUGINS_OFF = PYSCRIPT_BOOT_PLUGINS
#: The change the build makes to PyScript's core chunk: ``(chunk, SHA-256 of the pinned file,
#: text, replacement)``. With ``"!error"`` in a config, the pinned chunk still runs
#: ``"error"===t&&e.push(s().then(({notOnDOM:e})=>e()))``: it fetches the ``error`` plugin to
#: switch it off (the plugin does nothing else once ``notOnDOM()`` ran). The replacement does
#: nothing instead, padded to the same length (offsets match the published chunk and its map).
#: The chunk is still imported for a config that cannot be parsed (to report that on the page),
#: so it stays shipped. Another PyScript build (a different hash) fails the build: check what
#: the new chunk does before updating these values.
PYSCRIPT_ERROR_IMPORT = '"error"===t&&e.push(s().then(({notOnDOM:e})=>e()))'
PYSCRIPT_CORE_PATCH = (
    "core-C9KDLldu.js",
    "6ebd3fd9f13faa7859f54bed5304c532da8a194fffbe14baf1986af1a1f17dd6",
    PYSCRIPT_ERROR_IMPORT,
    "void 0".ljust(len(PYSCRIPT_ERROR_IMPORT)),
)
#: The second change to the same chunk (same SHA-256 check): on the page's main thread,
#: PyScript's Python set-up no longer runs. The pinned chunk makes that set-up one Python
#: program (``Ao``): the sources of its ``pyscript`` package as string literals, each written
#: into the interpreter's file system, then ``import pyscript as _pyscript`` "to fix
#: js.document in the Worker case"; it runs that program before the page's first script, on the
#: main thread as in workers. On the main thread the program cost ~0.2 s of a phone's first
#: visit: Pyodide tokenizes, parses and compiles the 30 KB program (its package's sources as
#: literals) and writes 14 files, before the game's own code runs; the import compiled ten modules
#: more (~45 ms), for a package the game never imports (its solver runs in
#: web/solver-worker.mjs, not in a PyScript worker). With the patch, ``Bo`` (which makes
#: the set-up hooks) gives the main thread's hooks no set-up code; the package's files come in
#: the page archive instead (``pyscript/``, taken from the chunk by
#: stdlib_trim.pyscript_package), for any script that imports it on first use. PyScript's
#: workers still run the program, whose import becomes
#: ``import pyscript`` and the clean-up ``del`` of its names (as published, shorter); padded to
#: the same length. False: the chunk as published (benchmarks).
PYSCRIPT_LAZY_PACKAGE = True
PYSCRIPT_PACKAGE_IMPORT = (
    'ho.push("import pyscript as _pyscript"),'
    'ho.push(...["_Path","_path","_os","_pyscript"].map(e=>`del ${e}`))'
)
_PYSCRIPT_SETUP_BETWEEN = (
    ',ho.push("\\n");const Ao=ho.join("\\n"),bo=go.join("\\n"),vo=e=>Co.main[e],'
    "Eo=e=>Co.worker[e],ko=(e,t,n,r)=>{e[n]=()=>{const e=r?[r]:[];"
    'return e.push(...t(n)),e.map(E).join("\\n")}},Bo=(e,t)=>{const n='
)
_PYSCRIPT_WORKER_IMPORT = 'ho.push("import pyscript\\ndel _Path,_path,_os,pyscript")'
_PYSCRIPT_SETUP_OLD = (
    PYSCRIPT_PACKAGE_IMPORT + _PYSCRIPT_SETUP_BETWEEN + '"mpy"===t?Ao.replace(bo,""):Ao,'
)
_PYSCRIPT_SETUP_NEW = _PYSCRIPT_SETUP_BETWEEN + 'e===vo?"":"mpy"===t?Ao.replace(bo,""):Ao,'
PYSCRIPT_SETUP_PATCH = (
    _PYSCRIPT_SETUP_OLD,
    _PYSCRIPT_WORKER_IMPORT.ljust(len(_PYSCRIPT_SETUP_OLD) - len(_PYSCRIPT_SETUP_NEW))
    + _PYSCRIPT_SETUP_NEW,
)
#: Pyodide's module (pyodide.asm.mjs, minified) makes a 1-page shared WebAssembly memory when it
#: loads, for a synchronous sleep (``syncSleep``: ``Atomics.wait``, used only to retry a read
#: that says EAGAIN, i.e. Node's stdin). On a page that is not cross-origin isolated (ours: GitHub
#: Pages sets no COOP/COEP headers) creating it is a deprecated use of ``SharedArrayBuffer``
#: (Chrome's console warning; Lighthouse's "Uses deprecated APIs", -18 of Best Practices). The
#: patch makes the memory on the sleep's first call instead: same behaviour, never on the page.
PYODIDE_SLEEP_PATCH = (
    "pyodide.asm.mjs",
    (
        "var io=new Int32Array(new WebAssembly.Memory({shared:!0,initial:1,maximum:1}).buffer);"
        "function so(t){try{return Atomics.wait(io,0,0,t),!0}catch{return!1}}"
    ),
    (
        "var io;function so(t){try{return io??=new Int32Array(new WebAssembly.Memory("
        "{shared:!0,initial:1,maximum:1}).buffer),Atomics.wait(io,0,0,t),!0}catch{return!1}}"
    ),
)
#: Pyodide runs Python called from JS on a stack of its own (WebAssembly JS Promise Integration,
#: JSPI, where ``WebAssembly.Suspending`` exists: Chromium 137 and later). Chromium's renderer
#: crashed on such stacks (SIGSEGV, the tab lost), about once in 300 of the e2e suite's page
#: loads: every crash dump showed the main thread on a stack outside the thread's own, at one
#: instruction of a frame-pointer stack scan (frames at most 100 000 bytes apart, 8 KB scanned)
#: that read past that stack's end into its guard page (docs/build.md, "Pyodide without stack
#: switching"). The page and its workers need no stack switching (no ``run_sync``, no
#: ``syncify``; PyScript's top-level ``await`` runs on asyncio), so the shipped module never
#: uses it.
PYODIDE_NO_JSPI_PATCH = (
    (
        'var newJspiSupported=canConstructWasm&&"Suspending"in WebAssembly;'
        'var oldJspiSupported=canConstructWasm&&"Suspender"in WebAssembly;'
    ),
    "var newJspiSupported=false;var oldJspiSupported=false;",
)
#: The build's snapshot has its static data XORed with the wasm's data segments
#: (tools/snapshot_codec.py: ~1.4 MB less to download). Two patches to pyodide.asm.mjs undo it:
#: right after instantiation, before any wasm code runs, a module that will restore a snapshot
#: (``noInitialRun``) keeps a copy of the first ``{data_end}`` bytes of memory (exactly the data
#: segments: the build writes their end here); restoreSnapshot XORs the restored memory with that
#: copy when the header's reserved word says so, and drops the copy. Snapshots with that word 0
#: (all that Pyodide makes, e.g. the page's and the solver worker's own) restore unchanged.
PYODIDE_SNAPSHOT_PATCHES = (
    (
        "loadDylibs();updateMemoryViews();return wasmExports}",
        (
            "loadDylibs();updateMemoryViews();"
            "if(Module.noInitialRun)Module.__pristine=HEAPU8.slice(0,{data_end});"
            "return wasmExports}"
        ),
    ),
    (
        "return Module.HEAP8.set(t),l};",
        (
            "Module.HEAP8.set(t);let x=e[3]>>>2,p=Module.__pristine;Module.__pristine=null;"
            'if(x){if(!p||p.length<4*x)throw new Error("Snapshot XOR-encoded; no data image kept");'
            "let h=new Int32Array(Module.HEAP8.buffer,0,x),q=new Int32Array(p.buffer,0,x);"
            "for(let k=0;k<x;k++)h[k]^=q[k]}return l};"
        ),
    ),
)
#: At every start, Pyodide's linker (``reportUndefinedSymbols``) gives each JS function that the
#: C code takes the address of (~260) a slot in the function table. A JS function cannot go into
#: the table itself, so Emscripten's ``addFunction`` wraps each one in a wasm module of its own,
#: compiled and instantiated one after the other on the page's thread (~0.15 s at 4x CPU). The
#: patch keeps the loop and its order of slots, leaves those slots empty for the moment and then
#: fills them from one module that imports and exports all the functions (``linkJsFunctions``).
#: The table's indices are the same as unpatched, as the build's snapshot, made by Pyodide as
#: published in Node, needs: it holds them in memory. Nothing runs wasm code in between.
PYODIDE_LINKER_PATCHES = (
    (
        "var reportUndefinedSymbols=()=>{for(var[symName,entry]of Object.entries(GOT)){",
        (
            "var linkJsFunctions=pending=>{if(!pending.length)return;"
            "var leb=n=>{var o=[];do{var b=n&127;n>>>=7;o.push(n?b|128:b)}while(n);return o};"
            "var vec=items=>[...leb(items.length),...items.flat()];"
            "var str=s=>[...leb(s.length),...Array.from(s,c=>c.charCodeAt(0))];"
            "var codes=t=>Array.from(t,c=>wasmTypeCodes[c]);"
            "var sec=(id,body)=>[id,...leb(body.length),...body];"
            "var types=pending.map(([,,sig])=>[96,...vec(codes(sig.slice(1))),"
            '...vec(codes(sig[0]==="v"?"":sig[0]))]);'
            'var imports=pending.map((p,i)=>[...str("e"),...str(""+i),0,...leb(i)]);'
            'var exports=pending.map((p,i)=>[...str(""+i),0,...leb(i)]);'
            "var bytes=Uint8Array.from([0,97,115,109,1,0,0,0,...sec(1,vec(types)),"
            "...sec(2,vec(imports)),...sec(7,vec(exports))]);"
            "var funcs={};pending.forEach(([,func],i)=>funcs[i]=func);"
            "var instance=new WebAssembly.Instance(new WebAssembly.Module(bytes),{e:funcs});"
            "pending.forEach(([slot],i)=>setWasmTableEntry(slot,instance.exports[i]))};"
            'var addFunctionLater=(func,sig,pending)=>{if(typeof sig!="string")'
            "return addFunction(func,sig);var rtn=getFunctionAddress(func);if(rtn){return rtn}"
            "var ret=getEmptyTableSlot();try{setWasmTableEntry(ret,func)}catch(err){"
            "if(!(err instanceof TypeError)){throw err}pending.push([ret,func,sig])}"
            "functionsInTableMap.set(func,ret);return ret};"
            "var reportUndefinedSymbols=()=>{var pending=[];"
            "for(var[symName,entry]of Object.entries(GOT)){"
        ),
    ),
    (
        (
            'if(typeof value=="function"){entry.value=addFunction(value,value.sig)}'
            'else if(typeof value=="number"){entry.value=value}'
            'else if(typeof value.value=="number"){entry.value=value}'
            "else{throw new Error(`bad export type for '${symName}': "
            "${typeof value} (${value})`)}}}};"
        ),
        (
            'if(typeof value=="function"){entry.value=addFunctionLater(value,value.sig,pending)}'
            'else if(typeof value=="number"){entry.value=value}'
            'else if(typeof value.value=="number"){entry.value=value}'
            "else{throw new Error(`bad export type for '${symName}': "
            "${typeof value} (${value})`)}}}"
            "linkJsFunctions(pending)};"
        ),
    ),
)
#: Pyodide's loader awaits a snapshot's bytes before it instantiates the wasm (it sizes the
#: memory from them), so the wasm's streaming compile, its instantiation and Pyodide's linking
#: wait for the whole snapshot download. Given ``_snapshotSize`` (the build's snapshot, or one
#: kept in Cache Storage with its length: web/pyodide-boot.mjs), the patched loader sizes the
#: memory from it, instantiates at once and awaits the bytes only to restore them; a snapshot of
#: another size is refused (the page then starts otherwise). On that path the loader also yields
#: to the browser (a macrotask) after linking, after restoring the memory and after the set-up's
#: first step (``API.syncSnapshot``, PYODIDE_TASK_PATCHES), before the rest of Pyodide's set-up:
#: four tasks where there was one long one whenever the bytes were in already (a return visit;
#: Lighthouse's unthrottled load), which the page can paint and answer between.
#: Without ``_snapshotSize`` (a kept snapshot stored without its length, the workers') nothing
#: changes.
PYODIDE_LOADER_PATCHES = (
    (
        "async function ke(e,t){if(!e._loadSnapshot)return;",
        (
            "async function ke(e,t){if(!e._loadSnapshot)return;if(e._snapshotSize){"
            "t.noInitialRun=!0,t.INITIAL_MEMORY=e._snapshotSize;"
            "let p=Promise.resolve(e._loadSnapshot).then(n=>{"
            "let i=ArrayBuffer.isView(n)?n:new Uint8Array(n);"
            "if(i.length!==e._snapshotSize)throw new Error("
            "`snapshot of ${i.length} bytes, not ${e._snapshotSize}`);return i});"
            "return p.catch(()=>{}),{later:p}}"
        ),
    ),
    (
        "s=await ke(t,n),r=await Re(i,n);Fe(r,t);let a=Ae(r,s,t);",
        (
            "s=await ke(t,n),r=await Re(i,n);let a,w=s&&s.later;if(w){"
            "let y=()=>new Promise(f=>setTimeout(f,0));s=await w;Fe(r,t);await y();"
            "let q=r.API.restoreSnapshot(s);await y();r.API.syncSnapshot();await y();"
            "a=r.API.finalizeBootstrap(q,t._snapshotDeserializer)}else{Fe(r,t);a=Ae(r,s,t)}"
        ),
    ),
)
#: Once the wasm is instantiated, Emscripten's linker enters the main module's exports in the
#: global offset table (``updateGOT``: a table slot for each exported function), then resolves
#: the symbols the module imports (``reportUndefinedSymbols``) and starts the runtime, all in the
#: task that received the instance: the start's longest task on the page's thread. The patch
#: moves the first two into ``loadDylibs``, which holds a run dependency (so the runtime waits
#: for them, as for a side module): the exports in chunks of GOT_CHUNK, then the imports, each
#: after a task boundary, a macrotask through a message channel as web/pyodide-boot.mjs's
#: nextTask (no timer clamping). The same order, so the same table slots: the build's snapshot
#: holds them in memory. Nothing runs wasm code before the runtime starts, so nothing sees the
#: table half filled. It also gives the first step of Pyodide's set-up after a restore
#: (``syncUpSnapshotLoad1``: the JS library and the proxies' start) a name of its own,
#: ``API.syncSnapshot``, which the patched loader (PYODIDE_LOADER_PATCHES) runs in a task of its
#: own; ``finalizeBootstrap`` then skips it.
#: Exports entered in the offset table per task: Pyodide's wasm has 8 560, so three tasks of
#: ~10 ms unthrottled instead of one of ~30 ms.
GOT_CHUNK = 3000
PYODIDE_TASK_PATCHES = (
    (
        "updateGOT(origExports);LDSO.init();loadDylibs()",
        "LDSO.init();loadDylibs(origExports)",
    ),
    (
        "API.finalizeBootstrap=function(t,e){t&&Wr();",
        (
            "API.syncSnapshot=()=>{Wr();API.snapshotSynced=!0};"
            "API.finalizeBootstrap=function(t,e){t&&!API.snapshotSynced&&Wr();"
        ),
    ),
    (
        (
            "loadDylibs=async()=>{if(!dynamicLibraries.length){reportUndefinedSymbols();return}"
            'addRunDependency("loadDylibs");'
        ),
        (
            "loadDylibs=async main=>{var task=()=>new Promise(f=>{var c=new MessageChannel;"
            "c.port1.onmessage=()=>{c.port1.close();f()};c.port2.postMessage(0)});"
            'addRunDependency("loadDylibs");var names=Object.keys(main);'
            f"for(var k=0;k<names.length;k+={GOT_CHUNK}){{await task();var part={{}};"
            f"for(var n of names.slice(k,k+{GOT_CHUNK}))part[n]=main[n];updateGOT(part)}}"
            "if(!dynamicLibraries.length){await task();reportUndefinedSymbols();"
            'removeRunDependency("loadDylibs");return}'
        ),
    ),
)
#: web/pyodide-boot.mjs holds this line; the build writes the ``info`` of the vendored
#: ``pyodide-lock.json`` into it, so that the page gives Pyodide its package index (that info,
#: no package: the page loads none) instead of Pyodide fetching the lock file at start.
LOCKFILE_INFO_LINE = "const LOCKFILE_INFO = null;"
#: web/pyodide-boot.mjs holds this line; the build writes into it the site URL of the memory
#: snapshot it made (BOOT_SNAPSHOT_FILE), which the page restores on a first visit instead of
#: starting CPython (docs/performance.md, "Build-time snapshot").
BOOT_SNAPSHOT_LINE = "const BOOT_SNAPSHOT = null;"
#: ...and into this one its size unpacked, which lets Pyodide instantiate the wasm before the
#: snapshot's bytes are in (PYODIDE_LOADER_PATCHES).
BOOT_SNAPSHOT_SIZE_LINE = "const BOOT_SNAPSHOT_SIZE = null;"
#: The build's memory snapshot (tools/make_boot_snapshot.mjs, run by Node with the vendored
#: Pyodide): named after the Pyodide version, since only that build can restore it. Encoded
#: (tools/snapshot_codec.py) and compressed by the build, unpacked by the page (GitHub Pages
#: serves a binary file as it is): zstd -19 (31 MB -> 2.53 MB, against 3.62 MB gzip -9: ~0.9 s
#: less on a 10 Mbit/s link, the page's largest download but one), decoded by the vendored
#: fzstd (FZSTD_FILE) in a worker as it arrives; gzip -9 when the build has no zstd
#: (snapshot_compressor), which the page inflates with DecompressionStream.
#: The name also holds a digest of the file: a snapshot only fits the page archive and the
#: standard library zip it was made with, and web/pyodide-boot.mjs keeps the unpacked snapshot in
#: Cache Storage under this name, so that a new deploy never restores an old one.
BOOT_SNAPSHOT_FILE = "vendor/pyodide/boot-snapshot-{version}-{digest}.bin.{ext}"
#: The zstd level and window of the build's snapshot: level 19 takes ~4.5 s (kept in
#: BOOT_SNAPSHOT_CACHE; 22 saves 3 KB more in 6 s). A 2 MB window (2**21) rather than level 19's
#: 8 MB: fzstd's streaming decoder copies its window at every block, and decoding the snapshot
#: took ~110 ms in Node against ~200 ms, for 72 KB more.
SNAPSHOT_ZSTD_LEVEL = 19
SNAPSHOT_ZSTD_WINDOW_LOG = 21
#: The zstd decoder of the page (npm package ``fzstd``, pure JS, 6.8 KB gzip, MIT), vendored
#: from its ES module build: web/pyodide-boot.mjs imports it in the worker that unpacks the
#: build's snapshot and the packed wasm (and on the page's thread where that worker cannot run).
FZSTD_FILE = "vendor/fzstd/fzstd.mjs"
FZSTD_SOURCE = Path("node_modules") / "fzstd" / "esm" / "index.mjs"
#: The same decoder as a classic script (fzstd's UMD build, which sets ``self.fzstd``), for the
#: service worker (web/sw.js, ``importScripts``), which cannot import an ES module.
FZSTD_CLASSIC_FILE = "vendor/fzstd/fzstd.js"
FZSTD_CLASSIC_SOURCE = Path("node_modules") / "fzstd" / "umd" / "index.js"
#: V8's explicit compile hint (Chromium 136+; a plain comment to other engines): at the top of a
#: script, V8 compiles all its functions as the file arrives, on a background thread, instead of
#: each one on the page's thread at its first call. The build puts it first in EAGER_COMPILE_FILES,
#: the scripts of a visit's start most of whose functions run then (Pyodide's glue alone is
#: 1.2 MB). It moves a line: the published source maps (not shipped) would be one line off.
EAGER_COMPILE_HINT = "//# allFunctionsCalledOnLoad\n"
EAGER_COMPILE_FILES = (
    "vendor/pyodide/pyodide.asm.mjs",
    "vendor/pyodide/pyodide.mjs",
    f"vendor/pyscript/{PYSCRIPT_CORE_PATCH[0]}",
    "web/pyodide-boot.mjs",
    FZSTD_FILE,
)
#: The first bytes of a zstd frame.
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: pyodide.asm.wasm as zstd (the snapshot's level and window), next to the file itself: 2.90 MB
#: against 3.53 MB as GitHub Pages gzips the wasm. A page that no service worker answers (a
#: first visit) downloads this instead and decodes it as it arrives, feeding the streaming
#: compile (web/pyodide-boot.mjs, PACKED_WASM; the solver's worker too, while the page is not
#: controlled); the service worker unpacks it into Cache Storage as the wasm itself (web/sw.js,
#: PACKED), which later visits compile from and Chromium keeps the compiled code of. None
#: without a zstd module (snapshot_compressor): the site then ships the wasm alone.
PACKED_WASM = ("vendor/pyodide/pyodide.asm.wasm", "vendor/pyodide/pyodide.asm.wasm.zst")
#: web/pyodide-boot.mjs's line that the build fills with the packed wasm's site URL.
BOOT_PACKED_WASM_LINE = "const PACKED_WASM = null;"
#: Packed wasms kept between builds, keyed by the wasm's bytes (zstd -19 takes ~4 s).
PACKED_WASM_CACHE = ROOT / ".cache" / "pyodide-packed-wasm"
#: Modules that must not be imported in the build's snapshot: PyScript's, which exist only on
#: the page, and Pyodide's JS side. A module of ours that imports one of these, or imports a
#: module of ours that does, is left for the page to import (snapshot_modules). `js` and
#: `pyodide.ffi` may be: the snapshot keeps a JS object that was reached from the global scope
#: by its path (`from js import document`: ["document"]) and the page's restore looks it up there
#: again (tools/make_boot_snapshot.mjs, which stands in for the page's globals Node lacks).
BROWSER_MODULES = ("pyodide_js", "polyscript", "_pyscript", "pyscript")
BOOT_SNAPSHOT_SCRIPT = ROOT / "tools" / "make_boot_snapshot.mjs"
#: Snapshots kept between builds, keyed by what makes them (gitignored, as PYC_CACHE).
BOOT_SNAPSHOT_CACHE = ROOT / ".cache" / "pyodide-boot-snapshot"
#: Where PyScript finds the interpreter (resolved against the page URL). Workers (the solver)
#: load Pyodide itself; the page loads it through web/pyodide-boot.mjs, which restores a memory
#: snapshot saved by an earlier visit (docs/performance.md) and falls back to a normal start.
INTERPRETER_URL = "./vendor/pyodide/pyodide.mjs"
MAIN_INTERPRETER_URL = "./web/pyodide-boot.mjs"
#: The page's Python files: written into the interpreter by web/pyodide-boot.mjs, which fetches
#: them while Pyodide starts (not by PyScript's ``files`` map, which fetches them only once the
#: interpreter is up). Same format as a ``files`` map; at the site root.
BOOT_FILES = "pyodide-files.json"
#: The page's bytecode in one gzipped tar archive, listed in pyodide-files.json as
#: ``{archive URL: folder}`` and unpacked into that folder by web/pyodide-boot.mjs: one request
#: instead of one per module, and one gzip stream over every module (smaller than a gzip of each).
#: A binary file: GitHub Pages serves it as it is (it gzips none of it for us).
PAGE_ARCHIVE = "py/page.tar.gz"
#: The module the page runs (index.html: ``from solitaire.web.app import main``), relative to
#: the package folder. pyodide-files.json lists only it and what it imports, transitively.
MAIN_MODULE = "web/app.py"
#: The name of our package, and its folder in the repository (and in the site).
PACKAGE = "solitaire"
PACKAGE_DIR = "py/solitaire"
#: The Node.js that runs the pinned Pyodide at build time to compile them
#: (``$SOLITAIRE_BUILD_NODE``, default ``node`` on the PATH).
NODE = os.environ.get("SOLITAIRE_BUILD_NODE", "node")
#: Seconds that Node may take to start Pyodide and compile everything.
NODE_TIMEOUT = 300
#: Compiled files, kept between builds, keyed by Pyodide version, path and source bytes (so a
#: build of another copy of the sources, such as the e2e tests' or a benchmark variant's, reuses
#: them); gitignored. Always the repository's own, whatever ``root`` a build reads.
PYC_CACHE = ROOT / ".cache" / "pyodide-pyc"
#: What the compiled files are, part of their cache folder's name: a change to how they are
#: compiled (here: docstrings blanked, no column positions, COMPILE_PYC_SCRIPT) must not reuse files
#: compiled before.
PYC_FLAVOUR = "docstrings-dot-no-columns"
#: Where the interpreter's working directory is in the browser (the files maps' "./" paths).
PYODIDE_HOME = "/home/pyodide"
#: Placeholders in web/sw.js.
SW_VERSION_MARK = "__CACHE_VERSION__"
SW_PRECACHE_MARK = "/* __PRECACHE__ */"
SW_INTEGRITY_MARK = "/* __INTEGRITY__ */"
SW_PACKED_MARK = "/* __PACKED__ */"
#: In index.html: ``<meta name="release" content="__RELEASE__">``, replaced with the build's
#: release label (``--release``), which the page can be asked for (and which makes a new
#: version of the site even when nothing else changed: the e2e tests' second build).
RELEASE_MARK = "__RELEASE__"
#: Files and folders of web/ published at the site root instead of under web/.
WEB_AT_ROOT = ("manifest.webmanifest", "icons/")


class BuildError(Exception):
    """A readable reason why the site cannot be built."""


@dataclass
class Site:
    """The result of a build."""

    out: Path
    version: str
    runtime: list[str] = field(default_factory=list)  # site-relative paths under vendor/
    own: list[str] = field(default_factory=list)  # every other file
    python_files: dict[str, str] = field(default_factory=dict)  # URL -> interpreter FS path
    bytecode: str = ""  # whether the .pyc files are shipped, and why not

    @property
    def files(self) -> list[str]:
        return sorted(self.runtime + self.own)


# ----------------------------------------------------------------------------- helpers


def _rel(path: Path, base: Path) -> str:
    return path.relative_to(base).as_posix()


def _walk(folder: Path) -> Iterator[Path]:
    """Regular files under ``folder``, sorted, skipping hidden files and caches."""
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if any(p.startswith(".") or p == "__pycache__" for p in parts):
            continue
        if path.is_file():
            yield path


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def _npm_version(package_dir: Path) -> str:
    meta = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
    return str(meta["version"])


def _check_pins(root: Path) -> None:
    """node_modules must hold exactly the versions pinned in package.json."""
    pins = json.loads((root / "package.json").read_text(encoding="utf-8"))["dependencies"]
    for name in ("pyodide", "@pyscript/core", "fzstd"):
        folder = root / "node_modules" / name
        if not (folder / "package.json").is_file():
            raise BuildError(f"node_modules/{name} is missing: run `npm ci` first")
        found = _npm_version(folder)
        if found != pins[name]:
            raise BuildError(
                f"node_modules/{name} is {found} but package.json pins {pins[name]}: run `npm ci`"
            )


_STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\./[\w.-]+\.js)["']""")
_PLUGIN_ENTRY = re.compile(r""""?([\w-]+)"?:\(\)=>import\(["']\./([\w.-]+\.js)["']\)""")


def _static_closure(dist: Path, entries: Iterable[str]) -> list[str]:
    """``entries`` plus every chunk they import statically (``import x from "./y.js"``)."""
    seen: list[str] = []
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if not (dist / name).is_file():
            raise BuildError(f"@pyscript/core/dist/{name} is missing")
        seen.append(name)
        text = (dist / name).read_text(encoding="utf-8")
        todo.extend(m.removeprefix("./") for m in _STATIC_IMPORT.findall(text))
    return sorted(seen)


def pyscript_runtime_files(dist: Path, plugins: Iterable[str] = PYSCRIPT_BOOT_PLUGINS) -> list[str]:
    """The files of ``@pyscript/core/dist`` that a page fetches at boot with a JSON config.

    ``core.js`` re-exports the hashed core chunk; the core chunk holds a map from plugin name
    to a lazy ``import("./plugin-HASH.js")`` and loads the boot plugins unconditionally. Chunks
    behind other dynamic imports (TOML parser, zip, code editor, terminal back ends) are not
    fetched by our page and are not shipped.
    """
    core = _static_closure(dist, ["core.js"])
    found: dict[str, str] = {}
    for name in core:
        found.update(_PLUGIN_ENTRY.findall((dist / name).read_text(encoding="utf-8")))
    missing = [p for p in PYSCRIPT_BOOT_PLUGINS if p not in found]
    if missing:
        raise BuildError(
            f"PyScript plugin map not found or changed (missing {missing}); "
            "re-measure what the page fetches and update PYSCRIPT_BOOT_PLUGINS"
        )
    chunks = _static_closure(dist, [found[p] for p in plugins])
    return sorted({*core, *chunks})


def python_files(py_dir: Path) -> dict[str, str]:
    """``{"./py/solitaire/X.py": "./solitaire/X.py", ...}``: the PyScript ``files`` map for
    the package folder ``py_dir``."""
    mapping: dict[str, str] = {}
    for path in _walk(py_dir):
        if path.suffix == ".py":
            rel = _rel(path, py_dir)
            mapping[f"./{PACKAGE_DIR}/{rel}"] = f"./{PACKAGE}/{rel}"
    return mapping


def _module_file(py_dir: Path, parts: list[str]) -> Path | None:
    """The file of module ``solitaire.<parts>`` in ``py_dir`` (module or package), if any."""
    base = py_dir.joinpath(*parts)
    for candidate in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


def _imported_modules(py_dir: Path, path: Path) -> Iterator[list[str]]:
    """The modules of our package that ``path`` may import, as name parts under ``solitaire``.

    Every import statement counts, also inside functions or ``if`` blocks (a module imported
    late is still needed at run time); ``from .pkg import name`` yields ``pkg`` and, in case
    ``name`` is a submodule, ``pkg.name``.
    """
    package = list(path.relative_to(py_dir).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names = alias.name.split(".")
                if names[0] == PACKAGE:
                    yield names[1:]
        elif isinstance(node, ast.ImportFrom):
            names = node.module.split(".") if node.module else []
            if node.level:
                if node.level - 1 > len(package):
                    raise BuildError(f"{path}: relative import beyond the package")
                module = package[: len(package) - (node.level - 1)] + names
            elif names and names[0] == PACKAGE:
                module = names[1:]
            else:
                continue
            yield module
            for alias in node.names:
                yield [*module, alias.name]


def _files_run_by(py_dir: Path, path: Path) -> list[Path]:
    """The files of our package that importing ``path`` runs directly: the ``__init__.py`` of
    every package on the way (Python imports a module's parents first) and the modules it
    imports."""
    found = []
    parent = path.parent
    while parent != py_dir.parent:
        init = parent / "__init__.py"
        if init.is_file():
            found.append(init)
        if parent == py_dir:
            break
        parent = parent.parent
    for parts in _imported_modules(py_dir, path):
        module = _module_file(py_dir, parts)
        if module is not None:
            found.append(module)
    return found


def _import_graph(py_dir: Path, entry: str) -> dict[Path, list[Path]]:
    """Each file of ``import_closure(py_dir, entry)`` with the files it runs directly
    (_files_run_by): every file is read once."""
    graph: dict[Path, list[Path]] = {}
    todo = [py_dir / entry]
    while todo:
        path = todo.pop()
        if path in graph:
            continue
        graph[path] = _files_run_by(py_dir, path)
        todo.extend(graph[path])
    return graph


def import_closure(py_dir: Path, entry: str) -> list[Path]:
    """``py_dir/entry`` and every module of our package it imports, transitively, with the
    ``__init__.py`` of every package on the way (Python imports a module's parents first)."""
    return sorted(_import_graph(py_dir, entry))


def main_python_files(py_dir: Path, files: dict[str, str]) -> dict[str, str]:
    """The part of the ``files`` map that the page needs: ``MAIN_MODULE``'s import closure."""
    needed = {f"./{PACKAGE_DIR}/{_rel(p, py_dir)}" for p in import_closure(py_dir, MAIN_MODULE)}
    return {url: path for url, path in files.items() if url in needed}


def _imports_browser_module(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] in BROWSER_MODULES for name in names):
            return True
    return False


def snapshot_modules(py_dir: Path) -> list[str]:
    """The modules of the page (``MAIN_MODULE``'s import closure) that the build's snapshot
    imports: those whose own import closure imports no BROWSER_MODULES (anywhere, also inside
    functions), as dotted names: today all of them. The page's start then skips unmarshalling
    and running them (0.19-0.25 s of a phone's first and return visit for the 11 modules that
    use `js`, docs/performance.md "Build-time snapshot")."""
    runs = _import_graph(py_dir, MAIN_MODULE)
    closure = sorted(runs)
    # a module is the browser's when it imports a browser module or runs one that is
    browser = {path for path in closure if _imports_browser_module(path)}
    grew = True
    while grew:
        more = {path for path in closure if browser.intersection(runs[path])} - browser
        browser |= more
        grew = bool(more)
    names = []
    for path in closure:
        if path in browser:
            continue
        parts = [PACKAGE, *path.relative_to(py_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return sorted(names)


def pyscript_config(
    files: dict[str, str] | None,
    interpreter: str = INTERPRETER_URL,
    plugins_off: Iterable[str] = (),
) -> dict[str, object]:
    """A PyScript JSON config: our interpreter, our Python package (unless the interpreter
    module writes it), nothing from the network."""
    config: dict[str, object] = {"interpreter": interpreter}
    if files is not None:
        config["files"] = dict(files)
    if plugins_off:
        config["plugins"] = [f"!{name}" for name in plugins_off]
    return config


def shipped_plugins(plugins_off: Iterable[str]) -> tuple[str, ...]:
    """The boot plugins the build ships: all but those turned off, and ``error`` always (the
    page imports it only for a config that cannot be parsed: PYSCRIPT_CORE_PATCH)."""
    off = set(plugins_off) - {"error"}
    return tuple(p for p in PYSCRIPT_BOOT_PLUGINS if p not in off)


class _Links(HTMLParser):
    """Collects the URLs a page loads: src/href/config of script, link, img, source."""

    TAGS = frozenset({"script", "link", "img", "source", "iframe", "audio", "video"})

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.TAGS:
            return
        for name, value in attrs:
            if name in ("src", "href", "config") and value and not value.lstrip().startswith("{"):
                self.urls.append(value.strip())


def check_page(out: Path, page: str) -> None:
    """Every URL the page loads is a file of the site: nothing from another host, no 404."""
    parser = _Links()
    parser.feed((out / page).read_text(encoding="utf-8"))
    problems = []
    for url in parser.urls:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob"):
            continue
        if parts.scheme or parts.netloc or url.startswith("/"):
            problems.append(
                f"{url} (not relative to the site: no CDN, and the site lives "
                "under /<repo>/ on GitHub Pages)"
            )
            continue
        target = (out / page).parent / unquote(parts.path)
        if parts.path and not target.is_file():
            problems.append(f"{url} (no such file in the built site)")
    if problems:
        raise BuildError(
            f"{page} loads URLs that the site cannot serve:\n  " + "\n  ".join(problems)
        )


_MPY_CONFIG = re.compile(r"<mpy-config\b[^>]*>(.*?)</mpy-config>", re.S)


def check_plugins_off(html: str, page: str, plugins_off: Iterable[str]) -> None:
    """PyScript imports its plugins once per interpreter type, Python and MicroPython, unless
    that type's config turns them off; the build ships only the others. pyscript.json turns them
    off for Python; the page must do it for MicroPython with an inline ``<mpy-config>`` listing
    the same plugins (else the browser asks for chunks the site does not have)."""
    want = sorted(f"!{p}" for p in plugins_off)
    if not want:
        return
    found = _MPY_CONFIG.findall(html)
    try:
        got = sorted(json.loads(found[0])["plugins"]) if len(found) == 1 else None
    except (ValueError, KeyError, TypeError):
        got = None
    if got != want:
        raise BuildError(
            f'{page} must hold one <mpy-config hidden>{{"plugins": {json.dumps(want)}}}'
            "</mpy-config> (PYSCRIPT_PLUGINS_OFF)"
        )


# ----------------------------------------------------------------------------- the game table

#: What the build writes into index.html from the game table, in the table's order: the
#: placeholder ``<!-- build: NAME -->`` for each NAME here must occur exactly once. A placeholder
#: alone on its line becomes lines at its indentation; one inside a line (an attribute, the
#: title) becomes text.
PAGE_PARTS = {
    "game names": "the games' full names, as a list in words (the meta description)",
    "game short names": "the games' short names, comma-separated (the title)",
    "game options": "the game list: an <option> per game in <select id=game-select>",
    "rules tabs": "a rules-of button per game in the rules dialog's tabs",
    "rules": "a <section data-rules=ID> per game in the rules dialog",
    "first tables": "the first-visit tables web/table-preview.js paints before Python starts",
}
#: How many first-visit tables index.html carries (one is painted, at random): deals of the
#: page's default game from its list of proved-winnable deals, drawn with the release as
#: the seed. Each is ~23 KB of HTML, ~0.8 KB gzip in the page.
FIRST_TABLES = 4
_PLACEHOLDER = re.compile(r"<!-- build: ([^>]*?) -->")
#: RulesText's inline marks, in the order they are read.
_INLINE_MARKS = (("**", "b"), ("*", "i"), ("^", "sup"))


def inline_html(text: str) -> str:
    """A RulesText string as HTML: escaped, with ``**bold**``, ``*italic*``, ``^superscript^``."""
    out = html.escape(text, quote=False)
    for mark, tag in _INLINE_MARKS:
        out = re.sub(f"{re.escape(mark)}(.+?){re.escape(mark)}", rf"<{tag}>\1</{tag}>", out)
    if "*" in out or "^" in out:
        raise BuildError(f"unmatched * or ^ in the rules text {text!r}")
    return out


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def _in_words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _check_game(game: GameRules) -> None:
    """Every descriptive field the page shows is filled (else the build says which)."""
    text = game.rules_text
    empty = [
        name
        for name, value in (
            ("name", game.name),
            ("short_name", game.short_name),
            ("rules_text.intro", text.intro),
            ("rules_text.deal", text.deal),
            ("rules_text.play", text.play),
        )
        if not value
    ]
    if empty:
        raise BuildError(f"solitaire.rules: game {game.id!r} has no {', '.join(empty)}")


def rules_section(game: GameRules) -> list[str]:
    """The rules dialog's section of ``game`` (lines, indented two spaces per level)."""
    text = game.rules_text
    lines = [
        f'<section data-rules="{_attr(game.id)}">',
        f"  <h3>{html.escape(game.name, quote=False)}</h3>",
        f"  <p>{inline_html(text.intro)}</p>",
        "  <h4>The deal</h4>",
        f"  <p>{inline_html(text.deal)}</p>",
        "  <h4>Play</h4>",
        "  <ul>",
        *(f"    <li>{inline_html(item)}</li>" for item in text.play),
        "  </ul>",
    ]
    if text.other_programs:
        lines += [
            "  <h4>Where other programs differ</h4>",
            f"  <p>{inline_html(text.other_programs)}</p>",
        ]
    return [*lines, "</section>"]


def first_tables(
    winnable_dir: Path, release: str, count: int = FIRST_TABLES
) -> list[dict[str, Any]]:
    """The first-visit tables (``markup.table_preview`` documents, without a release: they
    come with the page): ``count`` deals of the default game drawn from its proved-winnable
    list (``web/winnable/<game>.json``) with ``release`` as the seed, dealt and drawn by the
    engine and the page's own markup code, so that the cards are those Python then deals."""
    path = winnable_dir / f"{DEFAULT_GAME}.json"
    try:
        deals = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BuildError(
            f"{path}: the default game's winnable deals cannot be read ({error})"
        ) from error
    if not isinstance(deals, list) or len(deals) < count:
        raise BuildError(f"{path}: fewer than {count} winnable deals")
    chosen = random.Random(release or "dev").sample(deals, count)
    tables = []
    for deal in chosen:
        doc = table_preview(
            Position.deal_of(DEFAULT_GAME, deal), deal, 0, 0.0, {}, "", proved_winnable=True
        )
        del doc["release"]
        tables.append(doc)
    return tables


def first_tables_html(tables: list[dict[str, Any]]) -> list[str]:
    """The first-visit tables as a JSON data block (not run: the Content-Security-Policy
    allows it), with ``</`` escaped so that no text in it can end the element."""
    data = json.dumps(tables, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return [f'<script type="application/json" id="first-tables">{data}</script>']


def page_parts(
    games: Iterable[GameRules], tables: list[dict[str, Any]] | None = None
) -> dict[str, list[str]]:
    """PAGE_PARTS' HTML (lines) for ``games``, in their order; ``tables``: the first-visit
    tables (none when None)."""
    table = list(games)
    if not table:
        raise BuildError("solitaire.rules.GAMES is empty")
    for game in table:
        _check_game(game)
    short = [html.escape(g.short_name, quote=False) for g in table]
    return {
        "game names": [_attr(_in_words([g.name for g in table]))],
        "game short names": [", ".join(short)],
        "game options": [
            f'<option value="{_attr(g.id)}" title="{_attr(g.name)}">{s}</option>'
            for g, s in zip(table, short, strict=True)
        ],
        "rules tabs": [
            f'<button type="button" data-action="rules-of" data-game="{_attr(g.id)}">{s}</button>'
            for g, s in zip(table, short, strict=True)
        ],
        "rules": [line for g in table for line in rules_section(g)],
        "first tables": first_tables_html(tables or []),
    }


def render_page(
    text: str,
    games: Iterable[GameRules],
    page: str = "index.html",
    tables: list[dict[str, Any]] | None = None,
) -> str:
    """``text`` (index.html) with every PAGE_PARTS placeholder filled from ``games`` (and
    the first-visit ``tables``)."""
    for name, lines in page_parts(games, tables).items():
        mark = f"<!-- build: {name} -->"
        found = text.count(mark)
        if found != 1:
            raise BuildError(
                f"{page} must hold the placeholder {mark} exactly once (found {found}): the "
                f"build replaces it with {PAGE_PARTS[name]}, from solitaire.rules.GAMES"
            )
        alone = re.search(rf"^([ \t]*){re.escape(mark)}[ \t]*$", text, re.M)
        if alone:
            indent = alone.group(1)
            block = "\n".join(indent + line for line in lines)
            text = text[: alone.start()] + block + text[alone.end() :]
        else:
            text = text.replace(mark, " ".join(lines))
    unknown = sorted(set(_PLACEHOLDER.findall(text)))
    if unknown:
        raise BuildError(
            f"{page}: unknown build placeholders {unknown} (known: {list(PAGE_PARTS)})"
        )
    return text


# ----------------------------------------------------------------------------- PyScript


def patch_pyscript_core(name: str, data: bytes) -> bytes:
    """PyScript file ``name`` as shipped: PYSCRIPT_CORE_PATCH (and, with PYSCRIPT_LAZY_PACKAGE,
    PYSCRIPT_SETUP_PATCH) applied to the core chunk."""
    chunk, sha256, old, new = PYSCRIPT_CORE_PATCH
    if name != chunk:
        return data
    if hashlib.sha256(data).hexdigest() != sha256:
        raise BuildError(
            f"@pyscript/core/dist/{chunk} is not the file PYSCRIPT_CORE_PATCH was made for: "
            "check what it does with the error plugin and with its Python set-up, "
            "and update PYSCRIPT_CORE_PATCH and PYSCRIPT_SETUP_PATCH"
        )
    text = data.decode("utf-8")
    patches = [("PYSCRIPT_CORE_PATCH", old, new)]
    if PYSCRIPT_LAZY_PACKAGE:
        patches.append(("PYSCRIPT_SETUP_PATCH", *PYSCRIPT_SETUP_PATCH))
    for label, old, new in patches:
        if len(old) != len(new):
            raise BuildError(f"{label} does not apply to {chunk}")
        text = _replace_once(text, old, new, f"{label} does not apply to {chunk}")
    return text.encode("utf-8")


def pyscript_package_files(core_chunk: str) -> dict[str, str]:
    """``{"pyscript/x.py": source}``: PyScript's package, which its Python set-up writes into
    the interpreter and which the page archive brings to the page's main thread instead
    (PYSCRIPT_SETUP_PATCH)."""
    try:
        return stdlib_trim.pyscript_package(core_chunk)
    except stdlib_trim.TrimError as exc:
        raise BuildError(str(exc)) from exc


def _replace_once(text: str, old: str, new: str, error: str) -> str:
    """``text`` with its one ``old`` replaced by ``new``; BuildError(``error``) unless ``old``
    occurs exactly once (a patch written for another version of the file)."""
    if text.count(old) != 1:
        raise BuildError(error)
    return text.replace(old, new)


def _replace_each(text: str, patches: Iterable[tuple[str, str]], error: str) -> str:
    """``text`` with each ``(old, new)`` of ``patches`` applied by _replace_once; the error
    names the patches, what to check, and the beginning of the text not found."""
    for old, new in patches:
        text = _replace_once(text, old, new, f"{error} ({old[:80]!r})")
    return text


def patch_pyodide(name: str, data: bytes, data_end: int) -> bytes:
    """Pyodide file ``name`` as shipped: PYODIDE_SLEEP_PATCH, PYODIDE_NO_JSPI_PATCH,
    PYODIDE_LINKER_PATCHES, PYODIDE_SNAPSHOT_PATCHES (for a wasm whose data segments end at
    ``data_end``) and PYODIDE_TASK_PATCHES applied to pyodide.asm.mjs, PYODIDE_LOADER_PATCHES to
    pyodide.mjs."""
    if name == "pyodide.mjs":
        loader = _replace_each(
            data.decode("utf-8"),
            PYODIDE_LOADER_PATCHES,
            f"PYODIDE_LOADER_PATCHES do not apply to {name}: check where this Pyodide's "
            "loadPyodide awaits a snapshot",
        )
        return loader.encode("utf-8")
    target, old, new = PYODIDE_SLEEP_PATCH
    if name != target:
        return data
    text = _replace_once(
        data.decode("utf-8"),
        old,
        new,
        f"PYODIDE_SLEEP_PATCH does not apply to {target}: check where this Pyodide makes "
        "its shared memory (syncSleep) and update the patch",
    )
    text = _replace_once(
        text,
        *PYODIDE_NO_JSPI_PATCH,
        f"PYODIDE_NO_JSPI_PATCH does not apply to {target}: check how this Pyodide detects "
        "WebAssembly stack switching (JSPI) and update the patch",
    )
    text = _replace_each(
        text,
        PYODIDE_LINKER_PATCHES,
        f"PYODIDE_LINKER_PATCHES do not apply to {target}: check how this Pyodide's linker "
        "adds JS functions to the table",
    )
    text = _replace_each(
        text,
        [(old, new.replace("{data_end}", str(data_end))) for old, new in PYODIDE_SNAPSHOT_PATCHES],
        f"PYODIDE_SNAPSHOT_PATCHES do not apply to {target}: check where this Pyodide "
        "instantiates its wasm and restores a snapshot",
    )
    text = _replace_each(
        text,
        PYODIDE_TASK_PATCHES,
        f"PYODIDE_TASK_PATCHES do not apply to {target}: check how this Pyodide's linker "
        "receives the instance (receiveInstance, loadDylibs)",
    )
    return text.encode("utf-8")


def stamp_boot_module(text: str, lock: dict[str, object]) -> str:
    """web/pyodide-boot.mjs with the ``info`` of ``lock`` (the vendored pyodide-lock.json)."""
    info = lock.get("info")
    if not isinstance(info, dict) or not isinstance(info.get("abi_version"), str):
        raise BuildError("vendor pyodide-lock.json has no info.abi_version")
    if text.count(LOCKFILE_INFO_LINE) != 1:
        raise BuildError(f"{MAIN_INTERPRETER_URL} must hold the line {LOCKFILE_INFO_LINE!r} once")
    value = json.dumps(info, sort_keys=True, ensure_ascii=True)
    return text.replace(LOCKFILE_INFO_LINE, f"const LOCKFILE_INFO = {value};")


def stamp_boot_snapshot(text: str, url: str | None, size: int | None = None) -> str:
    """web/pyodide-boot.mjs with the site URL of the build's snapshot (None: it has none) and
    its size unpacked (None: unknown; Pyodide then waits for its bytes to size the memory)."""
    if url is None or BOOT_SNAPSHOT_LINE not in text:
        return text
    text = text.replace(BOOT_SNAPSHOT_LINE, f"const BOOT_SNAPSHOT = {json.dumps(url)};")
    if size is not None:
        text = text.replace(BOOT_SNAPSHOT_SIZE_LINE, f"const BOOT_SNAPSHOT_SIZE = {int(size)};")
    return text


def snapshot_compressor() -> Any | None:
    """The zstd module that compresses the build's snapshot: Python 3.14's
    ``compression.zstd``, else the ``backports.zstd`` package (the project's ``site`` extra,
    which ``make site`` installs); None without either (the snapshot is then gzipped)."""
    for name in ("compression.zstd", "backports.zstd"):
        with contextlib.suppress(ImportError):
            return importlib.import_module(name)
    return None


def pack_snapshot(data: bytes) -> tuple[bytes, str]:
    """The build's snapshot compressed for the site and its file extension (snapshot_ext)."""
    packed = zstd_pack(data)
    if packed is None:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
    return packed, snapshot_ext(packed)


def zstd_pack(data: bytes) -> bytes | None:
    """``data`` as one zstd frame, at the level and window fzstd decodes well
    (SNAPSHOT_ZSTD_LEVEL, SNAPSHOT_ZSTD_WINDOW_LOG); None without a zstd module."""
    zstd = snapshot_compressor()
    if zstd is None:
        return None
    options = {
        zstd.CompressionParameter.compression_level: SNAPSHOT_ZSTD_LEVEL,
        zstd.CompressionParameter.window_log: SNAPSHOT_ZSTD_WINDOW_LOG,
    }
    return zstd.compress(data, options=options)  # type: ignore[no-any-return]


def pack_wasm(out: Path) -> str | None:
    """Writes PACKED_WASM's zstd copy of the site's wasm (cached in PACKED_WASM_CACHE); its site
    path, or None without a zstd module."""
    if snapshot_compressor() is None:
        return None
    plain, packed_rel = PACKED_WASM
    data = (out / plain).read_bytes()
    key = hashlib.sha256(data)
    key.update(json.dumps([SNAPSHOT_ZSTD_LEVEL, SNAPSHOT_ZSTD_WINDOW_LOG]).encode())
    cached = PACKED_WASM_CACHE / f"{key.hexdigest()[:32]}.zst"
    if cached.is_file():
        _copy(cached, out / packed_rel)
        return packed_rel
    packed = zstd_pack(data)
    assert packed is not None  # a compressor, above
    (out / packed_rel).write_bytes(packed)
    with contextlib.suppress(OSError):  # a cache that cannot be written is no error
        _write_atomic(cached, packed)
    return packed_rel


def _write_atomic(path: Path, data: bytes) -> None:
    """Writes a file under a temporary name, then renames it: parallel builds share the caches,
    and none may read a file half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    part.write_bytes(data)
    part.replace(path)


def stamp_packed_wasm(text: str, packed: str | None) -> str:
    """web/pyodide-boot.mjs with the site URL of the packed wasm (None: the site has none)."""
    if packed is None:
        return text
    if text.count(BOOT_PACKED_WASM_LINE) != 1:
        raise BuildError(
            f"{MAIN_INTERPRETER_URL} must hold the line {BOOT_PACKED_WASM_LINE!r} once"
        )
    return text.replace(BOOT_PACKED_WASM_LINE, f"const PACKED_WASM = {json.dumps(f'./{packed}')};")


def snapshot_ext(packed: bytes) -> str:
    """The file extension of a packed snapshot, told by its first bytes, as the page tells
    them: zst or gz."""
    return "zst" if packed[:4] == ZSTD_MAGIC else "gz"


def unpack_snapshot(packed: bytes) -> bytes:
    """The bytes pack_snapshot() packed (zstd or gzip), as the page unpacks them."""
    if snapshot_ext(packed) == "zst":
        zstd = snapshot_compressor()
        if zstd is None:
            raise BuildError("a zstd snapshot, and no zstd module to unpack it")
        return bytes(zstd.decompress(packed))
    return gzip.decompress(packed)


def make_boot_snapshot(
    pyodide_dir: Path, out: Path, data_image: bytes, modules: Iterable[str] = ()
) -> str | None:
    """Write the build's memory snapshot into the site ``out``; its path in the site, or None
    (with a warning) when Node cannot make one: the page then starts CPython on a first visit.
    Made with the site's trimmed standard library (Python's zip importer keeps the zip's table of
    contents in memory: a snapshot only fits the zip it was made with) and, when the site has a
    page archive (PAGE_ARCHIVE), with ``modules`` of it imported (snapshot_modules); kept in
    BOOT_SNAPSHOT_CACHE, keyed by all of these, the Pyodide files and the scripts. Encoded with
    ``data_image``, the wasm's data segments (snapshot_codec.data_image)."""
    modules = sorted(modules)
    archive = out / PAGE_ARCHIVE
    if not archive.is_file():
        modules = []
    key = hashlib.sha256(json.dumps(modules).encode())
    for path in (
        pyodide_dir / "pyodide.asm.wasm",
        pyodide_dir / "pyodide.asm.mjs",
        out / STDLIB_URL,
        BOOT_SNAPSHOT_SCRIPT,
        Path(snapshot_codec.__file__),
        *([archive] if modules else []),
    ):
        key.update(hashlib.sha256(path.read_bytes()).digest())
    # how it is packed (pack_snapshot): the file's own first bytes tell it apart again below
    zstd = snapshot_compressor() is not None
    key.update(json.dumps([zstd, SNAPSHOT_ZSTD_LEVEL, SNAPSHOT_ZSTD_WINDOW_LOG]).encode())
    cached = BOOT_SNAPSHOT_CACHE / f"{key.hexdigest()[:32]}.bin"
    if not cached.is_file():
        part = cached.with_name(f"{cached.name}.tmp-{os.getpid()}")
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="solitaire-snapshot-") as files:
                args = [str(BOOT_SNAPSHOT_SCRIPT), str(part), str(out / STDLIB_URL)]
                if modules:
                    with tarfile.open(archive, "r:gz") as tar:
                        tar.extractall(files, filter="data")
                    args += [files, ",".join(modules)]
                stdlib_trim.run_node(NODE, args, NODE_TIMEOUT)
            if not part.is_file():
                raise ValueError(f"{BOOT_SNAPSHOT_SCRIPT.name} wrote no snapshot")
        except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
            print(f"build_site: warning: no boot snapshot: {exc}", file=sys.stderr)
            part.unlink(missing_ok=True)
            return None
        encoded = snapshot_codec.encode(part.read_bytes(), data_image)
        part.write_bytes(pack_snapshot(encoded)[0])
        part.replace(cached)
    data = cached.read_bytes()
    rel = BOOT_SNAPSHOT_FILE.format(
        version=_npm_version(pyodide_dir),
        digest=hashlib.sha256(data).hexdigest()[:12],
        ext=snapshot_ext(data),
    )
    target = out / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return rel


def hint_eager_compile(out: Path, files: Iterable[str] = EAGER_COMPILE_FILES) -> None:
    """Put EAGER_COMPILE_HINT first in each of ``files`` of the site ``out``; a file missing
    (renamed by a new package version) fails the build rather than losing the hint unseen."""
    for rel in files:
        path = out / rel
        if not path.is_file():
            raise BuildError(f"EAGER_COMPILE_FILES: {rel} is not a file of the site")
        text = path.read_text(encoding="utf-8")
        if not text.startswith(EAGER_COMPILE_HINT):
            path.write_text(EAGER_COMPILE_HINT + text, encoding="utf-8")


def stamp_release(page: str, release: str) -> str:
    """index.html with its release label (RELEASE_MARK, at most once; "dev" when empty)."""
    label = release or "dev"
    if not re.fullmatch(r"[\w.+-]{1,64}", label):
        raise BuildError(f"release label {label!r}: use 1-64 letters, digits, '.', '+', '-', '_'")
    if page.count(RELEASE_MARK) > 1:
        raise BuildError(f"index.html holds {RELEASE_MARK} more than once")
    return page.replace(RELEASE_MARK, label)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def site_version(out: Path, paths: Iterable[str]) -> str:
    """A hash of every file's path and content: the cache version of the service worker."""
    h = hashlib.sha256()
    for rel in sorted(paths):
        h.update(f"{rel}\0{_digest(out / rel)}\n".encode())
    return h.hexdigest()[:16]


def file_integrity(out: Path, precache: Iterable[str]) -> dict[str, tuple[int, str]]:
    """``{url: (size, SHA-256 hex)}`` of each precached URL (``./`` is ``index.html``)."""
    table: dict[str, tuple[int, str]] = {}
    for url in precache:
        data = (out / (url.removeprefix("./") or "index.html")).read_bytes()
        table[url] = (len(data), hashlib.sha256(data).hexdigest())
    return table


def stamp_service_worker(
    template: str,
    version: str,
    precache: list[str],
    integrity: dict[str, tuple[int, str]],
    packed: dict[str, str] | None = None,
) -> str:
    """web/sw.js with the site's version, its files, their sizes and digests, and ``packed``
    ({"./file": "./file.zst"}: files the worker fetches as zstd and unpacks)."""
    marks = (SW_VERSION_MARK, SW_PRECACHE_MARK, SW_INTEGRITY_MARK, SW_PACKED_MARK)
    if any(template.count(mark) != 1 for mark in marks):
        raise BuildError(f"web/sw.js must contain each of {', '.join(marks)} once")
    if not set(integrity) <= set(precache):
        raise BuildError("the integrity table lists files that are not precached")
    packed = packed or {}
    if not {*packed, *packed.values()} <= set(integrity):
        raise BuildError("a packed file or its zstd copy is not precached with its digest")
    listing = "\n" + "".join(f"  {json.dumps(url)},\n" for url in precache)
    table = "\n" + "".join(
        f"  {json.dumps(url)}: [{size}, {json.dumps(digest)}],\n"
        for url, (size, digest) in integrity.items()
    )
    pairs = "".join(f"\n  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in packed.items())
    return (
        template.replace(SW_VERSION_MARK, version)
        .replace(SW_PRECACHE_MARK, listing)
        .replace(SW_INTEGRITY_MARK, table)
        .replace(SW_PACKED_MARK, pairs)
    )


# ----------------------------------------------------------------------------- bytecode

#: Run by Node: starts the pinned Pyodide, writes the sources into its file system at the paths
#: the page uses, compiles them and copies the .pyc files out. argv: pyodide dir, jobs.json
#: ({FS path: host source file}), output dir; prints a JSON summary.
#: Each module is compiled from its AST with every docstring replaced by "." (docstrings are
#: ~12 % of the bytecode and nothing reads them; "." keeps ``__doc__`` truthy (" " is stripped):
#: ``dataclasses`` calls ``inspect.signature`` to make one for a class without), every node keeps
#: its position, so line numbers stay those of the source. The pyc is an unchecked-hash one (the
#: importer does not even hash the source) holding the hash of the original source bytes, as
#: py_compile would write it. Compiled without the column of each instruction
#: (PYTHONNODEBUGRANGES, as the build's snapshot: tools/make_boot_snapshot.mjs): only
#: tracebacks' ^^^ markers read them, and the bytecode is ~20 % smaller without.
COMPILE_PYC_SCRIPT = ROOT / "tools" / "sitebuild" / "compile_pyc.mjs"


@dataclass
class Bytecode:
    """The result of :func:`precompile`: ``{source file: pyc bytes}`` and what happened."""

    pycs: dict[Path, bytes] = field(default_factory=dict)
    cache_tag: str = ""
    note: str = "sources only"


def _pyc_key(rel: str, source: bytes) -> str:
    return hashlib.sha256(rel.encode() + b"\0" + source).hexdigest()


def _pyodide_id(pyodide_dir: Path) -> str:
    """The cache folder name: the vendored Pyodide (npm version, its Python) and PYC_FLAVOUR."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    python = lock.get("info", {}).get("python", "unknown")
    return re.sub(r"[^\w.-]", "_", f"{_npm_version(pyodide_dir)}-py{python}-{PYC_FLAVOUR}")


def _run_node_compiler(
    pyodide_dir: Path, jobs: dict[str, Path]
) -> tuple[dict[str, object], dict[str, bytes]]:
    """Compile ``jobs`` ({FS path: source file}) with the vendored Pyodide under Node."""
    with tempfile.TemporaryDirectory(prefix="solitaire-pyc-") as tmp:
        work = Path(tmp)
        (work / "jobs.json").write_text(
            json.dumps({k: str(v) for k, v in jobs.items()}), encoding="utf-8"
        )
        (work / "out").mkdir()
        try:
            stdout = stdlib_trim.run_node(
                NODE,
                [
                    str(COMPILE_PYC_SCRIPT),
                    str(pyodide_dir),
                    str(work / "jobs.json"),
                    str(work / "out"),
                ],
                NODE_TIMEOUT,
            )
        except ValueError as exc:
            raise BuildError(str(exc)) from exc
        meta = json.loads(stdout.strip().splitlines()[-1])
        names: dict[str, str] = meta.pop("files")
        pycs = {path: (work / "out" / name).read_bytes() for path, name in names.items()}
    return meta, pycs


def _hash_matches(pyc: bytes, source: bytes) -> bool:
    """Whether a hash-based pyc holds the hash of ``source`` (CPython's keyed SipHash-1-3,
    which this Python computes like Pyodide's; not checked on a Python built otherwise)."""
    source_hash = getattr(_imp, "source_hash", None)
    if source_hash is None or sys.hash_info.algorithm != "siphash13":
        return True
    return bool(source_hash(int.from_bytes(pyc[:4], "little"), source) == pyc[8:16])


def _save_pycs(cache: Path, runtime: dict[str, object], pycs: dict[str, bytes]) -> None:
    """Keep compiled files for the next build (atomically: builds may run in parallel). A cache
    that cannot be written is no error."""
    files = {f"{key}.pyc": data for key, data in pycs.items()}
    files["runtime.json"] = json.dumps(runtime).encode()
    try:
        for name, data in files.items():
            _write_atomic(cache / name, data)
    except OSError:
        pass


def precompile(root: Path, sources: Iterable[Path]) -> Bytecode:
    """Bytecode of ``sources`` (files under ``root/PACKAGE_DIR``) for the vendored Pyodide, from
    PYC_CACHE or compiled by Pyodide under Node; sources only (``Bytecode.note`` says why) when
    that cannot be done. Never a pyc of other source bytes: the cache key holds them."""
    py_dir = root / PACKAGE_DIR
    pyodide_dir = (root / "node_modules" / "pyodide").resolve()
    cache = PYC_CACHE / _pyodide_id(pyodide_dir)
    wanted: dict[Path, str] = {}  # source file -> cache key
    for path in sources:
        rel = _rel(path, py_dir)
        wanted[path] = _pyc_key(f"{PACKAGE}/{rel}", path.read_bytes())
    runtime: dict[str, object] | None = None
    with contextlib.suppress(OSError, ValueError):
        runtime = json.loads((cache / "runtime.json").read_text(encoding="utf-8"))
    missing = [p for p in wanted if runtime is None or not (cache / f"{wanted[p]}.pyc").is_file()]
    fresh: dict[str, bytes] = {}  # cache key -> pyc
    if missing or runtime is None:
        jobs = {f"{PYODIDE_HOME}/{PACKAGE}/{_rel(p, py_dir)}": p for p in missing}
        try:
            if shutil.which(NODE) is None:
                raise BuildError(f"{NODE!r} not found")
            runtime, compiled = _run_node_compiler(pyodide_dir, jobs)
        except (BuildError, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as exc:
            return Bytecode(note=f"sources only: could not run Pyodide under Node ({exc})")
        fresh = {wanted[path]: compiled[fs_path] for fs_path, path in jobs.items()}
        _save_pycs(cache, runtime, fresh)
    magic = bytes.fromhex(str(runtime["magic"]))
    if runtime.get("optimize"):
        return Bytecode(note="sources only: Pyodide runs with -O (unexpected)")
    pycs: dict[Path, bytes] = {}
    for path, key in wanted.items():
        data = fresh[key] if key in fresh else (cache / f"{key}.pyc").read_bytes()
        # Magic number of this Pyodide's Python; flags 0b01: hash-based, unchecked.
        if data[:4] != magic or int.from_bytes(data[4:8], "little") != 1:
            return Bytecode(note=f"sources only: unexpected pyc header for {path.name}")
        if not _hash_matches(data, path.read_bytes()):
            return Bytecode(note=f"sources only: the pyc of {path.name} is not of its source")
        pycs[path] = data
    how = f"compiled {len(missing)}, cached {len(wanted) - len(missing)}"
    return Bytecode(pycs=pycs, cache_tag=str(runtime["cache_tag"]), note=f"bytecode ({how})")


def pyc_url(url: str, cache_tag: str) -> str:
    """``./a/b.py`` -> ``./a/__pycache__/b.<cache_tag>.pyc`` (also for FS paths)."""
    folder, _, name = url.rpartition("/")
    return f"{folder}/__pycache__/{name.removesuffix('.py')}.{cache_tag}.pyc"


def with_bytecode(files: dict[str, str], shipped: set[str], cache_tag: str) -> dict[str, str]:
    """A files map plus, after each source in ``shipped`` (URLs), its pyc."""
    out: dict[str, str] = {}
    for url, path in files.items():
        out[url] = path
        if url in shipped:
            out[pyc_url(url, cache_tag)] = pyc_url(path, cache_tag)
    return out


def sourceless(files: dict[str, str], shipped: set[str], cache_tag: str) -> dict[str, str]:
    """A files map in which each source in ``shipped`` (URLs) is replaced by its pyc, written
    where the source would be (``solitaire/x.pyc``): Python imports such a sourceless pyc
    directly, so the page fetches the bytecode alone (the sources are about a third of the
    page's own bytes). Tracebacks then name the file and line without quoting it."""
    out: dict[str, str] = {}
    for url, path in files.items():
        if url in shipped:
            out[pyc_url(url, cache_tag)] = path.removesuffix(".py") + ".pyc"
        else:
            out[url] = path
    return out


def tar_gz(members: Iterable[tuple[str, bytes]]) -> bytes:
    """A gzipped ustar archive of ``members`` ((name, bytes), regular files, in that order), the
    same bytes for the same members: no times, owners or modes of the build machine, no pax
    headers (web/pyodide-boot.mjs reads plain ustar)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), compresslevel=9, mtime=0)


def pack_bytecode(
    out: Path, files: dict[str, str], extra: dict[str, str] | None = None
) -> dict[str, str]:
    """Write the pycs of the files map ``files`` (URLs in ``out``) into ``out/PAGE_ARCHIVE``,
    each named by its path in the interpreter (``solitaire/x.pyc``), then the files ``extra``
    ({path: text}, PyScript's package: pyscript_package_files), and return the map with them
    replaced by ``{archive URL: "./"}`` (unpacked into the working directory); the map as it
    is when it holds no pyc."""
    pycs = {url: path for url, path in files.items() if url.endswith(".pyc")}
    if not pycs:
        return dict(files)
    members = [(path.removeprefix("./"), (out / url).read_bytes()) for url, path in pycs.items()]
    members += [(path, text.encode("utf-8")) for path, text in (extra or {}).items()]
    (out / PAGE_ARCHIVE).write_bytes(tar_gz(members))
    rest = {url: path for url, path in files.items() if url not in pycs}
    return {f"./{PAGE_ARCHIVE}": "./", **rest}


# ----------------------------------------------------------------------------- build


def build(
    out: Path | None = None,
    root: Path = ROOT,
    *,
    require_index: bool = True,
    bytecode: bool = True,
    release: str = "",
    boot_snapshot: bool = True,
) -> Site:
    """Build the site into ``out`` (default ``root/_site``) from the sources in ``root``,
    replacing what was there.

    ``require_index``: fail when ``root/index.html`` is missing (else the site has no page).
    ``bytecode``: ship our modules precompiled for the vendored Pyodide
    (``__pycache__/X.<tag>.pyc``, unchecked-hash pycs, next to the sources in both file maps),
    so that the page's interpreter imports them without compiling the sources on every boot
    (docs/build.md, "Bytecode"); sources only when false (``--no-bytecode``) or when Node cannot
    run the pinned Pyodide. The game table is this checkout's ``solitaire.rules.GAMES``.
    ``release``: the label written into index.html's ``<meta name="release">`` ("dev" when
    empty); a different label is a different site, hence a new service worker.
    ``boot_snapshot``: ship a memory snapshot of the started interpreter, made here by Node
    (``make_boot_snapshot``), for the page's first visit (``--no-boot-snapshot``: none).

    The site is assembled in a sibling folder and swapped in at the end, so that a server or a
    test run using ``out`` never sees a half-built site.
    """
    out = (out or root / "_site").resolve()
    index = root / "index.html"
    if require_index and not index.is_file():
        raise BuildError("index.html is missing")
    page = None
    if index.is_file():
        tables = first_tables(root / "web" / "winnable", release)
        text = render_page(index.read_text(encoding="utf-8"), GAMES.values(), tables=tables)
        page = stamp_release(text, release)
    _check_pins(root)
    if not (root / "web" / "sw.js").is_file():
        raise BuildError("web/sw.js is missing")
    tmp = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    old = out.with_name(f"{out.name}.old-{os.getpid()}")
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        site = _assemble(tmp, root, page, bytecode, boot_snapshot)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    site.out = out
    return site


def _assemble(
    out: Path, root: Path, page: str | None, bytecode_wanted: bool, snapshot_wanted: bool = True
) -> Site:
    """The site in ``out`` (a new folder); ``page``: index.html as rendered (None: no page)."""
    out.mkdir(parents=True)

    runtime: list[str] = []
    pyodide = root / "node_modules" / "pyodide"
    data_image = snapshot_codec.data_image((pyodide / "pyodide.asm.wasm").read_bytes())
    for name in PYODIDE_FILES:
        vendored = out / "vendor" / "pyodide" / name
        vendored.parent.mkdir(parents=True, exist_ok=True)
        vendored.write_bytes(patch_pyodide(name, (pyodide / name).read_bytes(), len(data_image)))
        if name != FULL_STDLIB:
            runtime.append(f"vendor/pyodide/{name}")
    dist = root / "node_modules" / "@pyscript" / "core" / "dist"
    pyscript = pyscript_runtime_files(dist, shipped_plugins(PYSCRIPT_PLUGINS_OFF))
    if PYSCRIPT_CORE_PATCH[0] not in pyscript:
        raise BuildError(
            f"PyScript's core chunk is no longer {PYSCRIPT_CORE_PATCH[0]}: "
            "check what it does with the error plugin and update PYSCRIPT_CORE_PATCH"
        )
    for name in pyscript:
        shipped_file = out / "vendor" / "pyscript" / name
        shipped_file.parent.mkdir(parents=True, exist_ok=True)
        shipped_file.write_bytes(patch_pyscript_core(name, (dist / name).read_bytes()))
        runtime.append(f"vendor/pyscript/{name}")
    _copy(root / FZSTD_SOURCE, out / FZSTD_FILE)
    _copy(root / FZSTD_CLASSIC_SOURCE, out / FZSTD_CLASSIC_FILE)
    runtime += [FZSTD_FILE, FZSTD_CLASSIC_FILE]
    packed_wasm = pack_wasm(out)
    if packed_wasm is not None:
        runtime.append(packed_wasm)
    core_chunk = (out / "vendor" / "pyscript" / PYSCRIPT_CORE_PATCH[0]).read_text("utf-8")
    stdlib_note = trim_stdlib(out, root, core_chunk)
    runtime.append(STDLIB_URL)
    for loader in ("pyodide-boot.mjs", "solver-worker.mjs", "pyodide-snapshot-worker.mjs"):
        text = (root / "web" / loader).read_text("utf-8")
        named = stdlib_trim.TRIMMED_NAME in text or "pyodide-boot.mjs" in text
        if "stdLibURL" not in text or not named:
            raise BuildError(f"web/{loader} must load {STDLIB_URL} (its stdLibURL)")

    own: list[str] = []
    if page is not None:
        (out / "index.html").write_text(page, encoding="utf-8")
        own.append("index.html")
    for path in _walk(root / "web"):
        rel = _rel(path, root / "web")
        if rel == "sw.js":
            continue  # stamped below, served from the root so that its scope is the whole site
        dest = rel if rel.startswith(WEB_AT_ROOT) else f"web/{rel}"
        _copy(path, out / dest)
        own.append(dest)
    files = python_files(root / PACKAGE_DIR)
    for url in files:
        rel = url.removeprefix("./")
        _copy(root / rel, out / rel)
        own.append(rel)
    if not (root / PACKAGE_DIR / MAIN_MODULE).is_file():
        raise BuildError(f"{PACKAGE_DIR}/{MAIN_MODULE} is missing")
    page_files = main_python_files(root / PACKAGE_DIR, files)
    sources = [root / url.removeprefix("./") for url in files]
    bytecode = (
        precompile(root, sources)
        if bytecode_wanted
        else Bytecode(note="sources only (bytecode=False)")
    )
    shipped: set[str] = set()
    for src, data in bytecode.pycs.items():
        url = pyc_url(f"./{_rel(src, root)}", bytecode.cache_tag)
        (out / url).parent.mkdir(parents=True, exist_ok=True)
        (out / url).write_bytes(data)
        own.append(url.removeprefix("./"))
        shipped.add(f"./{_rel(src, root)}")
    page_files = sourceless(page_files, shipped, bytecode.cache_tag)
    package = pyscript_package_files(core_chunk) if PYSCRIPT_LAZY_PACKAGE else {}
    if shipped:
        page_files = pack_bytecode(out, page_files, package)
        own.append(PAGE_ARCHIVE)
    else:
        for name, text in package.items():
            (out / "py" / name).parent.mkdir(parents=True, exist_ok=True)
            (out / "py" / name).write_text(text, encoding="utf-8")
            own.append(f"py/{name}")
            page_files[f"./py/{name}"] = f"./{name}"
    # made with the trimmed zip and the page archive, which must exist by now (the snapshot
    # fits only them)
    snapshot = (
        make_boot_snapshot(pyodide, out, data_image, snapshot_modules(root / PACKAGE_DIR))
        if snapshot_wanted
        else None
    )
    if snapshot is not None:
        runtime.append(snapshot)
    boot_module = out / "web" / "pyodide-boot.mjs"
    if boot_module.is_file():
        lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
        text = stamp_boot_module(boot_module.read_text(encoding="utf-8"), lock)
        size = len(unpack_snapshot((out / snapshot).read_bytes())) if snapshot else None
        text = stamp_boot_snapshot(text, f"./{snapshot}" if snapshot else None, size)
        text = stamp_packed_wasm(text, packed_wasm)
        boot_module.write_text(text, encoding="utf-8")
    if stdlib_note:
        print(f"build_site: warning: {stdlib_note}", file=sys.stderr)
    if bytecode.note.startswith("sources only:"):
        print(f"build_site: warning: {bytecode.note}", file=sys.stderr)
    configs = {
        "pyscript.json": pyscript_config(None, MAIN_INTERPRETER_URL, PYSCRIPT_PLUGINS_OFF),
        "pyscript-worker.json": pyscript_config(with_bytecode(files, shipped, bytecode.cache_tag)),
        BOOT_FILES: page_files,
    }
    for name, config in configs.items():
        (out / name).write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
        own.append(name)
    for url in (MAIN_INTERPRETER_URL, INTERPRETER_URL):
        if not (out / url).is_file():
            raise BuildError(f"interpreter {url} is not a file of the site")
    if page is not None:
        check_page(out, "index.html")
        check_plugins_off(page, "index.html", PYSCRIPT_PLUGINS_OFF)
    hint_eager_compile(out)
    # GitHub Pages: serve files as they are (no Jekyll processing).
    (out / ".nojekyll").write_text("", encoding="utf-8")

    version = site_version(out, runtime + own)
    precache = ["./", *(f"./{p}" for p in sorted(runtime + own))]
    template = (root / "web" / "sw.js").read_text(encoding="utf-8")
    # without a page, "./" is no file: the worker then only caches it unchecked
    integrity = file_integrity(out, [u for u in precache if u != "./" or page is not None])
    packed = {f"./{PACKED_WASM[0]}": f"./{packed_wasm}"} if packed_wasm else {}
    worker = stamp_service_worker(template, version, precache, integrity, packed)
    (out / "sw.js").write_text(worker, "utf-8")
    own.append("sw.js")
    return Site(
        out=out,
        version=version,
        runtime=sorted(runtime),
        own=sorted(own),
        python_files=files,
        bytecode=bytecode.note,
    )


def stdlib_imports(py_dir: Path, core_chunk: str) -> dict[str, str]:
    """``{module: importer}``: every module imported by the page's and the solver worker's
    modules (their import closures) and by PyScript's ``pyscript`` package (from its core
    chunk), also inside functions."""
    found: dict[str, str] = {}
    ours = {*import_closure(py_dir, MAIN_MODULE), *import_closure(py_dir, SOLVER_MODULE)}
    for path in sorted(ours):
        rel = path.relative_to(py_dir.parent).with_suffix("")
        package = rel.name == "__init__"
        name = ".".join(rel.parent.parts if package else rel.parts)
        for module in stdlib_trim.source_imports(path.read_text("utf-8"), name, package):
            found.setdefault(module, _rel(path, py_dir.parent))
    for file, source in stdlib_trim.pyscript_package(core_chunk).items():
        package = file.endswith("/__init__.py")
        name = file.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for module in stdlib_trim.source_imports(source, name, package):
            found.setdefault(module, f"{stdlib_trim.PYSCRIPT_IMPORTER}{file}")
    return found


def trim_stdlib(out: Path, root: Path, core_chunk: str) -> str:
    """Write the trimmed standard library to ``out/STDLIB_URL`` (tools/stdlib_trim.py); a
    warning when it cannot be made (Node cannot run the pinned Pyodide: the full zip is
    shipped under that name). Raises BuildError when a module that is needed is missing."""
    pyodide_dir = (root / "node_modules" / "pyodide").resolve()
    try:
        scan = stdlib_trim.scan(
            pyodide_dir, PYC_CACHE / _pyodide_id(pyodide_dir), NODE, NODE_TIMEOUT
        )
    except (OSError, ValueError, KeyError, subprocess.SubprocessError) as exc:
        _copy(pyodide_dir / FULL_STDLIB, out / STDLIB_URL)
        return f"full standard library: could not run Pyodide under Node ({exc})"
    try:
        needed_by_us = stdlib_imports(root / PACKAGE_DIR, core_chunk)
        kept, needed = stdlib_trim.trimmed_modules(scan, needed_by_us)
        stdlib_trim.check(scan.modules, kept, needed, scan.builtin)
    except stdlib_trim.TrimError as exc:
        raise BuildError(str(exc)) from exc
    (out / STDLIB_URL).write_bytes(
        stdlib_trim.write_zip(scan.stripped_zip, scan.modules, kept, scan.frozen)
    )
    return ""


def _sizes(out: Path, paths: list[str]) -> tuple[int, int]:
    raw = gz = 0
    for rel in paths:
        data = (out / rel).read_bytes()
        raw += len(data)
        gz += len(zlib.compress(data, 6))
    return raw, gz


def summary(site: Site) -> str:
    def mb(n: int) -> str:
        return f"{n / 1e6:7.2f} MB"

    lines = [f"built {site.out}  (cache version {site.version}; {site.bytecode})"]
    total_raw = total_gz = 0
    for label, paths in (("runtime (vendor/)", site.runtime), ("own files", site.own)):
        raw, gz = _sizes(site.out, paths)
        total_raw += raw
        total_gz += gz
        lines.append(f"  {label:18} {len(paths):4} files {mb(raw)} raw {mb(gz)} gzip")
    n = len(site.files)
    lines.append(f"  {'total':18} {n:4} files {mb(total_raw)} raw {mb(total_gz)} gzip")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=None, help="output folder (default _site/)")
    parser.add_argument("--quiet", action="store_true", help="print nothing on success")
    parser.add_argument("--list", action="store_true", help="also list every file built")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="ship the Python sources only (no .pyc)"
    )
    parser.add_argument(
        "--no-boot-snapshot",
        action="store_true",
        help="ship no memory snapshot for the first visit",
    )
    parser.add_argument(
        "--release",
        default=os.environ.get("SOLITAIRE_RELEASE", ""),
        help='label in index.html\'s <meta name="release"> (default $SOLITAIRE_RELEASE or "dev")',
    )
    args = parser.parse_args(argv)
    try:
        site = build(
            args.out,
            bytecode=not args.no_bytecode,
            release=args.release,
            boot_snapshot=not args.no_boot_snapshot,
        )
    except BuildError as exc:
        print(f"build_site: error: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(summary(site))
        if args.list:
            for rel in site.files:
                print(f"    {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
