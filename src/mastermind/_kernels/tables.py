"""The arrays every compiled kernel reads for one code space, as one named structure."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.code import CodeSpace

#: Largest colour-multiset table for the shared-colour count (uint8 entries).
SHARED_TABLE_LIMIT = 1 << 24


class CodeTables(NamedTuple):
    """Codes of one game in the forms the kernels need (numba takes it as one argument).

    Attributes:
        digits: (size, pegs) uint8 colours of every code.
        packed: (size,) uint64, a code's colours 4 or 8 bits a peg (see :func:`feedback.reply`).
        msid: (size,) int32 number of the code's colour multiset.
        shared: (kinds, kinds) uint8 colours two multisets share, or (0, 0) where too big.
        counts: (size, colors) uint8 pegs of each colour (used where ``shared`` is empty).
        pegs, colors: the game.
        width: bits a peg in ``packed`` (4 up to 16 colours, else 8).
    """

    digits: np.ndarray
    packed: np.ndarray
    msid: np.ndarray
    shared: np.ndarray
    counts: np.ndarray
    pegs: int
    colors: int
    width: int


class Symmetry(NamedTuple):
    """What the guesses so far leave interchangeable (for the partition strategies' search).

    Attributes:
        used: bit mask of the colours some guess has played (the others are interchangeable).
        blocks: (pegs,) int64 label per position; positions with one label were coloured alike
            by every guess.
    """

    used: np.int64
    blocks: np.ndarray


def build_tables(space: CodeSpace) -> CodeTables:
    digits = space.digits()
    counts = space.counts()
    width = 4 if space.colors <= 16 else 8
    packed = np.zeros(space.size, dtype=np.uint64)
    for i in range(space.pegs):
        packed |= digits[:, i].astype(np.uint64) << np.uint64(width * i)
    kinds, msid = np.unique(counts, axis=0, return_inverse=True)
    if len(kinds) ** 2 <= SHARED_TABLE_LIMIT:
        shared = np.empty((len(kinds), len(kinds)), dtype=np.uint8)
        for a in range(len(kinds)):
            shared[a] = np.minimum(kinds[a], kinds).sum(axis=1)
    else:
        shared = np.zeros((0, 0), dtype=np.uint8)
    return CodeTables(
        digits, packed, msid.astype(np.int32).ravel(), shared, counts, space.pegs, space.colors, width
    )


def symmetry(tables: CodeTables, guesses) -> Symmetry:
    """Colours used and position blocks after the given guesses (code indices)."""
    used = 0
    columns: list[tuple[int, ...]] = [() for _ in range(tables.pegs)]
    for g in guesses:
        for i, colour in enumerate(tables.digits[g].tolist()):
            used |= 1 << colour
            columns[i] = (*columns[i], colour)
    labels: dict[tuple[int, ...], int] = {}
    blocks = np.array([labels.setdefault(c, len(labels)) for c in columns], dtype=np.int64)
    return Symmetry(np.int64(used), blocks)


_TABLES: dict[tuple[int, int, bool], CodeTables] = {}


def tables_of(space: CodeSpace) -> CodeTables:
    """The tables of ``space``, built once (a few games per process are kept)."""
    key = (space.pegs, space.colors, space.rules.repeats)
    if key not in _TABLES:
        if len(_TABLES) >= 4:  # never grows without bound
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = build_tables(space)
    return _TABLES[key]
