"""An optimal tree brought within a guess limit at no cost, where it can be: the least total
within D guesses, when it equals the unrestricted optimum.

    python benchmarks/mend_limit.py results/5x7-optimal.tree.gz --max-guesses 6 --save FILE

In an optimal tree every subtree is optimal for its secrets (else a cheaper one would lower the
total). So a tree of the same total within D guesses exists exactly when each subtree that goes
past D can be replaced by one of the same cost that does not. Each such subtree is searched
again by the exact search (``solve_piece``, one compiled call) within the guesses left at its
node, below its own cost plus one: a search with the tightest budget there is. The deepest are
tried first: a node whose children can all be mended keeps its guess; one with a child that
cannot be is searched itself, and so on up. If every subtree is mended, the tree written has the
optimum's total within D guesses, which is then the least total within D (a limit never lowers
the optimum; that the tree file's total is the optimum rests on its search or its proof). If
a subtree just below the root cannot be mended, no tree of the optimum's total within D begins
with the file's first guess (in such a tree each subtree costs its own optimum, the one the
search was given); another first guess of the same total may still exist, so the least total
within D is then not found here (``mastermind evaluate -s optimal --max-guesses D`` finds it).
With ``--least``, those subtrees are searched again without a budget: the tree written is then
the least total within D among trees beginning with the file's first guess (an upper bound on
the least total within D).
Prints each search (the node's depth and reply history, secrets, cost, whether mended, seconds
of CPU), then the mended tree's total and distribution.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from pathlib import Path

import numpy as np

from mastermind._kernels import cells
from mastermind.core.code import CodeSpace
from mastermind.core.feedback import Feedback
from mastermind.errors import MastermindError
from mastermind.strategies.optimal.search import FAIL, OptimalNode, parse, solve_piece
from mastermind.verify.files import code_text
from mastermind.verify.tree import TreeFile, TreeNode


@dataclasses.dataclass
class _Node:
    """A node of the tree with its secrets, its cost and the most guesses below it (its own
    included)."""

    tree: OptimalNode
    secrets: np.ndarray
    deepest: int
    children: dict[int, _Node]


def _read(tree: TreeFile, space: CodeSpace) -> _Node:
    """The file's tree as code indices, each node with its secrets (the tree replayed)."""
    pegs, win = tree.rules.pegs, tree.rules.pegs * (tree.rules.pegs + 1)

    def node(at: TreeNode, secrets: np.ndarray) -> _Node:
        g = space.index(at.guess)
        out = OptimalNode(guess=g, size=len(secrets), cost=len(secrets))
        children = {}
        for f, cell in cells(space, g, secrets):
            if f != win:
                child = node(at.children[Feedback.from_int(f, pegs)], cell)
                children[f] = child
                out.children[f] = child.tree
                out.cost += child.tree.cost
        deepest = 1 + max((c.deepest for c in children.values()), default=0)
        return _Node(out, secrets, deepest, children)

    return node(tree.root, np.arange(space.size, dtype=np.int64))


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("tree", help="an optimal tree file (the unrestricted optimum)")
    parser.add_argument("--max-guesses", type=int, required=True, metavar="D")
    parser.add_argument("--save", help="where to write the mended tree, if every subtree is mended")
    parser.add_argument(
        "--least",
        action="store_true",
        help="search the root's subtrees that cannot be mended for their least cost within D",
    )
    args = parser.parse_args()
    if args.save is not None and not (args.save.strip() and Path(args.save).resolve().parent.is_dir()):
        parser.error(f"--save: {args.save!r} is not a file name in a folder that exists")
    try:
        tree = TreeFile.read(args.tree)
    except MastermindError as err:
        parser.error(str(err))
    limit = args.max_guesses
    rules = dataclasses.replace(tree.rules, max_guesses=limit)
    space = CodeSpace.of(rules)
    root = _read(tree, space)
    print(f"{args.tree}: total {root.tree.cost}, {root.deepest} guesses at most; mending within {limit}")

    def mend(node: _Node, history: list[tuple[int, int]]) -> bool:
        """Whether the node's subtree is (made) within the limit at its cost."""
        if len(history) + node.deepest <= limit:
            return True
        if len(history) >= limit:  # (its own guess is past the limit: its parent must change)
            return False
        if all(mend(child, [*history, (node.tree.guess, f)]) for f, child in list(node.children.items())):
            return True
        return search(node, history, node.tree.cost + 1)

    def search(node: _Node, history: list[tuple[int, int]], budget: int) -> bool:
        """Whether a tree of the node's secrets within the limit costs less than ``budget``:
        if one does, the least such becomes the node's subtree."""
        start = time.process_time()
        cost, flat = solve_piece(rules, history, budget)
        where = " ".join(
            f"{code_text(rules, space.code(g).colors)}:{Feedback.from_int(f, rules.pegs)}" for g, f in history
        )
        if flat is None:
            said = "no tree within the limit below that" if budget < FAIL else "no tree within the limit"
        else:
            said = "mended" if cost == node.tree.cost else f"least within the limit: {cost}"
        print(
            f"depth {len(history)} [{where}] {len(node.secrets)} secrets, cost {node.tree.cost}: "
            f"{said} ({time.process_time() - start:.1f} s)",
            flush=True,
        )
        if flat is None:
            return False
        node.tree = parse(flat)
        node.deepest = node.tree.depth()
        node.children = {}
        return True

    def rebuilt(node: _Node) -> OptimalNode:
        for f, child in node.children.items():
            node.tree.children[f] = rebuilt(child)
        return node.tree

    optimum, first = root.tree.cost, code_text(rules, space.code(root.tree.guess).colors)
    kept = {f: mend(child, [(root.tree.guess, f)]) for f, child in root.children.items()}
    if not all(kept.values()):
        print(f"not mended: no tree of total {optimum} within {limit} guesses begins with {first}")
        if not args.least:
            return
        for f, child in root.children.items():
            if not kept[f] and not search(child, [(root.tree.guess, f)], FAIL):
                print(f"no tree within {limit} guesses begins with {first}")
                return
    whole = rebuilt(root)
    # not mended (--least): the optimum given its first guess, as `--first` says in a tree file
    given = None if all(kept.values()) else first
    info = {"strategy": "optimal", "first": given, "options": {}, "exact": True}
    mended = TreeFile.of_tree(rules, whole, **info)
    what = "mended" if all(kept.values()) else f"the least within {limit} guesses beginning with {first}"
    print(
        f"{what}: total {mended.header['total']}, at most {mended.header['max']} guesses, "
        f"distribution {mended.header['distribution']}"
    )
    if args.save is not None:
        mended.write(args.save)


if __name__ == "__main__":
    main()
