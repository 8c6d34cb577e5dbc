"""What a player's next game is: the mode, the game's rules, who plays it.

The terminal UI keeps these in a file and the web server per visitor; both check them here, so a
game that cannot be played (a strategy that cannot play it, a match of an odd number of games) is
refused in the same words wherever the settings come from.

>>> Settings(mode="guess", pegs=5, colors=8).rules
Rules(pegs=5, colors=8)
>>> Settings().updated({"preset": "bulls-and-cows"}).rules.describe()
'4 pegs, 10 colours, no repeats'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Self

from ..core.rules import DEFAULT_MAX_GUESSES, Rules, find_rules
from ..errors import SettingsError
from .game import Game
from .match import Match

#: What each setting that is a player's preference (not the game's) does, in one line, the same
#: in every front end that shows it.
PREFERENCES = {
    "warn_inconsistent": "Warn before playing a guess that cannot be the secret (it contradicts a reply)",
    "hard": "Hard mode: every guess must be one that could still be the secret",
}

#: The games a player starts, by the kind of their records, and what each is.
MODES = {
    "play": "You break the computer's code",
    "guess": "The computer breaks yours",
    "match": "A match between two players",
}


@dataclass
class Settings:
    """What the next game is. ``colors`` counts real colours: the blank, when ``blank`` is set, is
    one more (as the commands' ``--colors`` and ``--blank``)."""

    mode: str = "play"
    pegs: int = 4
    colors: int = 6
    repeats: bool = True
    max_guesses: int = DEFAULT_MAX_GUESSES
    blank: bool = False
    strategy: str = "knuth"
    players: list[str] = field(default_factory=lambda: ["human", "knuth"])
    games: int = 2
    scoring: str = "standard"
    #: warn before a guess that cannot be the secret is played (:func:`.moves.inconsistency`)
    warn_inconsistent: bool = False
    #: hard mode: a guess that cannot be the secret is refused (:meth:`.game.Game.check_hard`)
    hard: bool = False

    @property
    def kind(self) -> str:
        """The kind of game the mode starts (a record's ``kind``)."""
        return self.mode

    @property
    def rules(self) -> Rules:
        return Rules(
            pegs=self.pegs,
            colors=self.colors + self.blank,
            repeats=self.repeats,
            max_guesses=self.max_guesses,
            blank=self.blank,
        )

    def with_rules(self, rules: Rules) -> Self:
        self.pegs, self.colors, self.repeats, self.max_guesses, self.blank = (
            rules.pegs,
            rules.real_colors,
            rules.repeats,
            rules.max_guesses,
            rules.blank,
        )
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        """Raise the game's error if these settings make no game."""
        if self.kind not in MODES:
            raise SettingsError(f"there is no mode {self.mode!r}; the modes are: {', '.join(self.modes())}")
        if self.kind == "match":
            Match(self.rules, self.players, self.games, self.scoring, strategy=self.strategy)
        elif self.kind == "guess":
            Game.solving(self.rules, self.strategy)
        else:
            Game.breaking(self.rules, strategy=self.strategy)

    @classmethod
    def modes(cls) -> list[str]:
        """The names the mode may take."""
        return list(MODES)

    def updated(self, data: Any) -> Self:
        """These settings with ``data``'s values (an object of some of the fields, and ``preset``: a
        game by name), checked; SettingsError, or the game's error, if a value is wrong."""
        if not isinstance(data, dict):
            raise SettingsError("settings must be a JSON object")
        known = {f.name for f in fields(self)}
        values = self.to_dict()
        for name, value in data.items():
            if name == "preset":
                continue
            if name not in known:
                raise SettingsError(f"there is no setting {name!r}; the settings are: {', '.join(known)}")
            default = values[name]
            if type(value) is not type(default) or (
                isinstance(value, list) and not all(isinstance(p, str) for p in value)
            ):
                kind = {bool: "true or false", int: "a whole number", str: "text", list: "a list of names"}[
                    type(default)
                ]
                raise SettingsError(f"setting {name} must be {kind}, not {value!r}")
            values[name] = value
        settings = replace(self, **values)
        if "preset" in data:
            preset = data["preset"]
            if not isinstance(preset, str):
                raise SettingsError(f"preset must be a name, not {preset!r}")
            settings.with_rules(find_rules(preset))
        settings.check()
        return settings
