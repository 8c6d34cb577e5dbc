"""Proof files: checkable proofs of what no tree can do.

Two claims, each written by a search and replayed here, in plain Python, with the scoring rule's
specification and none of the search's code (no numpy, no numba):

* **guesses**: no tree finds every secret of a game within D guesses. ``mastermind worst`` finds
  the least number of guesses that always suffices by a decision search
  (``mastermind.strategies.optimal.worst``) and writes each "no" as such a proof.
* **total**: every tree's total (the guesses over all secrets, the winning one counted) is at
  least L, whatever its guess limit. ``mastermind evaluate -s optimal --proof FILE`` writes one
  for the lower bound it reports (``mastermind.strategies.optimal.lower``).

The checker recomputes every claim it relies on: each set of secrets (from the guesses and
replies that lead to it), each cell, each counting step and each symmetry that lets a guess go
unchecked.

Format, version 2 (docs/worst.md and docs/optimal.md say the same, with examples)::

    mastermind-proof 2
    {"game": {"pegs": 4, "colors": 6, ...}, "claim": "guesses", "guesses": 4, "secrets": 1296, ...}
    all 1023/123456,0213/123456,...
     1111 0,0 count
     1112 0,0 count
     1123 1,1 all -
      ...
    end 6

* Line 1: the format's name and version (a version 1 file, the same without ``claim``, is read
  as a claim on guesses). Line 2: one JSON object: ``game`` (as in tree files), ``claim``
  (``guesses`` or ``total``) and its number (``guesses``: D, or ``total``: L), and the counts the
  check compares: ``secrets`` (the game's codes) and ``nodes`` (the lines of the proof).
  Optional, with a claim on guesses: ``first``, a list of codes: the claim is then that no tree
  within D guesses begins with one of them (at the root, exactly those must fail, each by a
  line or by counting). Anything else is information.
* Then the proof, one node per line, in preorder. The root (unindented) is every code of the
  game. Any other node is indented one space per level and reads ``GUESS BLACK,WHITE KIND``:
  its set S is the secrets of its parent's set that give that reply to that guess.
* K bounds the replies other than the win that any guess gives on a node's set: at the root the
  game's number of such replies; below a node, the most replies other than the win that a guess
  gives on that node's set (computed by the checker), which bounds those on any subset.
* GENS (``-`` for none) lists, comma-separated, permutations ``PEGS/COLOURS`` of the codes:
  PEGS gives p(0), p(1)... and COLOURS s(0), s(1)..., each a symbol of
  ``0123456789abcdefghijklmnopqrstuvwxyz``; the permutation maps a code x to y with
  ``y[i] = s(x[p(i)])``. Each must map S onto itself (the checker checks it); a permutation of
  pegs and colours changes no reply, so a guess and its image split S alike. In a game with
  repeats, a guess holding colours that no secret of S holds splits S as the guess with each of
  them replaced by the least such colour does (they give no black and no white). The checker
  groups every code of the game into classes under the permutations and these replacements (the
  colours held by no secret it finds itself) and checks the least code of each class. Child
  lines may name further guesses (they are checked too), never one twice.

In a proof on **guesses**, a node says that S cannot all be found within k guesses: k = D at the
root, its parent's less one below. KIND is one of:

  - ``count``: S has more secrets than k guesses can tell apart: ``|S| > F(K, k)``, where
    ``F(K, 0) = 0`` and ``F(K, k) = 1 + K * F(K, k - 1)``.
  - ``all GENS``: every guess fails: either by a child line naming it (its cell with that reply
    cannot be found within k - 1 guesses, proved by the child) or, if no line names it, by
    counting: its largest cell other than the win has more than ``F(K, k - 1)`` secrets.

In a proof on the **total**, every node is ``total L GENS``: every tree for S costs at least L
(the guesses over S's secrets, counted from this node's guess; L of the root is the claim).
Each guess's cost on S is ``|S|`` plus its cells' costs (the cells other than the win), and a
cell of m secrets costs at least ``T(K, m) = sum over j >= 0 of max(0, m - F(K, j))`` (1 secret
found by the first guess, at most K more by the second, K**2 by the third...), or the L of a
child line naming that guess and reply if larger. Each guess checked must reach L that way,
except one that leaves S whole (a single cell, S itself): no best tree plays it, as leaving it
out would save ``|S|``.

* Last line: ``end`` and the number of nodes, so that a file cut short is refused.

Codes are written as in tree files (:func:`mastermind.core.treefile.alphabet`), replies
``black,white``; a file whose name ends in ``.gz`` is gzip-compressed (recognised by its first
bytes, whatever its name).
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import gzip
import heapq
import itertools
import json
import multiprocessing
import os
import queue
import re
import signal
import sys
import threading
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import ExecutorError, ProofError
from .checkfile import GZIP_MAGIC, game_dict, read_header, read_text, write_file
from .feedback import Feedback
from .rules import Rules
from .treefile import alphabet, code_text, every_code

#: The format's name, on the first line with its version.
FORMAT = "mastermind-proof"
#: The version this module writes; it reads version 1 too (a claim on guesses, without ``claim``).
VERSION = 2

#: What a proof may claim: no tree within so many guesses, or no tree below a total.
CLAIMS = ("guesses", "total")


def lane_memory(jobs: int = 1) -> int:
    """What the checker keeps of the secrets' reply indicators by default, in each of the
    ``jobs`` processes of a check: an eighth of the memory this process may use (the machine's,
    or a container's limit where it is lower: the limit of its own control group, not of those
    above it), shared among them, from 128 MB to 2 GB each; it assumes one check at a time on the
    machine. The sets a proof
    of a large game checks two or three guesses deep come from sets of hundreds or thousands of
    secrets, scored again and again unless their indicators are kept (a proof on Super
    Mastermind: 1,423 s of CPU with 2 GB, more than 4,000 s with 128 MB; docs/results.md)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system, or it does not say
        return 128 << 20
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(limit, encoding="ascii") as f:
                total = min(total, int(f.read()))
        except (OSError, ValueError):  # none, or "max": no limit of that kind
            continue
    return min(2 << 30, max(128 << 20, total // 8 // jobs))


#: Bytes the checker keeps of each secret's reply indicators (see ``_Game.indicators``).
LANE_MEMORY = lane_memory()

#: What a guess that leaves its set whole is given, added to its total: never below a claim (such
#: a guess is skipped).
SKIP = 1 << 30

#: The symbols of peg and colour numbers in a permutation.
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


#: A permutation of codes: the pegs' images, then the colours'.
Perm = tuple[tuple[int, ...], tuple[int, ...]]


def reach(K: int, k: int) -> int:
    """F(K, k): the most secrets that k guesses can find when no guess gives more than K
    replies other than the win: 1 with the first guess, K more with the second, K**2 with the
    third... (each guess finds at most one secret, the one it names, and splits the rest).

    >>> [reach(13, k) for k in range(5)]
    [0, 1, 14, 183, 2380]
    """
    return sum(K**i for i in range(k))


def least_total(K: int, m: int) -> int:
    """T(K, m): the least total of any tree for m secrets when no guess gives more than K replies
    other than the win: each secret past the first F(K, j) needs a guess more.

    >>> [least_total(13, m) for m in (1, 2, 14, 15, 183)]
    [1, 3, 27, 30, 534]
    """
    total, j = 0, 0
    while (r := reach(K, j)) < m:
        total += m - r
        j += 1
    return total


def other_replies(pegs: int) -> int:
    """The game's number of replies other than the win: ``black + white <= pegs``, without
    ``(pegs - 1, 1)`` (which never occurs) and the win itself.

    >>> other_replies(4), other_replies(5)
    (13, 19)
    """
    return (pegs + 1) * (pegs + 2) // 2 - 2


@dataclass
class ProofNode:
    """A node of a proof: ``count``, or ``all`` or ``total`` with its permutations and child
    lines, each (guess, reply, node); ``total``: the least total claimed (``total`` nodes);
    ``line``: where it was read (0 if built)."""

    kind: str
    gens: list[Perm] = field(default_factory=list)
    children: list[tuple[tuple[int, ...], Feedback, ProofNode]] = field(default_factory=list)
    line: int = 0
    total: int = 0

    def text(self) -> str:
        """The node's kind as written in a file (after its guess and reply)."""
        if self.kind == "count":
            return "count"
        if self.kind == "total":
            return f"total {self.total} {_gens_text(self.gens)}"
        return "all " + _gens_text(self.gens)

    def size(self) -> int:
        """Nodes in this proof (this one and all below)."""
        total, stack = 0, [self]
        while stack:
            node = stack.pop()
            if isinstance(node, PackedNode):
                total += node.nodes  # (counted when packed: not unpacked to count)
                continue
            total += 1
            stack.extend(child for _, _, child in node.children)
        return total


class PackedNode(ProofNode):
    """A node of a proof on the total whose lines (its own and all below) are kept as compressed
    text, as a proof file writes them: a prover holds a large proof this way, a tenth or less of
    its size as nodes, and writes it (:meth:`ProofFile.write`) without unpacking it.
    :attr:`children` unpacks them, once (the lines below then say where they are in the packed
    text, not in a file); ``nodes``: its lines."""

    def __init__(self, rules: Rules, body: str, nodes: int) -> None:  # (body: its lines, its own first)
        words = body.split("\n", 1)[0].split()
        if len(words) != 3 or words[0] != "total" or not (words[1].isascii() and words[1].isdigit()):
            raise ProofError(f"a packed line {body[:40]!r} is not 'total LEAST PERMUTATIONS'")
        self.kind, self.total, self.line = "total", int(words[1]), 0
        self.gens = _parse_gens(words[2], rules.pegs, rules.colors, "a packed line")
        self.rules, self.nodes = rules, nodes
        self.packed = zlib.compress(body.encode(), 1)
        self.unpacked: list[tuple[tuple[int, ...], Feedback, ProofNode]] | None = None

    @classmethod
    def pack(cls, rules: Rules, node: ProofNode) -> PackedNode:
        """The node (a ``total`` node) and its lines, packed."""
        lines = list(_lines(node, alphabet(rules)))
        return cls(rules, "\n".join(lines), len(lines))

    def body(self) -> str:
        """Its lines, as a proof file writes them: its own first, unindented."""
        return zlib.decompress(self.packed).decode()

    @property
    def children(self) -> list[tuple[tuple[int, ...], Feedback, ProofNode]]:
        if self.unpacked is None:  # (kept once read: a check reads them more than once)
            head = json.dumps({"game": game_dict(self.rules), "claim": "total", "total": self.total})
            text = f"{FORMAT} {VERSION}\n{head}\n{self.body()}\nend {self.nodes}\n"
            self.unpacked = ProofFile.loads(text, "a packed line").root.children
        return self.unpacked

    @children.setter
    def children(self, value: list[tuple[tuple[int, ...], Feedback, ProofNode]]) -> None:
        raise TypeError("a packed node's lines are read-only")

    def __repr__(self) -> str:
        return f"<PackedNode total={self.total}: {self.nodes:,} lines, {len(self.packed):,} bytes packed>"


def _lines(root: ProofNode, symbols: str) -> Iterator[str]:
    """A node's lines as a proof file writes them (in preorder, each indented one space more
    than its parent, after its guess and reply): its own first, unindented."""
    stack: list[tuple[ProofNode, int, str]] = [(root, 0, "")]
    while stack:
        node, depth, lead = stack.pop()
        pad = " " * depth
        if isinstance(node, PackedNode):
            first, *rest = node.body().split("\n")
            yield f"{pad}{lead}{first}"
            yield from (pad + line for line in rest)  # (indented from its own line already)
            continue
        yield f"{pad}{lead}{node.text()}"
        for guess, reply, child in reversed(node.children):
            code = "".join(symbols[c] for c in guess)
            stack.append((child, depth + 1, f"{code} {reply.black},{reply.white} "))


@dataclass(frozen=True)
class Checked:
    """What a checked proof proved: no tree finds every secret of ``rules`` within ``guesses``
    (claim ``guesses``), or every tree's total is at least ``total`` (claim ``total``)."""

    rules: Rules
    claim: str
    guesses: int
    total: int
    nodes: int
    secrets_scored: int
    first: tuple[str, ...] = ()
    #: The parts checked, if only some (:class:`Parts`): the claim then holds once every other
    #: part is checked too; ``nodes`` is then the lines those parts checked.
    parts: Parts | None = None

    @property
    def whole(self) -> bool:
        """Whether the whole proof was checked (not only some of its parts)."""
        return self.parts is None or self.parts.whole


@dataclass(frozen=True)
class Parts:
    """Parts ``first`` to ``last`` (from 1), in that order (down, if ``last`` is the lower), of a
    check cut into ``count`` parts, which any machines may check apart: the proof holds when
    every part does (see :class:`_Split`). Two machines that take the parts from opposite ends
    (``1-N/N`` and ``N-1/N``) meet wherever their speeds put them."""

    first: int
    last: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Parts:
        """``I/N`` (part I of N) or ``I-J/N`` (parts I to J of N, down if J is below I).

        Raises:
            ValueError: not such a text, or parts outside 1 to N (the message says so).
        """
        found = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?/\s*(\d+)\s*", text)
        if not found:
            raise ValueError(f"{text[:40]!r} is not I/N (part I of N) or I-J/N (parts I to J of N)")
        first, last, count = int(found[1]), int(found[2] or found[1]), int(found[3])
        if not (1 <= first <= count and 1 <= last <= count):
            raise ValueError(f"{text!r}: parts run from 1 to {count}")
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


@dataclass
class ProofFile:
    """A whole proof and its header (see the module's documentation): ``claim`` is ``guesses``
    (no tree within ``guesses``) or ``total`` (no tree below ``total``; ``guesses`` is then 0)."""

    rules: Rules
    guesses: int
    root: ProofNode
    header: dict[str, Any]
    claim: str = "guesses"
    total: int = 0
    first: tuple[tuple[int, ...], ...] = ()
    _splits: dict[int, _Split] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, rules: Rules, guesses: int, root: ProofNode, **info: Any) -> ProofFile:
        """A proof that no tree finds every secret within ``guesses``; with ``first`` (codes as
        written in the file), that no such tree begins with one of those guesses."""
        header = _header(rules, root, {"claim": "guesses", "guesses": guesses}, info)
        symbols = alphabet(rules)
        first = tuple(tuple(symbols.index(ch) for ch in code) for code in info.get("first", ()))
        return cls(rules, guesses, root, header, first=first)

    @classmethod
    def of_total(cls, rules: Rules, total: int, root: ProofNode, **info: Any) -> ProofFile:
        """A proof that every tree's total is at least ``total`` (``root.total``)."""
        header = _header(rules, root, {"claim": "total", "total": total}, info)
        return cls(rules, 0, root, header, "total", total)

    # -- writing ---------------------------------------------------------------------------

    def dumps(self) -> str:
        return "".join(self._text())

    def _text(self) -> Iterator[str]:
        """The file's text, line by line."""
        yield f"{FORMAT} {VERSION}\n"
        yield json.dumps(self.header, separators=(", ", ": ")) + "\n"
        count = 0
        for line in _lines(self.root, alphabet(self.rules)):
            count += 1
            yield line + "\n"
        yield f"end {count}\n"

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the file (gzip-compressed if its name ends in ``.gz``), through a temporary
        file renamed at the end, so that a killed process never leaves half a file; line by
        line (a proof of millions of lines is never all in memory as text)."""
        write_file(path, self._text())

    # -- reading ---------------------------------------------------------------------------

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> ProofFile:
        """Read a proof file (plain or gzip-compressed).

        Raises:
            ProofError: it cannot be read, is not a proof file of this version, or is damaged
                or cut short.
        """
        return cls.loads(read_text(path, "proof file", ProofError), str(path))

    @classmethod
    def loads(cls, text: str, name: str = "proof file") -> ProofFile:
        lines, header, rules = read_header(text, name, FORMAT, VERSION, "proof file", ProofError, older=(1,))
        claim, number = _claim(lines[0], header, name)
        if len(lines) < 3 or not lines[-1].startswith("end "):
            raise ProofError(f"{name}: cut short (no 'end' line)")
        body = lines[2:-1]
        try:
            count = int(lines[-1][4:])
        except ValueError:
            raise ProofError(f"{name}, line {len(lines)}: a damaged 'end' line") from None
        if count != len(body) or not body:
            raise ProofError(f"{name}: {len(body):,} nodes, where its 'end' line says {count:,}: damaged")
        reader = _Reader(rules, claim, name)
        first = reader.first(header)
        root = ProofNode("count")
        path: list[ProofNode] = []
        for i, line in enumerate(body, start=3):
            depth, guess, reply, node = reader.take(i, line)
            if guess is None:
                root = node
            else:
                assert reply is not None
                path[depth - 1].children.append((guess, reply, node))
            del path[depth:]
            path.append(node)
        if claim == "total":
            if root.total != number:
                raise ProofError(f"{name}, line 3: the root claims {root.total}, the header {number}")
            return cls(rules, 0, root, header, "total", number)
        return cls(rules, number, root, header, first=tuple(first))

    # -- checking --------------------------------------------------------------------------

    def split(self, count: int) -> _Split:
        """The cut of its check into ``count`` parts (see :class:`_Split`), made once."""
        found = self._splits.get(count)
        if found is None:
            nodes = self.root.size()
            lines = _lines(self.root, alphabet(self.rules))
            found = self._splits[count] = _Split(_pieces(lines, nodes, count), nodes, count)
        return found

    def nodes_checked(self, parts: Parts | None = None) -> int:
        """The nodes that a check of these parts (the whole proof if None) checks: the proof's,
        or those of each part and those checked in every part."""
        return self.root.size() if parts is None else self.split(parts.count).nodes_checked(parts)

    def check(
        self,
        progress: Callable[[int], None] | None = None,
        jobs: int = 1,
        parts: Parts | None = None,
        passed: Callable[[int, int], None] | None = None,
    ) -> Checked:
        """:func:`check`."""
        return check(self, progress, jobs, parts, passed)


def _claim(first_line: str, header: dict[str, Any], name: str) -> tuple[str, int]:
    """The claim a proof's header makes (``guesses`` or ``total``) and its number."""
    claim = header.get("claim", "guesses") if first_line.split()[1] != "1" else "guesses"
    if claim not in CLAIMS:
        raise ProofError(f"{name}, line 2: the claim {str(claim)[:40]!r} is not 'guesses' or 'total'")
    number = header.get(claim)
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise ProofError(
            f"{name}, line 2: {claim!r} is not a number of guesses"
            if claim == "guesses"
            else f"{name}, line 2: 'total' is not a whole number"
        )
    return claim, number


class _Reader:
    """A proof's lines read one at a time (:meth:`take`), each checked for its form as it comes:
    its indent under the node above it, its code, reply, kind and permutations, no guess named
    twice under one node (a guess and reply, on the total), no line under a ``count``. Only the
    path to the last line is kept, so a proof of any size can be read line by line."""

    def __init__(self, rules: Rules, claim: str, name: str) -> None:
        self.rules, self.claim, self.name = rules, claim, name
        self.symbols = alphabet(rules)
        # (the same few codes and permutations come back on line after line: each read once)
        self.codes: dict[str, tuple[int, ...]] = {}
        self.perms: dict[str, list[Perm]] = {}
        self.replies: dict[str, Feedback] = {}
        # The nodes along the path to the last line, each with what its lines name: a guess
        # once (a claim on guesses), a guess and reply once (on the total: a guess may have a
        # line for each of its cells); ``base``: the top node's indent.
        self.path: list[tuple[ProofNode, set[tuple[tuple[int, ...], str]]]] = []
        self.base = 0
        self.firsts = False  # whether the header names first guesses: 'all' at the root

    def again(self) -> _Reader:
        """A reader of the proof from its first line again, sharing this one's codes and
        permutations."""
        reader = _Reader.__new__(_Reader)
        reader.__dict__.update(self.__dict__)
        reader.path, reader.base = [], 0
        return reader

    def below(self, node: ProofNode, indent: int) -> _Reader:
        """A reader of the lines below a node read already (at that indent), sharing this one's
        codes and permutations."""
        reader = _Reader.__new__(_Reader)
        reader.__dict__.update(self.__dict__)
        reader.path, reader.base = [(node, set())], indent
        return reader

    def code(self, token: str, at: int) -> tuple[int, ...]:
        code = self.codes.get(token)
        if code is not None:
            return code
        rules = self.rules
        if len(token) != rules.pegs or any(ch not in self.symbols for ch in token):
            raise ProofError(f"{self.name}, line {at}: {token[:40]!r} is not a code of {rules.describe()}")
        code = tuple(self.symbols.index(ch) for ch in token)
        if not rules.repeats and len(set(code)) != rules.pegs:
            raise ProofError(f"{self.name}, line {at}: {token!r} repeats a colour in a game without repeats")
        self.codes[token] = code
        return code

    def gens(self, token: str, at: int) -> list[Perm]:
        gens = self.perms.get(token)
        if gens is None:
            where = f"{self.name}, line {at}"
            gens = self.perms[token] = _parse_gens(token, self.rules.pegs, self.rules.colors, where)
        return gens

    def node(self, words: list[str], at: int) -> ProofNode:
        if self.claim == "total":
            if len(words) == 3 and words[0] == "total" and words[1].isascii() and words[1].isdigit():
                return ProofNode("total", self.gens(words[2], at), line=at, total=int(words[1]))
            raise ProofError(f"{self.name}, line {at}: not 'total LEAST PERMUTATIONS'")
        if words == ["count"]:
            return ProofNode("count", line=at)
        if len(words) == 2 and words[0] == "all":
            return ProofNode("all", self.gens(words[1], at), line=at)
        raise ProofError(f"{self.name}, line {at}: not 'count' or 'all PERMUTATIONS'")

    def first(self, header: dict[str, Any]) -> list[tuple[int, ...]]:
        """The header's ``first`` guesses (a claim on guesses about those first guesses alone)."""
        first: list[tuple[int, ...]] = []
        if "first" in header:
            listed = header["first"]
            if self.claim != "guesses" or not isinstance(listed, list) or not listed:
                raise ProofError(
                    f"{self.name}, line 2: 'first' is a list of first guesses (a claim on guesses)"
                )
            for token in listed:
                code = self.code(str(token), 2)
                if code in first:
                    raise ProofError(f"{self.name}, line 2: first guess {token} listed twice")
                first.append(code)
        self.firsts = bool(first)
        return first

    def take(self, at: int, line: str) -> tuple[int, tuple[int, ...] | None, Feedback | None, ProofNode]:
        """Line ``at``: its depth below the top node, its guess and reply, and its node. The
        first line read (without :meth:`below`) is the root: no guess, no reply, depth 0."""
        name = self.name
        depth = len(line) - len(line.lstrip(" ")) - self.base
        if not self.path:
            root = self.node(line.split(), at)
            if self.firsts and root.kind != "all":
                raise ProofError(
                    f"{name}, line {at}: a claim on first guesses refutes each: 'all' at the root"
                )
            if depth:
                raise ProofError(f"{name}, line {at}: the root is indented")
            self.path.append((root, set()))
            return 0, None, None, root
        parts = line.split()
        if depth <= 0 or depth > len(self.path) or len(parts) < 3:
            raise ProofError(f"{name}, line {at}: not 'GUESS REPLY KIND' indented under a node")
        parent, named = self.path[depth - 1]
        if parent.kind == "count":
            raise ProofError(f"{name}, line {at}: a line under a 'count' node (line {parent.line})")
        guess = self.code(parts[0], at)
        reply = self.replies.get(parts[1])
        if reply is None:
            try:
                black, white = (int(x) for x in parts[1].split(","))
            except ValueError:
                said = f"{parts[1][:20]!r} is not a reply BLACK,WHITE"
                raise ProofError(f"{name}, line {at}: {said}") from None
            reply = self.replies[parts[1]] = Feedback(black, white)
        key = (guess, parts[1] if self.claim == "total" else "")
        if key in named:
            what = f"guess {parts[0]}" + (f" with reply {parts[1]}" if self.claim == "total" else "")
            raise ProofError(f"{name}, line {at}: {what} twice under the node of line {parent.line}")
        node = self.node(parts[2:], at)
        named.add(key)
        del self.path[depth:]
        self.path.append((node, set()))
        return depth, guess, reply, node


def _header(rules: Rules, root: ProofNode, claim: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    from .records import package_version

    return {
        "game": game_dict(rules),
        **claim,
        **info,
        "secrets": rules.size,
        "nodes": root.size(),
        "written_by": f"mastermind-lab {package_version()}",
    }


def _gens_text(gens: list[Perm]) -> str:
    if not gens:
        return "-"
    return ",".join("".join(DIGITS[i] for i in p) + "/" + "".join(DIGITS[c] for c in s) for p, s in gens)


def _parse_gens(text: str, pegs: int, colors: int, where: str) -> list[Perm]:
    if text == "-":
        return []
    out: list[Perm] = []
    for item in text.split(","):
        halves = item.split("/")
        if len(halves) != 2 or any(ch not in DIGITS for ch in halves[0] + halves[1]):
            raise ProofError(f"{where}: {item[:40]!r} is not a permutation PEGS/COLOURS")
        p = tuple(DIGITS.index(ch) for ch in halves[0])
        s = tuple(DIGITS.index(ch) for ch in halves[1])
        if sorted(p) != list(range(pegs)) or sorted(s) != list(range(colors)):
            raise ProofError(f"{where}: {item[:40]!r} does not permute the {pegs} pegs and {colors} colours")
        out.append((p, s))
    return out


# -- the check -------------------------------------------------------------------------------


class _Game:
    """The game's codes and their replies, computed here by the scoring rule (one guess's row of
    replies at a time, kept once computed)."""

    def __init__(self, rules: Rules) -> None:
        self.pegs = rules.pegs
        self.colors = rules.colors
        self.codes = every_code(rules)
        self.index = {c: i for i, c in enumerate(self.codes)}
        # Colours shared (with multiplicity) depend on the two codes' colour multisets only: a
        # table over the multisets, and each code's multiset number.
        tallies = [tuple(c.count(k) for k in range(rules.colors)) for c in self.codes]
        kinds: dict[tuple[int, ...], int] = {}
        self.kind = [kinds.setdefault(t, len(kinds)) for t in tallies]
        self.shared = [bytes(sum(map(min, a, b)) for b in kinds) for a in kinds]
        # The codes with colour c at peg i: at[i][c].
        self.at: list[list[list[int]]] = [[[] for _ in range(rules.colors)] for _ in range(rules.pegs)]
        for j, code in enumerate(self.codes):
            for i, c in enumerate(code):
                self.at[i][c].append(j)
        self.rows: dict[int, bytes] = {}
        self.scored = 0
        self.orbits: dict[tuple[tuple[Perm, ...], tuple[int, ...]], list[int]] = {}
        self.perm_images: dict[Perm, list[int]] = {}
        self.merges: dict[tuple[int, ...], list[int]] = {}
        self.repeats = rules.repeats
        # The replies other than the win, each with a table that turns a row into 1 where the
        # row holds that reply and 0 elsewhere (see :meth:`indicators`).
        win = rules.pegs * (rules.pegs + 1)
        found = {b * (rules.pegs + 1) + w for b in range(rules.pegs + 1) for w in range(rules.pegs + 1 - b)}
        self.tables = [bytes(int(v == r) for v in range(256)) for r in sorted(found - {win})]
        self.marks: dict[int, list[int]] = {}
        self.marks_kept = max(64, LANE_MEMORY // max(1, len(self.tables) * len(self.codes)))

    def row(self, g: int) -> bytes:
        """The reply (``black * (pegs + 1) + white``) of every code, as secret, to guess g, by the
        rule of :func:`mastermind.core.feedback.score`: blacks are the pegs alike, whites the
        colours shared (with multiplicity) less the blacks; so the reply is ``shared + pegs *
        blacks``."""
        row = self.rows.get(g)
        if row is None:
            shared = self.shared[self.kind[g]]
            out = bytearray(map(shared.__getitem__, self.kind))
            p = self.pegs
            for i, c in enumerate(self.codes[g]):
                for j in self.at[i][c]:
                    out[j] += p
            row = self.rows[g] = bytes(out)
            self.scored += len(self.codes)
        return row

    def indicators(self, s: int) -> list[int]:
        """For secret s and each reply other than the win: an integer whose byte g (little-endian:
        bits ``8 * g`` upwards) is 1 where guess g gets that reply from s, and 0 elsewhere. The
        reply does not change when guess and secret swap roles (blacks are the pegs alike, whites
        the colours shared less the blacks), so it is read off s's own row. Kept once computed
        (up to :data:`LANE_MEMORY` bytes)."""
        found = self.marks.get(s)
        if found is None:
            row = self.row(s)
            found = [int.from_bytes(row.translate(t), "little") for t in self.tables]
            if len(self.marks) >= self.marks_kept:
                self.marks.clear()
            self.marks[s] = found
        return found

    def image(self, perm: Perm, i: int) -> int:
        p, s = perm
        x = self.codes[i]
        return self.index[tuple(s[x[p[k]]] for k in range(self.pegs))]

    def images(self, perm: Perm) -> list[int]:
        """The image of every code under the permutation (kept: nodes share permutations)."""
        found = self.perm_images.get(perm)
        if found is None:
            p, s = perm
            index, pegs = self.index, range(self.pegs)
            found = [index[tuple([s[x[p[k]]] for k in pegs])] for x in self.codes]
            if len(self.perm_images) > 4096:
                self.perm_images.clear()
            self.perm_images[perm] = found
        return found

    def least_absent_codes(self, absent: tuple[int, ...]) -> list[int] | range:
        """Every code that is the least of its class under the replacement of the colours of
        ``absent`` by the least of them alone (see :meth:`least_absent`)."""
        merged = self.merged(absent)
        if isinstance(merged, range):
            return merged
        return [g for g, m in enumerate(merged) if m == g]

    def least_absent(self, g: int, absent: tuple[int, ...]) -> bool:
        """Whether g is the least code of its class under the replacement of the colours of
        ``absent`` by the least of them alone (no permutations): it holds no other of them."""
        return not self.repeats or len(absent) < 2 or not set(self.codes[g]) & set(absent[1:])

    def merged(self, absent: tuple[int, ...]) -> list[int] | range:
        """Each code with the colours of ``absent`` replaced by the least of them (in a game
        with repeats; kept)."""
        if not self.repeats or len(absent) < 2:
            return range(len(self.codes))
        found = self.merges.get(absent)
        if found is None:
            least, others, index = absent[0], set(absent[1:]), self.index
            found = [index[tuple([least if c in others else c for c in x])] for x in self.codes]
            if len(self.merges) > 64:
                self.merges.clear()
            self.merges[absent] = found
        return found

    def least_of_classes(self, gens: list[Perm], absent: tuple[int, ...]) -> list[int]:
        """The least code of each class of guesses, under the group the permutations generate
        and (in a game with repeats) the replacement of any colour of ``absent`` by the least
        of them: guesses of one class split the set alike."""
        key = (tuple(gens), absent)
        found = self.orbits.get(key)
        if found is not None:
            return found
        n = len(self.codes)
        images = [self.images(perm) for perm in gens]
        merged = self.merged(absent)
        seen = bytearray(n)
        found = []
        for start in range(n):  # in increasing order: a class is first met at its least code
            if seen[start] or merged[start] != start:
                continue
            found.append(start)
            seen[start] = 1
            stack = [start]
            while stack:
                x = stack.pop()
                for img in images:
                    y = merged[img[x]]
                    if not seen[y]:
                        seen[y] = 1
                        stack.append(y)
        if len(self.orbits) > 4096:
            self.orbits.clear()
        self.orbits[key] = found
        return found


def _lanes(raw: bytes, width: int) -> list[int]:
    """The numbers in lanes of ``width`` bytes, little-endian."""
    if width == 1:
        return list(raw)
    lanes = array("H" if width == 2 else "I", raw)
    if lanes.itemsize != width:  # a machine whose "I" is not 4 bytes
        return [int.from_bytes(raw[i : i + width], "little") for i in range(0, len(raw), width)]
    if sys.byteorder == "big":
        lanes.byteswap()
    return lanes.tolist()


def _rewiden(x: int, n: int, width: int, wider: int) -> int:
    """``x``'s ``n`` lanes of ``width`` bytes as lanes of ``wider`` bytes (the same numbers)."""
    if width == wider:
        return x
    raw = x.to_bytes(n * width, "little")
    out = bytearray(n * wider)
    for k in range(width):
        out[k::wider] = raw[k::width]
    return int.from_bytes(out, "little")


def _by_lanes(guesses: int | None, secrets: int, replies: int, codes: int) -> bool:
    """Whether to count every code at once (see _Tally) rather than ``guesses`` one by one: when
    they are many enough (None: every code, but for the absent colours' classes). The costs
    compared are rough figures (microseconds) measured on proofs of 4 and 5 pegs."""
    return guesses is None or guesses * (2 + secrets / 10) > secrets * replies * codes / 2000


class _Tally:
    """How the guesses split a set S: the most cells other than the win that a guess gives, and
    the guesses whose every such cell has at most some number of secrets.

    Counted guess by guess (``guesses``: the replies of each on S, tallied) or, with ``guesses``
    None, for every code of the game at once: for each reply other than the win, the secrets of
    S that give it to each guess are counted in the lanes of one integer, a lane per guess (the
    sum of the secrets' :meth:`_Game.indicators`). A lane is wide enough for |S| to stay below
    its top bit, so that adding the same constant to every lane sets a lane's top bit exactly
    where its count passes a threshold, with no carry into the next lane. The first way costs
    a pass over S per guess, the second a pass over the codes per secret and reply."""

    def __init__(self, game: _Game, S: list[int], guesses: set[int] | None) -> None:
        self.game, self.S, self.n = game, S, len(game.codes)
        self.win = game.pegs * (game.pegs + 1)
        self.tallies: dict[int, Counter[int]] | None = None
        self.counts: list[int] = []
        self.cells: int | None = None
        if guesses is not None:
            self.tallies = {}
            for g in guesses:
                self.add(g)
            return
        self.width = width = 1 if len(S) < 1 << 7 else 2 if len(S) < 1 << 15 else 4
        self.top_bit = 8 * width - 1
        self.ones = int.from_bytes((b"\x01" + bytes(width - 1)) * self.n, "little")
        self.top = self.ones << self.top_bit
        # Added in one-byte lanes 255 secrets at a time (no lane can pass 255), then widened.
        self.counts = [0] * len(game.tables)
        for a in range(0, len(S), 255):
            marks = (game.indicators(i) for i in S[a : a + 255])
            part = [sum(col) for col in zip(*marks, strict=True)]
            self.counts = [c + _rewiden(x, self.n, 1, width) for c, x in zip(self.counts, part, strict=True)]

    def add(self, g: int) -> None:
        """Count guess g too (counted guess by guess; every code is counted already otherwise)."""
        if self.tallies is not None and g not in self.tallies:
            row = self.game.row(g)
            t = Counter([row[i] for i in self.S])
            t.pop(self.win, None)
            self.tallies[g] = t

    def most_cells(self) -> int:
        if self.tallies is not None:
            return max(len(t) for t in self.tallies.values())
        raw = self._cells().to_bytes(self.n * self.width, "little")
        return max(raw if self.width == 1 else _lanes(raw, self.width))

    def fitting(self, bound: int) -> list[int]:
        """The guesses (of those counted) whose every cell other than the win has at most
        ``bound`` secrets."""
        if self.tallies is not None:
            return [g for g, t in self.tallies.items() if max(t.values(), default=0) <= bound]
        if bound >= len(self.S):
            return list(range(self.n))
        over = 0
        for c in self.counts:  # top bits where the count passes the bound
            over |= (c + self.top - self.ones - bound * self.ones) & self.top
        return self._lanes_set(self.top ^ over)

    def totals(self, least: list[int], K: int, whole: int = SKIP) -> dict[int, int] | list[int]:
        """For each guess counted (a dict by guess; a list over every code when all are): the sum
        of ``least[m]`` over its cells other than the win (m secrets each), or at least ``whole``
        (at most :data:`SKIP`; SKIP itself where counted guess by guess) where it leaves S whole
        (one cell, S itself). ``least`` is T(K, m), so 2m - 1 up to K + 1."""
        n = len(self.S)
        if self.tallies is not None:
            out = {}
            for g, t in self.tallies.items():
                leaves = len(t) == 1 and next(iter(t.values())) == n
                out[g] = SKIP if leaves else sum(map(least.__getitem__, t.values()))
            return out
        # Read out in lanes of 2 bytes where every total and ``whole`` fit below 2**14 (the sum
        # over the cells is at most T(K, n), as T(K, a) + T(K, b) <= T(K, a + b)), else of 4: a cell
        # of m <= K + 1 secrets costs 2m - 1, so over the cells 2 (n - w) - cells, w = 1 where
        # the guess is a secret of S; a larger cell adds T(K, m) - (2m - 1), the sum over j >= 2
        # of max(0, m - F(K, j)): each term where m passes F(K, j), as (m + top - F) less top
        # (top: the lane's top bit), kept by a mask of whole lanes. A guess with all of S in one
        # cell gets half of the out lane's top more (at least ``whole``: never below a claim).
        # The terms are summed over the replies in the counts' own lanes (for each F, at most n
        # over the cells: no lane overflows), then widened once each; every step works on all
        # lanes at once, and the lanes are read out once.
        codes, tw = self.n, self.width
        width = 2 if least[n] < 1 << 14 and whole <= 1 << 14 else 4
        ones, top, bits = self.ones, self.top, self.top_bit
        lane = (1 << 8 * tw) - 1
        wide_ones = int.from_bytes((b"\x01" + bytes(width - 1)) * codes, "little")
        members = bytearray(codes * width)
        for i in self.S:
            members[i * width] = 1
        inside = int.from_bytes(members, "little")
        cells = self._cells()
        total = 2 * (n * wide_ones - inside) - _rewiden(cells, codes, tw, width)
        bound = 1 + K  # F(K, j) for j >= 2, below n
        while bound < n:
            over = 0
            for c in self.counts:
                mask = (((c + top - (bound + 1) * ones) & top) >> bits) * lane
                over += ((c + top - bound * ones) & mask) - (top & mask)
            total += _rewiden(over, codes, tw, width)
            bound = 1 + K * bound
        # S is one cell where there is one cell other than the win and no win (the guess not in S)
        one_cell = (((cells + top - ones) & top) ^ ((cells + top - 2 * ones) & top)) >> bits
        total += (_rewiden(one_cell, codes, tw, width) & ~inside) << 8 * width - 2
        return _lanes(total.to_bytes(codes * width, "little"), width)

    def _cells(self) -> int:
        """In each lane, the cells other than the win of that guess (kept once counted)."""
        if self.cells is None:
            self.cells = sum(((c + self.top - self.ones) & self.top) >> self.top_bit for c in self.counts)
        return self.cells

    def _lanes_set(self, bits: int) -> list[int]:
        """The lanes whose top bit is set in ``bits``."""
        found: list[int] = []
        if not bits:
            return found
        raw = bits.to_bytes(self.n * self.width, "little")
        at = raw.find(b"\x80")
        while at >= 0:
            found.append(at // self.width)
            at = raw.find(b"\x80", at + 1)
        return found

    def largest(self, g: int) -> int:
        """The most secrets in a cell other than the win of guess g (for messages)."""
        row = self.game.row(g)
        t = Counter([row[i] for i in self.S])
        t.pop(self.win, None)
        return max(t.values(), default=0)


#: Proofs of at least this many nodes are checked on several processes when asked
#: (:func:`check`'s ``jobs``); smaller ones gain less than the processes cost to start.
PARALLEL_FROM = 20_000
#: Pieces per process that a parallel check cuts the proof into, at least (the last ones to
#: finish are small).
PIECES_PER_JOB = 16

# An entry of the check: a node, its secrets, the guesses left (a claim on guesses) and K.
_Entry = tuple["ProofNode", list[int], int, int]


def check(
    proof: ProofFile,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    parts: Parts | None = None,
    passed: Callable[[int, int], None] | None = None,
) -> Checked:
    """Check the proof's claim by replaying it (see the module's documentation): no tree finds
    every secret of its game within its number of guesses, or every tree's total is at least its
    total; ``progress(n)`` as n more nodes are checked. The proof is checked from the lines a
    file of it would hold, as :func:`check_file` checks a file.

    With ``jobs`` above 1 (and a proof of :data:`PARALLEL_FROM` nodes or more, on a system that
    can fork), that many processes share the nodes (see :func:`_walk`), each node checked by the
    same code. A proof that checks is sound either way; one with several faults may be refused
    for another first. A set met again is skipped only where the process that meets it has
    checked it already, so a damaged copy of a set that one process skips may be refused on
    several: the verdict on such a file can depend on who checks what.

    With ``parts``, only those parts of the check (see :class:`_Split`; the others may be checked
    anywhere else, the claim holding once all have passed), in order, ``passed(part, nodes)`` as
    each passes (its number from 1, the nodes it checked beside those all parts check).

    Raises:
        ProofError: a claim of the proof does not hold (the message says which line), or the
            header's counts are wrong.
    """
    rules = proof.rules
    h = proof.header
    if h.get("secrets", rules.size) != rules.size:
        raise ProofError(f"the game has {rules.size:,} codes, the header says {h['secrets']}")
    nodes = proof.root.size()
    if h.get("nodes", nodes) != nodes:
        raise ProofError(f"the proof has {nodes:,} nodes, its header says {h['nodes']}")
    reader = _Reader(rules, proof.claim, "the proof")
    reader.firsts = bool(proof.first)
    symbols = alphabet(rules)
    split = None if parts is None else proof.split(parts.count)
    total = proof.total if proof.claim == "total" else None
    scored = _check_lines(
        _Checker(rules, proof.first),
        reader,
        lambda: enumerate(_lines(proof.root, symbols), start=3),
        proof.guesses,
        nodes,
        jobs,
        progress,
        split,
        parts,
        passed,
        total,
    )
    first = tuple(code_text(rules, code) for code in proof.first)
    return Checked(
        rules, proof.claim, proof.guesses, proof.total, proof.nodes_checked(parts), scored, first, parts
    )


@dataclass
class ProofHead:
    """A proof file's header, its game and claim (``guesses`` or ``total``, and its number), and
    its nodes, counted (:func:`scan`)."""

    rules: Rules
    header: dict[str, Any]
    claim: str
    number: int
    nodes: int
    path: str | os.PathLike[str]
    _splits: dict[int, _Split] = field(default_factory=dict, repr=False)

    def split(self, count: int) -> _Split:
        """The cut of its check into ``count`` parts (see :class:`_Split`), made once (a pass
        over the file).

        Raises:
            ProofError: the file is not text.
        """
        found = self._splits.get(count)
        if found is None:
            try:
                with _opened(self.path) as f:
                    lines = (line for _, line in _body(f, self.nodes))
                    found = self._splits[count] = _Split(_pieces(lines, self.nodes, count), self.nodes, count)
            except UnicodeDecodeError:
                raise ProofError(f"{self.path}: not a proof file (not text)") from None
        return found

    def nodes_checked(self, parts: Parts | None = None) -> int:
        """As :meth:`ProofFile.nodes_checked`."""
        return self.nodes if parts is None else self.split(parts.count).nodes_checked(parts)


def scan(path: str | os.PathLike[str]) -> ProofHead:
    """A proof file read through once, by bytes, to its ``end`` line: its header and nodes.

    Raises:
        ProofError: it cannot be read, is not a proof file of this version, or is damaged or
            cut short.
    """
    nodes, header, rules, claim, number = _scan(path)
    return ProofHead(rules, header, claim, number, nodes, path)


def check_file(
    path: str | os.PathLike[str],
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    head: ProofHead | None = None,
    parts: Parts | None = None,
    passed: Callable[[int, int], None] | None = None,
) -> Checked:
    """:func:`check` of a proof file as it is read, line by line: what it holds at a time is the
    path to the line read, whatever the proof's size (a proof of tens of millions of lines
    checks in the memory of a small one). A first pass reads the file through to its ``end``
    line (a file cut short or damaged is refused before any claim is checked; ``head``: that
    pass, made already); the second checks. With ``jobs`` above 1, the lines of each node of at
    most 1 / :data:`PIECES_PER_JOB` of a process's share are checked by one of that many
    processes (see :func:`_walk`). With ``parts``, a pass finds the cut (from the lines'
    indents alone), then each part is a pass of its own.

    Raises:
        ProofError: the file cannot be read or is damaged, or a claim of the proof does not hold
            (the message says which line).
    """
    name = str(path)
    head = head or scan(path)
    rules, header, claim, number, nodes = head.rules, head.header, head.claim, head.number, head.nodes
    if header.get("secrets", rules.size) != rules.size:
        raise ProofError(f"{name}: the game has {rules.size:,} codes, the header says {header['secrets']}")
    if header.get("nodes", nodes) != nodes:
        raise ProofError(f"{name}: the proof has {nodes:,} nodes, its header says {header['nodes']}")
    reader = _Reader(rules, claim, name)
    first = tuple(reader.first(header))
    guesses = number if claim == "guesses" else 0

    def lines() -> Iterator[tuple[int, str]]:
        with _opened(path) as f:
            yield from _body(f, nodes)
            if next(f, "").rstrip("\n") != f"end {nodes}":  # (as the first pass found it)
                raise ProofError(f"{name}: the file changed while it was checked")

    try:
        split = None if parts is None else head.split(parts.count)
        scored = _check_lines(
            _Checker(rules, first),
            reader,
            lines,
            guesses,
            nodes,
            jobs,
            progress,
            split,
            parts,
            passed,
            number if claim == "total" else None,
        )
    except UnicodeDecodeError:
        raise ProofError(f"{name}: not a proof file (not text)") from None
    except ProofError as err:
        said = str(err)
        raise (err if said.startswith(name) else ProofError(f"{name}, {said}")) from None
    checked = head.nodes_checked(parts)
    if claim == "total":
        return Checked(rules, claim, 0, number, checked, scored, (), parts)
    shown = tuple(code_text(rules, code) for code in first)
    return Checked(rules, claim, number, 0, checked, scored, shown, parts)


@contextmanager
def _opened(path: str | os.PathLike[str], binary: bool = False) -> Iterator[Any]:
    """A proof file open for reading as text, line by line, or as bytes (gzip-compressed or
    not, by its first bytes)."""
    with open(path, "rb") as raw:
        packed = raw.read(2) == GZIP_MAGIC
    opener: Any = gzip.open if packed else open
    # (lines end at "\n" alone, as the first pass counts them: not at a "\r" too)
    with opener(path, "rb") if binary else opener(path, "rt", encoding="utf-8", newline="\n") as f:
        yield f


def _body(f: Iterable[str], nodes: int) -> Iterator[tuple[int, str]]:
    """The proof's lines in an open file (the ``nodes`` after its header), each with its number."""
    return itertools.islice(enumerate(f, start=1), 2, 2 + nodes)


def _scan(path: str | os.PathLike[str]) -> tuple[int, dict[str, Any], Rules, str, int]:
    """A proof file read through once, by bytes (its nodes counted, its ``end`` line read): its
    nodes, header, game, claim and the claim's number.

    Raises:
        ProofError: it cannot be read, is not a proof file of this version, or is damaged or
            cut short.
    """
    name = str(path)
    try:
        with _opened(path, binary=True) as raw:
            head = [raw.readline(), raw.readline()]
            count, tail = 0, b""
            while chunk := raw.read(1 << 22):
                count += chunk.count(b"\n")
                tail = (tail + chunk)[-200:]
    except OSError as err:
        raise ProofError(f"{name}: cannot read it, or a damaged gzip file ({err.strerror or err})") from None
    except (EOFError, zlib.error) as err:
        raise ProofError(f"{name}: a damaged or truncated gzip file ({err})") from None
    try:
        text = b"".join(head).decode()
    except UnicodeDecodeError:
        raise ProofError(f"{name}: not a proof file (not text)") from None
    lines, header, rules = read_header(text, name, FORMAT, VERSION, "proof file", ProofError, older=(1,))
    claim, number = _claim(lines[0], header, name)
    if tail and not tail.endswith(b"\n"):
        count += 1  # (the last line, without its newline)
    last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    if not last.startswith(b"end "):
        raise ProofError(f"{name}: cut short (no 'end' line)")
    try:
        said = int(last[4:])
    except ValueError:
        raise ProofError(f"{name}, line {count + 2}: a damaged 'end' line") from None
    nodes = count - 1  # (the lines after the header, less the 'end' line)
    if said != nodes or nodes < 1:
        raise ProofError(f"{name}: {max(0, nodes):,} nodes, where its 'end' line says {said:,}: damaged")
    return nodes, header, rules, claim, number


def _check_lines(
    checker: _Checker,
    reader: _Reader,
    lines: Callable[[], Iterator[tuple[int, str]]],
    guesses: int,
    nodes: int,
    jobs: int,
    progress: Callable[[int], None] | None,
    split: _Split | None = None,
    parts: Parts | None = None,
    passed: Callable[[int, int], None] | None = None,
    total: int | None = None,
) -> int:
    """Check a proof's ``nodes`` lines (``lines()``: each with its number, from the root, read
    afresh at each call), or only the ``parts`` of its cut ``split`` (a pass over the lines for
    each part, in order, ``passed`` as each passes); the secrets scored. ``total``: the total
    its header claims (a claim on the total), which its root must claim. On ``jobs`` processes
    (from :data:`PARALLEL_FROM` nodes, where processes can be forked) the pieces are shared out
    (:func:`_walk`)."""
    chosen = [-1] if split is None or parts is None else [part - 1 for part in parts.numbers]
    share = nodes if split is None else max(split.lines[part] for part in chosen)
    parallel = jobs > 1 and nodes >= PARALLEL_FROM and "fork" in multiprocessing.get_all_start_methods()
    most = max(1, share // (PIECES_PER_JOB * jobs))

    def said(part: int) -> None:
        if passed and split is not None:
            passed(part + 1, split.lines[part])

    above: dict[tuple[int, ...], _Open] = {}  # the nodes every part checks, opened in the first part's pass

    def walk(part: int, pool: _Pool | None) -> None:
        source = lines()
        at, line = next(source)
        top = reader.again()
        _, _, _, node = top.take(at, line)
        if total is not None and node.total != total:
            raise ProofError(f"line {at}: the root claims {node.total}, the header {total}")
        root: _Entry = (node, list(range(checker.rules.size)), guesses, other_replies(checker.rules.pegs))
        owner = None if split is None else split.owner
        _walk(
            checker,
            top,
            root,
            source,
            progress,
            root=True,
            pool=pool,
            most=most,
            owner=owner,
            part=part,
            shared=above,
        )

    if not parallel:
        for part in chosen:
            walk(part, None)
            said(part)
        return checker.game.scored
    with _processes(checker, jobs, reader) as (tasks, receive):
        pool = _Pool(tasks, receive, jobs, progress, said)
        for part in chosen:
            walk(part, pool)
            pool.walked(part)
        pool.drain()
        return pool.scored + checker.game.scored


@dataclass
class _Held:
    """The lines of a node read but not yet checked: sent to a process once they end, if they
    are few enough (see :func:`_walk`)."""

    entry: _Entry
    depth: int
    lines: list[tuple[int, str]]


def _walk(
    checker: _Checker,
    reader: _Reader,
    top: _Entry,
    lines: Iterator[tuple[int, str]],
    progress: Callable[[int], None] | None,
    *,
    root: bool = False,
    pool: _Pool | None = None,
    most: int = 0,
    owner: dict[tuple[int, ...], tuple[int, int]] | None = None,
    part: int = -1,
    shared: dict[tuple[int, ...], _Open] | None = None,
) -> None:
    """Check a node (``top``, its line read already) and the lines below it, as they are read
    (``root``: the proof's root): a node's claim at its end, once its lines are met. A set taken
    already (see :class:`_Checker`) has its lines read (their form checked) and counted, not
    checked. What is held is the path to the line read.

    With a ``pool`` of processes, the lines of each node are held as they are read; a node whose
    lines end within ``most`` is sent, its set and its lines as text, to a process; one with more
    is checked here (opened, its lines read again and each held in turn). So the few nodes above
    the pieces are checked here, each piece is read once by a process, and at most two pieces a
    process wait.

    With ``owner`` (a cut's pieces by their path: :class:`_Split`), only ``part``'s pieces are
    checked, with the nodes above the pieces (every part checks those, again even if their set
    was taken); the other parts' pieces are passed over unread. ``shared`` keeps the nodes
    above the pieces as opened, by path, for the next part's pass: there they are taken as
    they are, their claims checked already, and not counted again."""
    frames: list[_Open] = []  # the open nodes along the path, the top's first
    skip, skipped, counted = -1, 0, True  # lines not checked: below this depth, how many, whether they count
    held: _Held | None = None
    again: collections.deque[tuple[int, str]] = collections.deque()  # lines to read again
    path: list[int] = []  # with owner: the places of the lines that lead to the line read
    inside = 0 if owner is None else -1  # the depth of the part's piece being read (-1: none)
    index = checker.game.index

    def start(entry: _Entry, depth: int, above: bool) -> None:
        nonlocal skip, skipped, counted
        key = tuple(path[:depth])
        if above and shared is not None and key in shared:
            frames.append(dataclasses.replace(shared[key], splits={}, cells={}))
            return
        found = checker.open(entry, progress, above, root and depth == 0)
        if found is not None:
            frames.append(found)
            if above and shared is not None:  # (its claim checked: its tally not needed again)
                shared[key] = dataclasses.replace(
                    found, tally=_Tally(checker.game, [], set()), splits={}, cells={}, checked=True
                )
        elif entry[0].kind != "count":
            skip, skipped, counted = depth, 0, True

    def end(opened: _Open) -> None:
        if not opened.checked:
            checker.close(opened)

    start(top, 0, owner is not None)
    while True:
        if again:
            at, line = again.popleft()
        else:
            item = next(lines, None)
            if item is None:
                break
            at, line = item
        if held is not None:
            if len(line) - len(line.lstrip(" ")) - reader.base > held.depth:
                held.lines.append((at, line))
                if len(held.lines) > most:  # too many for one piece: opened here, its lines read again
                    again.extendleft(reversed(held.lines[1:]))
                    start(held.entry, held.depth, False)
                    held = None
                continue
            assert pool is not None
            pool.send(held, part)
            held = None
        if skip >= 0:
            if len(line) - len(line.lstrip(" ")) - reader.base > skip:
                if counted:  # (a set taken already: its lines read)
                    reader.take(at, line)
                    skipped += 1
                continue
            if counted and progress:
                progress(skipped)
            skip = -1
        depth, guess, reply, node = reader.take(at, line)
        while len(frames) > depth:
            end(frames.pop())
        assert guess is not None and reply is not None
        entry = checker.line(frames[-1], index[guess], reply, node)
        above = False
        if inside > 0 and depth <= inside:
            inside = -1  # (out of the part's piece)
        if inside < 0:
            del path[depth:]
            if len(path) == depth:
                path[-1] += 1
            else:
                path.append(0)
            assert owner is not None
            found = owner.get(tuple(path))
            if found is None:
                above = True  # above the pieces: every part checks it
            elif found[0] != part:
                skip, skipped, counted = depth, 0, False  # another part's piece
                continue
            else:
                inside = depth
        if pool is None or above or node.kind == "count":
            start(entry, depth, above)
        else:
            held = _Held(entry, depth, [(at, line)])
    if held is not None:
        assert pool is not None
        pool.send(held, part)
    if skip >= 0 and counted and progress:
        progress(skipped)
    while frames:
        end(frames.pop())


#: The pieces per part, at least, that a check cut into parts deals out (:class:`_Split`).
PIECES_PER_PART = 32


class _Split:
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
    """The pieces of a proof's ``nodes`` lines cut for ``count`` parts (see :class:`_Split`),
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


class _Pool:
    """The processes of a check (:func:`_processes`) as :func:`_walk` sends them pieces: at most
    two a process wait; each answer is counted as checked, and a part passes (``passed``, in
    order) once it has been read to its end and every piece of it is checked."""

    def __init__(
        self,
        tasks: multiprocessing.Queue,
        receive: Callable[[], _Done],
        jobs: int,
        progress: Callable[[int], None] | None,
        passed: Callable[[int], None],
    ) -> None:
        self.tasks, self.receive, self.jobs = tasks, receive, jobs
        self.progress, self.passed = progress, passed
        self.waiting: dict[int, int] = {}  # pieces sent and not yet checked, by part
        self.read: list[int] = []  # the parts read to their end, not yet passed, in order
        self.scored = 0

    def send(self, piece: _Held, part: int) -> None:
        self.tasks.put((part, piece.entry, piece.depth, piece.lines))
        self.waiting[part] = self.waiting.get(part, 0) + 1
        while sum(self.waiting.values()) >= 2 * self.jobs:
            self.answer()

    def answer(self) -> None:
        part, done, scored = self.receive()
        self.waiting[part] -= 1
        self.scored += scored
        if self.progress:
            self.progress(done)
        self.pass_parts()

    def walked(self, part: int) -> None:
        """Part ``part`` is read to its end: it passes once its pieces are checked."""
        self.read.append(part)
        self.pass_parts()

    def pass_parts(self) -> None:
        while self.read and not self.waiting.get(self.read[0]):
            self.passed(self.read.pop(0))

    def drain(self) -> None:
        while sum(self.waiting.values()):
            self.answer()


# A piece as a process takes it: its part, its entry, its depth and its lines (each numbered).
_Piece = tuple[int, _Entry, int, list[tuple[int, str]]]
# What a process gives back for a piece: its part, the nodes checked and the secrets scored.
_Done = tuple[int, int, int]
# What the processes of a check share, inherited when they are forked: the checker, and the
# reader whose codes and permutations a process starts from.
_SHARED: tuple[_Checker, _Reader] | None = None


@contextmanager
def _processes(
    checker: _Checker, jobs: int, reader: _Reader
) -> Iterator[tuple[multiprocessing.Queue, Callable[[], _Done]]]:
    """``jobs`` processes that check pieces (:func:`_check_piece`): the queue to put them in, and
    what takes the next result. Ctrl-C or a fault found stops every process at once; a process
    that dies is reported. (One that dies midway through sending a result would leave this one
    waiting: not guarded against.)

    Raises:
        ProofError: a piece holds a fault.
        ExecutorError: a process of the check died (killed, out of memory) or failed.
    """
    global _SHARED
    _SHARED = (checker, reader)
    game = checker.game  # the indicators kept: the memory for them shared among the processes
    game.marks_kept = max(64, lane_memory(jobs) // (len(game.tables) * len(game.codes)))
    context = multiprocessing.get_context("fork")
    tasks: multiprocessing.Queue[_Piece] = context.Queue()  # (a put never waits for a reader)
    results: multiprocessing.Queue[_Done | ProofError | str] = context.Queue()
    for channel in (tasks, results):  # what is left in them at the end is for no one: never
        channel.cancel_join_thread()  # wait for it to be sent (a second Ctrl-C may cut short the end)
    started: list[multiprocessing.process.BaseProcess] = []

    def receive() -> _Done:
        while True:
            try:
                found = results.get(timeout=1.0)
            except queue.Empty:
                if any(process.exitcode is not None for process in started):
                    raise ExecutorError(
                        "a process checking the proof died (killed, or out of memory?): try fewer --workers"
                    ) from None
                continue
            if isinstance(found, ProofError):
                raise found
            if isinstance(found, str):
                raise ExecutorError(f"a process checking the proof failed: {found}")
            return found

    gc.freeze()  # (the checker's objects out of the collector's sight: not copied into each process)
    try:
        for _ in range(jobs):
            worker = context.Process(target=_check_pieces, args=(tasks, results), daemon=True)
            worker.start()
            started.append(worker)
        gc.unfreeze()
        yield tasks, receive
    finally:
        _SHARED = None
        gc.unfreeze()
        with uninterrupted():  # (a second Ctrl-C would leave the processes behind)
            for process in started:  # (idle or not: they hold nothing of the caller's)
                process.terminate()
            for process in started:
                process.join()
            for channel in (tasks, results):
                channel.close()


def _check_pieces(tasks: multiprocessing.Queue, results: multiprocessing.Queue) -> None:
    """A process of a check: check the pieces as they come, until it is stopped. Ctrl-C is the
    parent's to handle (it stops the processes); what this one would print goes to the
    process's own streams, not through whatever the parent had them pass through (a progress
    bar's, whose lock may have been held when this process was forked)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    while True:
        piece = tasks.get()
        try:
            results.put(_check_piece(piece))
        except ProofError as err:
            results.put(err)
        except Exception as err:  # a fault of the checker's own: said in one line, and the end
            results.put(f"{type(err).__name__}: {err}")
            return


def _check_piece(piece: _Piece) -> _Done:
    """Check a piece (in a process of a check): its part, the nodes checked, the secrets scored."""
    assert _SHARED is not None
    checker, reader = _SHARED
    part, entry, depth, lines = piece
    done = 0

    def count(n: int) -> None:
        nonlocal done
        done += n

    before = checker.game.scored
    _walk(checker, reader.below(entry[0], depth), entry, iter(lines[1:]), count)
    return part, done, checker.game.scored - before


@dataclass
class _Open:
    """A node under check: what its claim needs (its set S, the guesses left k, the bound K on
    its guesses' cells, narrowed to S), and the cells its lines name, as they are met."""

    node: ProofNode
    S: list[int]
    k: int
    K: int
    tally: _Tally
    least_codes: set[int] | None
    absent: tuple[int, ...]
    root: bool
    splits: dict[int, dict[int, list[int]]] = field(default_factory=dict)  # guess -> reply -> cell
    cells: dict[int, list[tuple[int, ProofNode]]] = field(default_factory=dict)  # guess -> (size, node)
    checked: bool = False  # its claim checked already (in an earlier part's pass)


#: Bytes of sets the checker remembers as checked (see ``_Checker.taken``), in each process.
TAKEN_MEMORY = 256 << 20


class _Checker:
    """The check of one proof, node by node, in three steps: :meth:`open` checks what a node's
    set allows (its permutations, a count) and counts its guesses' cells; :meth:`line` finds the
    set of each line under it; :meth:`close` checks its claim once all its lines are met. So a
    node needs nothing but its set and the first lines of its own lines: a proof is checked as
    it is read (:func:`_walk`)."""

    def __init__(self, rules: Rules, first: tuple[tuple[int, ...], ...] = ()) -> None:
        self.rules = rules
        self.first = first  # the first guesses a claim on guesses is about (at the root)
        self.game = _Game(rules)
        self.tables: dict[int, list[int]] = {}  # T(K, m) for m up to the game's size, by K
        # What is claimed of a set depends on the set alone, not on the path to it; a set met
        # again with a claim no stronger than one taken already (the guesses left, or the total)
        # needs no second check: if the first one's lines fail, the whole check fails (a set's
        # own lines lie below it, with fewer guesses left: never the same node again). Only a
        # saving: forgotten when it passes TAKEN_MEMORY bytes.
        self.taken: dict[bytes, int] = {}
        self.taken_bytes = 0

    def least(self, K: int) -> list[int]:
        found = self.tables.get(K)
        if found is None:
            size = len(self.game.codes)
            found = self.tables[K] = [least_total(K, m) for m in range(size + 1)]
        return found

    def show(self, i: int) -> str:
        return code_text(self.rules, self.game.codes[i])

    def open(
        self, entry: _Entry, progress: Callable[[int], None] | None, again: bool = False, root: bool = False
    ) -> _Open | None:
        """Check what a node's set allows: a count, its permutations; None where nothing more is
        to check (a count, or a set taken already, unless ``again``: its lines then need no check)."""
        node, S, k, K = entry
        game, rules = self.game, self.rules
        if progress:
            progress(1)
        if node.kind == "count":
            if len(S) <= reach(K, k):
                raise ProofError(
                    f"line {node.line}: {len(S):,} secrets can be told apart by {k} guesses that give at "
                    f"most {K} replies other than the win (up to {reach(K, k):,}): the count proves nothing"
                )
            return None
        key, claim = array("i", S).tobytes(), (node.total if node.kind == "total" else k)
        if self.taken.get(key, -1) >= claim and not again:
            return None
        if key not in self.taken:
            if self.taken_bytes > TAKEN_MEMORY:
                self.taken.clear()
                self.taken_bytes = 0
            self.taken_bytes += len(key) + 100  # (the key, and its place in the dict)
        self.taken[key] = max(claim, self.taken.get(key, -1))
        if node.kind == "all" and k < 1:
            raise ProofError(f"line {node.line}: no guess is left to refute")
        members = set(S)
        for perm in node.gens:
            img = game.images(perm)
            if any(img[i] not in members for i in S):
                raise ProofError(f"line {node.line}: {_gens_text([perm])} does not map the set onto itself")
        held: set[int] = set()
        for i in S:
            held.update(game.codes[i])
        absent = tuple(c for c in range(rules.colors) if c not in held)
        # Two ways to the same figures (see _Tally): every code at once where the classes of
        # guesses are many (none but those of the absent colours: every code is tried), guess
        # by guess where they are few (the guesses the lines name are counted as they come).
        least_codes = set(game.least_of_classes(node.gens, absent)) if node.gens else None
        classes = None if least_codes is None else len(least_codes)
        if _by_lanes(classes, len(S), len(game.tables), len(game.codes)):
            tally = _Tally(game, S, None)
        else:
            least_codes = least_codes or set(game.least_of_classes(node.gens, absent))
            tally = _Tally(game, S, least_codes)
        # (a guess splits S as the least code of its class does: the least codes give K)
        return _Open(node, S, k, min(K, tally.most_cells()), tally, least_codes, absent, root)

    def line(self, opened: _Open, g: int, reply: Feedback, child: ProofNode) -> _Entry:
        """The entry of a line under an open node (guess g, its reply, the line's node): the
        secrets of the node's set that give that reply."""
        split = opened.splits.get(g)
        if split is None:
            row = self.game.row(g)
            split = opened.splits[g] = {}
            for i in opened.S:
                split.setdefault(row[i], []).append(i)
            opened.tally.add(g)
        pegs = self.rules.pegs
        f = reply.black * (pegs + 1) + reply.white
        cell = split.get(f, [])
        if f == pegs * (pegs + 1) or not cell:
            raise ProofError(f"line {child.line}: no secret of the set gives reply {reply} to {self.show(g)}")
        opened.cells.setdefault(g, []).append((len(cell), child))
        return child, cell, opened.k - 1, opened.K

    def close(self, opened: _Open) -> None:
        """Check a node's claim, once every line under it is met (:meth:`line`)."""
        node, S, k, K, tally, least_codes, absent = (
            opened.node,
            opened.S,
            opened.k,
            opened.K,
            opened.tally,
            opened.least_codes,
            opened.absent,
        )
        game, cells = self.game, opened.cells
        opened.splits.clear()

        def checked(g: int) -> bool:
            """Whether guess g must be checked here: the least code of its class, or named."""
            if g in cells:
                return True
            return g in least_codes if least_codes is not None else game.least_absent(g, absent)

        if node.kind == "total":
            # Each guess checked (the least of its class, or named) must reach the claim: its
            # cells' counting bounds, raised by the lines naming it.
            T = self.least(K)
            n = len(S)
            sums = tally.totals(T, K, min(SKIP, max(0, node.total - n)))
            for g, named in cells.items():
                sums[g] += sum(max(0, child.total - T[m]) for m, child in named)
            # (guess by guess only where the classes were few: least_codes is then known)
            if least_codes is not None:
                pool: Iterable[int] = least_codes | set(cells)
            else:
                candidates = game.least_absent_codes(absent)
                pool = candidates if isinstance(candidates, range) else [*candidates, *cells]
            # (every code a guess to check: the least of the list of every code's sums)
            low = min(sums) if isinstance(pool, range) else min(map(sums.__getitem__, pool), default=SKIP)
            if n + low < node.total:
                g = min((g for g in pool if n + sums[g] < node.total), key=lambda g: (sums[g], g))
                raise ProofError(
                    f"line {node.line}: for guess {self.show(g)} the bounds reach only {n + sums[g]:,} on "
                    f"these {n:,} secrets, below the {node.total:,} claimed"
                )
            return
        bound = reach(K, k - 1)
        if opened.root and self.first:  # only the guesses claimed, every one of them
            claimed = {game.index[code] for code in self.first} - set(cells)
            unrefuted = [g for g in sorted(claimed) if tally.largest(g) <= bound]
        else:
            unrefuted = [g for g in sorted(set(tally.fitting(bound)) - set(cells)) if checked(g)]
        if unrefuted:
            g = unrefuted[0]
            raise ProofError(
                f"line {node.line}: guess {self.show(g)} is not refuted (its largest cell, "
                f"{tally.largest(g):,} secrets, fits in {k - 1} more guesses by counting, "
                "and no line refutes it)"
            )


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Ctrl-C ignored for a moment (in the main thread, where Python handles it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def join(proofs: Iterable[tuple[str, ProofFile]]) -> ProofFile:
    """One proof from proofs on first guesses (``first`` in their headers, each given with its
    name) of one game and one number of guesses, written apart (on other machines, say): its root
    names every first guess theirs name, each with the first line that refutes it. When those
    first guesses include the least code of every class of codes under the first proof's root
    permutations, it claims the whole game (no ``first``); otherwise it lists them all. Nothing
    is checked here (the lines are copied): :func:`check` the result.

    Raises:
        ProofError: a proof is not on first guesses, or is of another game or number of guesses.
    """
    given = list(proofs)
    if not given:
        raise ProofError("no proof to join")
    base_name, base = given[0]
    first: list[tuple[int, ...]] = []
    lines: list[tuple[tuple[int, ...], Feedback, ProofNode]] = []
    for name, proof in given:
        if proof.claim != "guesses" or not proof.first:
            raise ProofError(f"{name}: not a proof on first guesses (it lists none in its header)")
        ours, theirs = proof.rules, base.rules
        if (ours.pegs, ours.colors, ours.repeats) != (theirs.pegs, theirs.colors, theirs.repeats):
            raise ProofError(f"{name} is about {ours.describe()}, {base_name} about {theirs.describe()}")
        if proof.guesses != base.guesses:
            raise ProofError(f"{name} is about {proof.guesses} guesses, {base_name} about {base.guesses}")
        first += [code for code in proof.first if code not in first]
        named = {guess for guess, _, _ in lines}
        lines += [line for line in proof.root.children if line[0] not in named]
    root = ProofNode("all", list(base.root.gens), lines)
    game = _Game(base.rules)
    every_class = set(game.least_of_classes(root.gens, ())) <= {game.index[code] for code in first}
    info = {"search": base.header.get("search", "worst"), "joined": len(given)}
    if not every_class:
        info["first"] = [code_text(base.rules, code) for code in first]
    return ProofFile.of(base.rules, base.guesses, root, **info)


def is_proof_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file starts like a proof file (plain or gzip-compressed); False if it cannot
    be read (the reader of the other kind then says why)."""
    try:
        with open(path, "rb") as f:
            head = f.read(2)
        opener: Any = gzip.open if head == GZIP_MAGIC else open
        with opener(path, "rb") as f:
            return bool(f.read(len(FORMAT)) == FORMAT.encode())
    except (OSError, EOFError):
        return False
