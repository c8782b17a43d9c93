"""Every effect the controller can ask for has its handler in the page (``App.handlers``).

app.py imports the browser's ``js`` and cannot be imported under CPython, so its table is
read from the source: an effect with no entry would fail only in the browser, and only when
it is first emitted.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from solitaire.web import state

APP = Path(state.__file__).with_name("app.py")


def effect_types() -> set[str]:
    return {
        name
        for name, value in vars(state).items()
        if inspect.isclass(value) and issubclass(value, state.Effect) and value is not state.Effect
    }


def handled_types() -> set[str]:
    """The ``fx.X`` keys of the dict assigned to ``self.handlers`` in app.py."""
    for node in ast.walk(ast.parse(APP.read_text(encoding="utf-8"))):
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(ast.unparse(t) == "self.handlers" for t in targets):
                return {ast.unparse(k).removeprefix("fx.") for k in node.value.keys if k}
    raise AssertionError("app.py assigns no self.handlers dict")


def test_every_effect_has_a_handler_and_every_handler_an_effect() -> None:
    effects, handled = effect_types(), handled_types()
    assert len(effects) > 20
    assert effects - handled == set(), "effects app.py does not carry out"
    assert handled - effects == set(), "handlers of no effect in state.py"
