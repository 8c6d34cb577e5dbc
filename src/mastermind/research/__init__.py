"""Strategies measured over every secret: evaluation, results, plots, the runner that cuts a
whole tree into units for threads or a Dask cluster (with checkpoints), and the session that
takes stored runs from the history.

Names are imported on first use, so that a command that only reads the history (and draws its
charts) does not load numpy.

>>> from mastermind import Rules, make_strategy
>>> from mastermind.research import LocalExecutor, evaluate_on
>>> evaluate_on(make_strategy("knuth", Rules()), LocalExecutor()).total
5801
"""

from typing import TYPE_CHECKING

from ..core.lazy_names import lazy_names

#: The executors a whole-tree run may be given by name (see :func:`make_executor`).
EXECUTORS = ("local", "dask")

_HOME = {
    "DaskExecutor": "runner",
    "Executor": "runner",
    "LocalExecutor": "runner",
    "evaluate_on": "runner",
    "make_executor": "runner",
    "run_search": "runner",
    "run_tree": "runner",
    "OnProgress": "runner",
    "Progress": "runner",
    "evaluate": "evaluation",
    "run_key": "evaluation",
    "sample_secrets": "evaluation",
    "strategy_tree": "evaluation",
    "Stats": "results",
    "Session": "session",
}


__getattr__ = lazy_names(__name__, _HOME)


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:
    from .evaluation import evaluate, run_key, sample_secrets, strategy_tree
    from .results import Stats
    from .runner import (
        DaskExecutor,
        Executor,
        LocalExecutor,
        OnProgress,
        Progress,
        evaluate_on,
        make_executor,
        run_search,
        run_tree,
    )
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
