"""Tree files: a strategy's whole decision tree on disk, and a plain-Python check of what it claims.

A tree file lets anyone check a result (a total, a worst case) without trusting the program that
found it: :func:`replay` plays the tree against every secret of its game with the plain scoring
rule (:func:`mastermind.core.feedback.score`, the specification) and nothing compiled, not even
numpy. The format is text, one node per line, so that a short program in any language can check
it too; gzip makes it compact (a file whose name ends in ``.gz`` is written compressed, and a
compressed file is recognised by its first bytes, whatever its name).

Format, version 1 (docs/trees.md says the same, with an example)::

    mastermind-tree 1
    {"game": {"pegs": 4, "colors": 6, "repeats": true, "blank": false, "max_guesses": 10},
     "strategy": "knuth", ..., "secrets": 1296, "total": 5801, "max": 5, "nodes": ...}
    1122
     0,0 3456
      0,0 ...
    ...
    end 1234

* Line 1: the format's name and version.
* Line 2: a JSON object on one line: ``game`` (the rules: ``colors`` counts the blank, which is
  the last colour), and the claims the replay checks: ``secrets`` (how many codes the game has),
  ``total`` (guesses over all secrets), ``max`` (the most guesses a secret needs),
  ``distribution`` (secrets found with each number of guesses, keys as strings) and ``nodes``
  (lines of the tree). Anything else (``strategy``, ``options``, ``written_by``, ``exact``,
  ``lower_bound``...) is information, not checked by the replay.
* Then the tree in preorder, one node per line. The root is its guess alone; any other node is
  indented by one space per level below the root and reads ``BLACK,WHITE GUESS``: the reply to
  its parent's guess that leads to it, then its own guess. A node has one child for each reply
  other than the win that its parent's secrets give, in any order.
* Last line: ``end`` and the number of nodes, so that a file cut short is refused even when it
  is cut between lines.

A code is written one symbol per peg, colour c (0-based) as the c-th symbol of the game's
alphabet: ``123456789`` up to 9 real colours, ``0123456789`` for 10, ``a-z`` up to 26 and
``0-9a-z`` beyond; the blank (in a game with it, the last colour) is ``-``. This is fixed by the
format (it is the command line's default notation today), so a file never depends on how codes
are shown.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.feedback import Feedback, score
from ..core.rules import Rules
from ..core.text import plural
from ..errors import TreeFileError
from .files import alphabet, code_text, every_code, game_dict, read_header, read_text, write_file

if TYPE_CHECKING:
    from ..core.tree import Node

#: The format's name, on the first line with its version.
FORMAT = "mastermind-tree"
#: The version this module writes; it reads this one only.
VERSION = 1


@dataclass
class TreeNode:
    """A node of a tree file: its guess (0-based colours), a child for each reply other than
    the win (by :class:`Feedback`), and the line of the file it was read from (0 if built)."""

    guess: tuple[int, ...]
    children: dict[Feedback, TreeNode] = field(default_factory=dict)
    line: int = 0

    def walk(self) -> Iterator[TreeNode]:
        """Every node, in preorder."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children.values())))


