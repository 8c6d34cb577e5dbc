"""Proof files: checkable proofs of what no tree can do.

Two claims, each written by a search and replayed here, in plain Python, with the scoring rule's
specification and none of the search's code (no numpy, no numba):

* **guesses**: no tree finds every secret of a game within D guesses. ``mastermind worst`` finds
  the least number of guesses that always suffices by a decision search
  (``mastermind.strategies.optimal.worst``) and writes each "no" as such a proof.
* **total**: every tree's total (the guesses over all secrets, the winning one counted) is at
  least L, whatever its guess limit, or (with ``within``) every tree's that finds every secret
  within D guesses. ``mastermind evaluate -s optimal --proof FILE`` writes one for the lower
  bound it reports (``mastermind.strategies.optimal.lower`` and ``.guided``).

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

A proof on the total **within D guesses** (``"within": D`` in its header) claims
L of the trees that find every secret within D guesses: a node's tree has k guesses left, D at
the root and its parent's less one below, and a ``total`` node needs k of 1 or more. There a
guess is refuted, whatever its cells' costs, by counting (a cell other than the win of more than
``F(K, k - 1)`` secrets) or by a line naming it whose node is a ``count`` or an ``all``, as in a
proof on guesses: that cell cannot be found within k - 1 guesses (the lines below an ``all`` are
``count`` or ``all`` too). Each other guess must reach L as above. In version 3 the checker
works out a left-out cell's one-level bound within the guesses left at it: the guesses refuted
by counting there are left out, and a cell that every guess leaves too large refutes its guess
(so version 3 leaves out an ``all`` line with nothing below it under a ``total`` line too).

* Last line: ``end`` and the number of nodes, so that a file cut short is refused.

Codes are written as in tree files (:func:`mastermind.verify.files.alphabet`), replies
``black,white``; a file whose name ends in ``.gz`` is gzip-compressed (recognised by its first
bytes, whatever its name).
"""

from __future__ import annotations

import dataclasses
import json
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.feedback import Feedback
from ..core.rules import Rules
from ..errors import ProofError
from .arithmetic import Perm, _Game
from .files import alphabet, code_text, game_dict, read_header, read_text, write_file
from .parts import Parts, _Cut, _pieces

if TYPE_CHECKING:
    from .check import Checked

#: The format's name, on the first line with its version.
FORMAT = "mastermind-proof"
#: The version of the lines a prover holds and writes by default; version 1 is read too (a claim
#: on guesses, without ``claim``).
VERSION = 2
#: The compact version (see :func:`compact`): a proof on the total without the lines the checker
#: can work out itself; written where the file's name ends in ``.xz`` (or when asked).
COMPACT = 3
#: The versions read.
VERSIONS = (1, VERSION, COMPACT)

#: What a proof may claim: no tree within so many guesses, or no tree below a total.
CLAIMS = ("guesses", "total")

#: The symbols of peg and colour numbers in a permutation.
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


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

    def text(self, version: int = VERSION) -> str:
        """The node's kind as written in a file (after its guess and reply)."""
        if self.kind == "count":
            return "count"
        if self.kind == "total":
            return f"{'total ' if version < COMPACT else ''}{self.total} {_gens_text(self.gens)}"
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
    text, not in a file); ``nodes``: its lines; ``version``: theirs (in :data:`COMPACT`, the
    leaves below it are left out: such a node is written in that version only)."""

    def __init__(self, rules: Rules, body: str, nodes: int, version: int = VERSION) -> None:
        # (body: its lines, its own first)
        words = body.split("\n", 1)[0].split()
        if version >= COMPACT:  # (the word 'total' left out)
            words = ["total", *words]
        if len(words) != 3 or words[0] != "total" or not (words[1].isascii() and words[1].isdigit()):
            said = "LEAST PERMUTATIONS" if version >= COMPACT else "total LEAST PERMUTATIONS"
            raise ProofError(f"a packed line {body[:40]!r} is not '{said}'")
        self.kind, self.total, self.line = "total", int(words[1]), 0
        self.gens = _parse_gens(words[2], rules.pegs, rules.colors, "a packed line")
        self.rules, self.nodes, self.version = rules, nodes, version
        self.packed = zlib.compress(body.encode(), 1)
        self.unpacked: list[tuple[tuple[int, ...], Feedback, ProofNode]] | None = None

    @classmethod
    def pack(cls, rules: Rules, node: ProofNode, version: int = VERSION) -> PackedNode:
        """The node (a ``total`` node as a prover builds it, where a line with nothing below is
        a leaf) and its lines, packed in ``version``: in :data:`COMPACT`, without the leaves
        below it. A node that is a leaf itself is packed in version 2, so that it is still known
        as one where its parent's lines are written in version 3."""
        if version >= COMPACT and not node.children:
            version = VERSION
        lines = list(_lines(node, alphabet(rules), version, source=VERSION))
        return cls(rules, "\n".join(lines), len(lines), version)

    def body(self) -> str:
        """Its lines, as a proof file of its version writes them: its own first, unindented."""
        return zlib.decompress(self.packed).decode()

    @property
    def children(self) -> list[tuple[tuple[int, ...], Feedback, ProofNode]]:
        if self.unpacked is None:  # (kept once read: a check reads them more than once)
            # Its lines may refute guesses, as those of a proof within a limit do (read here as
            # within one; the whole proof's check says what they prove).
            game = game_dict(dataclasses.replace(self.rules, max_guesses=1))
            info = {"game": game, "claim": "total", "total": self.total, "within": 1}
            text = f"{FORMAT} {self.version}\n{json.dumps(info)}\n{self.body()}\nend {self.nodes}\n"
            self.unpacked = ProofFile.loads(text, "a packed line").root.children
        return self.unpacked

    @children.setter
    def children(self, value: list[tuple[tuple[int, ...], Feedback, ProofNode]]) -> None:
        raise TypeError("a packed node's lines are read-only")

    def __repr__(self) -> str:
        return (
            f"<PackedNode total={self.total}: {self.nodes:,} lines of version {self.version}, "
            f"{len(self.packed):,} bytes packed>"
        )


