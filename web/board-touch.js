/* A finger's move on the board is never a scroll, and no fling may follow it.
 *
 * The board has touch-action: none, which stops scrolling; but Chromium still recognises a
 * fling when a finger lifts while moving (a card flicked fast), and the next tap within about a
 * second only stops that fling: it gets no click, so a tap on Undo or Hint right after a flicked
 * card did nothing (bench/results/2026-11-29-hint-line-and-flick-taps.md). A touchmove whose
 * default is prevented starts no scroll and so no fling.
 *
 * Plain JS, not Python: it runs for every touchmove of a drag. With a Python listener a drag's
 * script time was 1.37x that of the page without one on the phone profile (4x slower CPU; the
 * median of 15 drags of 80 moves: 855 against 624 ms), with this one 1.10x (685 ms, within the
 * runs' spread).
 */
(function () {
  "use strict";
  function noFling(event) {
    if (event.cancelable) event.preventDefault();
  }
  var board = document.getElementById("board");
  if (board) board.addEventListener("touchmove", noFling, { passive: false });
})();
