"""index.html as built: the game table's names, game list and rules pages, the first-visit
tables, the release label, and the checks of what the page loads.

In: ``index.html`` with its ``<!-- build: NAME -->`` placeholders, ``solitaire.rules.GAMES``,
the default game's proved-winnable list (``web/winnable/``) and the release label. Out: the page's
text, or a BuildError saying which placeholder, game text or loaded URL is wrong.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sitebuild.base import ROOT, BuildError

try:
    import solitaire
except ModuleNotFoundError as error:  # the game table comes from the installed package
    raise SystemExit(
        "build_site: error: the solitaire package is not installed: run make site, or "
        "pip install -e '.[site]'"
    ) from error
from solitaire.position import Position
from solitaire.rules import GameRules
from solitaire.web.dealing import DEFAULT_GAME
from solitaire.web.lesson import boot_readings
from solitaire.web.markup import table_preview


def check_package() -> None:
    """The game table the page is written from must be this checkout's (an editable install:
    ``make site``, ``make dev`` or ``pip install -e .``), never another copy of the package."""
    package = Path(solitaire.__file__).resolve().parent
    if package != ROOT / "py" / "solitaire":
        raise BuildError(
            f"the solitaire package imported ({package}) is not this checkout's "
            f"({ROOT / 'py' / 'solitaire'}): install it with pip install -e . (make site does)"
        )


#: What the build writes into index.html from the game table, in the table's order: the
#: placeholder ``<!-- build: NAME -->`` for each NAME here must occur exactly once. A placeholder
#: alone on its line becomes lines at its indentation; one inside a line (an attribute, the
#: title) becomes text.
PAGE_PARTS = {
    "game names": "the games' full names, as a list in words (the meta description)",
    "game short names": "the games' short names, comma-separated (the title)",
    "game options": "the game list: an <option> per game in <select id=game-select>",
    "rules tabs": "a rules-of button per game in the rules dialog's tabs",
    "rules": "a <section data-rules=ID> per game in the rules dialog",
    "first tables": "the first-visit tables web/table-preview.js paints before Python starts",
    "boot lessons": "the rules web/boot-lesson.js shows while the game starts",
}
#: How many first-visit tables index.html carries (one is painted, at random): deals of the
#: page's default game from its list of proved-winnable deals, drawn with the release as
#: the seed. Each is ~23 KB of HTML, ~0.8 KB gzip in the page.
FIRST_TABLES = 4
_PLACEHOLDER = re.compile(r"<!-- build: ([^>]*?) -->")
#: RulesText's inline marks, in the order they are read.
_INLINE_MARKS = (("**", "b"), ("*", "i"), ("^", "sup"))


def inline_html(text: str) -> str:
    """A RulesText string as HTML: escaped, with ``**bold**``, ``*italic*``, ``^superscript^``."""
    out = html.escape(text, quote=False)
    for mark, tag in _INLINE_MARKS:
        out = re.sub(f"{re.escape(mark)}(.+?){re.escape(mark)}", rf"<{tag}>\1</{tag}>", out)
    if "*" in out or "^" in out:
        raise BuildError(f"unmatched * or ^ in the rules text {text!r}")
    return out


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def _in_words(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _check_game(game: GameRules) -> None:
    """Every descriptive field the page shows is filled (else the build says which)."""
    text = game.rules_text
    empty = [
        name
        for name, value in (
            ("name", game.name),
            ("short_name", game.short_name),
            ("rules_text.intro", text.intro),
            ("rules_text.deal", text.deal),
            ("rules_text.play", text.play),
        )
        if not value
    ]
    if empty:
        raise BuildError(f"solitaire.rules: game {game.id!r} has no {', '.join(empty)}")


def rules_section(game: GameRules) -> list[str]:
    """The rules dialog's section of ``game`` (lines, indented two spaces per level)."""
    text = game.rules_text
    lines = [
        f'<section data-rules="{_attr(game.id)}">',
        f"  <h3>{html.escape(game.name, quote=False)}</h3>",
        f"  <p>{inline_html(text.intro)}</p>",
        "  <h4>The deal</h4>",
        f"  <p>{inline_html(text.deal)}</p>",
        "  <h4>Play</h4>",
        "  <ul>",
        *(f"    <li>{inline_html(item)}</li>" for item in text.play),
        "  </ul>",
    ]
    if text.other_programs:
        lines += [
            "  <h4>Where other programs differ</h4>",
            f"  <p>{inline_html(text.other_programs)}</p>",
        ]
    return [*lines, "</section>"]