@dataclass
class TreeFile:
    """A whole tree of one game and what its header says (see the module's documentation)."""

    rules: Rules
    root: TreeNode
    header: dict[str, Any]

    # -- writing ---------------------------------------------------------------------------

    @classmethod
    def of_tree(cls, rules: Rules, root: Node, **info: Any) -> TreeFile:
        """The tree file of a strategy tree (code indices, as :func:`mastermind.strategy_tree` builds
        it), every claim of the header computed from the tree; ``info`` goes into the header first
        (``strategy``, ``options``, ...). Every secret must be found within the game's guess limit.

        Raises:
            TreeFileError: the tree is cut at the guess limit (some secrets are never found).
        """
        from ..core.code import CodeSpace
        from ..core.records import package_version

        space = CodeSpace.of(rules)
        win = rules.pegs * (rules.pegs + 1)
        count = 0

        def convert(node: Node, depth: int) -> TreeNode:
            nonlocal count
            if depth > rules.max_guesses:
                raise TreeFileError(
                    f"the tree does not find every secret within the {rules.max_guesses} guesses allowed"
                )
            count += 1
            out = TreeNode(space.code(node.guess).colors)
            for f, child in sorted(node.children.items()):
                if f != win:
                    out.children[Feedback.from_int(f, rules.pegs)] = convert(child, depth + 1)
            return out

        top = convert(root, 1)
        distribution = root.distribution()
        header = {
            "game": game_dict(rules),
            **info,
            "secrets": root.size,
            "total": sum(k * n for k, n in distribution.items()),
            "max": max(distribution),
            "distribution": {str(k): n for k, n in distribution.items()},
            "nodes": count,
            "written_by": f"mastermind-lab {package_version()}",
        }
        return cls(rules, top, header)

    @property
    def first_guess(self) -> str:
        """The tree's first guess, as the file writes it."""
        return code_text(self.rules, self.root.guess)

    def dumps(self) -> str:
        """The file's text."""
        symbols = alphabet(self.rules)
        lines = [f"{FORMAT} {VERSION}", json.dumps(self.header, separators=(", ", ": "))]
        count = 0
        stack: list[tuple[TreeNode, int, Feedback | None]] = [(self.root, 0, None)]
        while stack:
            node, depth, reply = stack.pop()
            code = "".join(symbols[c] for c in node.guess)
            lines.append(code if reply is None else f"{' ' * depth}{reply.black},{reply.white} {code}")
            count += 1
            for f in sorted(node.children, reverse=True):
                stack.append((node.children[f], depth + 1, f))
        lines.append(f"end {count}")
        return "\n".join(lines) + "\n"

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the file (gzip-compressed if its name ends in ``.gz``); written to a temporary
        file and renamed, so that a killed process never leaves half a file under the name."""
        write_file(path, self.dumps())

    # -- checking --------------------------------------------------------------------------

    def verify(self, progress: Callable[[int], None] | None = None) -> Replay:
        """:func:`replay`, then check the header's claims (secrets, total, max, distribution, nodes)
        and that no secret needs more guesses than the game allows.

        Raises:
            TreeFileError: the tree or a claim is wrong.
        """
        result = replay(self, progress)
        h = self.header
        nodes = sum(1 for _ in self.root.walk())
        found = {
            "secrets": result.secrets,
            "total": result.total,
            "max": result.max,
            "nodes": nodes,
            "distribution": {str(k): n for k, n in result.distribution.items()},
        }
        for key, value in found.items():
            if key in h and h[key] != value:
                raise TreeFileError(f"the tree gives {key} {_show(value)}, its header says {_show(h[key])}")
        if result.max > self.rules.max_guesses:
            raise TreeFileError(
                f"some secret needs {result.max} guesses, and the game allows {self.rules.max_guesses}"
            )
        return result

    # -- reading ---------------------------------------------------------------------------

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> TreeFile:
        """Read a tree file (plain or gzip-compressed).

        Raises:
            TreeFileError: it cannot be read, is not a tree file of this version, or is damaged
                or cut short (the message says where).
        """
        return cls.loads(read_text(path, "tree file", TreeFileError), str(path))

    @classmethod
    def loads(cls, text: str, name: str = "tree file") -> TreeFile:
        """Parse a tree file's text (see :meth:`read`)."""
        lines, header, rules = read_header(text, name, FORMAT, VERSION, "tree file", TreeFileError)
        symbols = alphabet(rules)
        pegs = rules.pegs

        def code_of(token: str, at: int) -> tuple[int, ...]:
            if len(token) != pegs or any(ch not in symbols for ch in token):
                raise TreeFileError(f"{name}, line {at}: {token[:40]!r} is not a code of {rules.describe()}")
            code = tuple(symbols.index(ch) for ch in token)
            if not rules.repeats and len(set(code)) != pegs:
                raise TreeFileError(
                    f"{name}, line {at}: {token!r} repeats a colour, and this game allows no repeats"
                )
            return code

        if len(lines) < 4 or not lines[-1].startswith("end "):
            raise TreeFileError(f"{name}: cut short (no 'end' line)")
        body = lines[2:-1]
        try:
            count = int(lines[-1][4:])
        except ValueError:
            raise TreeFileError(f"{name}, line {len(lines)}: a damaged 'end' line") from None
        if count != len(body):
            raise TreeFileError(f"{name}: {len(body):,} nodes, where its 'end' line says {count:,}: damaged")
        root = TreeNode(code_of(body[0], 3), line=3)
        path: list[TreeNode] = [root]  # the last node read at each depth
        for i, line in enumerate(body[1:], start=4):
            depth = len(line) - len(line.lstrip(" "))
            parts = line.split()
            if depth == 0 or depth > len(path) or len(parts) != 2:
                raise TreeFileError(f"{name}, line {i}: not 'REPLY GUESS' indented under a node")
            try:
                black, white = (int(x) for x in parts[0].split(","))
            except ValueError:
                raise TreeFileError(
                    f"{name}, line {i}: {parts[0][:20]!r} is not a reply BLACK,WHITE"
                ) from None
            node = TreeNode(code_of(parts[1], i), line=i)
            parent = path[depth - 1]
            reply = Feedback(black, white)
            if reply in parent.children:
                raise TreeFileError(
                    f"{name}, line {i}: reply {reply} twice under the node of line {parent.line}"
                )
            parent.children[reply] = node
            del path[depth:]
            path.append(node)
        return cls(rules, root, header)


