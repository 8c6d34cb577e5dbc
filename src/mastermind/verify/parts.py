"""A check cut into parts that any machines may check apart (``mastermind verify --part I/N``): the
cut is found from the proof's shape alone, so every machine cuts it alike, and the claim holds once
every part has passed."""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable
from dataclasses import dataclass

#: The most parts a check is cut into: far more than machines anyone shares a check among.
MAX_PARTS = 100_000


@dataclass(frozen=True)
class Parts:
    """Parts ``first`` to ``last`` (from 1), in that order (down, if ``last`` is the lower), of a
    check cut into ``count`` parts, which any machines may check apart: the proof holds when
    every part does (see :class:`_Cut`). Two machines that take the parts from opposite ends
    (``1-N/N`` and ``N-1/N``) meet wherever their speeds put them."""

    first: int
    last: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Parts:
        """``I/N`` (part I of N) or ``I-J/N`` (parts I to J of N, down if J is below I).

        Raises:
            ValueError: not such a text, N below 1, or parts outside 1 to N (the message says
                which, and quotes the text).
        """
        found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?/\s*(\d+)\s*", text)
        if not found:
            raise ValueError(f"{text[:40]!r} is not I/N (part I of N) or I-J/N (parts I to J of N)")
        first, last, count = int(found[1]), int(found[2] or found[1]), int(found[3])
        shown = text.strip()
        if count < 1:
            raise ValueError(f"a check is cut into at least 1 part ({shown})")
        if count > MAX_PARTS:  # each part's lines are counted in a list: a huge N is a MemoryError
            raise ValueError(f"a check is cut into at most {MAX_PARTS:,} parts ({shown})")
        if not (1 <= first <= count and 1 <= last <= count):
            span = "a check cut in 1 part has only part 1" if count == 1 else f"parts run from 1 to {count}"
            raise ValueError(f"{span} ({shown})")
        return cls(first, last, count)

    @property
    def numbers(self) -> range:
        """The parts, in the order they are checked."""
        step = 1 if self.first <= self.last else -1
        return range(self.first, self.last + step, step)

    @property
    def whole(self) -> bool:
        return {self.first, self.last} == {1, self.count}

    def others(self) -> list[Parts]:
        """The parts of the same cut that these are not."""
        low, high = sorted((self.first, self.last))
        return [
            Parts(first, last, self.count)
            for first, last in ((1, low - 1), (high + 1, self.count))
            if first <= last
        ]

    def text(self) -> str:
        """As :meth:`parse` reads it."""
        return (
            f"{self.first}/{self.count}"
            if self.first == self.last
            else f"{self.first}-{self.last}/{self.count}"
        )


#: The pieces per part, at least, that a check cut into parts deals out (:class:`_Cut`).
PIECES_PER_PART = 32


class _Cut:
    """A check cut into ``count`` parts, from the proof's shape alone, so that every machine
    cuts it alike. The nodes of more than :attr:`limit` lines (this one and all below) are
    checked in every part, as is the root: the sets below them are worked out from them. Each
    other node whose parent is such a node is a piece, checked with all below it by one part
    (:func:`_pieces`): the pieces are dealt out the largest first (the first in the file first,
    among those of a size), each to the part with the fewest lines so far. A node is checked
    with the same set, guesses left and K in any part as in the whole check, so the parts
    together check every line that it does.

    ``owner``: each piece's part (from 0) and lines, by its path (the places of the lines that
    lead to it from the root); ``lines``: each part's lines; ``shared``: the lines every part
    checks."""

    def __init__(self, pieces: list[tuple[int, tuple[int, ...]]], nodes: int, count: int) -> None:
        self.owner: dict[tuple[int, ...], tuple[int, int]] = {}
        self.lines = [0] * count
        fewest = [(0, part) for part in range(count)]
        for size, path in sorted((-size, path) for size, path in pieces):
            lines, part = heapq.heappop(fewest)
            self.owner[path] = (part, -size)
            self.lines[part] -= size
            heapq.heappush(fewest, (lines - size, part))
        self.shared = nodes - sum(self.lines)

    def nodes_checked(self, parts: Parts) -> int:
        """The nodes a check of these parts checks: each part's, and those every part checks."""
        return self.shared + sum(self.lines[part - 1] for part in parts.numbers)


def _pieces(lines: Iterable[str], nodes: int, count: int) -> list[tuple[int, tuple[int, ...]]]:
    """The pieces of a proof's ``nodes`` lines cut for ``count`` parts (see :class:`_Cut`),
    each with its lines, found from the lines' indents alone: a node's lines end where a line
    is indented no deeper than its own."""
    limit = max(1, nodes // (count * PIECES_PER_PART))
    pieces: list[tuple[int, tuple[int, ...]]] = []
    # The nodes along the path to the line read: where each begins, its path, and its lines'
    # sizes so far (each with its path).
    stack: list[tuple[int, tuple[int, ...], list[tuple[int, tuple[int, ...]]]]] = []

    def end(at: int) -> None:
        start, path, below = stack.pop()
        size = at - start
        if not path or size > limit:  # (the root, or a node every part checks)
            pieces.extend(piece for piece in below if piece[0] <= limit)
        if stack:
            stack[-1][2].append((size, path))

    at = 0
    for at, line in enumerate(lines):
        depth = len(line) - len(line.lstrip(" "))
        while len(stack) > depth:
            end(at)
        path = (*stack[-1][1], len(stack[-1][2])) if stack else ()
        stack.append((at, path, []))
    while stack:
        end(at + 1)
    return pieces
