/* Where the start's files are: the site's root, the vendored Pyodide's folder and its wasm.

   Separate so that the entry (web/pyodide-boot.mjs) and the modules beside this one, which
   cannot import the entry (imports go one way), name the same URLs. Derived from this module's
   own URL: web/boot/ lies two levels below the site's root. Imports nothing. */

export const SITE_URL = new URL("../../", import.meta.url).href;
export const INDEX_URL = `${SITE_URL}vendor/pyodide/`;
export const WASM_URL = `${INDEX_URL}pyodide.asm.wasm`;
