"""The app's settings, remembered between sessions in the user's config directory.

MASTERMIND_CONFIG names another file (tests use a temporary one). A missing, unreadable or
outdated file gives the defaults: settings are a convenience, never a reason not to start; what
was wrong with the file is said once (the app shows it as a notification).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..errors import MastermindError
from ..games import settings as rules_of_play
from ..games.settings import MODES

#: The environment variable that names the settings file.
ENV_VAR = "MASTERMIND_CONFIG"


def default_path() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    from platformdirs import user_config_dir

    return Path(user_config_dir("mastermind-lab")) / "tui.json"


@dataclass
class SavedSettings(rules_of_play.Settings):
    """The games package's settings of the next game (its mode, its rules, who plays), kept in a file."""

    @classmethod
    def load(cls, path: Path | None = None) -> SavedSettings:
        """The settings in ``path`` (default: :func:`default_path`); the defaults if it cannot be read."""
        return cls.read(path)[0]

    @classmethod
    def read(cls, path: Path | None = None) -> tuple[SavedSettings, str | None]:
        """The settings in ``path`` (default: :func:`default_path`), and what was wrong with the file
        (None when nothing was, or when there is no file yet): a file that cannot be read or makes no
        game gives the defaults; values of the wrong kind, or unknown, are left out."""
        path = path or default_path()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(), None
        except OSError as err:
            return cls(), f"{path} cannot be read ({err.strerror or err}); the default settings are used"
        except ValueError:
            return cls(), f"{path} is not JSON; the default settings are used"
        if not isinstance(data, dict):
            return cls(), f"{path} is not a JSON object; the default settings are used"
        known = {f.name for f in fields(cls)}
        defaults = asdict(cls())
        values: dict[str, Any] = {}
        ignored = []
        for k, v in data.items():
            if k in known and type(v) is type(defaults[k]):
                values[k] = v
            else:
                ignored.append(k)
        settings = cls(**values)
        try:
            settings.rules  # noqa: B018 - a file edited by hand into an impossible game: the defaults
        except MastermindError as err:
            return cls(), f"{path}: {err}; the default settings are used"
        if settings.mode not in MODES:
            return cls(), f"{path}: no mode {settings.mode!r}; the default settings are used"
        if len(settings.players) != 2:
            return cls(), f"{path}: a match has 2 players; the default settings are used"
        return settings, f"{path}: {', '.join(ignored)} ignored" if ignored else None

    def save(self, path: Path | None = None) -> str | None:
        """Write the settings (atomically); the reason as text if they could not be written."""
        path = path or default_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
            os.replace(tmp, path)
        except OSError as err:
            return f"the settings could not be saved to {path}: {err.strerror or err}"
        return None
