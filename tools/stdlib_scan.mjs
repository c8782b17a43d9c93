/* Run by tools/stdlib_trim.py under Node: starts the pinned Pyodide, reads every module of its
   stdlib zip (/lib/python314.zip) and writes, to argv[3], a JSON table {module: [path, is
   package, [[import, lazy], ...]]} and to argv[4] a zip of the sources with their comments and
   their docstrings' text removed (line numbers kept; Pyodide's own packages as they are). Also
   prints sys.builtin_module_names. argv[2]: KNOWN_FALSE as JSON. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [indexDir, knownFalse, tableOut, zipOut] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(indexDir, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: indexDir + "/", stdout: () => {}, stderr: (line) => console.error(line),
});
py.globals.set("KNOWN_FALSE", knownFalse);
py.globals.set("KEEP", JSON.stringify(["_pyodide/", "pyodide/"]));
const result = py.runPython(`
import ast, io, json, sys, tokenize, zipfile
KNOWN_FALSE = set(json.loads(KNOWN_FALSE))
KEEP = tuple(json.loads(KEEP))

def imports(tree, name, is_package):
    package = name if is_package else name.rpartition(".")[0]
    found = []
    def visit(body, lazy):
        for node in body:
            if isinstance(node, ast.If) and ast.unparse(node.test) in KNOWN_FALSE:
                visit(node.orelse, lazy)
                continue
            if isinstance(node, ast.Import):
                found.extend([a.name, lazy] for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = parts[: len(parts) - (node.level - 1)]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module
                found.append([module, lazy])
                found.extend([f"{module}.{a.name}", lazy] for a in node.names if a.name != "*")
            inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                sub = getattr(node, field, None)
                if isinstance(sub, list):
                    visit(sub, inner)
    visit(tree.body, False)
    return found

def stripped(text, tree):
    lines = text.splitlines(keepends=True)
    def col(line, byte_col):
        return len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8"))
    cuts = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                v = first.value
                span = v.end_lineno - v.lineno
                text_now = '"' * 3 + "\\n" * span + '"' * 3 if span else '"."'
                cuts.append((v.lineno, col(v.lineno, v.col_offset),
                             v.end_lineno, col(v.end_lineno, v.end_col_offset), text_now))
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            cuts.append((*tok.start, *tok.end, ""))
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out = text
    for l0, c0, l1, c1, new in sorted(cuts, reverse=True):
        out = out[: starts[l0 - 1] + c0] + new + out[starts[l1 - 1] + c1 :]
    out = "\\n".join(line.rstrip() for line in out.split("\\n"))
    compile(out, "<stripped>", "exec", dont_inherit=True)
    return out.encode("utf-8")

table = {}
buffer = io.BytesIO()
with zipfile.ZipFile("/lib/python314.zip") as full, zipfile.ZipFile(buffer, "w") as small:
    for path in full.namelist():
        data = full.read(path)
        if path.endswith(".py"):
            parts = path[:-3].split("/")
            is_package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if is_package else parts)
            text = data.decode("utf-8")
            tree = ast.parse(text, path)
            table[name] = [path, is_package, imports(tree, name, is_package)]
            if not path.startswith(KEEP):
                data = stripped(text, tree)
        small.writestr(path, data)
import _imp
# importlib/__init__.py takes these two from the interpreter's frozen _frozen_importlib*
FROZEN_AS = {"importlib._bootstrap": "_frozen_importlib",
             "importlib._bootstrap_external": "_frozen_importlib_external"}
json.dumps({"modules": table, "builtin": sorted(sys.builtin_module_names),
            "frozen": sorted(name for name in table if _imp.is_frozen(FROZEN_AS.get(name, name))),
            "zip": buffer.getvalue().hex()})
`);
const { zip, ...table } = JSON.parse(result);
writeFileSync(tableOut, JSON.stringify(table));
writeFileSync(zipOut, Buffer.from(zip, "hex"));
