"""Mastermind and its variants: rules, exact solvers, strategy evaluation.

>>> from mastermind import Rules, SolverState
>>> len(SolverState(Rules()).add("1122", "1,0").candidates())
256
>>> import mastermind, importlib.metadata
>>> mastermind.__version__ == importlib.metadata.version("mastermind-lab")
True
"""

from typing import TYPE_CHECKING, Any

from .core.lazy_names import lazy_names

# Names are imported on first use, so that `mastermind --help` does not wait for numba.
_HOME = {
    "Code": "core.code",
    "CodeSpace": "core.code",
    "as_code": "core.code",
    "ContradictionError": "errors",
    "FeedbackError": "errors",
    "MastermindError": "errors",
    "NotationError": "errors",
    "RulesError": "errors",
    "StrategyError": "errors",
    "UnknownStrategyError": "errors",
    "GameError": "errors",
    "RecordError": "errors",
    "SeedError": "errors",
    "SampleError": "errors",
    "StoreError": "errors",
    "ExecutorError": "errors",
    "CheckpointError": "errors",
    "PlotError": "errors",
    "SettingsError": "errors",
    "TreeError": "errors",
    "TreeFileError": "errors",
    "ProofError": "errors",
    "Game": "games.game",
    "Match": "games.match",
    "Hint": "games.game",
    "Move": "games.moves",
    "Problem": "games.moves",
    "check_history": "games.moves",
    "SCORING_RULES": "games.match",
    "Review": "games.review",
    "MoveReview": "games.review",
    "Advice": "games.advice",
    "review": "games.review",
    "advise": "games.advice",
    "VERDICTS": "games.review",
    "Node": "core.tree",
    "TreeFile": "verify.tree",
    "Stats": "research.evaluation",
    "evaluate": "research.evaluation",
    "play": "research.evaluation",
    "strategy_tree": "research.evaluation",
    "Feedback": "core.feedback",
    "possible_feedbacks": "core.feedback",
    "score": "core.feedback",
    "Notation": "core.notation",
    "parse_feedback": "core.notation",
    "PRESETS": "core.rules",
    "Rules": "core.rules",
    "find_rules": "core.rules",
    "Partition": "deduction.analysis",
    "partition": "deduction.analysis",
    "Correction": "deduction.state",
    "SolverState": "deduction.state",
    "diagnose": "deduction.state",
    "smallest_contradiction": "deduction.state",
    "suggest_corrections": "deduction.state",
    "STRATEGIES": "strategies",
    "Strategy": "strategies",
    "StrategySpec": "strategies",
    "find_strategy": "strategies",
    "make_strategy": "strategies",
    "register_strategy": "strategies",
}


_lazy = lazy_names(__name__, _HOME)


def __getattr__(name: str) -> Any:
    if name == "__version__":  # the installed distribution's, read once: one version, in pyproject.toml
        from .core.records import package_version

        globals()[name] = package_version()
        return globals()[name]
    return _lazy(name)


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])


if TYPE_CHECKING:
    __version__: str
    from .core.code import Code, CodeSpace, as_code
    from .core.feedback import Feedback, possible_feedbacks, score
    from .core.notation import Notation, parse_feedback
    from .core.rules import PRESETS, Rules, find_rules
    from .core.tree import Node
    from .deduction.analysis import Partition, partition
    from .deduction.state import (
        Correction,
        SolverState,
        diagnose,
        smallest_contradiction,
        suggest_corrections,
    )
    from .errors import (
        CheckpointError,
        ContradictionError,
        ExecutorError,
        FeedbackError,
        GameError,
        MastermindError,
        NotationError,
        PlotError,
        ProofError,
        RecordError,
        RulesError,
        SampleError,
        SeedError,
        SettingsError,
        StoreError,
        StrategyError,
        TreeError,
        TreeFileError,
        UnknownStrategyError,
    )
    from .games.advice import Advice, advise
    from .games.game import Game, Hint
    from .games.match import SCORING_RULES, Match
    from .games.moves import Move, Problem, check_history
    from .games.review import VERDICTS, MoveReview, Review, review
    from .research.evaluation import Stats, evaluate, play, strategy_tree
    from .strategies import (
        STRATEGIES,
        Strategy,
        StrategySpec,
        find_strategy,
        make_strategy,
        register_strategy,
    )
    from .verify.tree import TreeFile

__all__ = [
    "PRESETS",
    "VERDICTS",
    "Advice",
    "MoveReview",
    "Review",
    "advise",
    "review",
    "Problem",
    "check_history",
    "RecordError",
    "SCORING_RULES",
    "SeedError",
    "STRATEGIES",
    "CheckpointError",
    "Code",
    "CodeSpace",
    "ContradictionError",
    "Correction",
    "ExecutorError",
    "Feedback",
    "FeedbackError",
    "Game",
    "GameError",
    "Hint",
    "Match",
    "MastermindError",
    "Move",
    "Node",
    "Notation",
    "Partition",
    "NotationError",
    "PlotError",
    "SettingsError",
    "Rules",
    "RulesError",
    "SampleError",
    "SolverState",
    "Stats",
    "StoreError",
    "Strategy",
    "StrategyError",
    "StrategySpec",
    "TreeError",
    "TreeFile",
    "TreeFileError",
    "UnknownStrategyError",
    "ProofError",
    "as_code",
    "diagnose",
    "evaluate",
    "find_rules",
    "find_strategy",
    "make_strategy",
    "parse_feedback",
    "partition",
    "play",
    "possible_feedbacks",
    "register_strategy",
    "score",
    "smallest_contradiction",
    "strategy_tree",
    "suggest_corrections",
]