def _lines(root: ProofNode, symbols: str, version: int = VERSION, source: int | None = None) -> Iterator[str]:
    """A node's lines as a proof file of that version writes them (in preorder, each indented
    one space more than its parent, after its guess and reply): its own first, unindented.
    ``source``: the version its plain (not packed) nodes were read as or built in (by default
    ``version``). Written in version 3, lines on the total of version 2 lose their leaves (the
    lines below the first with none below them: :func:`compact`), plain or packed; packed lines
    of version 3 are written as they are.

    Raises:
        ProofError: packed lines of version 3 asked for in an older version.
    """
    drop = version >= COMPACT and (version if source is None else source) < COMPACT
    stack: list[tuple[ProofNode, int, str, str]] = [(root, 0, "", "")]  # (its parent's kind last)
    while stack:
        node, depth, lead, parent = stack.pop()
        pad = " " * depth
        if isinstance(node, PackedNode):
            if version >= COMPACT and node.version < COMPACT and depth and node.nodes == 1:
                continue  # (a leaf)
            first, *rest = _packed_lines(node, version)
            yield f"{pad}{lead}{first}"
            yield from (pad + line for line in rest)  # (indented from its own line already)
            continue
        if drop and depth and not node.children and _left_out(node.kind, parent):
            continue  # (a leaf)
        yield f"{pad}{lead}{node.text(version)}"
        for guess, reply, child in reversed(node.children):
            code = "".join(symbols[c] for c in guess)
            stack.append((child, depth + 1, f"{code} {reply.black},{reply.white} ", node.kind))


def _packed_lines(node: PackedNode, version: int) -> list[str]:
    """A packed node's lines in ``version``, its own first, unindented."""
    if node.version >= COMPACT and version < COMPACT:
        raise ProofError(
            f"a proof holding lines of version {COMPACT} cannot be written in version {version}: "
            "its leaves are left out"
        )
    lines = node.body().split("\n")
    if version >= COMPACT and node.version < COMPACT:
        return [_compact_line(line) for line in compact(lines)]
    return lines


