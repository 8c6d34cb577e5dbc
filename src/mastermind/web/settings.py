"""A visitor's settings: the game their next game is, who plays it, how the board looks.

Kept per visitor in the history database (:meth:`mastermind.store.Store.save_visitor`); a visitor
who saved none gets the server's defaults (the game options of ``mastermind web``). Every value is
checked as it arrives, and the engine says whether the whole makes a game.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .. import Game, Match, Notation, Rules, find_rules
from ..errors import MastermindError, RulesError

#: The modes of play, by the name the API uses, and the kind of their records in the history.
MODES = {
    "break": "You break the computer's code",
    "solve": "The computer breaks yours",
    "match": "A match between two players",
}
KIND_OF_MODE = {"break": "play", "solve": "guess", "match": "match"}
MODE_OF_KIND = {kind: mode for mode, kind in KIND_OF_MODE.items()}

#: How pegs are coloured: the usual colours, or a palette told apart with any colour vision.
PALETTES = ("standard", "colour-blind")


class SettingsError(MastermindError, ValueError):
    """A setting of the wrong kind or out of range."""


@dataclass
class Settings:
    """What a visitor's next game is. ``colors`` counts real colours: the blank, when ``blank`` is
    set, is one more (as ``--colors`` and ``--blank`` of the commands)."""

    mode: str = "break"
    pegs: int = 4
    colors: int = 6
    repeats: bool = True
    max_guesses: int = 10
    blank: bool = False
    strategy: str = "knuth"
    players: list[str] = field(default_factory=lambda: ["human", "knuth"])
    games: int = 2
    scoring: str = "standard"
    notation: str = ""
    palette: str = "standard"

    @property
    def rules(self) -> Rules:
        return Rules(pegs=self.pegs, colors=self.colors + self.blank, repeats=self.repeats,
                     max_guesses=self.max_guesses, blank=self.blank)  # fmt: skip

    def with_rules(self, rules: Rules) -> Settings:
        self.pegs, self.colors, self.repeats, self.max_guesses, self.blank = (
            rules.pegs, rules.real_colors, rules.repeats, rules.max_guesses, rules.blank,
        )  # fmt: skip
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def updated(self, data: Any) -> Settings:
        """These settings with ``data``'s values (a JSON object of some of the fields, and
        ``preset``: a game by name); SettingsError, or the engine's error, if a value is wrong."""
        if not isinstance(data, dict):
            raise SettingsError("settings must be a JSON object")
        known = {f.name: f for f in fields(self)}
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
                kind = {bool: "true or false", int: "a whole number", str: "text",
                        list: "a list of names"}[type(default)]  # fmt: skip
                raise SettingsError(f"setting {name} must be {kind}, not {value!r}")
            values[name] = value
        settings = Settings(**values)
        if "preset" in data:
            preset = data["preset"]
            if not isinstance(preset, str):
                raise SettingsError(f"preset must be a name, not {preset!r}")
            settings.with_rules(find_rules(preset))
        settings.check()
        return settings

    def check(self) -> None:
        """Raise the engine's error if these settings make no game."""
        if self.mode not in MODES:
            raise SettingsError(f"there is no mode {self.mode!r}; the modes are: {', '.join(MODES)}")
        if self.palette not in PALETTES:
            palettes = ", ".join(PALETTES)
            raise SettingsError(f"there is no palette {self.palette!r}; the palettes are: {palettes}")
        rules = self.rules
        Notation(rules, self.notation)
        if self.mode == "match":
            Match(rules, self.players, self.games, self.scoring, strategy=self.strategy)
        elif self.mode == "solve":
            Game.solving(rules, self.strategy)
        else:
            Game.breaking(rules, strategy=self.strategy)

    @classmethod
    def stored(cls, data: Any, default: Settings) -> Settings:
        """Settings saved earlier (``default``'s where they no longer make a game)."""
        try:
            return default.updated(data)
        except (MastermindError, TypeError):
            return default


def rules_from_json(data: Any) -> Rules:
    """Rules as the API takes them, as records write them: ``colors`` counts the blank, the last
    colour when ``blank`` is true; ``repeats`` (true), ``max_guesses`` (10) and ``blank`` (false)
    may be left out."""
    if not isinstance(data, dict):
        raise RulesError('rules must be a JSON object, e.g. {"pegs": 4, "colors": 6}')
    known = ("pegs", "colors", "repeats", "max_guesses", "blank")
    unknown = [k for k in data if k not in known]
    if unknown:
        raise RulesError(f"rules have no {unknown[0]!r}; they are: {', '.join(known)}")
    for name in ("pegs", "colors"):
        if name not in data:
            raise RulesError(f'rules need {name!r}, e.g. {{"pegs": 4, "colors": 6}}')
    for name in ("repeats", "blank"):
        if name in data and not isinstance(data[name], bool):
            raise RulesError(f"{name} must be true or false, not {data[name]!r}")
    return Rules(pegs=data["pegs"], colors=data["colors"], repeats=data.get("repeats", True),
                 max_guesses=data.get("max_guesses", 10), blank=data.get("blank", False))  # fmt: skip
