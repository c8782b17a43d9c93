"""The page: the browser glue between the engine (``solitaire``) and the DOM.

``app`` is the controller (events, undo, routing, settings, statistics), ``board`` draws the
table with one element per card, ``store`` keeps games, settings and statistics in
``localStorage``. ``store`` and ``text`` import nothing from the browser, so CPython tests can
use them; ``app`` and ``board`` need Pyodide's ``js`` module. See docs/ui.md.
"""
