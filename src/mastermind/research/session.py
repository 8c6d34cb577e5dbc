"""A research session: evaluations as a front end or a notebook asks for them.

A :class:`Session` decides, once for every front end, how an evaluation is had:

- from the history, when the same run is stored there (same strategy, first guess and options,
  rules, sample, seed where it matters, and package version): see :meth:`Session.stored`;
- else computed, and saved in the history (:meth:`Session.save`). A deterministic strategy over
  every secret goes through the runner (its tree cut into subtrees, or its own search cut into
  pieces) wherever that helps: on the session's executor, checkpointed; see
  :meth:`Session.whole_tree` and :meth:`Session.evaluate`.

>>> from mastermind import Rules, make_strategy
>>> session = Session()
>>> session.evaluate(make_strategy("knuth", Rules(pegs=3, colors=3))).total
74
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..core.notation import Notation
from ..core.text import plural
from ..strategies import Strategy
from ..strategies.capabilities import quick, tree_at_hand, tree_search
from ..strategies.progress import OnProgress, Progress
from .evaluation import evaluate, run_key
from .results import Stats
from .runner.checkpoint import default_checkpoint, remove_stale_checkpoints
from .runner.executors import Executor, LocalExecutor
from .runner.plan import unit_size_for
from .runner.run import evaluate_on

#: The secrets an evaluation plays (code indices); None: every secret.
Secrets = Sequence[int] | np.ndarray | None


class StoredRun(Protocol):
    """A run kept in the history (:class:`mastermind.history.store.StoredRun`)."""

    id: int
    created: str
    record: dict[str, Any]


class RunStore(Protocol):
    """Where complete runs are kept (:class:`mastermind.history.store.Store`)."""

    def find_run(self, key: dict[str, Any]) -> StoredRun | None: ...

    def add_run(self, key: dict[str, Any], record: dict[str, Any]) -> int: ...


class Session:
    """Evaluations taken from the history or computed, on an executor, checkpointed.

    Args:
        store: the history of runs; None: runs are neither looked up nor saved.
        recompute: evaluate even when the same run is stored (the new run is saved too).
        executor: where whole trees run; None: this process (then the runner is used for a
            strategy only where it is the fastest way, see :meth:`whole_tree`).
        checkpoint: a file in which a whole-tree run records what it finishes, so that the same
            run resumes from it (one evaluation at a time).
        checkpoints_in: a folder that holds one such file per run instead, named by the run.
            With neither, a run of more than one subtree, or a search that is not quick, is
            checkpointed under the user cache directory, and the file is removed when the run
            is done.
        unit_size: the largest subtree that is one unit (tests and experiments).
        notify: told, in a sentence, what a person may want to know (a run resumed).
    """

    def __init__(
        self,
        store: RunStore | None = None,
        *,
        recompute: bool = False,
        executor: Executor | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        checkpoints_in: str | os.PathLike[str] | None = None,
        unit_size: int | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.recompute = recompute
        self.executor = executor
        self.checkpoint = None if checkpoint is None else Path(checkpoint)
        self.checkpoints_in = None if checkpoints_in is None else Path(checkpoints_in)
        self.unit_size = unit_size
        self.notify = notify
        self._origin: dict[int, StoredRun] = {}  # id(stats) -> the stored run they were read from

    # -- the history ----------------------------------------------------------------------------

    def stored(
        self, strategy: Strategy, sample: int | None = None, seed: int | None = None, *, drawn: bool = False
    ) -> Stats | None:
        """The statistics of the same run stored in the history, or None (then evaluate it).

        A seed drawn for this request (``drawn``) never matches, so a randomised run (or a
        sample) is taken from the history only when its seed was given.
        """
        key = run_key(strategy, sample, seed)
        if self.store is None or self.recompute or (drawn and key["seed"] is not None):
            return None
        found = self.store.find_run(key)
        if found is None:
            return None
        stats = Stats.from_dict(found.record)
        stats.seed = key["seed"]  # as asked, where it matters (a sample, or a randomised strategy)
        self._origin[id(stats)] = found
        return stats

    def origin(self, stats: Stats) -> StoredRun | None:
        """The stored run that ``stats`` were read from, or None if they were computed."""
        return self._origin.get(id(stats))

    def save(
        self, strategy: Strategy, stats: Stats, sample: int | None = None, seed: int | None = None
    ) -> None:
        """Save a complete run in the history (nothing without one).

        Raises:
            StoreError: the history cannot be written.
        """
        if self.store is not None:
            self.store.add_run(run_key(strategy, sample, seed), stats.to_dict())

    def to_dict(self, stats: Stats, notation: Notation | None = None) -> dict[str, Any]:
        """The run's record (:meth:`Stats.to_dict`, codes in ``notation``); one taken from the
        history says so in ``from_history``."""
        data = stats.to_dict(notation)
        found = self.origin(stats)
        if found is not None:
            data["from_history"] = {"run": found.id, "created": found.created}
        return data

    # -- where an evaluation runs ---------------------------------------------------------------

    @property
    def asks_runner(self) -> bool:
        """Whether the session was asked for what only the runner does: an executor other than
        this process, or a checkpoint."""
        elsewhere = self.executor is not None and not isinstance(self.executor, LocalExecutor)
        return elsewhere or self.checkpoint is not None or self.checkpoints_in is not None

    def whole_tree(self, strategy: Strategy, secrets: Secrets = None) -> bool:
        """Whether :meth:`evaluate` computes this evaluation through the runner: a deterministic
        strategy over every secret; for a strategy with its own search, when the session asks for
        the runner or the search is not quick (it is then cut into
        pieces, checkpointed, so that an interrupted run resumes; a quick one runs in one go in
        this process). A tree already at hand (cached) is read as it is: no cluster is started
        for it."""
        if secrets is not None or strategy.randomized or tree_at_hand(strategy):
            return False
        return self.asks_runner or tree_search(strategy) is None or not quick(strategy)

    def why_not_whole(self, strategy: Strategy, secrets: Secrets = None) -> str | None:
        """Why the session, asked for the runner (:attr:`asks_runner`), cannot give it this
        evaluation: ``"a sample"`` or ``"a randomised strategy"``; None where nothing is refused."""
        if not self.asks_runner or self.whole_tree(strategy, secrets) or tree_at_hand(strategy):
            return None
        return "a sample" if secrets is not None else "a randomised strategy"

    def checkpoint_for(self, strategy: Strategy) -> tuple[Path | None, bool]:
        """Where a whole-tree run of ``strategy`` records what it finishes, and whether that file
        is the session's own (under the user cache directory, removed when the run is done)."""
        if self.checkpoint is not None:
            return self.checkpoint, False
        if self.checkpoints_in is not None:
            return self.checkpoints_in / default_checkpoint(strategy, self.unit_size).name, False
        searches = tree_search(strategy) is not None
        pieces = searches or unit_size_for(strategy, self.unit_size) < strategy.space.size
        if not pieces or tree_at_hand(strategy):
            return None, False
        return default_checkpoint(strategy, self.unit_size), True

    def evaluate(
        self,
        strategy: Strategy,
        secrets: Secrets = None,
        *,
        seed: int | None = None,
        progress: OnProgress | None = None,
    ) -> Stats:
        """Evaluate ``strategy`` on ``secrets`` (every secret by default): through the runner
        where :meth:`whole_tree` says so (on the session's executor, checkpointed), else by
        :func:`mastermind.evaluate`. Nothing is looked up or saved here (see :meth:`stored`,
        :meth:`save`).

        ``progress`` hears of the work: through the runner, the stages of the run (``"split"``
        then ``"solve"``, or ``"search"``); else the secrets played.
        """
        if not self.whole_tree(strategy, secrets):
            return evaluate(strategy, secrets, seed=seed, progress=progress)
        path, own = self.checkpoint_for(strategy)
        told = False

        def report(status: Progress) -> None:
            nonlocal told
            if status.stage in ("solve", "search") and not told:
                told = True
                if status.units_done and path is not None and self.notify is not None:
                    if (
                        tree_search(strategy) is not None
                    ):  # cut as it goes: the pieces known so far are no total
                        pieces = plural(status.units_done, "piece")
                        done = f"{pieces} of the search already done"
                    else:
                        done = f"{status.units_done} of {status.units} subtrees already done"
                    self.notify(f"resuming from {path}: {done}")
            if progress is not None:
                progress(status)

        executor, size = self.executor, self.unit_size
        stats = evaluate_on(strategy, executor, checkpoint=path, progress=report, unit_size=size)
        if own and path is not None:
            path.unlink(missing_ok=True)
            remove_stale_checkpoints(path.parent)
        return stats
