"""Strategies measured over every secret: evaluation, results, plots, the runner that cuts a
whole tree into units for threads or a Dask cluster (with checkpoints), and the session that
takes stored runs from the history.

>>> from mastermind import Rules, make_strategy
>>> from mastermind.research import LocalExecutor, evaluate_on
>>> evaluate_on(make_strategy("knuth", Rules()), LocalExecutor()).total
5801
"""

from ..strategies.progress import OnProgress, Progress
from .evaluation import evaluate, run_key, sample_secrets, strategy_tree
from .results import Stats
from .runner import DaskExecutor, Executor, LocalExecutor, evaluate_on, make_executor, run_search, run_tree
from .session import Session

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "OnProgress",
    "Progress",
    "Session",
    "Stats",
    "evaluate",
    "evaluate_on",
    "make_executor",
    "run_key",
    "run_search",
    "run_tree",
    "sample_secrets",
    "strategy_tree",
]
