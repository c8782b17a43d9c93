"""The table in the DOM: one element per pile, one element per card, updated in place.

Each card is one ``<div class="card">`` for the whole game, keyed by the engine's card int
(kept only in Python: the DOM never learns which card a face-down element is). A card lives
inside its pile's element, in bottom-to-top order; CSS places it from its index (``--i``) and
its pile's face-down / face-up counts (``--nd``, ``--nu``). ``render`` compares the position
with what is shown, touches only the piles that changed, and animates cards that changed pile
with FLIP (First rect, re-parent, Last rect, Invert with a transform, Play).

Every call into JS costs microseconds (a new proxy for each JS object returned, more for a
conversion), so the move path keeps them few: the ``style`` and ``classList`` proxies of every
card and pile are fetched once per game, and the FLIP animations reuse keyframe and option
objects made once (``Element.animate`` copies them) instead of converting Python dicts per card.

The FLIP "last" rectangles are read, and the animations started, in the next animation frame
(``requestAnimationFrame``) rather than in the input handler: the frame lays the board out once
anyway before painting, so reading there costs no extra style and layout pass, while reading in
the handler forced one (the handler's DOM changes are laid out, then laid out again by the
frame after the remaining writes). Nothing is painted in between, so the first frame the player
sees already shows each card at its old place, moving.
"""

from __future__ import annotations

from typing import Any

import js
from js import Object, document
from pyodide.ffi import create_proxy, to_js

from ..cards import card_name, long_name
from ..position import Position
from ..rules import GameRules
from .text import card_face_html, pile_kind, pile_label

MOVE_MS = 230
#: Pile sizes (face down, face up) each game's card size is planned for; a longer pile
#: shrinks the cards so that every face-up card's index stays readable.
PLAN = {
    "russian": (6, 12),
    "double-russian": (9, 14),
    "double-rail": (0, 14),
    "double-freecell": (0, 16),
}
FLIP_MS = 180
#: Read the FLIP "last" rectangles in the next animation frame (see the module docstring);
#: False: in ``render`` itself (a forced style and layout in the input handler).
FLIP_IN_FRAME = True
#: A FLIP whose frame came later than this (a hidden tab runs no frames) is dropped.
FLIP_STALE_MS = 500


def layout(rules: GameRules) -> tuple[int, int, list[str | None]]:
    """Columns of the grid, tableau columns, and the top row's slots (None: an empty slot).

    The top row holds stock and waste (Double Rail), free cells (Double FreeCell), then the
    foundations on the right. Both rows share one card width, so the wider row decides it.
    """
    tableau = len(rules.tableau)
    top: list[str | None] = []
    if rules.stock:
        top += ["stock", "waste"]
    top += [f"cell-{i}" for i in range(rules.cells)]
    foundations: list[str | None] = [f"foundation-{i}" for i in range(rules.foundations)]
    cols = max(tableau, len(top) + len(foundations))
    top += [None] * (cols - len(top) - len(foundations)) + foundations
    return cols, tableau, top


def _obj(value: Any) -> Any:
    return to_js(value, dict_converter=Object.fromEntries)


