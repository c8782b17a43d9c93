/* The table before Python: the cards on the screen at the first paint, seconds before the game
 * can be played.
 *
 * Python's start takes seconds (most of a first visit on a phone: docs/performance.md), while
 * the board is only HTML and CSS. So this plain script, loaded by index.html's <head> right
 * after web/boot.js, decides at once whether a table will be shown (<html data-preview>: from
 * the first paint on, the loading screen is a small panel, so nothing moves when the cards
 * come) and paints it, with the app frame around it (#app[data-preview]), as soon as the page
 * is parsed:
 * - on a later visit, the table the page showed when it was last hidden (localStorage
 *   "<scope>solitaire.table", written by Python: solitaire.web.markup.table_preview), when it
 *   was written by this release of the page;
 * - on a first visit (no game saved yet), one of the first-visit tables the build wrote into
 *   index.html (<script type="application/json" id="first-tables">), drawn at random, marked
 *   data-preview="first" on #board: Python then deals that very deal (Controller.boot);
 * - for an address that names a game and deal (#game/deal: a link, a reload), only the stored
 *   table of that game and deal (Python opens the saved game then); otherwise none.
 * The app frame is inert (no focus, no clicks) until Python sets <html data-app="ready">.
 * Python's start then writes the same board again, so nothing moves; if it shows another table
 * (another tab played on), that one replaces this.
 *
 * Whatever is stored is checked before it is shown (version, release, the shape of each field);
 * anything else is ignored, and the page starts as without this script.
 */
