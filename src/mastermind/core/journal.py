"""A journal: the file of JSON lines that a long search appends to as it finishes each piece of
its work, so that the same search started again (after Ctrl-C, kill -9, a lost machine) takes
what was finished instead of doing it again.

The first line names the search (its ``head``: what it is, its game and whatever else its
records depend on); each other line is one record, written whole, flushed and synced to disk
before the search goes on. A last line cut short by a killed process is dropped (and cut from
the file); any other line that does not read, or a first line of another search, is an error:
a journal is never half trusted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import CheckpointError

T = TypeVar("T")


class Journal:
    """The journal at ``path`` of the search that ``head`` names (``head["checkpoint"]``: its
    kind, named in errors by ``what``; ``head["game"]``: its game, a dict with ``pegs`` and
    ``colors`` among its keys)."""

    def __init__(self, path: str | os.PathLike[str], head: dict[str, Any], what: str) -> None:
        self.path, self.head, self.what = str(path), head, what

    def read(
        self, parse: Callable[[Any], T], differs: Callable[[dict[str, Any]], str | None] = lambda head: None
    ) -> list[T]:
        """The records, each read by ``parse`` (which raises ValueError, KeyError or TypeError
        where a record does not hold what it claims); none for a new or empty file, whose first
        line is then written. ``differs(head)``: why a journal of this kind and game, but with
        that first line, is not this search's (None: it is).

        Raises:
            CheckpointError: the file cannot be read or written, is not this search's, or is
                damaged.
        """
        try:
            with open(self.path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raw = b""
        except OSError as err:
            raise CheckpointError(f"cannot read the checkpoint {self.path}: {err.strerror or err}") from None
        if not raw.strip():
            self._write(json.dumps(self.head), "w")
            return []
        try:
            lines = raw.decode("utf-8").split("\n")
            first: Any = json.loads(lines[0])
        except ValueError:  # UnicodeDecodeError too
            first = None
        if not isinstance(first, dict) or first.get("checkpoint") != self.head["checkpoint"]:
            raise CheckpointError(f"{self.path} is not a checkpoint of {self.what}")
        theirs = first.get("game")
        if theirs != self.head["game"]:
            game = (
                f"{theirs.get('pegs')} pegs, {theirs.get('colors')} colours"
                if isinstance(theirs, dict)
                else "an unnamed game"
            )
            raise CheckpointError(f"{self.path} is the checkpoint of another game ({game})")
        why = differs(first)
        if why is not None:
            raise CheckpointError(f"{self.path} {why}")
        records = []
        whole = len(lines) - 1 if raw.endswith(b"\n") else len(lines) - 2  # the last line whole?
        for i, line in enumerate(lines[1:], start=1):
            if not line.strip():
                continue
            try:
                records.append(parse(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                if i > whole:  # cut short by a kill: dropped, and its work done again
                    with open(self.path, "r+b") as f:
                        f.truncate(len(raw) - len(line.encode("utf-8")))
                    break
                raise CheckpointError(f"{self.path}, line {i + 1}: damaged") from None
        return records

    def append(self, record: dict[str, Any]) -> None:
        """Add one record, on disk before this returns."""
        self._write(json.dumps(record), "a")

    def _write(self, line: str, mode: str) -> None:
        try:
            with open(self.path, mode, encoding="utf-8") as f:
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as err:
            raise CheckpointError(f"cannot write the checkpoint {self.path}: {err.strerror or err}") from None
