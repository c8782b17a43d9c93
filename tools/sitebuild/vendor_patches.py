"""The build's changes to pinned vendor files, as data: each a name (the constant's), the exact
text of the pinned file it replaces and its replacement; each old text must occur exactly once
in its file (else the build fails, naming the patch: sitebuild.vendor applies them).

In: nothing (the texts are written for the versions pinned in package.json). Out: the
constants, read by sitebuild.vendor (PyScript's two through sitebuild.config, which a benchmark
may override), tests/test_vendor_patches.py and tests/test_build_site.py. docs/build.md, "Two
checked changes to PyScript's core chunk" and "Checked changes to Pyodide's module", says why
each one is made.
"""

from __future__ import annotations

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
#: the same length. Applied while config.PYSCRIPT_LAZY_PACKAGE is true.
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
