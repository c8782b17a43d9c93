"""The page's dialogs: deal number, rules, settings, statistics and the win.

Each opens with the state it shows and hands what the player chose to the controller.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from js import document, window

from ..rules import GAMES
from .documents import CARD_BACKS, TABLES, THEMES, Settings
from .dom import by_id
from .text import clock, game_name, plural, stats_table_html, won_html
from .wiring import Wiring

CHECKS = ("set-automove", "set-fourcolor", "set-winnable", "set-tapmove", "set-vibrate")
CONTROLS = (*CHECKS, "set-cardback", "set-table", "set-sound", "set-timer", "set-largecards")


def pick(value: str, choices: tuple[str, ...], fallback: str) -> str:
    """``value`` if it is one of ``choices`` (a select's value), else ``fallback``."""
    return value if value in choices else fallback


def close_all() -> None:
    """Close the dialogs and the menu: the table changed under them (Back, a link)."""
    for dialog in list(document.querySelectorAll("dialog[open]")):
        dialog.close()
    for popover in list(document.querySelectorAll(":popover-open")):
        popover.hidePopover()


class Dialogs:
    def __init__(self, wiring: Wiring, apply_settings: Callable[[], None]) -> None:
        self.controller = wiring.controller
        self.act = wiring.act
        self.apply_settings = apply_settings
        wiring.listen(by_id("form-deal"), "submit", self.on_deal_submit)
        for name in (*CONTROLS, *(f"set-theme-{t}" for t in THEMES)):
            wiring.listen(by_id(name), "change", self.on_setting)
        # after the win, however the dialog closes: the next deal is one key or tap away
        wiring.listen(by_id("dlg-won"), "close", lambda ev: by_id("btn-new").focus())

    # ------------------------------------------------------------------ deal number

    def show_deal(self) -> None:
        by_id("deal-input").value = str(self.controller.game.deal or "")
        by_id("deal-error").textContent = ""
        by_id("dlg-deal").showModal()
        by_id("deal-input").select()

    def on_deal_submit(self, ev: Any) -> None:
        ev.preventDefault()
        text = str(by_id("deal-input").value)
        errors: list[str | None] = []
        self.act(lambda: errors.append(self.controller.deals.choose_deal(text)))
        if errors and errors[0]:
            by_id("deal-error").textContent = errors[0]

    # ------------------------------------------------------------------ rules

    def show_rules(self) -> None:
        self.show_rules_of(self.controller.game_id)
        by_id("dlg-rules").showModal()

    @staticmethod
    def show_rules_of(game_id: str) -> None:
        for section in list(document.querySelectorAll("#dlg-rules section[data-rules]")):
            section.classList.toggle("current", section.dataset.rules == game_id)
        for tab in list(document.querySelectorAll("#dlg-rules .rules-tabs button")):
            tab.setAttribute("aria-pressed", "true" if tab.dataset.game == game_id else "false")

    # ------------------------------------------------------------------ settings

    def show_settings(self) -> None:
        s = self.controller.settings
        by_id("set-automove").checked = s.automove
        by_id("set-fourcolor").checked = s.four_color
        by_id("set-winnable").checked = self.controller.winnable_only_for(self.controller.game_id)
        by_id("set-tapmove").checked = self.controller.tap_move_on
        by_id("set-vibrate").checked = self.controller.vibrate_on
        by_id(f"set-theme-{s.theme}").checked = True
        by_id("set-cardback").value = s.card_back
        by_id("set-table").value = s.table
        by_id("set-sound").checked = s.sound
        by_id("set-timer").checked = s.show_timer
        by_id("set-largecards").checked = s.large_cards
        by_id("dlg-settings").showModal()

    def on_setting(self, ev: Any) -> None:
        old = self.controller.settings
        theme = next((t for t in THEMES if by_id(f"set-theme-{t}").checked), old.theme)
        winnable: bool | None = bool(by_id("set-winnable").checked)
        if old.winnable_only is None and winnable == self.controller.winnable_only_for(
            self.controller.game_id
        ):
            winnable = None  # not touched: it still follows the game
        settings = Settings(
            automove=bool(by_id("set-automove").checked),
            four_color=bool(by_id("set-fourcolor").checked),
            winnable_only=winnable,
            theme=theme,
            tap_move=bool(by_id("set-tapmove").checked),
            vibrate=bool(by_id("set-vibrate").checked),
            card_back=pick(str(by_id("set-cardback").value), CARD_BACKS, old.card_back),
            table=pick(str(by_id("set-table").value), TABLES, old.table),
            sound=bool(by_id("set-sound").checked),
            show_timer=bool(by_id("set-timer").checked),
            large_cards=bool(by_id("set-largecards").checked),
        )
        self.act(self.controller.settings_changed, settings)
        self.apply_settings()

    # ------------------------------------------------------------------ statistics

    def stats_html(self) -> str:
        store = self.controller.store
        return stats_table_html({g: store.load_stats(g) for g in GAMES}, self.controller.game_id)

    def show_stats(self) -> None:
        by_id("stats-body").innerHTML = self.stats_html()
        by_id("dlg-stats").showModal()

    def reset_stats(self) -> None:
        game_id = self.controller.game_id
        if not window.confirm(f"Reset the statistics of {game_name(game_id)}?"):
            return
        self.act(self.controller.reset_stats)
        by_id("stats-body").innerHTML = self.stats_html()

    # ------------------------------------------------------------------ the win

    def show_won(self, announce: Callable[[str], None]) -> None:
        c = self.controller
        game = c.game
        stats = c.store.load_stats(c.game_id)
        by_id("won-body").innerHTML = won_html(
            c.describe_table(),
            game.move_count,
            game.elapsed,
            stats,
            c.ui.progress.won_records,
            c.saved.hints,
        )
        announce(f"You won! {plural(game.move_count, 'move')} in {clock(game.elapsed)}.")
        by_id("dlg-won").showModal()
