/* The loading screen: progress, and a clear message when the game cannot start.
 *
 * Loaded by index.html's <head> as a plain (blocking, tiny) script, before any module, so that
 * whatever fails later finds the reporter in place; it touches the loading screen's elements
 * only once they exist. It must run before Python can, to explain a browser that cannot run
 * Python at all. (A file, not an inline script: the Content-Security-Policy allows no inline
 * script, docs/build.md.)
 *
 * Progress: the text names the step the start is really in, from what the page passes (never a
 * timer): web/pyodide-boot.mjs's "pyodide-boot" events (its performance marks), Pyodide's wasm
 * compiled (WebAssembly.instantiateStreaming, wrapped here) and PyScript's "py:progress"
 * events. Steps only move forward; #boot-msg's data-step names the current one (tests). The
 * moving bar is CSS alone (web/style.css): it needs no script, so a busy main thread cannot
 * stop it. On a first visit the bar also fills with the bytes of the big downloads as they
 * arrive (web/boot/downloads.mjs's "solitaire:boot-bytes" events), said under it as
 * "2.1 of 5.4 MB" (#boot-bytes) and as the progress bar's value for a screen reader.
 *
 * Reporters (each shows the message at once and sets <html data-app="failed">):
 * - window.solitaireBootFail(title, text): Python's main() when the app cannot start;
 * - the event "solitaire:boot-failed" (detail {file, reason}): web/pyodide-boot.mjs, when a
 *   runtime file cannot be downloaded or compiled;
 * - a <script> or <link> of the page that fails to load (an "error" event, seen in capture);
 * - 90 s without a ready page (a last resort: a download that never ends).
 *
 * "Try again" asks the service worker (when one controls the page) to check every cached file
 * and fetch again those that are damaged, then reloads.
 */
