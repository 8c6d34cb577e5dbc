"""Seeds: every random draw of the package comes from a generator made here, from a checked seed.

>>> int(generator(7, 3).integers(100)) == int(generator(7, 3).integers(100))
True
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from ..errors import SeedError

if TYPE_CHECKING:
    import numpy as np


#: The largest seed: the history keeps a run's seed as an SQLite integer (signed, 64 bits), and
#: a game's record is read back only with a seed below 2**63.
MAX_SEED = 2**63 - 1


def check_seed(seed: int | None) -> int | None:
    """``seed`` if it is None or a whole number from 0 to MAX_SEED; otherwise a SeedError."""
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise SeedError(f"a seed must be a whole number, 0 or more, not {seed!r}")
    if seed is not None and seed > MAX_SEED:
        raise SeedError(f"a seed must be at most {MAX_SEED:,}, not {seed!r}")
    return seed


def generator(seed: int | None, *keys: int) -> np.random.Generator:
    """A generator drawn from ``seed`` and ``keys`` (e.g. the secret of one game of a run); a fresh
    one from the operating system when ``seed`` is None."""
    import numpy as np

    check_seed(seed)
    return np.random.default_rng(None if seed is None else [seed, *keys])


def fresh_seed() -> int:
    """A new random seed, drawn from the operating system and reported, so that the game or run it
    seeds can be repeated."""
    return secrets.randbelow(2**31)