class BoardView:
    def __init__(self, element: Any) -> None:
        self.el = element
        self.el_style = element.style
        self.rules: GameRules | None = None
        self.cols = 1
        self.tcols = 1
        self.top_slots: list[str | None] = []
        self.order: list[str] = []  # pile names, in the order the board shows them
        self.pile_els: dict[str, Any] = {}
        self.card_els: dict[int, Any] = {}
        # proxies fetched once per game (each access would make a new JsProxy)
        self.pile_style: dict[str, Any] = {}
        self.card_style: dict[int, Any] = {}
        self.card_cls: dict[int, Any] = {}
        self.pile_cls: dict[str, Any] = {}
        self.shown: dict[str, tuple[int, ...]] = {}
        self.shown_down: dict[str, int] = {}
        self.up: dict[int, bool] = {}
        self.loc: dict[int, str] = {}
        self.idx: dict[int, int] = {}
        self.selected: list[int] = []
        self.targets: set[str] = set()
        self.hover: str | None = None
        self.animate_enabled = True
        self.plan = (6, 12)
        self.shown_plan: tuple[int, int] | None = None
        # FLIP animations: keyframes and options made once and reused (animate() copies them);
        # only the first keyframe's transform changes from card to card
        self._move_frames = _obj(
            [{"transform": "", "zIndex": 50}, {"transform": "translate(0,0)", "zIndex": 50}]
        )
        self._move_from = self._move_frames[0]
        self._move_opts = _obj({"duration": MOVE_MS, "easing": "cubic-bezier(.2,.7,.3,1)"})
        self._flip_frames = _obj([{"transform": "scaleX(0.05)"}, {"transform": "scaleX(1)"}])
        self._flip_opts = _obj({"duration": FLIP_MS, "easing": "ease-out"})
        # FLIP animations waiting for the next frame: card -> its (left, top) before the move
        # (the place last painted), and the cards turned face up
        self.flip_first: dict[int, tuple[float, float]] = {}
        self.flip_turned: list[int] = []
        self.frame_request: Any = None
        self.frame_asked = 0.0  # performance.now() when frame_request was made
        self._p_frame = create_proxy(self._on_frame)

    # ------------------------------------------------------------------ building

    def setup(self, position: Position) -> None:
        """Build piles and card elements for a new game, then draw the position."""
        rules = position.rules
        self.rules = rules
        self.cols, self.tcols, self.top_slots = layout(rules)
        self.pile_els.clear()
        self.card_els.clear()
        self.pile_style.clear()
        self.pile_cls.clear()
        self.card_style.clear()
        self.card_cls.clear()
        self.shown.clear()
        self.shown_down.clear()
        self.up.clear()
        self.loc.clear()
        self.idx.clear()
        self.selected = []
        self.targets = set()
        self.hover = None
        self.flip_first.clear()
        self.flip_turned.clear()

        top = document.createElement("div")
        top.className = "row top"
        for name in self.top_slots:
            if name is None:
                gap = document.createElement("div")
                gap.className = "pile gap"
                gap.setAttribute("aria-hidden", "true")
                top.appendChild(gap)
            else:
                top.appendChild(self._pile(name, rules))
        tableau = document.createElement("div")
        tableau.className = "row tableau"
        for i in range(len(rules.tableau)):
            tableau.appendChild(self._pile(f"tableau-{i}", rules))
        names = position.pile_names()
        self.order = [n for n in self.top_slots if n is not None] + [
            n for n in names if n.startswith("tableau")
        ]
        for name in self.order:
            self.shown[name] = ()
            self.shown_down[name] = 0
            self.pile_els[name].setAttribute("aria-label", pile_label(name, (), 0))
        for card in position.all_cards():
            el = document.createElement("div")
            el.className = "card"
            el.tabIndex = -1
            el.setAttribute("aria-roledescription", "card")
            self.card_els[card] = el
            self.card_style[card] = el.style
            self.card_cls[card] = el.classList
        self.plan = PLAN.get(rules.id, (6, 12))
        self.shown_plan = None
        self.render(position, animate=False)
        style = self.el_style
        style.setProperty("--cols", str(self.cols))
        style.setProperty("--tcols", str(self.tcols))
        self.el.dataset.game = rules.id
        self.el.replaceChildren(top, tableau)

    def _pile(self, name: str, rules: GameRules) -> Any:
        kind, _ = pile_kind(name)
        el = document.createElement("div")
        el.className = f"pile {kind}"
        el.dataset.pile = name
        el.setAttribute("role", "group")
        el.tabIndex = -1
        if kind == "foundation":
            el.dataset.mark = "A"
        elif kind == "tableau" and rules.empty == "king":
            el.dataset.mark = "K"
        elif kind == "stock":
            el.dataset.mark = "∅"
        self.pile_els[name] = el
        self.pile_style[name] = el.style
        self.pile_cls[name] = el.classList
        return el

    # ------------------------------------------------------------------ drawing

    @staticmethod
    def down_count(position: Position, name: str) -> int:
        if name.startswith("tableau"):
            return position.down[int(name[8:])]
        if name == "stock":
            return len(position.stock)
        return 0

    def render(
        self, position: Position, animate: bool = True, dragged: list[int] | None = None
    ) -> list[int]:
        """Show ``position``, touching only what changed; returns the cards that changed pile."""
        animate = animate and self.animate_enabled
        changes = []
        for name in self.order:
            cards = position.pile(name)
            down = self.down_count(position, name)
            if cards != self.shown[name] or down != self.shown_down[name]:
                changes.append((name, cards, down))
        if not changes:
            if dragged:
                self.end_drag(dragged, back=True)
            return []
        moved = [c for name, cards, _ in changes for c in cards if self.loc.get(c) != name]
        first = self.flip_first  # a FLIP still waiting for its frame keeps its first place
        if animate:
            for c in moved:
                if c in self.loc and c not in first:  # on the table (not a brand-new element)
                    r = self.card_els[c].getBoundingClientRect()
                    first[c] = (r.left, r.top)
        if dragged:
            for c in dragged:
                self.card_cls[c].remove("dragging")
        flipped: list[int] = []
        for name, cards, down in changes:
            old = self.shown[name]
            pile_el = self.pile_els[name]
            k = 0
            n = min(len(old), len(cards))
            while k < n and old[k] == cards[k]:
                k += 1
            for j in range(k, len(cards)):
                c = cards[j]
                el = self.card_els[c]
                pile_el.appendChild(el)
                self.loc[c] = name
                if self.idx.get(c) != j:
                    self.card_style[c].setProperty("--i", str(j))
                    self.idx[c] = j
            for j, c in enumerate(cards):
                up = j >= down
                if self.up.get(c) != up:
                    if animate and c in self.up and up and c not in first:
                        flipped.append(c)
                    self._set_face(c, up)
            style = self.pile_style[name]
            style.setProperty("--nd", str(down))
            style.setProperty("--nu", str(len(cards) - down))
            pile_el.setAttribute("aria-label", pile_label(name, cards, down))
            if name == "stock":
                pile_el.dataset.count = str(len(cards))
            self.shown[name] = cards
            self.shown_down[name] = down
        self._fit(position)
        self.flip_turned += flipped
        if first or self.flip_turned:
            if not FLIP_IN_FRAME:
                self._on_frame()
            elif self.frame_request is None:
                self.frame_asked = float(js.performance.now())
                self.frame_request = js.requestAnimationFrame(self._p_frame)
        return moved

    def _on_frame(self, *args: Any) -> None:
        """FLIP's Last, Invert, Play for the cards moved since the last frame."""
        self.frame_request = None
        first, turned = self.flip_first, self.flip_turned
        self.flip_first, self.flip_turned = {}, []
        if args and float(args[0]) - self.frame_asked > FLIP_STALE_MS:
            return  # the page was hidden: the cards are already where they belong
        frames, start, opts = self._move_frames, self._move_from, self._move_opts
        for c, (left, top) in first.items():
            el = self.card_els.get(c)
            if el is None:
                continue
            last = el.getBoundingClientRect()
            dx = left - last.left
            dy = top - last.top
            if abs(dx) < 0.5 and abs(dy) < 0.5:
                continue
            start.transform = f"translate({dx:.1f}px,{dy:.1f}px)"
            el.animate(frames, opts)
        for c in turned:
            el = self.card_els.get(c)
            if el is not None:
                el.animate(self._flip_frames, self._flip_opts)

    def _fit(self, position: Position) -> None:
        """Tell CSS the tallest pile to plan the card size for (only when it changes)."""
        pd, pu = self.plan
        for i, pile in enumerate(position.tableau):
            d = position.down[i]
            pd = max(pd, d)
            pu = max(pu, len(pile) - d)
        if (pd, pu) != self.shown_plan:
            self.shown_plan = (pd, pu)
            self.el_style.setProperty("--pd", str(pd))
            self.el_style.setProperty("--pu", str(pu))

    def _set_face(self, card: int, up: bool) -> None:
        el = self.card_els[card]
        if up:
            name = card_name(card)
            el.dataset.card = name
            el.dataset.suit = name[1]
            el.removeAttribute("data-face")
            el.innerHTML = card_face_html(card)
            el.setAttribute("role", "button")
            el.setAttribute("aria-label", long_name(card))
        else:
            el.removeAttribute("data-card")
            el.removeAttribute("data-suit")
            el.dataset.face = "down"
            el.innerHTML = ""
            el.setAttribute("role", "img")
            el.setAttribute("aria-label", "Face-down card")
        self.up[card] = up

    # ------------------------------------------------------------------ looking up

    def index_of(self, pile: str, card_el: Any) -> int | None:
        """Index of a card element in its pile (None when it is not one of the pile's cards)."""
        for j, c in enumerate(self.shown.get(pile, ())):
            if self.card_els[c] == card_el:
                return j
        return None

    def element(self, pile: str, index: int | None) -> Any:
        cards = self.shown.get(pile, ())
        if index is not None and 0 <= index < len(cards):
            return self.card_els[cards[index]]
        return self.pile_els[pile]

    def pile_rects(self) -> dict[str, tuple[float, float, float, float]]:
        rects = {}
        for name, el in self.pile_els.items():
            r = el.getBoundingClientRect()
            rects[name] = (r.left, r.top, r.right, r.bottom)
        return rects

    def card_rect(self, card: int) -> tuple[float, float, float, float]:
        r = self.card_els[card].getBoundingClientRect()
        return (r.left, r.top, r.right, r.bottom)

    # ------------------------------------------------------------------ highlights

    def set_selected(self, cards: list[int]) -> None:
        for c in self.selected:
            if c not in cards:
                self.card_cls[c].remove("selected")
        for c in cards:
            if c not in self.selected:
                self.card_cls[c].add("selected")
        self.selected = list(cards)

    def set_targets(self, piles: set[str]) -> None:
        for name in self.targets - piles:
            self.pile_cls[name].remove("target")
        for name in piles - self.targets:
            self.pile_cls[name].add("target")
        self.targets = set(piles)

    def set_hover(self, pile: str | None) -> None:
        if pile == self.hover:
            return
        if self.hover is not None:
            self.pile_cls[self.hover].remove("hover")
        if pile is not None:
            self.pile_cls[pile].add("hover")
        self.hover = pile

    def shake(self, cards: list[int]) -> None:
        for c in cards[:1]:
            self.card_els[c].animate(
                _obj(
                    [
                        {"translate": "0 0"},
                        {"translate": "-5px 0"},
                        {"translate": "5px 0"},
                        {"translate": "0 0"},
                    ]
                ),
                _obj({"duration": 260}),
            )

    # ------------------------------------------------------------------ dragging

    def begin_drag(self, cards: list[int]) -> None:
        self.el_style.setProperty("--dx", "0px")
        self.el_style.setProperty("--dy", "0px")
        for c in cards:
            cl = self.card_cls[c]
            cl.remove("returning")
            cl.add("dragging")

    def drag_to(self, dx: float, dy: float) -> None:
        style = self.el_style
        style.setProperty("--dx", f"{dx:.1f}px")
        style.setProperty("--dy", f"{dy:.1f}px")

    def end_drag(self, cards: list[int], back: bool) -> None:
        """Stop following the pointer; with ``back``, glide home (CSS transition)."""
        for c in cards:
            cl = self.card_cls[c]
            if back:
                cl.add("returning")
            cl.remove("dragging")

    def clear_returning(self) -> None:
        for el in list(self.el.querySelectorAll(".card.returning")):
            el.classList.remove("returning")
