"""The key of the code of the day, kept beside the history it belongs to.

The code of the day (:mod:`mastermind.games.daily`) is drawn from the date and a key that only
its server knows. The key is made at random the first time it is asked for and written next to
the history database (``history.sqlite3.daily-key``, readable by its owner only), so that the
codes are the same after a restart, and a new history gets codes of its own. The file is made
whole or not at all: written under another name, then linked into place, which fails if another
process made it first (that one's key is then used).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from ..errors import StoreError

#: The key's length in bytes.
KEY_BYTES = 32


def daily_key_path(history: Path) -> Path:
    """Where the key of the history at ``history`` is kept."""
    return history.with_name(history.name + ".daily-key")


def daily_key(history: Path) -> bytes:
    """The key of the code of the day kept beside ``history`` (made and kept on first use).

    Raises:
        StoreError: the key's file cannot be read or made, or is not a key.
    """
    path = daily_key_path(history)
    key = _read(path)
    if key is not None:
        return key
    made = path.with_name(f"{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(secrets.token_bytes(KEY_BYTES).hex() + "\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):  # made by another first: never two keys
            os.link(made, path)
    except OSError as err:
        raise StoreError(
            f"cannot make the key of the code of the day {path}: {err.strerror or err}"
        ) from None
    finally:
        made.unlink(missing_ok=True)
    key = _read(path)
    assert key is not None
    return key


def _read(path: Path) -> bytes | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as err:
        raise StoreError(f"cannot read the key of the code of the day {path}: {err}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise StoreError(f"{path} is not a key of the code of the day ({KEY_BYTES * 2} hex digits)")
    return key
