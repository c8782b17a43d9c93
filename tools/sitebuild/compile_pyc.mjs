/* Run by Node at build time (tools/build_site.py, precompile): compiles the page's Python
   modules with the pinned Pyodide. argv: pyodide dir, jobs.json ({FS path: host source
   file}), output dir; prints a JSON summary (runtime facts and {FS path: pyc file}). */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [indexDir, jobsFile, outDir] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(indexDir, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: indexDir + "/", stdout: () => {}, stderr: (line) => console.error(line),
  env: { PYTHONNODEBUGRANGES: "1" },
});
const jobs = JSON.parse(readFileSync(jobsFile, "utf-8"));
for (const [path, host] of Object.entries(jobs)) {
  py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  py.FS.writeFile(path, readFileSync(host));
}
py.globals.set("paths", JSON.stringify(Object.keys(jobs)));
const result = JSON.parse(py.runPython(`
import ast, importlib.util, json, os, sys
from importlib._bootstrap_external import _code_to_hash_pyc
def blank_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                first.value.value = "."
    return tree
compiled = {}
for p in json.loads(paths):
    with open(p, "rb") as f:
        source = f.read()
    code = compile(blank_docstrings(ast.parse(source, p)), p, "exec", dont_inherit=True)
    data = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
    cfile = importlib.util.cache_from_source(p)
    os.makedirs(os.path.dirname(cfile), exist_ok=True)
    with open(cfile, "wb") as f:
        f.write(data)
    compiled[p] = cfile
json.dumps({"version": sys.version, "cache_tag": sys.implementation.cache_tag,
            "optimize": sys.flags.optimize, "magic": importlib.util.MAGIC_NUMBER.hex(),
            "compiled": compiled})
`));
const files = {};
let i = 0;
for (const [path, cfile] of Object.entries(result.compiled)) {
  const name = `${i++}.pyc`;
  writeFileSync(join(outDir, name), py.FS.readFile(cfile));
  files[path] = name;
}
delete result.compiled;
console.log(JSON.stringify({ ...result, files }));
