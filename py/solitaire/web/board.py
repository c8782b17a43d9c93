"""The table in the DOM: one element per pile, one element per card, updated in place.

Each card is one ``<div class="card">`` for the whole game, keyed by the engine's card int
(kept only in Python: the DOM never learns which card a face-down element is). A card lives
inside its pile's element, in bottom-to-top order; CSS places it from its index (``--i``) and
its pile's face-down / face-up counts (``--nd``, ``--nu``). ``render`` compares the position
with what is shown, touches only the piles that changed, and animates cards that changed pile
with FLIP (First rect, re-parent, Last rect, Invert with a transform, Play).

Every call into JS costs microseconds (a new proxy for each JS object returned, more for a
conversion), so the move path keeps them few: the ``style`` and ``classList`` proxies of every
card and pile are fetched once per game (on first use), and the FLIP animations reuse keyframe
and option objects made once (``Element.animate`` copies them) instead of converting Python
dicts per card. The start keeps them few too: ``setup`` writes the whole board as one HTML
string and fetches the elements back with one ``querySelectorAll`` per kind.

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
from js import Object
from pyodide.ffi import create_proxy, to_js

from ..cards import card_name, long_name, suit
from ..piles import STOCK, PileRef
from ..position import Position
from ..rules import GameRules
from .faces import face_html
from .layout import Layout, layout
from .markup import board_html, board_vars
from .text import pile_label

MOVE_MS = 230
FLIP_MS = 180
#: A FLIP whose frame came later than this (a hidden tab runs no frames) is dropped.
FLIP_STALE_MS = 500


def _obj(value: Any) -> Any:
    return to_js(value, dict_converter=Object.fromEntries)


class _Proxies(dict[Any, Any]):
    """An attribute (``style``, ``classList``) of each element of ``elements``, fetched from JS
    on first use and kept (each fetch makes a new JsProxy)."""

    def __init__(self, elements: dict[Any, Any], attr: str) -> None:
        super().__init__()
        self.elements = elements
        self.attr = attr

    def __missing__(self, key: Any) -> Any:
        value = getattr(self.elements[key], self.attr)
        self[key] = value
        return value


class BoardView:
    def __init__(self, element: Any) -> None:
        self.el = element
        self.el_style = element.style
        self.el_cls = element.classList
        self.rules: GameRules | None = None
        self.table: Layout | None = None
        self.order: tuple[PileRef, ...] = ()  # the piles, in the order the board shows them
        self.pile_els: dict[PileRef, Any] = {}
        self.card_els: dict[int, Any] = {}
        # proxies fetched once per game (each access would make a new JsProxy)
        self.pile_style: dict[PileRef, Any] = _Proxies(self.pile_els, "style")
        self.card_style: dict[int, Any] = _Proxies(self.card_els, "style")
        self.card_cls: dict[int, Any] = _Proxies(self.card_els, "classList")
        self.pile_cls: dict[PileRef, Any] = _Proxies(self.pile_els, "classList")
        self.shown: dict[PileRef, tuple[int, ...]] = {}
        self.shown_down: dict[PileRef, int] = {}
        self.up: dict[int, bool] = {}
        self.loc: dict[int, PileRef] = {}
        self.idx: dict[int, int] = {}
        # the marks drawn (UIState.marks): selected and hinted cards, target and hovered piles
        self.selected: tuple[int, ...] = ()
        self.hinted: tuple[int, ...] = ()
        self.targets: frozenset[PileRef] = frozenset()
        self.hover: PileRef | None = None
        self.uncovered: int | None = None  # the card under a dragged group (web/style.css)
        self.dragged: tuple[int, ...] = ()  # the cards following the pointer
        self.animate_enabled = True
        # FLIP animations: keyframes and options made once, at the first animation (not at
        # start: four conversions, ~1-4 ms) and reused (animate() copies them); only the first
        # keyframe's transform changes from card to card
        self._anim: tuple[Any, Any, Any, Any, Any] | None = None
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
        table = self.table = layout(rules)
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
        self.selected = self.hinted = ()
        self.targets = frozenset()
        self.hover = None
        self.uncovered = None
        self.dragged = ()
        self.flip_first.clear()
        self.flip_turned.clear()

        self.order = table.order
        # The whole board is one HTML string (markup.py), parsed by one innerHTML write (a
        # call into JS per element and per attribute cost ~10 ms at start for 104 cards),
        # drawn as ``render`` would draw ``position`` on an empty board; then one
        # querySelectorAll per kind gives the elements, in document order (piles in
        # ``order``, cards bottom to top).
        for pile in self.order:
            self._record(pile, position)
        # The card size depends on the screen and the game only (web/style.css).
        style = self.el_style
        for name, value in board_vars(rules).items():
            style.setProperty(name, value)
        self.el.dataset.game = rules.id
        html = board_html(position)
        # The table before Python (web/table-preview.js) may already show exactly this board:
        # then its elements are taken as they are, not parsed, laid out and painted again.
        if getattr(js.window, "solitaireShownTable", None) != html:
            self.el.innerHTML = html
        js.window.solitaireShownTable = None
        to_array = getattr(js.Array, "from")
        pile_list = to_array(self.el.querySelectorAll("[data-pile]")).to_py(depth=1)
        self.pile_els.update(zip(self.order, pile_list, strict=True))
        card_list = to_array(self.el.querySelectorAll(".card")).to_py(depth=1)
        order = [c for name in self.order for c in self.shown[name]]
        self.card_els.update(zip(order, card_list, strict=True))

    def _record(self, pile: PileRef, position: Position) -> None:
        """Note what ``pile`` shows once ``board_html(position)`` is on the board."""
        cards = position.pile(pile)
        down = position.face_down(pile)
        for j, c in enumerate(cards):
            self.loc[c] = pile
            self.idx[c] = j
            self.up[c] = j >= down
        self.shown[pile] = cards
        self.shown_down[pile] = down

    # ------------------------------------------------------------------ drawing

    def render(
        self, position: Position, animate: bool = True, dragged: tuple[int, ...] = ()
    ) -> list[int]:
        """Show ``position``, touching only what changed; returns the cards that changed pile."""
        animate = animate and self.animate_enabled
        changes = []
        for name in self.order:
            cards = position.pile(name)
            down = position.face_down(name)
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
            self._set_uncovered(None)
            self.el_cls.remove("has-drag")
            self.dragged = ()
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
            if name == STOCK:
                pile_el.dataset.count = str(len(cards))
            self.shown[name] = cards
            self.shown_down[name] = down
        self.flip_turned += flipped
        if first or self.flip_turned:
            self._ask_frame()
        return moved

    def _ask_frame(self) -> None:
        if self.frame_request is None:
            self.frame_asked = float(js.performance.now())
            self.frame_request = js.requestAnimationFrame(self._p_frame)

    def _on_frame(self, *args: Any) -> None:
        """FLIP's Last, Invert, Play for the cards moved since the last frame."""
        self.frame_request = None
        first, turned = self.flip_first, self.flip_turned
        self.flip_first, self.flip_turned = {}, []
        if args and float(args[0]) - self.frame_asked > FLIP_STALE_MS:
            first, turned = {}, []  # the page was hidden: the cards are where they belong
        self._flip(first, turned)

    def _flip(self, first: dict[int, tuple[float, float]], turned: list[int]) -> None:
        if not first and not turned:
            return
        if self._anim is None:
            self._anim = self._make_animations()
        frames, start, opts, flip_frames, flip_opts = self._anim
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
                el.animate(flip_frames, flip_opts)

    @staticmethod
    def _make_animations() -> tuple[Any, Any, Any, Any, Any]:
        """FLIP's keyframes (the first one's transform is set per card) and options. A card
        on its way takes no pointer input: a finger dealing fast taps the stock again while
        the card just dealt still lies over it, and that tap is the stock's. It is drawn, with
        its edge and shadow, all the way, even where its new pile leaves them off the cards
        under its top two (the style sheet: up to ten cards fly to one foundation at once in
        an auto-finish)."""
        on_its_way = {
            "zIndex": 50,
            "pointerEvents": "none",
            "visibility": "visible",
            "borderColor": "var(--edge)",
            "boxShadow": "var(--rest-shadow)",
        }
        frames = _obj(
            [{"transform": "", **on_its_way}, {"transform": "translate(0,0)", **on_its_way}]
        )
        return (
            frames,
            frames[0],
            _obj({"duration": MOVE_MS, "easing": "cubic-bezier(.2,.7,.3,1)"}),
            _obj([{"transform": "scaleX(0.05)"}, {"transform": "scaleX(1)"}]),
            _obj({"duration": FLIP_MS, "easing": "ease-out"}),
        )

    def _set_face(self, card: int, up: bool) -> None:
        el = self.card_els[card]
        if up:
            name = card_name(card)
            el.dataset.card = name
            el.dataset.suit = name[1]
            el.removeAttribute("data-face")
            el.innerHTML = face_html(card)
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

    def index_of(self, pile: PileRef, card_el: Any) -> int | None:
        """Index of a card element in its pile (None when it is not one of the pile's cards)."""
        for j, c in enumerate(self.shown.get(pile, ())):
            if self.card_els[c] == card_el:
                return j
        return None

    def element(self, pile: PileRef, index: int | None) -> Any:
        cards = self.shown.get(pile, ())
        if index is not None and 0 <= index < len(cards):
            return self.card_els[cards[index]]
        return self.pile_els[pile]

    def pile_rects(self) -> dict[PileRef, tuple[float, float, float, float]]:
        rects = {}
        for name, el in self.pile_els.items():
            r = el.getBoundingClientRect()
            rects[name] = (r.left, r.top, r.right, r.bottom)
        return rects

    def cascade(
        self,
    ) -> tuple[list[tuple[int, tuple[float, float, float, float]]], dict[int, str], str]:
        """What the win celebration throws (celebration.py): the foundations' cards, top
        first, one from each foundation in turn, each with its foundation's rect; the colour
        of each suit and of a card face, as the page draws them (four-colour deck, theme)."""
        piles = [p for p in self.order if p.kind == "foundation"]
        rects = self.pile_rects()
        stacks = [list(self.shown[p]) for p in piles]
        launches = []
        while any(stacks):
            for pile, stack in zip(piles, stacks, strict=True):
                if stack:
                    launches.append((stack.pop(), rects[pile]))
        colours: dict[int, str] = {}
        face = "#fdfdf8"
        for card, _ in launches:
            if suit(card) not in colours:
                style = js.getComputedStyle(self.card_els[card])
                colours[suit(card)] = str(style.color)
                face = str(style.backgroundColor)
        return launches, colours, face

    def card_rect(self, card: int) -> tuple[float, float, float, float]:
        r = self.card_els[card].getBoundingClientRect()
        return (r.left, r.top, r.right, r.bottom)

    # ------------------------------------------------------------------ highlights

    def set_marks(
        self,
        selected: tuple[int, ...],
        hinted: tuple[int, ...],
        targets: frozenset[PileRef],
        hover: PileRef | None,
    ) -> None:
        """Draw the marks of the UI state (``UIState.marks``), touching only what changed."""
        if selected != self.selected:
            self._swap_class("selected", self.selected, selected)
            self.selected = selected
        if hinted != self.hinted:
            self._swap_class("hint", self.hinted, hinted)
            self.hinted = hinted
        if targets != self.targets:
            for pile in self.targets - targets:
                self.pile_cls[pile].remove("target")
            for pile in targets - self.targets:
                self.pile_cls[pile].add("target")
            self.targets = targets
        if hover != self.hover:
            if self.hover is not None:
                self.pile_cls[self.hover].remove("hover")
            if hover is not None:
                self.pile_cls[hover].add("hover")
            self.hover = hover

    def _swap_class(self, name: str, old: tuple[int, ...], new: tuple[int, ...]) -> None:
        for c in old:
            if c not in new and c in self.card_els:
                self.card_cls[c].remove(name)
        for c in new:
            if c not in old:
                self.card_cls[c].add(name)

    def shake(self, cards: tuple[int, ...]) -> None:
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

    def begin_drag(self, cards: tuple[int, ...]) -> None:
        self.el_cls.add("has-drag")
        self.dragged = cards
        for c in cards:
            cl = self.card_cls[c]
            cl.remove("returning")
            style = self.card_style[c]
            style.setProperty("--dx", "0px")
            style.setProperty("--dy", "0px")
            cl.add("dragging")
        # the card the group lies on shows its face while the group is away
        below = None
        if cards:
            pile, i = self.loc.get(cards[0]), self.idx.get(cards[0], 0)
            if pile is not None and i > 0:
                below = self.shown[pile][i - 1]
        self._set_uncovered(below)

    def _set_uncovered(self, card: int | None) -> None:
        if card == self.uncovered:
            return
        if self.uncovered is not None and self.uncovered in self.card_els:
            self.card_cls[self.uncovered].remove("uncovered")
        if card is not None:
            self.card_cls[card].add("uncovered")
        self.uncovered = card

    def drag_to(self, dx: float, dy: float) -> None:
        """Move the dragged cards by (dx, dy): the offset is set on those cards alone, as
        properties that are not inherited (web/style.css), so that a pointer move restyles
        those cards, not every element of the board (docs/performance.md, "Drags")."""
        x, y = f"{dx:.1f}px", f"{dy:.1f}px"
        for c in self.dragged:
            style = self.card_style[c]
            style.setProperty("--dx", x)
            style.setProperty("--dy", y)

    def end_drag(self, cards: tuple[int, ...], back: bool) -> None:
        """Stop following the pointer; with ``back``, glide home (CSS transition)."""
        self.el_cls.remove("has-drag")
        self.dragged = ()
        for c in cards:
            cl = self.card_cls[c]
            if back:
                cl.add("returning")
            cl.remove("dragging")
        self._set_uncovered(None)

    def clear_returning(self) -> None:
        for el in list(self.el.querySelectorAll(".card.returning")):
            el.classList.remove("returning")
