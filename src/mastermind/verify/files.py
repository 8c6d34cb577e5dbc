"""What the files anyone can check share (tree files, proof files): a first line naming the format
and its version, a header of one line of JSON naming the game, gzip by name, and writes that a
killed process never leaves half done; how codes are written in them."""

from __future__ import annotations

import gzip
import itertools
import json
import lzma
import os
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..core.rules import Rules
from ..errors import MastermindError, RulesError

GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"


def opener(path: str | os.PathLike[str]) -> Any:
    """The function that opens the file as it is stored, by its first bytes: ``gzip.open``,
    ``lzma.open`` (xz) or ``open`` (plain)."""
    with open(path, "rb") as raw:
        head = raw.read(len(XZ_MAGIC))
    return gzip.open if head[:2] == GZIP_MAGIC else lzma.open if head == XZ_MAGIC else open


def first_word(path: str | os.PathLike[str]) -> str | None:
    """The first word of the file (plain or compressed): its format's name in a tree or proof
    file; None if it cannot be read (its reader then says why)."""
    try:
        with opener(path)(path, "rb") as f:
            head = f.read(64)
    except (OSError, EOFError, zlib.error, lzma.LZMAError):
        return None
    words = head.decode(errors="replace").split(maxsplit=1)
    return words[0] if words else ""


def write_file(path: str | os.PathLike[str], text: str | Iterable[str]) -> None:
    """Write ``text`` (gzip-compressed if the name ends in ``.gz``, xz if in ``.xz``) to a
    temporary file renamed at the end, so that a killed process never leaves half a file under
    the name. ``text`` may come
    in pieces (a large proof's lines: never all in memory at once); the bytes are the same."""
    path = Path(path)
    pieces = [text] if isinstance(text, str) else text
    packer: Any = None
    if path.name.endswith(".gz"):
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # (gzip's own)
    elif path.name.endswith(".xz"):  # (its window spans megabytes: a subproof met again is cheap)
        packer = lzma.LZMACompressor(preset=9)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as out:
            held: list[str] = []
            size = 0
            for piece in itertools.chain(pieces, [""]):
                held.append(piece)
                size += len(piece)
                if size >= 1 << 20 or not piece:
                    data = "".join(held).encode()
                    out.write(data if packer is None else packer.compress(data))
                    held, size = [], 0
            if packer is not None:
                out.write(packer.flush())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def read_text(path: str | os.PathLike[str], kind: str, error: type[MastermindError]) -> str:
    """The text of a ``kind`` file (plain or gzip-compressed), or ``error`` saying why not."""
    name = str(path)
    if not name.strip():  # (Path("") is the working folder)
        raise error(f"no {kind} named: give its path")
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise error(f"{name}: cannot read it ({err.strerror or err})") from None
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as err:
            raise error(f"{name}: a damaged or truncated gzip file ({err})") from None
    elif data[: len(XZ_MAGIC)] == XZ_MAGIC:
        try:
            data = lzma.decompress(data)
        except (lzma.LZMAError, EOFError) as err:
            raise error(f"{name}: a damaged or truncated xz file ({err})") from None
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise error(f"{name}: not a {kind} (not text)") from None


def read_header(
    text: str,
    name: str,
    fmt: str,
    version: int,
    kind: str,
    error: type[MastermindError],
    older: tuple[int, ...] = (),
) -> tuple[list[str], dict[str, Any], Rules]:
    """The file's lines, its header and the game the header names, once its first line is found
    to be ``fmt version`` (or one of the ``older`` versions still read); ``error`` says what is
    wrong and where."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = lines[0].split() if lines else []
    if len(first) != 2 or first[0] != fmt:
        start = f"{fmt} N" if older else f"{fmt} {version}"  # (not the newest: older ones are read too)
        raise error(f"{name}: not a {kind} (it does not start with '{start}')")
    if first[1] not in {str(v) for v in (*older, version)}:
        known = " and ".join(str(v) for v in (*older, version))
        raise error(f"{name}: {kind} format {first[1]!r}; this version reads format {known}")
    if len(lines) < 2:
        raise error(f"{name}: cut short after line 1")
    try:
        header = json.loads(lines[1])
    except json.JSONDecodeError:
        raise error(f"{name}, line 2: the header is not one line of JSON") from None
    if not isinstance(header, dict):
        raise error(f"{name}, line 2: the header is not a JSON object")
    game = header.get("game")
    if not isinstance(game, dict):
        raise error(f"{name}, line 2: the header names no game")
    try:
        rules = Rules(
            pegs=game["pegs"],
            colors=game["colors"],
            repeats=game["repeats"],
            max_guesses=game["max_guesses"],
            blank=game["blank"],
        )
    except KeyError as err:
        raise error(f"{name}, line 2: the game has no {err.args[0]!r}") from None
    except (RulesError, TypeError) as err:
        raise error(f"{name}, line 2: {err}") from None
    return lines, header, rules


def game_dict(rules: Rules) -> dict[str, Any]:
    """The header's ``game``."""
    return {
        "pegs": rules.pegs,
        "colors": rules.colors,
        "repeats": rules.repeats,
        "blank": rules.blank,
        "max_guesses": rules.max_guesses,
    }


_BLANK = "-"


def alphabet(rules: Rules) -> str:
    """The symbols of a game's codes in a tree file, colour by colour (the blank last, ``-``).

    >>> alphabet(Rules()), alphabet(Rules(pegs=4, colors=10, repeats=False))
    ('123456', '0123456789')
    """
    real = rules.real_colors
    if real <= 9:
        symbols = "123456789"
    elif real == 10:
        symbols = "0123456789"
    elif real <= 26:
        symbols = "abcdefghijklmnopqrstuvwxyz"
    else:
        symbols = "0123456789abcdefghijklmnopqrstuvwxyz"
    return symbols[:real] + (_BLANK if rules.blank else "")


def code_text(rules: Rules, code: Sequence[int]) -> str:
    """A code (0-based colours) as tree and proof files write it.

    >>> code_text(Rules(), (0, 0, 1, 2)), code_text(Rules(pegs=4, colors=10), (0, 1, 2, 3))
    ('1123', '0123')
    """
    symbols = alphabet(rules)
    return "".join(symbols[c] for c in code)


def every_code(rules: Rules) -> list[tuple[int, ...]]:
    """Every code of the game, in numeric order (the order of the package's code indices)."""
    if rules.repeats:
        return list(itertools.product(range(rules.colors), repeat=rules.pegs))
    return list(itertools.permutations(range(rules.colors), rules.pegs))