(function () {
  "use strict";
  var root = document.documentElement;
  var VERSION = 1;
  var NAME = "solitaire.";
  var MAX_CHARS = 400000;
  var VARS = ["--cols", "--tcols", "--pd", "--pu", "--siderows", "--dd", "--du"];
  var STATUS = ["st-game-full", "st-deal", "st-moves", "st-time"];
  if (root.dataset.app !== "loading") return;
  /* The game and deal the address names ("#game/deal", "#game": Python's format_hash), or
   * null for no address; anything else: {} (no table matches it). */
  var named = null;
  if (location.hash.length > 1) {
    var m = /^#([a-z-]+)(?:\/([0-9]{1,10}))?$/.exec(location.hash);
    named = m ? { game: m[1], deal: m[2] === undefined ? null : Number(m[2]) } : {};
  }

  /* The directory of the page's address: the prefix of the page's keys (store.py scope_of). */
  function scope() {
    var path = location.pathname.charAt(0) === "/" ? location.pathname : "/" + location.pathname;
    return path.slice(0, path.lastIndexOf("/") + 1);
  }

  function release() {
    var meta = document.querySelector('meta[name="release"]');
    return meta ? meta.content : "";
  }

  function isObject(x) {
    return x !== null && typeof x === "object" && !Array.isArray(x);
  }

  /* A table document fit to paint: the game one of the page's games, the board's HTML the
   * markup the page writes, small numbers for the custom properties, short status texts. */
  function fit(doc) {
    if (!isObject(doc) || doc.v !== VERSION || typeof doc.game !== "string") return false;
    if (!/^[a-z][a-z-]{0,39}$/.test(doc.game)) return false;
    if (doc.deal !== null && !(typeof doc.deal === "number" && doc.deal >= 1 && doc.deal % 1 === 0)) {
      return false;
    }
    if (typeof doc.html !== "string" || doc.html.length > MAX_CHARS) return false;
    if (doc.html.indexOf('<div class="row top">') !== 0) return false;
    if (!isObject(doc.vars) || !isObject(doc.status)) return false;
    for (var i = 0; i < VARS.length; i++) {
      if (!/^[0-9]{1,3}(\.[0-9]{1,3})?$/.test(String(doc.vars[VARS[i]]))) return false;
    }
    for (var j = 0; j < STATUS.length; j++) {
      var text = doc.status[STATUS[j]];
      if (typeof text !== "string" || text.length > 80) return false;
    }
    return true;
  }

  /* The table this page showed last, if this release wrote it; else null. */
  function lastTable() {
    try {
      var text = localStorage.getItem(scope() + NAME + "table");
      if (typeof text !== "string" || text.length > MAX_CHARS) return null;
      var doc = JSON.parse(text);
      return fit(doc) && doc.release === release() ? doc : null;
    } catch (e) {
      return null; // storage blocked, or not JSON: start as without a preview
    }
  }

  /* No game of this page was ever saved here (nor the name of the game played last). */
  function firstVisit() {
    try {
      var prefix = scope() + NAME;
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (key === prefix + "last" || (key && key.indexOf(prefix + "game.") === 0)) return false;
      }
      return true;
    } catch (e) {
      return false; // storage blocked: Python deals a game of its own
    }
  }

  function firstTable() {
    var data = document.getElementById("first-tables");
    try {
      var tables = data ? JSON.parse(data.textContent) : [];
      var doc = tables[Math.floor(Math.random() * tables.length)];
      return fit(doc) ? doc : null;
    } catch (e) {
      return null;
    }
  }

  /* Show ``doc`` (a table that fits, of one of the page's games) on the parsed page. */
  function paint(doc, kind, board, app) {
    board.innerHTML = doc.html;
    for (var i = 0; i < VARS.length; i++) board.style.setProperty(VARS[i], String(doc.vars[VARS[i]]));
    board.setAttribute("data-game", doc.game);
    board.setAttribute("data-deal", doc.deal === null ? "" : String(doc.deal));
    board.setAttribute("data-preview", kind);
    // The frame shows from here, whole: while the page was still being parsed, a frame shown
    // in part would have put its first parts where the whole frame does not have them (on an
    // upright phone the toolbar, first in the page, sits at the bottom under the table and the
    // status line, which come after it).
    app.setAttribute("data-preview", kind);
    for (var j = 0; j < STATUS.length; j++) {
      var el = document.getElementById(STATUS[j]);
      if (el) el.textContent = doc.status[STATUS[j]];
    }
    var mark = document.getElementById("st-winnable");
    if (mark && doc.winnable === true) mark.hidden = false;
    var select = document.getElementById("game-select");
    if (select) select.value = doc.game;
    var looks = isObject(doc.looks) ? doc.looks : {};
    var word = /^[a-z]{1,12}$/;
    if (word.test(looks.back)) root.dataset.back = looks.back;
    if (word.test(looks.table)) root.dataset.table = looks.table;
    if (looks.theme === "light" || looks.theme === "dark") root.dataset.theme = looks.theme;
    board.classList.toggle("four-color", looks.four === true);
    board.classList.toggle("large-cards", looks.large === true);
    var clock = document.getElementById("st-clock");
    if (clock && looks.timer === false) clock.hidden = true;
    app.inert = true;
    // The HTML written: Python's first board (BoardView.setup) keeps these elements when it
    // would write the same.
    window.solitaireShownTable = doc.html;
    performance.mark("table-preview"); // bench/bench_phone.py: when the table was written
  }

  /* The address opens the stored table's game (a reload, a restored tab), or names nothing. */
  function opens(doc) {
    if (named === null) return true;
    return named.game === doc.game && (named.deal === null || named.deal === doc.deal);
  }

  /* Run fn once the whole page is parsed: at the end of parsing, before the deferred scripts
   * (and DOMContentLoaded, which waits for PyScript's module). */
  function whenParsed(fn) {
    if (document.readyState !== "loading") return fn();
    document.addEventListener("readystatechange", function once() {
      document.removeEventListener("readystatechange", once);
      fn();
    });
  }

  /* The card back the table shows (web/style.css: blue unless html[data-back] says red or
   * green), asked for now rather than when the table's cards appear at the end of parsing: its
   * face-down cards then paint complete in the table's first frame, before the interpreter's
   * downloads (started by web/pyodide-boot.mjs) share the link with it. The browser counts
   * those cards as the page's largest paint. */
  function preloadBack(doc) {
    var looks = doc && isObject(doc.looks) ? doc.looks : {};
    var back = looks.back === "red" || looks.back === "green" ? looks.back : "blue";
    var link = document.createElement("link");
    link.rel = "preload";
    link.as = "image";
    link.href = "web/cards/back-" + back + ".svg";
    document.head.appendChild(link);
  }

  var last = lastTable();
  // also for web/boot-lesson.js, which shows a first visit the rules of the game it opens
  var first = firstVisit();
  window.solitaireFirstVisit = first;
  var kind = last && opens(last) ? "last" : named === null && first ? "first" : null;
  if (!kind) return;
  root.dataset.preview = kind;
  preloadBack(kind === "last" ? last : null);
  // Playable once Python says so (or no longer loading: a failed start shows its message).
  new MutationObserver(function (records, observer) {
    if (root.dataset.app === "loading") return;
    observer.disconnect();
    var app = document.getElementById("app");
    if (app) {
      app.inert = false;
      app.removeAttribute("data-preview");
    }
    delete root.dataset.preview;
  }).observe(root, { attributes: true, attributeFilter: ["data-app"] });
  whenParsed(function () {
    if (root.dataset.app !== "loading") return;
    var board = document.getElementById("board");
    var app = document.getElementById("app");
    var doc = kind === "last" ? last : firstTable();
    var known = doc && document.querySelector('#game-select option[value="' + doc.game + '"]');
    if (!board || !app || !known) {
      delete root.dataset.preview; // nothing to show after all: the loading screen as it was
      return;
    }
    paint(doc, kind, board, app);
  });
})();
