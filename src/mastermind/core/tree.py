"""Strategy trees: a guess, how many secrets reach it, and a subtree for each reply.

A tree renders itself as an outline, nested dicts or Graphviz DOT, writing codes in a Notation.
The game's guess limit (``notation.rules.max_guesses``) cuts it: the codes a reply leaves after
the last guess allowed are lost, and shown as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .code import CodeSpace
from .feedback import Feedback
from .notation import Notation
from .rules import Rules
from .text import plural

#: The forms a tree is written in: an outline (:meth:`Node.format`), nested dicts as JSON
#: (:meth:`Node.to_dict`), Graphviz DOT (:meth:`Node.to_dot`).
TREE_FORMATS = ("text", "json", "dot")


@dataclass
class Node:
    """One guess of a strategy tree: its code index, how many secrets reach it, and a child for each
    reply other than the win. ``depth`` in the renderers limits how many guesses are shown."""

    guess: int
    size: int
    children: dict[int, Node] = field(default_factory=dict)
    #: The game, where it is known (a tree from ``strategy_tree`` has it at its root): a notebook
    #: then draws the tree's codes as the game writes them.
    rules: Rules | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        """Short: a whole tree's nested repr would run to thousands of lines. The guess is its
        code where the node knows its game (a tree's root does), else its index.

        >>> Node(7, 1296, {0: Node(20, 256)})
        <Node guess=7 size=1296: 1 reply below, 2 guesses deep>
        >>> Node(7, 1296, {0: Node(20, 256)}, rules=Rules())
        <Node guess=1122 size=1296: 1 reply below, 2 guesses deep>
        """
        below = plural(len(self.children), "reply", "replies")
        guess: int | str = self.guess
        if self.rules is not None:
            guess = Notation(self.rules).format_code(CodeSpace.of(self.rules).code(self.guess))
        return f"<Node guess={guess} size={self.size}: {below} below, {self.depth()} guesses deep>"

    def _repr_html_(self) -> str:
        if self.rules is None:
            from html import escape

            return escape(repr(self))
        from .display import tree

        return tree(self, Notation(self.rules))

    def depth(self) -> int:
        """Guesses the deepest secret below needs (this one included)."""
        return 1 + max((c.depth() for c in self.children.values()), default=0)

    def distribution(self, start: int = 1) -> dict[int, int]:
        """Secrets found with each guess number, this node's guess being number ``start``."""
        out: dict[int, int] = {}
        stack = [(self, start)]
        while stack:
            node, k = stack.pop()
            found = node.size - sum(c.size for c in node.children.values())
            if found:
                out[k] = out.get(k, 0) + found
            stack.extend((c, k + 1) for c in node.children.values())
        return dict(sorted(out.items()))

    def format(self, notation: Notation, depth: int | None = None) -> str:
        """An indented outline, like Knuth's table.

        The first line is the first guess and the number of codes; below it, one line per reply:
        ``reply: codes left -> next guess``, indented by guess number. A class of one code is
        marked "wins": its next guess is the secret. With ``depth``, the first ``depth`` guesses
        are shown, the last of them with the classes its replies leave but not the guesses after.
        """
        space = CodeSpace.of(notation.rules)
        pegs = notation.rules.pegs
        width = len(str(self.size))
        lines = [f"{notation.format_code(space.code(self.guess))}  ({self.size:,} codes)"]
        limit = notation.rules.max_guesses
        lost = 0

        def walk(node: Node, level: int) -> None:
            nonlocal lost
            cut = depth is not None and level >= depth  # the next guesses are not shown
            for f, child in sorted(node.children.items()):
                reply = Feedback.from_int(f, pegs)
                line = f"{'    ' * (level - 1)}  {reply}: {child.size:>{width}}"
                if level >= limit:  # the next guess would be one too many
                    line += " -> lost"
                    lost += child.size
                elif not cut:
                    guess = notation.format_code(space.code(child.guess))
                    line += f" -> {guess}" + ("  wins" if child.size == 1 else "")
                lines.append(line)
                if level < limit and not cut:
                    walk(child, level + 1)

        walk(self, 1)
        if lost:
            lines.append(f"lost: {plural(lost, 'code')} not found in {plural(limit, 'guess', 'guesses')}")
        return "\n".join(lines)

    def to_dict(self, notation: Notation, depth: int | None = None) -> dict[str, Any]:
        """Nested dicts: {"guess", "size", "replies": {"B,W": subtree}}; the codes a reply leaves after
        the last guess allowed: {"lost": true, "size"}. With ``depth``, the replies of the last
        guess shown are classes only: {"size"}, as the outline shows them."""
        space = CodeSpace.of(notation.rules)
        pegs = notation.rules.pegs

        limit = notation.rules.max_guesses

        def walk(node: Node, level: int) -> dict[str, Any]:
            if level > limit:
                return {"lost": True, "size": node.size}
            if depth is not None and level > depth:  # a class: its guess is past the depth shown
                return {"size": node.size}
            out: dict[str, Any] = {"guess": notation.format_code(space.code(node.guess)), "size": node.size}
            if depth is None or level <= depth:
                out["replies"] = {
                    str(Feedback.from_int(f, pegs)): walk(child, level + 1)
                    for f, child in sorted(node.children.items())
                }
            return out

        return walk(self, 1)

    def to_dot(self, notation: Notation, depth: int | None = None, title: str = "strategy") -> str:
        """Graphviz DOT: a box per guess (code and codes left), edges labelled by reply. A tree of
        more than :data:`DOT_LEVELS_DOWN` levels of guesses is laid out from left to right: its
        breadth then runs down the page (Knuth's tree to depth 3 top-down is 10,259 pixels wide)."""
        space = CodeSpace.of(notation.rules)
        pegs = notation.rules.pegs
        levels = self.depth() if depth is None else min(depth, self.depth())
        lines = [
            f"digraph {_dot_id(title)} {{",
            *(["  rankdir=LR;"] if levels > DOT_LEVELS_DOWN else []),
            "  node [shape=box, fontname=monospace];",
            "  edge [fontname=monospace];",
        ]
        counter = 0
        limit = notation.rules.max_guesses

        def walk(node: Node, level: int) -> int:
            nonlocal counter
            me = counter
            counter += 1
            if level > limit:
                lines.append(f'  n{me} [label="lost\\n{node.size}", style=dashed];')
                return me
            shape = ", style=rounded" if node.size == 1 else ""
            code = notation.format_code(space.code(node.guess))
            lines.append(f'  n{me} [label="{code}\\n{node.size}"{shape}];')
            if depth is None or level < depth:
                for f, child in sorted(node.children.items()):
                    them = walk(child, level + 1)
                    lines.append(f'  n{me} -> n{them} [label="{Feedback.from_int(f, pegs)}"];')
            return me

        walk(self, 1)
        lines.append("}")
        return "\n".join(lines)


#: The most levels of guesses a DOT tree draws from top to bottom (Knuth's first two guesses are
#: 1,139 pixels wide); deeper trees are drawn from left to right.
DOT_LEVELS_DOWN = 2


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
