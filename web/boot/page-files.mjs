/* The page's Python files: pyodide-files.json and the files it lists, fetched while Pyodide
   starts (fetchPageFiles), and written into the interpreter's file system once it is up
   (writeFiles). fetchOk() is the fetch they share with the workers.

   Separate from the entry (web/pyodide-boot.mjs) because the solver's worker writes its files
   the same way, and because it needs nothing of the build's stamped facts. Imports the
   unpacking (./unpack.mjs), the site's URLs (./urls.mjs) and DownloadFailed
   (./downloads.mjs), which the entry imports too. */

import { DownloadFailed } from "./downloads.mjs";
import { gunzip, untar } from "./unpack.mjs";
import { SITE_URL } from "./urls.mjs";

const FILES_URL = `${SITE_URL}pyodide-files.json`;

/* fetch() of a file that must be there: an HTTP error rejects, with the URL and the status. */
export async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  return response;
}

/* The page's Python files, listed by the build in pyodide-files.json ({URL: path}, URLs relative
   to the site root, paths to the interpreter's working directory, like PyScript's "files" map),
   fetched while Pyodide starts instead of after it (what PyScript's "files" would do). The
   modules come as their bytecode, compiled by the build for this Pyodide, in one gzipped tar
   archive ({"./py/page.tar.gz": "./"}: an archive URL maps to the folder it is unpacked into),
   unpacked here while Pyodide starts; each pyc lies where its source would (solitaire/x.pyc),
   and Python imports it without compiling (docs/build.md, "Bytecode"). The archive also holds
   PyScript's own package (./pyscript/), which PyScript's set-up writes only in workers
   (tools/build_site.py PYSCRIPT_SETUP_PATCH). A build without bytecode lists the files one by
   one. */
async function fetchPageFile(url, path) {
  const data = new Uint8Array(await (await fetchOk(new URL(url, SITE_URL))).arrayBuffer());
  if (!url.endsWith(".tar.gz")) return [[path, data]];
  const folder = path.endsWith("/") ? path : `${path}/`;
  try {
    return untar(await gunzip(data)).map(([name, bytes]) => [folder + name, bytes]);
  } catch (err) {
    throw new DownloadFailed(new URL(url, SITE_URL).href, `cannot unpack: ${err.message || err}`);
  }
}

export async function fetchPageFiles() {
  const map = await (await fetchOk(FILES_URL)).json();
  const parts = await Promise.all(
    Object.entries(map).map(([url, path]) => fetchPageFile(url, path)),
  );
  return parts.flat();
}

export function writeFiles(py, files) {
  const { FS } = py;
  const cwd = FS.cwd();
  for (const [path, data] of files) {
    const file = path.startsWith("/") ? path : `${cwd}/${path.replace(/^\.\//, "")}`;
    FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    FS.writeFile(file, data, { canOwn: true });
  }
}
