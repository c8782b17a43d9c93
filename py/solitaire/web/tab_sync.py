"""Two tabs of the page agree: each follows what the other saves.

Every game save carries a revision (``Store.save_game``); a tab never writes over a revision
it has not read. When another tab saves (the ``storage`` event, a save refused as "newer", or
the page shown again), this tab shows the newer game instead of its own older one, and says
that the game went on in another tab. Settings changed in another tab are taken over too.
No ``js`` import: driven by app.py, tested under CPython.
"""

from __future__ import annotations

from .ports import Table

FOLLOWED = "This game went on in another tab: here is where it is now."


class TabSync:
    def __init__(self, controller: Table) -> None:
        self.c = controller

    def storage_changed(self, name: str | None) -> None:
        """Another tab wrote ``name`` (``game.russian``, ``settings``; None: it cleared the
        storage): follow it when it is about what this tab shows."""
        c = self.c
        if name is None or name == f"game.{c.game_id}":
            self.follow_game()
        if name is None or name == "settings":
            self.follow_settings()

    def follow_game(self) -> None:
        """Show the stored game if another tab saved it after this tab last read or wrote it."""
        c = self.c
        if not c.loaded:
            return
        newer = c.store.newer_game(c.game_id)
        if newer is not None:
            game = newer.game
            changed = (
                game.position != c.position
                or game.move_count != c.game.move_count
                or game.can_redo != c.game.can_redo
            )
            other_deal = game.deal != c.game.deal or game.start != c.game.start
            if not changed:  # the same game saved again: only its revision is new
                game.automove = c.settings.automove
                c.saved = newer
            else:
                c.seat(newer, same_board=True)  # its clock runs again from this tab's next move
                if other_deal:  # the other tab dealt a new game: the address names it
                    c.name_table(False)
                c.toast(FOLLOWED, info=True)
                c.announce(FOLLOWED)
        c.show_notices()

    def follow_settings(self) -> None:
        c = self.c
        settings = c.store.load_settings()
        if settings != c.settings:
            c.settings = settings
            c.game.automove = settings.automove
        c.show_notices()
