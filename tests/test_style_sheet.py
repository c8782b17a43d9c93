"""The style sheet has no dead media rules: a declaration inside ``@media`` is lost when a
rule outside any at-rule, later in the file, sets the same property for the same selector
(same specificity, so the later one wins whatever the screen). The narrow screen's tighter
status gaps were lost that way, and the status line wrapped mid-game at 360 px.

And no ``:hover`` style outside ``@media (hover: hover)``: a touch screen keeps ``:hover`` on
the element last tapped, so a toolbar button stayed lit after its tap."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

STYLE = Path(__file__).resolve().parents[1] / "web" / "style.css"

Declaration = tuple[str, str, int, tuple[str, ...]]  # selector, property, line, at-rules


def declarations(css: str) -> list[Declaration]:
    """Every (selector, property) of every style rule, with its line and the at-rules it is
    nested in. Enough of CSS for this file: comments, nested at-rules, no braces in strings."""
    css = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), css, flags=re.S)
    out: list[Declaration] = []
    heads: list[str] = []
    text = ""
    for at, ch in enumerate(css):
        if ch == "{":
            heads.append(" ".join(text.split()))
            text = ""
        elif ch == "}":
            head = heads.pop()
            if not head.startswith("@"):
                line = css.count("\n", 0, at) + 1
                context = tuple(h for h in heads if h.startswith("@"))
                for decl in text.split(";"):
                    if ":" in decl:
                        prop = decl.split(":", 1)[0].strip()
                        for selector in head.split(","):
                            out.append((" ".join(selector.split()), prop, line, context))
            text = ""
        else:
            text += ch
    return out


def overridden_media_rules(css: str) -> list[str]:
    by_key: dict[tuple[str, str], list[tuple[int, tuple[str, ...]]]] = defaultdict(list)
    for selector, prop, line, context in declarations(css):
        by_key[(selector, prop)].append((line, context))
    found = []
    for (selector, prop), places in by_key.items():
        for line, context in places:
            later = [other for other, ctx in places if not ctx and other > line]
            if context and later:
                found.append(f"{selector} {{ {prop} }} line {line} {context} < line {later[0]}")
    return found


def test_no_media_rule_is_overridden_by_a_later_base_rule() -> None:
    assert overridden_media_rules(STYLE.read_text(encoding="utf-8")) == []


def test_the_check_finds_an_overridden_media_rule() -> None:
    css = """
    /* a comment { with braces } */
    @media (max-width: 420px) {
      .status, .other { column-gap: 0.6rem; color: red; }
    }
    @supports (display: grid) { .status { column-gap: 1px; } }
    .status {
      column-gap: 0.9rem;
    }
    .other { margin: 0; }
    @media (min-width: 700px) { .status { column-gap: 2rem; } }
    """
    assert overridden_media_rules(css) == [
        ".status { column-gap } line 4 ('@media (max-width: 420px)',) < line 9",
        ".status { column-gap } line 6 ('@supports (display: grid)',) < line 9",
    ]


def hover_rules_outside_hover_media(css: str) -> list[str]:
    return sorted(
        {
            f"{selector} line {line}"
            for selector, _, line, context in declarations(css)
            if ":hover" in selector and not any("(hover: hover)" in at for at in context)
        }
    )


def test_hover_styles_apply_only_where_a_pointer_hovers() -> None:
    assert hover_rules_outside_hover_media(STYLE.read_text(encoding="utf-8")) == []


def test_the_check_finds_a_hover_style_for_touch_screens_too() -> None:
    css = """
    .btn:hover { color: red; }
    @media (hover: hover) { .menu button:hover { color: red; } }
    @media (max-width: 420px) { .a:hover, .b { color: red; } }
    """
    assert hover_rules_outside_hover_media(css) == [".a:hover line 4", ".btn:hover line 2"]