# -- the replay ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """What a tree does over every secret of its game, found by playing it."""

    secrets: int
    total: int
    distribution: dict[int, int]

    @property
    def max(self) -> int:
        return max(self.distribution)

    @property
    def mean(self) -> float:
        return self.total / self.secrets


def replay(tree: TreeFile, progress: Callable[[int], None] | None = None) -> Replay:
    """Play the tree against every secret of its game, in plain Python with the scoring rule's
    specification; ``progress(n)`` as n more secrets are found.

    Raises:
        TreeFileError: a node's children are not exactly the replies its secrets give to its
            guess (a reply missing or one too many), so some secret is never found.
    """
    rules = tree.rules
    win = Feedback(rules.pegs, 0)
    codes = every_code(rules)
    distribution: dict[int, int] = {}
    stack: list[tuple[TreeNode, list[tuple[int, ...]], int]] = [(tree.root, codes, 1)]
    while stack:
        node, secrets, depth = stack.pop()
        g = node.guess
        cells: dict[Feedback, list[tuple[int, ...]]] = {}
        for s in secrets:
            f = score(g, s)
            if f in cells:
                cells[f].append(s)
            else:
                cells[f] = [s]
        if win in cells:
            distribution[depth] = distribution.get(depth, 0) + 1
            if progress:
                progress(1)
        for f, child in node.children.items():
            if f not in cells or f == win:
                raise TreeFileError(
                    f"line {child.line}: no secret there gives reply {f} to the guess of line {node.line}"
                )
        for f, cell in cells.items():
            if f == win:
                continue
            if f not in node.children:
                raise TreeFileError(
                    f"line {node.line}: {plural(len(cell), 'secret gives', 'secrets give')} reply {f} to "
                    "its guess, and the tree does not say what to play then"
                )
            stack.append((node.children[f], cell, depth + 1))
    distribution = dict(sorted(distribution.items()))
    total = sum(k * n for k, n in distribution.items())
    return Replay(len(codes), total, distribution)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{n}" for k, n in value.items())
    return f"{value:,}" if isinstance(value, int) else repr(value)
