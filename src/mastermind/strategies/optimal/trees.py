"""The trees of the exact optimal search: the preorder array the compiled search writes, parsed,
written back in a canonical order, and checked against the secrets they claim to find.

The array is ``guess, 2 * k + w`` then k times ``reply, node`` (w: the guess is one of the
node's secrets); :func:`to_flat` writes each node's cells in increasing order of reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.code import CodeSpace
from ...core.rules import Rules
from ...core.tree import Node
from ...errors import TreeError


@dataclass
class OptimalNode(Node):
    """A node of an optimal tree (a strategy tree, :class:`~mastermind.core.tree.Node`) with the
    total number of guesses its secrets still need, this one included."""

    cost: int = 0
    children: dict[int, OptimalNode] = field(default_factory=dict)  # type: ignore[assignment]


@dataclass(frozen=True)
class Solution:
    """The least total of a position and a tree reaching it (preorder, see the kernel)."""

    cost: int
    flat: np.ndarray

    def tree(self) -> OptimalNode:
        return parse(self.flat)


def parse(flat: np.ndarray) -> OptimalNode:
    """The tree of a preorder array: ``guess, 2 * k + w`` then k times ``reply, node`` (w: the
    guess is one of the node's secrets)."""
    values = flat.tolist()

    def node(i: int) -> tuple[OptimalNode, int]:
        guess, code = values[i], values[i + 1]
        if code < 1:
            raise TreeError("a node with neither cells nor a win")
        i += 2
        out = OptimalNode(guess=guess, size=0, cost=0)
        for _ in range(code >> 1):
            reply = values[i]
            if reply in out.children:
                raise TreeError("a reply twice at one node")
            child, i = node(i + 1)
            out.children[reply] = child
        out.size = (code & 1) + sum(c.size for c in out.children.values())
        out.cost = out.size + sum(c.cost for c in out.children.values())
        return out, i

    root, end = node(0)
    if end != len(values):
        raise TreeError("trailing entries after the tree")
    return root


def to_flat(root: OptimalNode) -> np.ndarray:
    """The preorder array of a tree, each node's cells in increasing order of reply."""
    out: list[int] = []
    stack: list[tuple[int, OptimalNode]] = [(-1, root)]
    while stack:
        reply, node = stack.pop()
        if reply >= 0:
            out.append(reply)
        wins = node.size - sum(c.size for c in node.children.values())
        out += [node.guess, 2 * len(node.children) + wins]
        stack.extend((f, node.children[f]) for f in sorted(node.children, reverse=True))
    return np.array(out, dtype=np.int64)


def joined(guess: int, found: bool, trees: dict[int, np.ndarray]) -> np.ndarray:
    """The tree of a guess whose cells (reply -> tree) are solved, its cells in increasing order
    of reply, each as it is (``found``: the guess is one of the node's secrets)."""
    parts = [np.array([guess, 2 * len(trees) + int(found)], dtype=np.int64)]
    for f in sorted(trees):
        parts.append(np.array([f], dtype=np.int64))
        parts.append(trees[f])
    return np.concatenate(parts)


def join_cells(guess: int, found: bool, trees: dict[int, np.ndarray]) -> np.ndarray:
    """The tree of a guess whose cells (reply -> tree) are solved: as :func:`to_flat` writes it."""
    return to_flat(parse(joined(guess, found, trees)))


def check_tree(rules: Rules, flat: np.ndarray, secrets: np.ndarray, left: int) -> OptimalNode:
    """Parse a tree and confirm that it finds every secret of ``secrets`` (and nothing else)
    within ``left`` guesses, each reply leading where it says. Raises TreeError if not.

    The replies are scored with numpy, pair by pair along the tree (as many pairs as the tree's
    total of guesses), so that a cached tree is checked without the compiled kernels."""
    from ..._kernels.reference import feedback_against

    space = CodeSpace.of(rules)
    win = rules.pegs * (rules.pegs + 1)
    root = parse(flat)
    stack: list[tuple[OptimalNode, np.ndarray, int]] = [(root, np.unique(secrets), left)]
    while stack:
        node, S, k = stack.pop()
        if k < 1:
            raise TreeError("the tree is deeper than the guess limit")
        if not 0 <= node.guess < space.size:
            raise TreeError("a guess out of range")
        replies = feedback_against(space, node.guess, S)
        cells = {int(f): S[replies == f] for f in np.unique(replies)}
        found = node.size - sum(c.size for c in node.children.values())
        if node.size != len(S) or found != int(win in cells):
            raise TreeError("a node's secrets do not match its guess")
        if set(node.children) != set(cells) - {win}:
            raise TreeError("the tree's replies are not those of its secrets")
        stack.extend((child, cells[f], k - 1) for f, child in node.children.items())
    return root