@dataclass
class ProofFile:
    """A whole proof and its header (see the module's documentation): ``claim`` is ``guesses``
    (no tree within ``guesses``) or ``total`` (no tree below ``total``; ``guesses`` is then 0)."""

    rules: Rules
    guesses: int  # (on the total: the guess limit it is within, 0 for none)
    root: ProofNode
    header: dict[str, Any]
    claim: str = "guesses"
    total: int = 0
    first: tuple[tuple[int, ...], ...] = ()
    version: int = VERSION  # (the file's: its lines are its own, as read)
    _cuts: dict[int, _Cut] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, rules: Rules, guesses: int, root: ProofNode, **info: Any) -> ProofFile:
        """A proof that no tree finds every secret within ``guesses``; with ``first`` (codes as
        written in the file), that no such tree begins with one of those guesses."""
        header = _header(rules, root, {"claim": "guesses", "guesses": guesses}, info)
        symbols = alphabet(rules)
        first = tuple(tuple(symbols.index(ch) for ch in code) for code in info.get("first", ()))
        return cls(rules, guesses, root, header, first=first)

    @classmethod
    def of_total(
        cls, rules: Rules, total: int, root: ProofNode, within: int | None = None, **info: Any
    ) -> ProofFile:
        """A proof that every tree's total is at least ``total`` (``root.total``); ``within``:
        every tree's that finds every secret within that many guesses."""
        claim: dict[str, Any] = {"claim": "total", "total": total}
        if within is not None:  # (its game is the game within that limit)
            claim["within"] = within
            rules = dataclasses.replace(rules, max_guesses=within)
        header = _header(rules, root, claim, info)
        return cls(rules, within or 0, root, header, "total", total)

    # -- writing ---------------------------------------------------------------------------

    def dumps(self, version: int | None = None) -> str:
        """The file's text, in ``version`` (by default its own)."""
        return "".join(self._text(version or self.version))

    def write(self, path: str | os.PathLike[str], version: int | None = None) -> None:
        """Write the file (gzip-compressed if its name ends in ``.gz``, xz if in ``.xz``), through
        a temporary file renamed at the end, so that a killed process never leaves half a file;
        line by line (a proof of millions of lines is never all in memory as text). In
        ``version`` (by default its own, or :data:`COMPACT` for a name ending in ``.xz``)."""
        if version is None:
            version = COMPACT if str(path).endswith(".xz") and self.claim == "total" else self.version
        write_file(path, self._text(version))

    def _text(self, version: int) -> Iterator[str]:
        if self.claim == "total" and version < COMPACT <= self.version:
            said = f"a proof in version {COMPACT} cannot be written in version {version}"
            raise ProofError(f"{said}: its leaves are left out")
        symbols = alphabet(self.rules)
        return _file_lines(self.header, version, lambda: _lines(self.root, symbols, version, self.version))

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
        lines, header, rules = read_header(
            text, name, FORMAT, COMPACT, "proof file", ProofError, older=(1, 2)
        )
        claim, number = _claim(lines[0], header, name)
        version = int(lines[0].split()[1])
        within = _within(header, name)
        if len(lines) < 3 or not lines[-1].startswith("end "):
            raise ProofError(f"{name}: cut short (no 'end' line)")
        body = lines[2:-1]
        try:
            count = int(lines[-1][4:])
        except ValueError:
            raise ProofError(f"{name}, line {len(lines)}: a damaged 'end' line") from None
        if count != len(body) or not body:
            raise ProofError(f"{name}: {len(body):,} nodes, where its 'end' line says {count:,}: damaged")
        reader = _Reader(rules, claim, name, version, within)
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
            return cls(rules, within, root, header, "total", number, version=version)
        return cls(rules, number, root, header, first=tuple(first), version=version)

    # -- checking --------------------------------------------------------------------------

    def cut(self, count: int) -> _Cut:
        """The cut of its check into ``count`` parts (see :class:`_Cut`), made once."""
        found = self._cuts.get(count)
        if found is None:
            nodes = self.root.size()
            lines = _lines(self.root, alphabet(self.rules), self.version)
            found = self._cuts[count] = _Cut(_pieces(lines, nodes, count), nodes, count)
        return found

    def nodes_checked(self, parts: Parts | None = None) -> int:
        """The nodes that a check of these parts (the whole proof if None) checks: the proof's,
        or those of each part and those checked in every part."""
        return self.root.size() if parts is None else self.cut(parts.count).nodes_checked(parts)

    def check(
        self,
        progress: Callable[[int], None] | None = None,
        jobs: int = 1,
        parts: Parts | None = None,
        passed: Callable[[int, int], None] | None = None,
    ) -> Checked:
        """:func:`check`."""
        from .check import check

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


def _within(header: dict[str, Any], name: str) -> int:
    """The guess limit a proof on the total is within (``within`` in its header), or 0."""
    if "within" not in header:
        return 0
    within = header["within"]
    whole = isinstance(within, int) and not isinstance(within, bool)
    if header.get("claim") != "total" or not whole or within < 1:
        raise ProofError(f"{name}, line 2: 'within' is a number of guesses (of a claim on the total)")
    game = header.get("game")
    limit = game.get("max_guesses") if isinstance(game, dict) else None
    if limit != within:  # (the game of a proof within a limit is the game within it)
        raise ProofError(f"{name}, line 2: 'within' is {within}, but the game's guess limit is {limit}")
    return within


