"""How a whole-tree evaluation is split into units of work and run: in this process, or on Dask.

- :mod:`.plan`: a whole tree cut into units (subtrees with a picklable description), and a unit
  solved from its description alone, in any process;
- :mod:`.interrupt`: compiled work that stops at once on Ctrl-C, here or in a worker;
- :mod:`.executors`: where units run (this process's cores, a Dask cluster);
- :mod:`.checkpoint`: the file that lets a stopped run resume;
- :mod:`.run`: a whole run, put together (:func:`evaluate_on`, :func:`run_tree`,
  :func:`run_search`).

>>> from mastermind import Rules, make_strategy
>>> stats = evaluate_on(make_strategy("knuth", Rules()), unit_size=200)
>>> str(stats.first_guess), stats.total
('1122', 5801)
"""

from ...strategies.progress import OnProgress, Progress
from .checkpoint import (
    Checkpoint,
    checksum,
    default_checkpoint,
    remove_stale_checkpoints,
    run_identity,
    runs_dir,
)
from .executors import DaskExecutor, Executor, LocalExecutor, make_executor
from .interrupt import interruptible, stop_here
from .plan import SMALL_GAME, Plan, Unit, cut_tree, solve_unit, solve_units, unit_size_for
from .run import SearchRun, TreeRun, evaluate_on, run_search, run_tree

__all__ = [
    "SMALL_GAME",
    "Checkpoint",
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "OnProgress",
    "Plan",
    "Progress",
    "SearchRun",
    "TreeRun",
    "Unit",
    "checksum",
    "cut_tree",
    "default_checkpoint",
    "evaluate_on",
    "interruptible",
    "make_executor",
    "remove_stale_checkpoints",
    "run_identity",
    "run_search",
    "run_tree",
    "runs_dir",
    "solve_unit",
    "solve_units",
    "stop_here",
    "unit_size_for",
]
