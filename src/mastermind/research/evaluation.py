"""Playing a strategy against every secret: statistics and whole strategy trees."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ..core.code import ENUMERATION_LIMIT, Code, CodeLike, CodeSpace, as_code
from ..core.notation import Notation
from ..core.records import package_version, rules_to_dict
from ..core.rules import MAX_GUESSES, Rules
from ..core.seeds import generator
from ..core.tree import Node
from ..deduction.state import SolverState
from ..errors import SampleError, StrategyError
from ..strategies import Strategy
from ..strategies.capabilities import kernels_of, prepare_pieces, tree_at_hand, tree_search
from ..strategies.progress import OnProgress, counting
from ..strategies.walk import walk as _walk
from .results import Stats
from .runner.run import run_tree


def run_key(strategy: Strategy, sample: int | None = None, seed: int | None = None) -> dict:
    """What makes two evaluations the same run, so that a stored one may stand for a new one: the
    strategy with its first-guess override and options, the rules, the sample size, the seed where
    it matters (a sample, or a randomised strategy), and the package version that computed it.

    >>> from mastermind.strategies import make_strategy
    >>> key = run_key(make_strategy("knuth", Rules(pegs=3, colors=4)), seed=5)
    >>> (key["strategy"], key["first"], key["seed"], key["rules"]["pegs"])
    ('knuth', None, None, 3)
    """
    spec = strategy.spec()
    rules = strategy.rules
    first = None if spec.first is None else Notation(rules).format_code(CodeSpace.of(rules).code(spec.first))
    return {
        "strategy": spec.name,
        "first": first,
        "options": dict(spec.played_options()),
        "rules": rules_to_dict(rules),
        "sample": sample,
        "seed": seed if sample is not None or strategy.randomized else None,
        "version": package_version(),
    }


def evaluate(
    strategy: Strategy,
    secrets: Sequence[int] | np.ndarray | None = None,
    *,
    seed: int | None = None,
    progress: OnProgress | None = None,
) -> Stats:
    """Play ``strategy`` against every secret (or the given ones) and collect statistics.

    Deterministic strategies are evaluated as a tree over all secrets at once (walked, cut into
    subtrees for the compiled kernels, or found by the strategy's own search); randomised ones
    play game by game, each game with its own generator drawn from ``seed`` and the secret.
    ``progress`` hears of the secrets done (for subtrees, of the guesses chosen above them first).

    >>> from mastermind.strategies import make_strategy
    >>> evaluate(make_strategy("knuth", Rules(pegs=2, colors=3))).distribution
    {1: 1, 2: 2, 3: 5, 4: 1}
    """
    rules = strategy.rules
    space = CodeSpace.of(rules)
    whole_search = tree_search(strategy) is not None and not strategy.randomized and secrets is None
    cached = False
    if whole_search:
        # A strategy's own search is the work of the run: it is timed, the JIT and tables not
        # (not even loaded when the tree is at hand).
        cached = tree_at_hand(strategy)
        if not cached:
            prepare_pieces(strategy)
        started = time.perf_counter()
        strategy.prepare()  # the search, unless the tree was at hand
    else:
        strategy.prepare()  # JIT and tables: not part of the strategy's time
        started = time.perf_counter()
    if strategy.randomized or secrets is not None:
        distribution, first = _play_each(strategy, secrets, seed, progress)
    else:
        distribution, first = _whole_tree(strategy, progress)
    seconds = time.perf_counter() - started
    return Stats(
        strategy=strategy.name,
        rules=rules,
        first_guess=first,
        distribution=dict(sorted(distribution.items())),
        seconds=seconds,
        codes=space.size,
        sample=secrets is not None and len(secrets) < space.size,
        seed=seed if strategy.randomized or secrets is not None else None,  # only where it mattered
        tree_at_hand=cached,
    )


def _play_each(
    strategy: Strategy,
    secrets: Sequence[int] | np.ndarray | None,
    seed: int | None,
    progress: OnProgress | None,
) -> tuple[dict[int, int], Code | None]:
    """Games played one by one against ``secrets`` (None: every code): the number of secrets
    found in each number of guesses, and the first guess if it was always the same."""
    rules = strategy.rules
    space = CodeSpace.of(rules)
    if secrets is None:
        if not space.enumerable:
            raise StrategyError(
                f"{rules.describe()} has {space.size:,} codes, too many to play every secret; "
                "evaluate a sample of them"
            )
        secrets = np.arange(space.size, dtype=np.int64)
    distribution: dict[int, int] = {}
    firsts = set()
    tally = counting(progress, len(secrets))
    for secret in secrets:
        guesses = play(strategy, int(secret), seed=seed)
        firsts.add(guesses[0])
        distribution[len(guesses)] = distribution.get(len(guesses), 0) + 1
        if tally:
            tally(1)
    return distribution, space.code(firsts.pop()) if len(firsts) == 1 else None


def _whole_tree(strategy: Strategy, progress: OnProgress | None) -> tuple[dict[int, int], Code]:
    """A deterministic strategy's tree over every secret, by its own search, the compiled kernels
    or a walk: the number of secrets found in each number of guesses, and the first guess."""
    rules = strategy.rules
    space = CodeSpace.of(rules)
    guess = strategy.first_guess()
    tally = counting(progress, space.size)
    distribution: dict[int, int] = {}
    if (search := tree_search(strategy)) is not None:
        distribution = search.search_tree().root.distribution()
        if tally:
            tally(space.size)
    elif kernels_of(strategy) is not None:
        distribution = run_tree(strategy, progress=progress).distribution
    else:
        _walk(strategy, SolverState(rules), 1, distribution, tally, guess=guess)
    return distribution, space.code(guess)


#: The game an estimate is calibrated on: quick for a partition strategy, yet long enough to time.
CALIBRATION_RULES = Rules(pegs=5, colors=6)

#: How a partition strategy's whole-tree time grows with the number of codes: as codes ** GROWTH.
#: Fitted to Knuth's runs from 5x6 to 7x7 (docs/performance.md, docs/scale.md), whose exponents
#: lie between 1.3 and 1.8.
GROWTH = 1.7


def estimate_seconds(strategy: Strategy) -> float | None:
    """A rough guess of how long :func:`evaluate` takes over every secret on this machine, or None
    where the cost model does not apply (strategies other than those on compiled kernels: the
    partition strategies).

    The cost model: the same strategy is timed now on 5 pegs and 6 colours, and the time scaled
    by (codes / 7,776) ** GROWTH. Pruning makes the real growth vary from game to game (games
    without repeats were relatively slower), so take the answer as an order of magnitude.
    """
    from ..strategies import make_strategy

    if kernels_of(strategy) is None:
        return None
    small = make_strategy(strategy.name, CALIBRATION_RULES, **dict(strategy.spec().options))
    seconds = evaluate(small).seconds
    return seconds * (strategy.space.size / CALIBRATION_RULES.size) ** GROWTH


def sample_secrets(rules: Rules, count: int, seed: int | None = None) -> np.ndarray:
    """``count`` distinct secrets drawn uniformly at random (all of them if count >= size).

    Works without enumerating the code space, so it serves games of any size; but a sample is held
    in memory, so it has at most ENUMERATION_LIMIT secrets (SampleError otherwise).
    """
    space = CodeSpace.of(rules)
    if count >= space.size and space.enumerable:
        return np.arange(space.size, dtype=np.int64)
    if count > ENUMERATION_LIMIT:
        whole = f"all {space.size:,} secrets of {rules.describe()}" if count >= space.size else ""
        raise SampleError(
            f"a sample of {whole or f'{count:,} secrets'} is too large to hold; "
            f"a sample has at most {ENUMERATION_LIMIT:,} secrets"
        )
    rng = generator(seed)
    if space.size <= 1 << 26:
        return np.sort(rng.choice(space.size, size=count, replace=False)).astype(np.int64)
    chosen: set[int] = set()
    while len(chosen) < count:
        if rules.repeats:
            colors = rng.integers(0, rules.colors, size=rules.pegs)
        else:
            colors = rng.permutation(rules.colors)[: rules.pegs]
        chosen.add(space.index(colors.tolist()))
    return np.array(sorted(chosen), dtype=np.int64)


def strategy_tree(strategy: Strategy, progress: OnProgress | None = None, depth: int | None = None) -> Node:
    """The decision tree of a deterministic strategy: whole, or its first ``depth`` + 1 guesses.

    With ``depth``, nodes of guess number depth + 1 have their guess and size but no children. The
    tree is never grown past the game's guess limit: the nodes one guess past it hold the codes lost.
    """
    if strategy.randomized:
        raise StrategyError(f"{strategy.name} is randomised: it has no single tree")
    space = CodeSpace.of(strategy.rules)
    root = Node(guess=strategy.first_guess(), size=space.size, rules=strategy.rules)
    limit = strategy.rules.max_guesses if depth is None else min(depth, strategy.rules.max_guesses)
    tally = counting(progress, space.size)
    _walk(strategy, SolverState(strategy.rules), 1, {}, tally, root, root.guess, limit)
    return root


def games_per_secret(
    strategy: Strategy,
    secrets: Sequence[int] | np.ndarray | None = None,
    *,
    seed: int | None = None,
    progress: OnProgress | None = None,
) -> dict[int, tuple[int, ...]]:
    """For each secret (a code index), the guesses the strategy plays to find it, the last one the
    secret: the games :func:`evaluate` scores, with the same ``secrets`` and ``seed``.

    >>> from mastermind.strategies import make_strategy
    >>> games = games_per_secret(make_strategy("knuth", Rules(pegs=2, colors=3)))
    >>> [Notation(Rules(pegs=2, colors=3)).format_code(CodeSpace.of(Rules(pegs=2, colors=3)).code(g))
    ...  for g in games[7]]
    ['11', '22', '23', '32']
    """
    space = CodeSpace.of(strategy.rules)
    strategy.prepare()
    if secrets is None and not strategy.randomized:
        space.require_enumerable()
        games: dict[int, tuple[int, ...]] = {}
        first = strategy.first_guess()
        tally = counting(progress, space.size)
        _walk(strategy, SolverState(strategy.rules), 1, {}, tally, guess=first, games=games)
        return dict(sorted(games.items()))
    if secrets is None:
        space.require_enumerable()
        secrets = np.arange(space.size, dtype=np.int64)
    out = {}
    tally = counting(progress, len(secrets))
    for secret in secrets:
        out[int(secret)] = tuple(play(strategy, int(secret), seed=seed))
        if tally:
            tally(1)
    return out


def play(
    strategy: Strategy,
    secret: CodeLike | int,
    *,
    seed: int | None = None,
    limit: int = MAX_GUESSES,
) -> list[int]:
    """One game against ``secret``: text in the game's notation, a Code, colour indices, or a code
    index (an int). Returns the indices of the guesses, the last one the secret.

    >>> from mastermind.strategies import make_strategy
    >>> knuth = make_strategy("knuth", Rules())
    >>> space = CodeSpace.of(Rules())
    >>> [str(space.code(guess)) for guess in play(knuth, "3632")]
    ['1122', '1344', '3526', '1462', '3632']
    """
    from ..core.feedback import score

    space = CodeSpace.of(strategy.rules)
    if isinstance(secret, int | np.integer):
        secret = int(secret)
        if not 0 <= secret < space.size:
            raise StrategyError(
                f"no code of {strategy.rules.describe()} has index {secret} (0 to {space.size - 1}); "
                "give a secret as text, e.g. " + repr(Notation(strategy.rules).example())
            )
    else:
        secret = space.index(as_code(secret, strategy.rules).colors)
    rng = generator(seed, secret)
    strategy.new_game(rng)
    state = SolverState(strategy.rules)
    secret_code = space.code(secret)
    guesses: list[int] = []
    while len(guesses) < limit:
        guess = strategy.choose(state)
        guesses.append(guess)
        if guess == secret:
            return guesses
        code = space.code(guess)
        state = state.add(code, score(code.colors, secret_code.colors))
    raise StrategyError(f"{strategy.name} did not find the secret in {limit} guesses")
