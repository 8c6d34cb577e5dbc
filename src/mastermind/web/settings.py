"""A visitor's settings: the game their next game is, who plays it, how the board looks.

Kept per visitor in the history database (:meth:`mastermind.store.Store.save_visitor`); a visitor
who saved none gets the server's defaults (the game options of ``mastermind web``). Every value is
checked as it arrives, and the games package says whether the whole makes a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import Notation, Rules
from ..core.rules import DEFAULT_MAX_GUESSES
from ..errors import MastermindError, RulesError, SettingsError
from ..games import settings as rules_of_play

#: The modes of play, by the name the API uses, and the kind of their records in the history.
KIND_OF_MODE = {"break": "play", "solve": "guess", "match": "match"}
MODE_OF_KIND = {kind: mode for mode, kind in KIND_OF_MODE.items()}
MODES = {mode: rules_of_play.MODES[kind] for mode, kind in KIND_OF_MODE.items()}

#: How pegs are coloured: the usual colours, or a palette told apart with any colour vision.
PALETTES = ("standard", "colour-blind")

#: How the page looks: the system's light or dark (as it asks), light, dark, or high contrast.
THEMES = ("system", "light", "dark", "high-contrast")


@dataclass
class VisitorSettings(rules_of_play.Settings):
    """The games package's settings of a visitor's next game, with the API's names of the modes, and how
    the board looks: the notation of codes, the palette and the theme."""

    mode: str = "break"
    notation: str = ""
    palette: str = "standard"
    theme: str = "system"

    @property
    def kind(self) -> str:
        return KIND_OF_MODE.get(self.mode, self.mode)

    @classmethod
    def modes(cls) -> list[str]:
        return list(MODES)

    def check(self) -> None:
        if self.mode not in MODES:
            raise SettingsError(f"there is no mode {self.mode!r}; the modes are: {', '.join(MODES)}")
        if self.palette not in PALETTES:
            palettes = ", ".join(PALETTES)
            raise SettingsError(f"there is no palette {self.palette!r}; the palettes are: {palettes}")
        if self.theme not in THEMES:
            raise SettingsError(f"there is no theme {self.theme!r}; the themes are: {', '.join(THEMES)}")
        Notation(self.rules, self.notation)
        super().check()

    @classmethod
    def stored(cls, data: Any, default: VisitorSettings) -> VisitorSettings:
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
    return Rules(
        pegs=data["pegs"],
        colors=data["colors"],
        repeats=data.get("repeats", True),
        max_guesses=data.get("max_guesses", DEFAULT_MAX_GUESSES),
        blank=data.get("blank", False),
    )