def first_tables(
    winnable_dir: Path, release: str, count: int = FIRST_TABLES
) -> list[dict[str, Any]]:
    """The first-visit tables (``markup.table_preview`` documents, without a release: they
    come with the page): ``count`` deals of the default game drawn from its proved-winnable
    list (``web/winnable/<game>.json``) with ``release`` as the seed, dealt and drawn by the
    engine and the page's own markup code, so that the cards are those Python then deals."""
    path = winnable_dir / f"{DEFAULT_GAME}.json"
    try:
        deals = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BuildError(
            f"{path}: the default game's winnable deals cannot be read ({error})"
        ) from error
    if not isinstance(deals, list) or len(deals) < count:
        raise BuildError(f"{path}: fewer than {count} winnable deals")
    chosen = random.Random(release or "dev").sample(deals, count)
    tables = []
    for deal in chosen:
        doc = table_preview(
            Position.deal_of(DEFAULT_GAME, deal), deal, 0, 0.0, {}, "", proved_winnable=True
        )
        del doc["release"]
        tables.append(doc)
    return tables


def json_block(element_id: str, value: Any) -> list[str]:
    """``value`` as a JSON data block (not run: the Content-Security-Policy allows it), with
    ``</`` escaped so that no text in it can end the element."""
    data = json.dumps(value, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
    return [f'<script type="application/json" id="{element_id}">{data}</script>']


def first_tables_html(tables: list[dict[str, Any]]) -> list[str]:
    """The first-visit tables as a JSON data block."""
    return json_block("first-tables", tables)


def boot_lessons_html(games: Iterable[GameRules]) -> list[str]:
    """What a visit reads while the game starts (``solitaire.web.lesson.boot_readings``) for
    ``games`` that have a lesson, and the game a first visit opens, as a JSON data block."""
    readings = boot_readings()
    ids = [g.id for g in games]
    return json_block(
        "boot-lessons",
        {"default": DEFAULT_GAME, "games": {g: readings[g] for g in ids if g in readings}},
    )


def page_parts(
    games: Iterable[GameRules], tables: list[dict[str, Any]] | None = None
) -> dict[str, list[str]]:
    """PAGE_PARTS' HTML (lines) for ``games``, in their order; ``tables``: the first-visit
    tables (none when None)."""
    table = list(games)
    if not table:
        raise BuildError("solitaire.rules.GAMES is empty")
    for game in table:
        _check_game(game)
    short = [html.escape(g.short_name, quote=False) for g in table]
    return {
        "game names": [_attr(_in_words([g.name for g in table]))],
        "game short names": [", ".join(short)],
        "game options": [
            f'<option value="{_attr(g.id)}" title="{_attr(g.name)}">{s}</option>'
            for g, s in zip(table, short, strict=True)
        ],
        "rules tabs": [
            f'<button type="button" data-action="rules-of" data-game="{_attr(g.id)}">{s}</button>'
            for g, s in zip(table, short, strict=True)
        ],
        "rules": [line for g in table for line in rules_section(g)],
        "first tables": first_tables_html(tables or []),
        "boot lessons": boot_lessons_html(table),
    }


def render_page(
    text: str,
    games: Iterable[GameRules],
    page: str = "index.html",
    tables: list[dict[str, Any]] | None = None,
) -> str:
    """``text`` (index.html) with every PAGE_PARTS placeholder filled from ``games`` (and
    the first-visit ``tables``)."""
    for name, lines in page_parts(games, tables).items():
        mark = f"<!-- build: {name} -->"
        found = text.count(mark)
        if found != 1:
            raise BuildError(
                f"{page} must hold the placeholder {mark} exactly once (found {found}): the "
                f"build replaces it with {PAGE_PARTS[name]}, from solitaire.rules.GAMES"
            )
        alone = re.search(rf"^([ \t]*){re.escape(mark)}[ \t]*$", text, re.M)
        if alone:
            indent = alone.group(1)
            block = "\n".join(indent + line for line in lines)
            text = text[: alone.start()] + block + text[alone.end() :]
        else:
            text = text.replace(mark, " ".join(lines))
    unknown = sorted(set(_PLACEHOLDER.findall(text)))
    if unknown:
        raise BuildError(
            f"{page}: unknown build placeholders {unknown} (known: {list(PAGE_PARTS)})"
        )
    return text


#: In index.html: ``<meta name="release" content="__RELEASE__">``, replaced with the build's
#: release label (``--release``), which the page can be asked for (and which makes a new
#: version of the site even when nothing else changed: the e2e tests' second build).
RELEASE_MARK = "__RELEASE__"


def stamp_release(page: str, release: str) -> str:
    """index.html with its release label (RELEASE_MARK, at most once; "dev" when empty)."""
    label = release or "dev"
    if not re.fullmatch(r"[\w.+-]{1,64}", label):
        raise BuildError(f"release label {label!r}: use 1-64 letters, digits, '.', '+', '-', '_'")
    if page.count(RELEASE_MARK) > 1:
        raise BuildError(f"index.html holds {RELEASE_MARK} more than once")
    return page.replace(RELEASE_MARK, label)


class _Links(HTMLParser):
    """Collects the URLs a page loads: src/href/config of script, link, img, source."""

    TAGS = frozenset({"script", "link", "img", "source", "iframe", "audio", "video"})

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.TAGS:
            return
        for name, value in attrs:
            if name in ("src", "href", "config") and value and not value.lstrip().startswith("{"):
                self.urls.append(value.strip())


def check_page(out: Path, page: str) -> None:
    """Every URL the page loads is a file of the site: nothing from another host, no 404."""
    parser = _Links()
    parser.feed((out / page).read_text(encoding="utf-8"))
    problems = []
    for url in parser.urls:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob"):
            continue
        if parts.scheme or parts.netloc or url.startswith("/"):
            problems.append(
                f"{url} (not relative to the site: no CDN, and the site lives "
                "under /<repo>/ on GitHub Pages)"
            )
            continue
        target = (out / page).parent / unquote(parts.path)
        if parts.path and not target.is_file():
            problems.append(f"{url} (no such file in the built site)")
    if problems:
        raise BuildError(
            f"{page} loads URLs that the site cannot serve:\n  " + "\n  ".join(problems)
        )


_MPY_CONFIG = re.compile(r"<mpy-config\b[^>]*>(.*?)</mpy-config>", re.S)


def check_plugins_off(html: str, page: str, plugins_off: Iterable[str]) -> None:
    """PyScript imports its plugins once per interpreter type, Python and MicroPython, unless
    that type's config turns them off; the build ships only the others. pyscript.json turns them
    off for Python; the page must do it for MicroPython with an inline ``<mpy-config>`` listing
    the same plugins (else the browser asks for chunks the site does not have)."""
    want = sorted(f"!{p}" for p in plugins_off)
    if not want:
        return
    found = _MPY_CONFIG.findall(html)
    try:
        got = sorted(json.loads(found[0])["plugins"]) if len(found) == 1 else None
    except (ValueError, KeyError, TypeError):
        got = None
    if got != want:
        raise BuildError(
            f'{page} must hold one <mpy-config hidden>{{"plugins": {json.dumps(want)}}}'
            "</mpy-config> (PYSCRIPT_PLUGINS_OFF)"
        )
