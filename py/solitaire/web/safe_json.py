"""Parse text that anyone on the site's origin may have written (``localStorage``) without
letting it stop the page.

Pyodide's ``json.loads`` recurses once per nesting level on the JavaScript stack: a few
thousand nested brackets end in a fatal "Maximum call stack size exceeded" that no ``except``
catches. So the text is measured first (its length, and how deep its brackets nest), and only
then parsed, with the non-standard ``NaN``/``Infinity`` refused and every number finite.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate, repeat
from operator import sub
from typing import Any

#: Deeper than anything the page writes (a save nests 6 levels) and far below what overflows.
MAX_DEPTH = 32

_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[]{}", b"\x02\x00\x02\x00")  # an opener 2, a closer 0: minus 1


class BadDocument(ValueError):
    """The stored text is not a document the page can read; the message says why, in words
    for the player ("it is nested too deeply")."""


def nesting_ok(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """Whether the brackets of ``text`` nest at most ``max_depth`` deep.

    Every bracket counts, inside strings too: the page's documents hold no brackets in their
    strings, so this only ever refuses text that is not one of them. The running depth is a
    running sum of +1/-1 steps, done by C-level iterators (no Python loop, no recursion):
    about 0.25 s per million brackets on a loaded test machine.
    """
    steps = _NOT_BRACKET.sub("", text).encode("ascii").translate(_STEPS)
    return max(accumulate(map(sub, steps, repeat(1))), default=0) <= max_depth


def _refuse_constant(name: str) -> Any:
    raise BadDocument(f"it holds {name}, which is not a number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadDocument(f"the number {text[:20]} is too large")
    return value


def parse_stored(text: str, max_chars: int) -> Any:
    """The JSON value of ``text``; raises ``BadDocument`` when it is longer than ``max_chars``,
    nested too deeply, not JSON, or holds a number that is not finite."""
    if len(text) > max_chars:
        raise BadDocument(f"it is too large: {len(text):,} characters")
    if not nesting_ok(text):
        raise BadDocument("it is nested too deeply")
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except BadDocument:
        raise
    except (ValueError, RecursionError) as error:  # JSONDecodeError, int digit limit
        raise BadDocument("it is not valid JSON") from error
