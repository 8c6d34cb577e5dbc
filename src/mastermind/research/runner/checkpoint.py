"""Checkpoints: what a run has finished, appended to a file as it is finished, so that a run
that was stopped (Ctrl-C, kill -9, a lost machine) resumes where it was.

The file is a :class:`~mastermind.runtime.journal.JsonLines`, each line synced to disk. The first
line names the run (:func:`run_identity`); each other line, with a checksum, is the guess chosen
at a node above the units, the distribution of a finished unit, or (a strategy's own search cut
into pieces) the cost and tree of a finished piece; a piece that found no tree below its budget
has a null tree and that budget as its cost (a proved lower bound). A last line cut short by a
killed process is dropped; anything else that does not check out, or a file of another run,
raises CheckpointError: a checkpoint is never half trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ...core.records import package_version, rules_from_dict, rules_to_dict
from ...core.text import guess_count
from ...errors import CheckpointError, MastermindError
from ...runtime.journal import JsonLines
from ...strategies import Strategy, StrategySpec
from ...strategies.capabilities import tree_search
from .plan import Plan, Unit, unit_size_for

_MAGIC = "mastermind-checkpoint"


#: The layout of a strategy's own search in pieces (2: pieces at any depth, lower bounds kept).
PIECES_FORMAT = 2


def run_identity(spec: StrategySpec, unit_size: int | None) -> dict[str, Any]:
    """What a checkpoint must match to be trusted: the strategy, the game, the cut (None for a
    strategy's own search, cut into pieces as it goes: then the layout of its pieces), the
    package."""
    identity = {
        "strategy": spec.name,
        "rules": rules_to_dict(spec.rules),
        "first": spec.first,
        "options": [[k, v] for k, v in spec.played_options()],
        "unit_size": unit_size,
        "version": package_version(),
    }
    if unit_size is None:
        identity["pieces"] = PIECES_FORMAT
    return identity


def runs_dir() -> Path:
    """Where default checkpoints are kept: ``runs`` under :func:`mastermind.core.records.cache_home`."""
    from ...core.records import cache_home

    return cache_home() / "runs"


def default_checkpoint(strategy: Strategy, unit_size: int | None = None) -> Path:
    """A file under the user cache directory named by the run (strategy, game, cut, version)."""
    identity = run_identity(strategy.spec(), cut_of(strategy, unit_size))
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:12]
    rules = strategy.rules
    game = f"{rules.pegs}x{rules.colors}{'' if rules.repeats else '-norep'}"
    return runs_dir() / f"{strategy.name}-{game}-{digest}.jsonl"


def remove_stale_checkpoints(folder: Path | None = None) -> list[Path]:
    """Delete the checkpoints in ``folder`` (default :func:`runs_dir`) that no run can resume:
    those of another version of the package (the version is part of a run's identity), and
    files that are not checkpoints at all. Returns what was removed."""
    folder = runs_dir() if folder is None else folder
    removed = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        try:
            with open(path, encoding="utf-8") as lines:
                header = json.loads(lines.readline())
            stale = header.get(_MAGIC) != 1 or header["run"]["version"] != package_version()
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            stale = True
        if stale:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def cut_of(strategy: Strategy, unit_size: int | None) -> int | None:
    """The cut a run of ``strategy`` makes, as its identity names it: the unit size, or None for
    a strategy's own search (cut by its root guesses)."""
    return None if tree_search(strategy) is not None else unit_size_for(strategy, unit_size)


def checksum(body: dict[str, Any]) -> str:
    """The check a checkpoint line carries for its body."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


class Checkpoint:
    """What a run has finished, appended to a file as it is finished (see the module); also the
    :class:`~mastermind.strategies.base.PieceBook` of a strategy's own search cut into pieces."""

    def __init__(self, path: str | os.PathLike[str], identity: dict[str, Any]) -> None:
        self.path = Path(path)
        self.identity = identity
        self.guesses: dict[str, int] = {}
        self.units: dict[str, tuple[int, dict[int, int]]] = {}  # key -> (line number, distribution)
        self.pieces: dict[str, tuple[int, int | None, np.ndarray | None]] = {}  # key -> (line, cost, tree)
        self._file = JsonLines(self.path)

    def open(self) -> None:
        """Read what an earlier run finished (or create the file); then ready to append."""
        where = f"checkpoint {self.path}"
        try:
            lines = self._file.read()
        except OSError as err:
            raise CheckpointError(f"cannot read {where}: {err.strerror}") from err
        if lines is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file.create(json.dumps({_MAGIC: 1, "run": self.identity}, sort_keys=True))
            return
        header: Any = None
        with contextlib.suppress(ValueError):
            header = json.loads(lines[0]) if lines else None
        if not isinstance(header, dict) or header.get(_MAGIC) != 1:
            raise CheckpointError(f"{where} is not a mastermind checkpoint; delete it or name another file")
        if header.get("run") != self.identity:
            raise CheckpointError(
                f"{where} belongs to another run ({_describe(header.get('run'))}); "
                "delete it or name another file"
            )
        for number, line in enumerate(lines[1:], 2):
            try:
                item = json.loads(line)
                kind = next(k for k in ("node", "piece", "unit") if k in item)
                body = item[kind]
                ok = checksum(body) == item["check"]
                if kind == "node":
                    self.guesses[str(body["key"])] = int(body["guess"])
                elif kind == "piece":
                    cost, tree = int(body["cost"]), body["tree"]
                    flat = None if tree is None else np.array([int(v) for v in tree], dtype=np.int64)
                    self.pieces[str(body["key"])] = (number, cost, flat)
                else:
                    dist = {int(k): int(n) for k, n in body["distribution"].items()}
                    self.units[str(body["key"])] = (number, dist)
            except (ValueError, KeyError, TypeError, AttributeError, StopIteration):
                ok = False
            if not ok:
                raise self.damaged(number)
        self._file.repair()  # (a line cut short by a kill: its work is done again)

    def damaged(self, line: int) -> CheckpointError:
        return CheckpointError(f"checkpoint {self.path} is damaged at line {line}; delete it to start again")

    def finished(self, plan: Plan) -> dict[str, dict[int, int]]:
        """The finished units, each checked against the plan (its key, its number of secrets)."""
        known = {u.key: u.size for u in plan.units}
        for key, (line, dist) in self.units.items():
            if known.get(key) != sum(dist.values()) or min(dist, default=1) < 1:
                raise self.damaged(line)
        return {key: dist for key, (_, dist) in self.units.items()}

    def _append(self, items: list[dict[str, Any]]) -> None:
        self._file.append(json.dumps(item, sort_keys=True) for item in items)

    def record_guesses(self, chosen: Iterable[tuple[str, int]]) -> None:
        """Append chosen guesses (node key, guess); they are on disk when this returns."""
        items = []
        for key, guess in chosen:
            body = {"key": key, "guess": guess}
            items.append({"node": body, "check": checksum(body)})
            self.guesses[key] = guess
        self._append(items)

    def record(self, finished: Iterable[tuple[Unit, dict[int, int]]]) -> None:
        """Append finished units; they are on disk when this returns."""
        items = []
        for unit, dist in finished:
            body = {"key": unit.key, "distribution": {str(k): n for k, n in sorted(dist.items())}}
            items.append({"unit": body, "check": checksum(body)})
        self._append(items)

    def record_piece(self, key: str, cost: int | None, flat: np.ndarray | None) -> None:
        """Append a finished piece of a search (``flat`` None: ``cost`` is a lower bound); it is
        on disk when this returns."""
        body = {"key": key, "cost": cost, "tree": None if flat is None else flat.tolist()}
        self._append([{"piece": body, "check": checksum(body)}])
        self.pieces[key] = (0, cost, flat)

    def close(self) -> None:
        """Nothing is held open between appends: kept for the runs that close what they open."""


def _describe(run: Any) -> str:
    if not isinstance(run, dict):
        return "unknown"
    try:
        rules = rules_from_dict(run["rules"])
        game = f"{rules.describe()}, at most {guess_count(rules.max_guesses)}"
    except (KeyError, MastermindError):  # a damaged or foreign header: say what it holds
        game = repr(run.get("rules"))
    return f"{run.get('strategy')} on {game}, version {run.get('version')}"