class _Reader:
    """A proof's lines read one at a time (:meth:`take`), each checked for its form as it comes:
    its indent under the node above it, its code, reply, kind and permutations, no guess named
    twice under one node (a guess and reply, on the total), no line under a ``count``. Only the
    path to the last line is kept, so a proof of any size can be read line by line."""

    def __init__(self, rules: Rules, claim: str, name: str, version: int = VERSION, within: int = 0) -> None:
        self.rules, self.claim, self.name, self.version = rules, claim, name, version
        self.within = within  # (on the total within a limit: 'count' and 'all' lines too)
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
        if self.claim == "total" and not (self.within and words and words[0] in ("count", "all")):
            if self.version >= COMPACT:  # (the word 'total' left out)
                words = ["total", *words]
            if len(words) == 3 and words[0] == "total" and words[1].isascii() and words[1].isdigit():
                return ProofNode("total", self.gens(words[2], at), line=at, total=int(words[1]))
            said = "LEAST PERMUTATIONS" if self.version >= COMPACT else "total LEAST PERMUTATIONS"
            raise ProofError(f"{self.name}, line {at}: not '{said}'")
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
            if self.claim == "total" and root.kind != "total":
                raise ProofError(f"{name}, line {at}: the root of a proof on the total is a 'total' line")
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


def compact(lines: Iterable[str]) -> Iterator[str]:
    """A proof on the total's lines (version 2's words, from its root) less its leaves, the lines
    other than the root with no line below them that are ``total`` lines, or ``all`` lines under
    a ``total`` line (within a guess limit): version 3 leaves them out. What a leaf claims is at
    most what counting one guess down proves of its set (its check shows it), and the checker of
    version 3 works that out itself for the cells it needs, within the guesses left
    (:class:`.checker._Checker`); the other ``count`` and ``all`` lines stay."""
    held: tuple[str, str, str] | None = None  # a line, its kind and its parent's kind
    path: list[tuple[int, str]] = []  # the indent and kind of each line on the path to it

    def leaf(line: str, kind: str, parent: str) -> bool:  # (a line with none below it)
        return _indent(line) > 0 and _left_out(kind, parent)

    for line in lines:
        depth = _indent(line)
        if held is not None and (depth > _indent(held[0]) or not leaf(*held)):
            yield held[0]
        while path and path[-1][0] >= depth:
            path.pop()
        words = line.split()
        kind = words[2] if depth and len(words) > 2 else words[0] if words else ""
        held = (line, kind, path[-1][1] if path else "")
        path.append((depth, kind))
    if held is not None and not leaf(*held):
        yield held[0]


def _left_out(kind: str, parent: str) -> bool:
    """Whether a line other than the root, of ``kind`` under a line of kind ``parent``, with no
    line below it, is a leaf that version 3 leaves out (of version 2 on the total)."""
    return kind == "total" or kind == "all" and parent == "total"


def _compact_line(line: str) -> str:
    """A line on the total in version 3's words: without ``total``."""
    words = line.split()
    if words and words[0] == "total":
        return " ".join(words[1:])
    if len(words) > 2 and words[2] == "total":
        return line[: _indent(line)] + " ".join(words[:2] + words[3:])
    return line  # (a 'count' or an 'all' line, within a guess limit)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _file_text(
    header: dict[str, Any],
    version: int,
    lines: Callable[[], Iterator[str]],
    claim: str = "guesses",
    source: int = VERSION,
) -> Iterator[str]:
    """A proof file's text in ``version`` (:func:`_file_lines`) from ``lines()``: its lines, from
    the root, in version 2's words, of a proof read as (or built in) version ``source``: written
    in version 3, a proof on the total loses its leaves (:func:`compact`) unless it has lost
    them already, and the word ``total``.

    Raises:
        ProofError: a compact proof on the total asked for in an older version (the lines it
            left out are not known).
    """
    body = lines
    if claim == "total" and version >= COMPACT:
        body = (
            (lambda: map(_compact_line, lines()))
            if source >= COMPACT
            else lambda: map(_compact_line, compact(lines()))
        )
    elif claim == "total" and source >= COMPACT:
        raise ProofError(
            f"a proof in version {COMPACT} cannot be written in version {version}: its leaves are left out"
        )
    return _file_lines(header, version, body)


def _file_lines(header: dict[str, Any], version: int, body: Callable[[], Iterable[str]]) -> Iterator[str]:
    """A proof file's text in ``version``: its first line, its header (``nodes`` counted again),
    its lines as ``body()`` gives them (twice: once to count them) and ``end``."""
    count = sum(1 for _ in body())
    yield f"{FORMAT} {version}\n"
    yield json.dumps({**header, "nodes": count}, separators=(", ", ": ")) + "\n"
    for line in body():
        yield line + "\n"
    yield f"end {count}\n"


def _header(rules: Rules, root: ProofNode, claim: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    from ..core.records import package_version

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
