"""Journals: the files of JSON lines that a long run appends to as it finishes each piece of its
work, so that the same run started again (after Ctrl-C, kill -9, a lost machine) takes what was
finished instead of doing it again.

:class:`JsonLines` is the file: created whole with its first line or not at all, each line
appended whole, flushed and synced to disk before the run goes on. A last line without its
newline was being written when the process was killed: it is left out when the file is read,
and cut from the file before anything is appended after it. What the lines mean, and what a
line that does not read means, is the business of whoever reads them.

:class:`Journal` is such a file whose first line names the search (its ``head``: what it is, its
game and whatever else its records depend on) and whose other lines are its records: any whole
line that does not read, or a first line of another search, is an error: a journal is never half
trusted.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from ..errors import CheckpointError

T = TypeVar("T")


class JsonLines:
    """The file of lines at ``path``, appended to line by line, each on disk when written.

    Its methods raise OSError where the file cannot be read or written: the caller words it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._whole: int | None = None  # the bytes of its whole lines, where a torn line follows them

    def read(self) -> list[str] | None:
        """The whole lines of the file, without their newlines; None where there is no file. A
        last line cut short is left out (and cut from the file by :meth:`repair`)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return None
        whole = raw.rfind(b"\n") + 1
        self._whole = whole if whole < len(raw) else None
        return raw[:whole].decode("utf-8", errors="replace").split("\n")[:-1]

    def repair(self) -> None:
        """Cut the last line that :meth:`read` left out, if any, so that the next line appended
        begins a line of its own."""
        if self._whole is not None:
            with open(self.path, "r+b") as f:
                f.truncate(self._whole)
            self._whole = None

    def create(self, first: str) -> None:
        """Write the file anew with its first line: it exists whole, or as it was before."""
        temp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(temp, "w", encoding="utf-8") as out:
                out.write(first + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        finally:
            temp.unlink(missing_ok=True)
        self._whole = None

    def append(self, lines: Iterable[str]) -> None:
        """Add lines, on disk before this returns (a torn last line cut first)."""
        self.repair()
        with open(self.path, "a", encoding="utf-8") as out:
            out.write("".join(line + "\n" for line in lines))
            out.flush()
            os.fsync(out.fileno())


class Journal:
    """The journal at ``path`` of the search that ``head`` names (``head["checkpoint"]``: its
    kind, named in errors by ``what``; ``head["game"]``: its game, a dict with ``pegs`` and
    ``colors`` among its keys)."""

    def __init__(self, path: str | os.PathLike[str], head: dict[str, Any], what: str) -> None:
        self.path, self.head, self.what = str(path), head, what
        self._file = JsonLines(path)

    def read(
        self, parse: Callable[[Any], T], differs: Callable[[dict[str, Any]], str | None] = lambda head: None
    ) -> list[T]:
        """The records, each read by ``parse`` (which raises ValueError, KeyError or TypeError
        where a record does not hold what it claims, CheckpointError with its own words where it
        is whole but not one this search can take); none for a new or empty file, whose first
        line is then written. ``differs(head)``: why a journal of this kind and game, but with
        that first line, is not this search's (None: it is).

        Raises:
            CheckpointError: the file cannot be read or written, is not this search's, or is
                damaged.
        """
        try:
            lines = self._file.read()
        except OSError as err:
            raise CheckpointError(f"cannot read the checkpoint {self.path}: {err.strerror or err}") from None
        if not lines or not any(line.strip() for line in lines):
            self._write(lambda: self._file.create(json.dumps(self.head)))
            return []
        try:
            first: Any = json.loads(lines[0])
        except ValueError:
            first = None
        if not isinstance(first, dict) or first.get("checkpoint") != self.head["checkpoint"]:
            raise CheckpointError(f"{self.path} is not a checkpoint of {self.what}")
        theirs = first.get("game")
        if theirs != self.head["game"]:
            raise CheckpointError(
                f"{self.path} is the checkpoint of another game ({_game_text(theirs, self.head['game'])})"
            )
        why = differs(first)
        if why is not None:
            raise CheckpointError(f"{self.path} {why}")
        records = []
        for i, line in enumerate(lines[1:], start=1):
            if not line.strip():
                continue
            try:
                records.append(parse(json.loads(line)))
            except CheckpointError:  # (a record this search cannot take, said by ``parse``)
                raise
            except (ValueError, KeyError, TypeError):
                raise CheckpointError(f"{self.path}, line {i + 1}: damaged") from None
        self._write(self._file.repair)  # (a line cut short by a kill: its work is done again)
        return records

    def append(self, record: dict[str, Any]) -> None:
        """Add one record, on disk before this returns."""
        self._write(lambda: self._file.append([json.dumps(record)]))

    def _write(self, write: Callable[[], None]) -> None:
        try:
            write()
        except OSError as err:
            raise CheckpointError(f"cannot write the checkpoint {self.path}: {err.strerror or err}") from None


def _game_text(theirs: Any, mine: dict[str, Any]) -> str:
    """A checkpoint's game in words, with what differs from this search's beyond its size (a
    guess limit, repeats, the blank), which its pegs and colours alone would not show."""
    if not isinstance(theirs, dict):
        return "an unnamed game"
    text = f"{theirs.get('pegs')} pegs, {theirs.get('colors')} colours"
    differ = [
        f"{key.replace('_', ' ')} {theirs.get(key)}, not {mine.get(key)}"
        for key in mine
        if key not in ("pegs", "colors") and theirs.get(key) != mine.get(key)
    ]
    return "; ".join([text, *differ])
