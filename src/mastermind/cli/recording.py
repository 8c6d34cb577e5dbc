"""The history's recorder for the commands that play: it also prints its warning, and says how
to resume a game. Its own module: only the commands that save games import the history's store."""

from __future__ import annotations

from typing import Any

import click

from ..history import store as store_module


class Recorder(store_module.Recorder):
    """The history's recorder (mastermind.history.store.Recorder), which also prints its warning once and
    says how to resume."""

    def save(self, record: dict[str, Any]) -> str | None:
        """Save; a warning printed once; a game saved by another session meanwhile stops here, in
        one line that says what was not kept and how to go on with the saved game (exit 2)."""
        warning = super().save(record)
        if self.elsewhere is not None:
            from .common import fail

            command = record.get("kind", "play")
            again = f"mastermind {command}{self.db_option()} --resume {self.id}"
            fail(f"{self.elsewhere}: {self.lost} not kept; go on with the saved game: {again}")
        if warning:
            click.echo(f"mastermind: warning: {warning}", err=True)
        return warning

    def resume_hint(self, command: str) -> str:
        """How to go on with the saved game: '; resume with mastermind play --resume 3' (with --db
        when the history is not the default one), or why it cannot be resumed."""
        if self.store is None or (self.behind and self.id is None):
            what = "match" if command == "match" else "game"
            return f" (the {what} is not saved in the history: it cannot be resumed)"
        if self.id is None:  # a game with no move is not kept: the history keeps nothing of it
            return " before any move: there is nothing to resume"
        again = f"mastermind {command}{self.db_option()} --resume {self.id}"
        if self.behind:  # the history could not be written since: it holds an earlier state
            n = self.saved_moves()
            kept = f"{n} guess{'es' if n != 1 else ''}"
            return (
                f" (the last moves could not be saved: the history keeps it with {kept}; "
                f"{again} goes on from there)"
            )
        return f"; resume with {again}"

    def db_option(self) -> str:
        """' --db PATH' when the history is not the default one, else ''."""
        import shlex

        from ..history.store import default_path

        if self.path is None or self.path == default_path():
            return ""
        return f" --db {shlex.quote(str(self.path))}"