(function () {
  "use strict";
  var root = document.documentElement;
  /* The steps of a start, in order: [data-step, text]. "download": the first visit (or the
   * first after an update of the runtime); "start": Python starts from the service worker's
   * cache; "restore": from a memory snapshot of an earlier visit (web/pyodide-boot.mjs). */
  var STEPS = [
    ["page", "Loading…"],
    ["download", "Getting the cards ready — next time it opens at once"],
    ["start", "Starting the game…"],
    ["restore", "Opening the game…"],
    ["game", "Loading the game…"],
    ["deal", "Dealing the cards…"]
  ];
  /* web/pyodide-boot.mjs's localStorage key, set once a memory snapshot has been saved. */
  var SNAPSHOT_KEY = "pyodide-snapshot";
  var TIMEOUT_MS = 90000;
  /* How long "Try again" waits for the service worker's check before reloading anyway. */
  var VERIFY_TIMEOUT_MS = 30000;

  function el(id) {
    return document.getElementById(id);
  }

  /* Run fn once the loading screen's elements exist. */
  function whenParsed(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  function fail(title, text) {
    if (root.dataset.app === "ready" || root.dataset.app === "failed") return;
    root.dataset.app = "failed";
    whenParsed(function () {
      el("boot-error-title").textContent = title;
      el("boot-error-text").textContent = text;
      el("boot-error").hidden = false;
      el("boot-bar").hidden = true;
      el("boot-bytes").hidden = true;
      el("boot-msg").hidden = true;
    });
  }
  window.solitaireBootFail = fail;

  function downloadFailed(file, reason) {
    fail(
      "The game could not start",
      "The file " + file + " could not be loaded (" + reason + "). Check the connection and " +
        "try again; once loaded, the game also works offline."
    );
  }

  /* The site-relative name of a URL of this page's site, e.g. "vendor/pyodide/pyodide.asm.wasm". */
  function siteFile(url) {
    var base = new URL("./", location.href).href;
    return url.indexOf(base) === 0 ? url.slice(base.length).split(/[?#]/)[0] : url;
  }

  addEventListener("solitaire:boot-failed", function (e) {
    downloadFailed(siteFile(e.detail.file), e.detail.reason);
  });

  // Loading errors of elements do not bubble: listen in the capture phase.
  addEventListener(
    "error",
    function (e) {
      var t = e.target;
      if (root.dataset.app !== "loading") return;
      if (t && (t.tagName === "SCRIPT" || (t.tagName === "LINK" && t.rel !== "icon"))) {
        downloadFailed(siteFile(t.src || t.href), "download failed");
      } else if (e.message && /pyodide|pyscript|wasm/i.test(e.message + " " + (e.filename || ""))) {
        fail("The game could not start", "Loading Python failed: " + e.message);
      }
    },
    true
  );

  /* Let the service worker check (and repair) its cache, then reload. */
  function tryAgain() {
    var button = el("boot-retry");
    button.disabled = true;
    button.textContent = "Checking the saved files…";
    var sw = navigator.serviceWorker;
    var reload = function () {
      location.reload();
    };
    if (!sw || !sw.controller || typeof MessageChannel !== "function") return reload();
    var channel = new MessageChannel();
    channel.port1.onmessage = function (e) {
      if (e.data && e.data.repaired && e.data.repaired.length) {
        console.info("service worker repaired:", e.data.repaired.join(", "));
      }
      reload();
    };
    setTimeout(reload, VERIFY_TIMEOUT_MS);
    sw.controller.postMessage({ type: "verify" }, [channel.port2]);
  }

  var wasm = typeof WebAssembly === "object" && typeof WebAssembly.instantiate === "function";
  var modules = "noModule" in document.createElement("script");
  if (!wasm || !modules) {
    fail(
      "This browser cannot run the game",
      "The game runs Python in the browser, which needs WebAssembly and JavaScript modules. " +
        "Please open it in a current version of Firefox, Chrome, Edge or Safari" +
        (wasm ? "." : " (WebAssembly may be turned off by a security setting).")
    );
  }

  function snapshotSaved() {
    try {
      return !!localStorage.getItem(SNAPSHOT_KEY);
    } catch (e) {
      return false;
    }
  }

  /* Show step `name`, unless the start is already at it or past it. */
  var shown = 0;
  function step(name) {
    for (var i = shown + 1; i < STEPS.length; i++) {
      if (STEPS[i][0] !== name) continue;
      shown = i;
      whenParsed(function () {
        var msg = el("boot-msg");
        msg.dataset.step = STEPS[shown][0];
        msg.textContent = STEPS[shown][1];
      });
      return;
    }
  }

  /* web/pyodide-boot.mjs's steps (its performance marks, as events). */
  addEventListener("pyodide-boot", function (e) {
    if (e.detail === "pyodide-boot:start") {
      // With a snapshot saved, the start looks it up first: "pyodide-boot:restore" when it is
      // found, else the compiled wasm below says "start".
      if (snapshotSaved()) return;
      var cached = navigator.serviceWorker && navigator.serviceWorker.controller;
      step(cached ? "start" : "download");
    } else if (e.detail === "pyodide-boot:restore") step("restore");
    else if (e.detail === "pyodide-boot:started") step("game");
  });

  /* Pyodide's wasm is downloaded and compiled (streaming compilation ends with the download):
   * Python starts. web/pyodide-boot.mjs compiles it with compileStreaming (and instantiates it
   * in a task of its own), wrapping instantiateStreaming again while it starts; either says so. */
  ["instantiateStreaming", "compileStreaming"].forEach(function (name) {
    var compile = typeof WebAssembly === "object" && WebAssembly[name];
    if (!compile) return;
    WebAssembly[name] = function (source) {
      var result = compile.apply(this, arguments);
      Promise.all([source, result]).then(
        function (done) {
          if (/\/pyodide\.asm\.wasm$/.test(siteFile(done[0].url || ""))) step("start");
        },
        function () {} // reported by web/pyodide-boot.mjs
      );
      return result;
    };
  });

  /* "2.1": megabytes, one decimal. */
  function megabytes(bytes) {
    return (bytes / 1e6).toFixed(1);
  }

  addEventListener("solitaire:boot-bytes", function (e) {
    var d = e.detail;
    if (!d || !(d.total > 0) || !(d.received >= 0)) return;
    var done = Math.min(1, d.received / d.total);
    var text = megabytes(Math.min(d.received, d.total)) + " of " + megabytes(d.total) + " MB";
    whenParsed(function () {
      var bar = el("boot-bar");
      var bytes = el("boot-bytes");
      bar.style.setProperty("--done", done.toFixed(3));
      if (d.received > 0) bar.dataset.bytes = "";
      bar.setAttribute("aria-valuemin", "0");
      bar.setAttribute("aria-valuemax", "100");
      bar.setAttribute("aria-valuenow", String(Math.round(100 * done)));
      bar.setAttribute("aria-valuetext", text);
      bytes.textContent = text;
    });
  });

  addEventListener("py:progress", function (e) {
    if (e.detail === "Loaded Pyodide") step("game");
    else if (e.detail === "Loaded interpreter") step("deal");
  });

  whenParsed(function () {
    el("boot-retry").addEventListener("click", tryAgain);
  });

  setTimeout(function () {
    if (root.dataset.app === "loading") {
      fail(
        "The game is taking too long to start",
        "Python did not start within 90 seconds. The connection may be slow or a download " +
          "may have stalled. Try again; once loaded, the game also works offline."
      );
    }
  }, TIMEOUT_MS);
})();
