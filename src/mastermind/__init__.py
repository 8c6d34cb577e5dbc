"""Mastermind and its variants: rules, exact solvers, strategy evaluation.

>>> from mastermind import Rules, SolverState
>>> len(SolverState(Rules()).add("1122", "1,0").candidates())
256
"""

from .code import Code, CodeSpace
from .errors import (
    ContradictionError,
    FeedbackError,
    MastermindError,
    NotationError,
    RulesError,
    StrategyError,
)
from .evaluation import Node, Stats, evaluate, play, strategy_tree
from .feedback import Feedback, possible_feedbacks, score
from .notation import Notation, parse_feedback
from .rules import PRESETS, Rules, find_rules
from .solver import Correction, SolverState, diagnose, smallest_contradiction, suggest_corrections
from .strategies import STRATEGIES, Strategy, find_strategy, make_strategy

__all__ = [
    "PRESETS",
    "STRATEGIES",
    "Code",
    "CodeSpace",
    "ContradictionError",
    "Correction",
    "Feedback",
    "FeedbackError",
    "MastermindError",
    "Node",
    "Notation",
    "NotationError",
    "Rules",
    "RulesError",
    "SolverState",
    "Stats",
    "Strategy",
    "StrategyError",
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
