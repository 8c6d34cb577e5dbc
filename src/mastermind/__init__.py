"""Mastermind and its variants: rules, exact solvers, strategy evaluation.

>>> from mastermind import Rules, SolverState
>>> len(SolverState(Rules()).add("1122", "1,0").candidates())
256
"""

import importlib
from typing import TYPE_CHECKING, Any

# Names are imported on first use, so that `mastermind --help` does not wait for numba.
_HOME = {
    "Code": "code", "CodeSpace": "code",
    "ContradictionError": "errors", "FeedbackError": "errors", "MastermindError": "errors",
    "NotationError": "errors", "RulesError": "errors", "StrategyError": "errors",
    "GameError": "errors", "RecordError": "errors", "SeedError": "errors",
    "Game": "game", "Match": "game", "Hint": "game", "Move": "game", "Problem": "game",
    "SCORING_RULES": "game",
    "Node": "tree", "Stats": "evaluation", "evaluate": "evaluation", "play": "evaluation",
    "strategy_tree": "evaluation",
    "Feedback": "feedback", "possible_feedbacks": "feedback", "score": "feedback",
    "Notation": "notation", "parse_feedback": "notation",
    "PRESETS": "rules", "Rules": "rules", "find_rules": "rules",
    "Correction": "solver", "SolverState": "solver", "diagnose": "solver",
    "smallest_contradiction": "solver", "suggest_corrections": "solver",
    "STRATEGIES": "strategies", "Strategy": "strategies", "StrategySpec": "strategies",
    "find_strategy": "strategies", "make_strategy": "strategies",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from .code import Code, CodeSpace
    from .errors import (
        ContradictionError,
        FeedbackError,
        GameError,
        MastermindError,
        NotationError,
        RecordError,
        RulesError,
        SeedError,
        StrategyError,
    )
    from .evaluation import Stats, evaluate, play, strategy_tree
    from .feedback import Feedback, possible_feedbacks, score
    from .game import SCORING_RULES, Game, Hint, Match, Move, Problem
    from .notation import Notation, parse_feedback
    from .rules import PRESETS, Rules, find_rules
    from .solver import Correction, SolverState, diagnose, smallest_contradiction, suggest_corrections
    from .strategies import STRATEGIES, Strategy, StrategySpec, find_strategy, make_strategy
    from .tree import Node

__all__ = [
    "PRESETS",
    "Problem",
    "RecordError",
    "SCORING_RULES",
    "SeedError",
    "STRATEGIES",
    "Code",
    "CodeSpace",
    "ContradictionError",
    "Correction",
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
    "NotationError",
    "Rules",
    "RulesError",
    "SolverState",
    "Stats",
    "Strategy",
    "StrategyError",
    "StrategySpec",
    "diagnose",
    "evaluate",
    "find_rules",
    "find_strategy",
    "make_strategy",
    "parse_feedback",
    "play",
    "possible_feedbacks",
    "score",
    "smallest_contradiction",
    "strategy_tree",
    "suggest_corrections",
]
