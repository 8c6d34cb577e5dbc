"""The plain reference walk of a strategy's tree: ``choose`` at every node, in Python.

Every fast path (the compiled trees of the partition strategies, the runner's subtrees, the
optimal tree) is tested against it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._kernels import cells
from ..core.feedback import Feedback
from ..core.rules import MAX_GUESSES
from ..core.tree import Node
from ..deduction.state import SolverState
from ..errors import StrategyError
from . import Strategy
from .progress import OnProgress, counting

#: Told of n more secrets found (see :func:`.progress.counting`, which turns it into Progress).
Tally = Callable[[int], None]


def walk(
    strategy: Strategy,
    state: SolverState,
    depth: int,
    distribution: dict[int, int],
    progress: Tally | None,
    node: Node | None = None,
    guess: int | None = None,
    limit: int | None = None,
    found: np.ndarray | None = None,
    games: dict[int, tuple[int, ...]] | None = None,
) -> None:
    """Play the strategy from ``state`` against all of its candidates at once.

    Below guess number ``limit`` + 1 nothing is expanded (for trees shown to a depth). ``found``,
    if given, gets the guess number at which each secret is found; ``games`` the guesses played.
    """
    if depth > MAX_GUESSES:
        raise StrategyError(f"{strategy.name} made no progress after {MAX_GUESSES} guesses")
    space = state.space
    pegs = space.pegs
    cands = state.candidate_indices()
    if guess is None:
        guess = strategy.choose(state)
    if node is not None:
        node.guess = guess
    if limit is not None and depth > limit:
        return
    win = state.rules.win
    code = space.code(guess)
    for f, group in cells(space, guess, cands):
        if f == win:
            distribution[depth] = distribution.get(depth, 0) + 1
            if found is not None:
                found[guess] = depth
            if games is not None:
                games[guess] = (*(space.index(g.colors) for g, _ in state.history), guess)
            if progress:
                progress(1)
            continue
        child = None
        if node is not None:
            child = node.children[f] = Node(guess=-1, size=len(group))
        child_state = state.child(code, Feedback.from_int(f, pegs), group)
        walk(strategy, child_state, depth + 1, distribution, progress, child, None, limit, found, games)


def guesses_per_secret(strategy: Strategy, progress: OnProgress | None = None) -> np.ndarray:
    """For each secret (by code index), how many guesses a deterministic strategy takes to find it.

    >>> from mastermind import Rules, make_strategy
    >>> guesses_per_secret(make_strategy("knuth", Rules(pegs=2, colors=3))).tolist()
    [1, 2, 3, 3, 2, 3, 3, 4, 3]
    """
    if strategy.randomized:
        raise StrategyError(f"{strategy.name} is randomised: the guesses a secret takes vary")
    space = strategy.space
    space.require_enumerable()
    found = np.zeros(space.size, dtype=np.int64)
    tally = counting(progress, space.size)
    walk(strategy, SolverState(strategy.rules), 1, {}, tally, guess=strategy.first_guess(), found=found)
    return found
