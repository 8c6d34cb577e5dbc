"""Records: plain, versioned dicts of games, matches and evaluation runs.

A record holds only JSON types (codes are written in the game's own notation, replies as
``"BLACK,WHITE"``), so the same dict serves ``--json`` output, the history store and the web page,
and reading it back gives the same game. Every record carries ``version``; a record from a newer
version of the package is refused rather than misread.

Version 2 added ``blank`` to the rules (a game with an empty hole as its last colour); a version-1
record has no blank and reads as such. Version 3 added ``assists`` to a game: the hints asked and
the guesses taken back, in order, each with the number of the guess it came at
(``{"kind": "hint", "turn": 3, "guess": "1235"}``, ``{"kind": "undo", "turn": 4, "guess": "3312",
"reply": "0,2"}``); an older record has none, and its ``hints`` count is all it says of its hints.
Version 4 added ``fixed`` to a move whose reply was fixed: its earlier replies, oldest first, each
with the number of the first guess made after the fix (``{"guess": "1344", "reply": "0,1",
"fixed": [{"reply": "1,0", "turn": 4}]}``: guess 3 was made knowing 1,0); an older record has none.

>>> rules_from_dict(rules_to_dict(Rules(pegs=5, colors=8, max_guesses=12)))
Rules(pegs=5, colors=8, max_guesses=12)
>>> rules_from_dict(rules_to_dict(Rules(pegs=5, colors=9, blank=True)))
Rules(pegs=5, colors=9, blank=True)
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import RecordError
from .code import Code
from .feedback import Feedback
from .notation import Notation
from .rules import Rules

#: The version of the record layout written by this package.
RECORD_VERSION = 4


@functools.cache
def package_version() -> str:
    """The installed mastermind-lab's version, which records of runs and cached results carry."""
    found = _installed_version()
    if found is not None:
        return found
    from importlib.metadata import PackageNotFoundError, version

    try:  # an installation of another kind (an egg, a zip): importlib.metadata knows them all
        return version("mastermind-lab")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        return "unknown"


def _installed_version() -> str | None:
    """The ``Version`` of the first ``mastermind_lab-*.dist-info`` on ``sys.path`` (where
    importlib.metadata finds it), read without importing importlib.metadata, which imports
    email, zipfile and csv: a fiftieth of a second of a command that asks for the version."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.lower().startswith("mastermind_lab-") and name.endswith(".dist-info"):
                try:
                    with open(os.path.join(folder, name, "METADATA"), encoding="utf-8") as meta:
                        for line in meta:
                            if line.startswith("Version:"):
                                return line.partition(":")[2].strip()
                            if not line.strip():
                                break  # the end of the headers
                except OSError:
                    pass
    return None


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The rules as JSON: ``colors`` counts the blank, which ``blank`` says is the last colour."""
    return {
        "pegs": rules.pegs,
        "colors": rules.colors,
        "repeats": rules.repeats,
        "max_guesses": rules.max_guesses,
        "blank": rules.blank,
    }


def rules_from_dict(data: dict[str, Any]) -> Rules:
    try:
        return Rules(
            pegs=data["pegs"],
            colors=data["colors"],
            repeats=data["repeats"],
            max_guesses=data["max_guesses"],
            blank=data.get("blank", False),  # absent before version 2
        )
    except (KeyError, TypeError) as err:
        raise RecordError(f"a record's rules are incomplete: {err}") from None


def check_version(record: dict[str, Any], kind: str | tuple[str, ...]) -> None:
    """Raise RecordError unless ``record`` is a record of ``kind`` this package can read."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    kinds = (kind,) if isinstance(kind, str) else kind
    if record.get("kind") not in kinds:
        raise RecordError(f"not a record of a {' or '.join(kinds)}: kind is {record.get('kind')!r}")
    version = record.get("version")
    if not isinstance(version, int) or version < 1:
        raise RecordError(f"a record has no valid version: {version!r}")
    if version > RECORD_VERSION:
        raise RecordError(
            f"the record is of version {version}, newer than this package reads ({RECORD_VERSION}); "
            "upgrade mastermind-lab"
        )


def code_text(rules: Rules, code: Code | None) -> str | None:
    return None if code is None else Notation(rules).format_code(code)


def code_from_text(rules: Rules, text: str | None) -> Code | None:
    if text is None:
        return None
    return _read_code(rules, text) if isinstance(text, str) else Notation(rules).parse_code(text)


def reply_text(fb: Feedback) -> str:
    return f"{fb.black},{fb.white}"


def reply_from_text(rules: Rules, text: str) -> Feedback:
    return _read_reply(rules, text) if isinstance(text, str) else Notation(rules).parse_feedback(text)


# A history's records hold the same few codes and replies over and over (its listings read every
# record with the engine): each text is read once for its rules. Rules, codes and replies are
# immutable; a text that cannot be read raises every time (errors are not cached).
@functools.lru_cache(maxsize=4096)
def _read_code(rules: Rules, text: str) -> Code:
    return Notation(rules).parse_code(text)


@functools.lru_cache(maxsize=4096)
def _read_reply(rules: Rules, text: str) -> Feedback:
    return Notation(rules).parse_feedback(text)


#: Environment variable that moves the whole cache (optimal trees, checkpoints of runs).
CACHE_ENV = "MASTERMIND_CACHE_DIR"


def cache_home() -> Path:
    """MASTERMIND_CACHE_DIR if it is set, else the user's cache directory: the root of what can be
    computed again (``optimal`` trees, ``runs`` checkpoints), as the history is of what cannot."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("mastermind-lab"))
