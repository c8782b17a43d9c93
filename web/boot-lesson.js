/* The rules to read while the game starts: the seconds of a first visit's start are the time a
 * newcomer needs to learn what the game is.
 *
 * The lessons are Python (py/solitaire/web/lesson.py) and can only run once the interpreter is
 * up, but their rules are plain text: the build writes each game's goal and the rules its
 * lesson teaches into index.html (<script type="application/json" id="boot-lessons">, from
 * solitaire.web.lesson.boot_readings). This plain script, loaded by index.html's <head> right
 * after web/table-preview.js, shows them at the end of parsing, in the same task as the table
 * (so nothing moves after the first paint), when the game that opens still has its lesson due:
 * - with a table shown (web/table-preview.js: <html data-preview>), in the lesson's own panel
 *   above it (#tutorial, marked data-reading), where the lesson itself then begins; the
 *   loading screen's message and bar move under the rules, so that nothing covers the table;
 * - else on the loading screen, under its bar (#boot-lesson).
 * The game that opens is the table's; without a table, the one the address names, or on a
 * first visit the default game. Its lesson is due unless the settings saved here list it as
 * done ("lessonsDone", docs/save-format.md) or lessons are off (the e2e harness). Python's
 * first draw of the panel (lesson_view.py) takes the reading away.
 */
(function () {
  "use strict";
  var root = document.documentElement;
  var NAME = "solitaire.";
  if (root.dataset.app !== "loading" || globalThis.solitaireNoLessons === true) return;

  /* The directory of the page's address: the prefix of the page's keys (store.py scope_of). */
  function scope() {
    var path = location.pathname.charAt(0) === "/" ? location.pathname : "/" + location.pathname;
    return path.slice(0, path.lastIndexOf("/") + 1);
  }

  function stored(name) {
    try {
      var text = localStorage.getItem(scope() + NAME + name);
      return typeof text === "string" ? JSON.parse(text) : null;
    } catch (e) {
      return null; // storage blocked or not JSON: Python starts with the defaults
    }
  }

  function lessonDone(game) {
    var settings = stored("settings");
    var done = settings && settings.lessonsDone;
    return Array.isArray(done) && done.indexOf(game) >= 0;
  }

  function readings() {
    var data = document.getElementById("boot-lessons");
    try {
      var doc = data ? JSON.parse(data.textContent) : null;
      return doc && typeof doc.games === "object" && doc.games !== null ? doc : null;
    } catch (e) {
      return null;
    }
  }

  function add(parent, tag, text, className) {
    var el = document.createElement(tag);
    if (text) el.textContent = text;
    if (className) el.className = className;
    parent.appendChild(el);
    return el;
  }

  /* ``reading`` ({name, goal, rules}) written into ``box``, shown. */
  function write(box, reading) {
    add(box, "h2", "How to play " + reading.name, "reading-title");
    add(box, "p", reading.goal, "reading-goal");
    var list = add(box, "ul", "", "reading-rules");
    for (var i = 0; i < reading.rules.length; i++) add(list, "li", reading.rules[i]);
    add(box, "p", "When the cards are ready, a short lesson lets you try each rule.", "reading-next");
    box.hidden = false;
  }

  function fits(reading) {
    if (!reading || typeof reading.name !== "string" || typeof reading.goal !== "string") {
      return false;
    }
    return Array.isArray(reading.rules) && reading.rules.every(function (r) {
      return typeof r === "string";
    });
  }

  /* The game the address names ("#game" or "#game/deal"), else null. */
  function namedGame() {
    var m = /^#([a-z-]+)(?:\/[0-9]{1,10})?$/.exec(location.hash);
    return m ? m[1] : null;
  }

  function show() {
    if (root.dataset.app !== "loading") return;
    var data = readings();
    if (!data) return;
    var board = document.getElementById("board");
    var previewed = root.dataset.preview && board ? board.getAttribute("data-game") : null;
    // a first visit: no game of this page saved here (web/table-preview.js tells)
    var first = window.solitaireFirstVisit === true;
    var game = previewed || namedGame() || (first ? data.default : null);
    var reading = game ? data.games[game] : null;
    if (!fits(reading) || lessonDone(game)) return;
    var panel = document.getElementById("tutorial");
    var inPanel = Boolean(previewed && panel);
    var box = document.getElementById(inPanel ? "tutorial-reading" : "boot-lesson");
    if (!box) return;
    write(box, reading);
    if (inPanel) {
      // the loading screen's message, bar and bytes go under the rules: the board stays
      // uncovered, and the player reads on where the progress shows (web/boot.js finds them
      // by id wherever they are; the panel's reading goes, with them, once the game is ready)
      var progress = add(box, "div", "", "reading-progress");
      ["boot-msg", "boot-bar", "boot-bytes"].forEach(function (id) {
        var el = document.getElementById(id);
        if (el) progress.appendChild(el);
      });
      panel.setAttribute("data-reading", "");
      panel.hidden = false;
    }
    root.dataset.reading = game;
  }

  /* At the end of parsing, after web/table-preview.js has painted its table (its listener,
   * added first, runs first). */
  if (document.readyState !== "loading") show();
  else {
    document.addEventListener("readystatechange", function once() {
      document.removeEventListener("readystatechange", once);
      show();
    });
  }
})();
