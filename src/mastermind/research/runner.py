"""How a whole-tree evaluation is split into units of work and run: in this process, or on Dask.

A deterministic strategy plays every secret as one tree. The tree is cut into subtrees, first
by the replies to the first guess, then further wherever a subtree holds more than ``unit_size``
secrets (the guesses on the way down are chosen a level at a time, by the executor). Each
subtree is a :class:`Unit`: a small picklable description (the strategy's spec and the history
that leads to the subtree) that any process can turn back into a distribution of guess counts.
The distributions are added up, so the result does not depend on how the tree was cut, where
the units ran or in which order they finished: it equals the plain walk of the tree exactly.

Executors run the units: :class:`LocalExecutor` in this process (compiled kernels on all
cores, in a helper thread so that Ctrl-C is honoured at once), :class:`DaskExecutor` on a Dask
cluster (a LocalCluster by default, or an existing one by its scheduler address; the package
must be installed on the scheduler and every worker). A :class:`Checkpoint` records each
finished unit as it arrives, so a run that was stopped resumes where it was.

>>> from mastermind import Rules, make_strategy
>>> stats = evaluate(make_strategy("knuth", Rules()), unit_size=200)
>>> str(stats.first_guess), stats.total
('1122', 5801)
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .._kernels import cells, on_numpy, replies
from ..core.feedback import Feedback
from ..core.records import package_version, rules_from_dict, rules_to_dict
from ..core.rules import Rules
from ..errors import CheckpointError, ExecutorError, StrategyError
from ..solver.state import SolverState
from ..strategies import PartitionStrategy, Strategy, StrategySpec
from ..strategies.optimal import search as optimal
from ..strategies.optimal.strategy import Optimal
from ..strategies.walk import walk
from .results import Stats

#: Games up to this many codes are one unit unless told otherwise (milliseconds of work).
SMALL_GAME = 8192

#: How to install what the Dask executor needs.
DASK_INSTALL = "pip install 'mastermind-lab[distributed]'"

History = tuple[tuple[int, int], ...]


# ---------------------------------------------------------------------------------------------
# what a unit of work is


@dataclass(frozen=True)
class Unit:
    """One subtree: the secrets that reach it after ``history``, (guess index, reply) pairs.

    The empty history is the whole tree (a game small enough to be one unit).
    """

    spec: StrategySpec
    history: History
    size: int

    @property
    def key(self) -> str:
        """A name for the unit, the same in every run: its guesses and replies."""
        return _key(self.history)

    @property
    def depth(self) -> int:
        """The number of the guess played at the unit's top."""
        return len(self.history) + 1


@dataclass
class Plan:
    """A whole tree cut into units, and what was settled while cutting it.

    ``found`` counts, by number of guesses, the secrets that a guess on the way down found.
    """

    spec: StrategySpec
    first_guess: int
    secrets: int
    unit_size: int
    units: list[Unit]
    found: dict[int, int]
    candidates: dict[str, np.ndarray] = field(default_factory=dict, repr=False)


class RunProgress(NamedTuple):
    """Where a run stands: its stage, units and secrets done, of how many.

    In the ``"split"`` stage the units are the nodes of the current level of the tree whose
    guesses are being chosen; in the ``"solve"`` stage they are the subtrees. The optimal
    strategy's search has one stage, ``"search"``: its units are the pieces of its root search
    done and left (see :func:`solve_optimal`), its secrets are 0, and ``best`` is the least
    total found so far.
    """

    stage: str
    units_done: int
    units: int
    secrets_done: int
    secrets: int
    best: int | None = None


ProgressCallback = Callable[[RunProgress], None]


# ---------------------------------------------------------------------------------------------
# running kernels so that Ctrl-C is heard


def interruptible(fn: Callable[..., Any], *args: Any, stop: np.ndarray, compiled: bool = True) -> Any:
    """``fn(*args)`` in a helper thread; the calling thread waits and still hears Ctrl-C.

    The compiled kernels release the GIL and look at ``stop[0]`` as they go: on
    KeyboardInterrupt the flag is set, the kernel returns within milliseconds, and the
    interrupt goes on up. The thread is a daemon, so even a kernel that did not notice could
    not keep the process alive. Work that runs no compiled code (``compiled=False``: Python and
    numpy hear Ctrl-C themselves) is simply called here.
    """
    if not compiled:
        return fn(*args)
    # numba is imported lazily (a command that needs no kernel never loads it); import it here,
    # in the calling thread, so that a Ctrl-C never leaves the interpreter exiting while the
    # helper thread is halfway through importing it (that ends in a segmentation fault).
    from .._kernels import jit  # noqa: F401

    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as err:  # handed to the caller below
            outcome["error"] = err

    worker = threading.Thread(target=target, name="mastermind-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        stop[0] = 1
        worker.join(0.5)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


# ---------------------------------------------------------------------------------------------
# cutting the tree


def _compiled(strategy: Strategy) -> bool:
    return isinstance(strategy, PartitionStrategy) and strategy.whole_tree


def _on_numpy(strategy: Strategy) -> bool:
    """Whether the strategy runs no compiled code here: a partition strategy on a game that
    :func:`mastermind._kernels.quick_start` puts on the numpy reference."""
    return isinstance(strategy, PartitionStrategy) and on_numpy(strategy.space.size)


def _state(strategy: Strategy, history: History, candidates: np.ndarray | None = None) -> SolverState:
    """The solver state after ``history`` (candidates computed if not given)."""
    space = strategy.space
    pegs = strategy.rules.pegs
    rows = [(space.code(g), Feedback.from_int(f, pegs)) for g, f in history]
    state = SolverState(strategy.rules)
    for code, fb in rows:
        state = state._child(code, fb, None)  # type: ignore[arg-type]
    state._candidates = candidates
    return state


def candidates_after(strategy: Strategy, history: History) -> np.ndarray:
    """The secrets (ascending code indices) that give ``history``'s replies."""
    space = strategy.space
    cands = np.arange(space.size, dtype=np.int64)
    for g, f in history:
        cands = cands[replies(space, g, cands) == f]
    return cands


Node = tuple[np.ndarray, History]
Chooser = Callable[[list[Node]], list[int]]


def choose_locally(strategy: Strategy, nodes: list[Node]) -> list[int]:
    """The strategy's guess at each node (candidates, history), on all cores of this process."""
    if _compiled(strategy):
        assert isinstance(strategy, PartitionStrategy)
        stop = np.zeros(1, dtype=np.int64)
        kernel_nodes = [(c, [g for g, _ in h]) for c, h in nodes]
        guesses = interruptible(strategy.node_guesses, kernel_nodes, stop, stop=stop)
        if stop[0]:
            raise KeyboardInterrupt
        return guesses
    return [strategy.choose(_state(strategy, h, c)) for c, h in nodes]


def choose_node(spec: StrategySpec, history: History) -> int:
    """The strategy's guess after ``history``, computed from the description alone (any process)."""
    _STOP[0] = 0
    strategy = _strategy_of(spec)
    node = (candidates_after(strategy, history), history)
    if _compiled(strategy):
        assert isinstance(strategy, PartitionStrategy)
        guess = strategy.node_guess(node[0], [g for g, _ in history], _STOP)
    else:
        guess = strategy.choose(_state(strategy, history, node[0]))
    if _STOP[0]:
        raise RuntimeError("stopped: the run was interrupted")
    return guess


def unit_size_for(strategy: Strategy, unit_size: int | None = None) -> int:
    """The largest subtree that is one unit: by default the whole of a game of up to
    :data:`SMALL_GAME` codes, else 1/64 of the secrets."""
    if unit_size is None:
        size = strategy.space.size
        unit_size = size if size <= SMALL_GAME else max(64, size // 64)
    if unit_size < 1:
        raise ValueError("unit_size must be positive")
    return unit_size


def plan(strategy: Strategy, unit_size: int | None = None, *, choose: Chooser | None = None) -> Plan:
    """Cut the strategy's whole tree into units of at most ``unit_size`` secrets.

    The guesses of the nodes above the units are chosen a level at a time by ``choose``
    (:func:`choose_locally` by default).
    """
    if strategy.randomized:
        raise StrategyError(f"{strategy.name} is randomised: it has no single tree to split")
    space = strategy.space
    space.require_enumerable()
    spec = strategy.spec()
    unit_size = unit_size_for(strategy, unit_size)
    choose = choose or (lambda nodes: choose_locally(strategy, nodes))
    first = strategy.first_guess()
    result = Plan(spec, first, space.size, unit_size, [], {})
    everything = np.arange(space.size, dtype=np.int64)
    if space.size <= unit_size:
        result.units.append(Unit(spec, (), space.size))
        result.candidates["root"] = everything
        return result
    pegs = strategy.rules.pegs
    win = pegs * (pegs + 1)
    level: list[Node] = [(everything, ())]
    guesses = [first]
    while level:
        below: list[Node] = []
        for (cands, history), g in zip(level, guesses, strict=True):
            for f, group in cells(space, g, cands):
                child: History = (*history, (g, f))
                if f == win:
                    result.found[len(child)] = result.found.get(len(child), 0) + 1
                elif len(group) <= unit_size:
                    unit = Unit(spec, child, len(group))
                    result.units.append(unit)
                    result.candidates[unit.key] = group
                else:
                    below.append((group, child))
        level = below
        guesses = choose(level) if level else []
    result.units.sort(key=lambda u: (-u.size, u.history))  # largest first: the cores finish together
    return result


def _key(history: History) -> str:
    return "/".join(f"{g}:{f}" for g, f in history) or "root"


# ---------------------------------------------------------------------------------------------
# solving one unit (in any process)

_BUILT: dict[StrategySpec, Strategy] = {}


def _strategy_of(spec: StrategySpec) -> Strategy:
    if spec not in _BUILT:
        if len(_BUILT) >= 8:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[spec] = spec.build()
    return _BUILT[spec]


def _walk_distribution(strategy: Strategy, history: History, cands: np.ndarray) -> dict[int, int]:
    dist: dict[int, int] = {}
    guess = strategy.first_guess() if not history else None
    walk(strategy, _state(strategy, history, cands), len(history) + 1, dist, None, guess=guess)
    return dist


def _rows(strategy: Strategy, units: Sequence[Unit], cands: Sequence[np.ndarray], stop: np.ndarray):
    """The distribution of each unit, as dicts (guesses -> secrets)."""
    if _compiled(strategy):
        assert isinstance(strategy, PartitionStrategy)
        nodes = [(c, [g for g, _ in u.history], u.depth) for u, c in zip(units, cands, strict=True)]
        rows = strategy.node_distributions(nodes, stop)
        return [{k: int(n) for k, n in enumerate(row) if k and n} for row in rows]
    return [_walk_distribution(strategy, u.history, c) for u, c in zip(units, cands, strict=True)]


#: Set by :func:`stop_here` in a worker process to abandon the unit it is computing.
_STOP = np.zeros(1, dtype=np.int64)


def stop_here() -> None:
    """Abandon, within milliseconds, the unit (or piece of an optimal search) this process is
    computing (run on Dask workers when a run is interrupted, so that they are free at once)."""
    _STOP[0] = 1
    optimal.stop_pieces()


def solve_units(units: Sequence[Unit]) -> list[dict[int, int]]:
    """The distributions of several units (one task on a cluster)."""
    return [solve_unit(unit) for unit in units]


def solve_unit(unit: Unit) -> dict[int, int]:
    """The distribution of one unit, computed from its description alone (any process)."""
    _STOP[0] = 0
    strategy = _strategy_of(unit.spec)
    cands = candidates_after(strategy, unit.history)
    dist = _rows(strategy, [unit], [cands], _STOP)[0]
    if _STOP[0]:
        raise RuntimeError("stopped: the run was interrupted")
    if sum(dist.values()) != unit.size:
        raise RuntimeError(f"unit {unit.key} has {sum(dist.values())} secrets, expected {unit.size}")
    return dist


# ---------------------------------------------------------------------------------------------
# executors

Record = Callable[[list[tuple[Unit, dict[int, int]]]], None]
Tick = Callable[[int], None]


class Executor(ABC):
    """Runs units and hands each finished one (in any order) to ``record``; chooses the guesses
    of the nodes above the units."""

    name: str = ""

    @abstractmethod
    def run(self, strategy: Strategy, plan: Plan, units: Sequence[Unit], record: Record) -> None: ...

    def choose(self, strategy: Strategy, nodes: list[Node], tick: Tick | None = None) -> list[int]:
        """The strategy's guess at each node; ``tick(n)`` as n more are chosen."""
        guesses = choose_locally(strategy, nodes)
        if tick:
            tick(len(nodes))
        return guesses

    def prepare(self, strategy: Strategy) -> None:
        """Load what the strategy needs wherever units will run (timed runs time only the run)."""
        _prepare(strategy)

    def map(self, fn: Callable[..., Any], tasks: Iterable[tuple], each: Callable[[tuple, Any], None]) -> None:
        """``fn(*args)`` for each ``args`` of ``tasks``, and ``each(args, result)`` in this thread as
        each finishes, in any order. ``tasks`` is read lazily, as room frees, so a task made later
        can use what the earlier ones found. By default on threads of this process, one per core
        (``fn`` must release the GIL); on Ctrl-C (or an error) the tasks running are stopped
        (:func:`stop_here`) and the exception goes on up."""
        width = optimal.usable_cores()
        feed = iter(tasks)
        running: dict[Future, tuple] = {}
        with ThreadPoolExecutor(max_workers=width) as pool:

            def top_up() -> None:
                while len(running) < width and (args := next(feed, None)) is not None:
                    running[pool.submit(fn, *args)] = args

            try:
                top_up()
                while running:
                    done, _ = wait(running, timeout=0.05, return_when=FIRST_COMPLETED)
                    for future in done:
                        each(running.pop(future), future.result())
                    top_up()
            except BaseException:
                for future in running:
                    future.cancel()
                while not all(f.done() for f in running):  # one may have started just now
                    stop_here()
                    wait(running, timeout=0.05)
                raise

    def close(self) -> None:  # noqa: B027 - most executors hold nothing
        """Release what the executor holds (a cluster)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """Units in this process: batches of subtrees in compiled code on all cores.

    Args:
        batch: secrets per batch (a checkpoint is written after each); default 1/50 of the game.
    """

    name = "local"

    def __init__(self, batch: int | None = None) -> None:
        self.batch = batch

    def run(self, strategy: Strategy, plan: Plan, units: Sequence[Unit], record: Record) -> None:
        batch = self.batch or max(plan.unit_size, plan.secrets // 50)
        ordered = sorted(units, key=lambda u: (-u.size, u.history))
        i = 0
        while i < len(ordered):
            j, size = i, 0
            while j < len(ordered) and (size < batch or j == i):
                size += ordered[j].size
                j += 1
            chunk = ordered[i:j]
            cands = [plan.candidates.get(u.key) for u in chunk]
            cands = [
                candidates_after(strategy, u.history) if c is None else c
                for u, c in zip(chunk, cands, strict=True)
            ]
            stop = np.zeros(1, dtype=np.int64)
            compiled = not _on_numpy(strategy)
            rows = interruptible(_rows, strategy, chunk, cands, stop, stop=stop, compiled=compiled)
            if stop[0]:
                raise KeyboardInterrupt
            record(list(zip(chunk, rows, strict=True)))
            i = j


class DaskExecutor(Executor):
    """Units as tasks on a Dask cluster: a LocalCluster of ``workers`` processes (one thread
    each) when no ``address`` is given, else the existing cluster whose scheduler is there.

    Each task carries only a unit's description; a worker builds the strategy and the unit's
    candidates itself. Dask reruns the tasks of a worker that dies. On KeyboardInterrupt the
    tasks are cancelled and a cluster started here is shut down.
    """

    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        if address is not None and workers is not None:
            raise ExecutorError("a cluster given by its address has its own workers: give one or the other")
        if workers is not None and workers < 1:
            raise ExecutorError("a Dask cluster needs at least one worker")
        self.address = address
        self.workers = workers
        self._client: Any = None
        self._cluster: Any = None
        self._pids: list[int] = []

    @staticmethod
    def require() -> None:
        """Raise ExecutorError, saying how to install it, if dask.distributed is missing."""
        try:
            import dask.distributed  # noqa: F401
        except ImportError as err:
            raise ExecutorError(f"the Dask executor needs dask.distributed: {DASK_INSTALL}") from err

    @property
    def client(self) -> Any:
        """The Dask client, connected (a LocalCluster is started on first use)."""
        if self._client is not None:
            return self._client
        self.require()
        import logging

        from dask.distributed import Client, LocalCluster

        # Shutting a cluster down on Ctrl-C makes Dask log about closed streams: not news.
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            if self.address is None:
                # Workers started while SIGINT is ignored ignore it from their first instant; those
                # started later (after a worker is lost) ignore it once the preload has run.
                main = threading.current_thread() is threading.main_thread()
                handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
                try:
                    self._cluster = LocalCluster(
                        n_workers=self.workers or os.cpu_count() or 1, threads_per_worker=1,
                        processes=True, dashboard_address=":0", preload=["mastermind.research.dask_worker"],
                    )  # fmt: skip
                finally:
                    if main:
                        signal.signal(signal.SIGINT, handler)
                self._client = Client(self._cluster)
                self._pids = sorted(self._client.run(os.getpid).values())
            else:
                self._client = Client(self.address, timeout=10)
        except (OSError, TimeoutError) as err:
            self.close()
            where = f"the Dask scheduler at {self.address}" if self.address else "a local Dask cluster"
            raise ExecutorError(f"cannot reach {where}: {err}") from err
        return self._client

    def __enter__(self) -> DaskExecutor:
        self.client  # noqa: B018 - connect (or start the local cluster) now
        return self

    def prepare(self, strategy: Strategy) -> None:
        _prepare(strategy)
        self.client.run(_prepare_worker, strategy.spec())

    def map(self, fn: Callable[..., Any], tasks: Iterable[tuple], each: Callable[[tuple, Any], None]) -> None:
        from dask.distributed import as_completed

        width = max(1, sum(self.client.nthreads().values()))
        feed = iter(tasks)
        running: dict[str, tuple[Any, tuple]] = {}

        def submit() -> Any:
            args = next(feed, None)
            if args is None:
                return None
            future = self.client.submit(fn, *args, pure=False)
            running[future.key] = (future, args)
            return future

        started = [f for f in (submit() for _ in range(width)) if f is not None]
        queue = as_completed(started, with_results=True)
        try:
            for future, result in queue:
                each(running.pop(future.key)[1], result)
                follow = submit()
                if follow is not None:
                    queue.add(follow)
        except BaseException:
            self.client.cancel([f for f, _ in running.values()])
            with contextlib.suppress(Exception):
                self.client.run(stop_here)  # the tasks already running, too
            raise

    def _gather(self, futures: list[Any], each: Callable[[int, Any], None]) -> None:
        """``each(i, result)`` for the i-th future as it finishes; cancel all on any exception."""
        from dask.distributed import as_completed

        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future, result in as_completed(futures, with_results=True):
                each(index[future.key], result)
        except BaseException:
            self.client.cancel(futures)
            with contextlib.suppress(Exception):
                self.client.run(stop_here)  # the tasks already running, too
            raise

    def choose(self, strategy: Strategy, nodes: list[Node], tick: Tick | None = None) -> list[int]:
        spec = strategy.spec()
        futures = [self.client.submit(choose_node, spec, h, pure=False) for _, h in nodes]
        guesses = [0] * len(nodes)

        def each(i: int, guess: Any) -> None:
            guesses[i] = int(guess)
            if tick:
                tick(1)

        self._gather(futures, each)
        return guesses

    def run(self, strategy: Strategy, plan: Plan, units: Sequence[Unit], record: Record) -> None:
        # Small subtrees go several to a task, so that no task is mostly overhead.
        ordered = sorted(units, key=lambda u: (-u.size, u.history))
        tasks: list[list[Unit]] = []
        size = plan.unit_size
        for unit in ordered:
            if size >= plan.unit_size // 2 or len(tasks[-1]) >= 64:
                tasks.append([])
                size = 0
            tasks[-1].append(unit)
            size += unit.size
        futures = [
            self.client.submit(solve_units, task, pure=False, priority=len(tasks) - i)
            for i, task in enumerate(tasks)
        ]
        self._gather(futures, lambda i, dists: record(list(zip(tasks[i], dists, strict=True))))

    def abandon(self) -> None:
        """For a process about to exit on Ctrl-C, without the orderly shutdown (a second or more
        on a busy machine): the workers of a cluster started here are killed at once (SIGKILL;
        one started again after a loss is not known here, and ends with this process); the
        connection to a cluster given by its address is closed, and that cluster runs on."""
        if self._cluster is not None:
            self._kill_local_workers()
        elif self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close(timeout=1)
        self._client = self._cluster = None

    def _kill_local_workers(self) -> None:
        import psutil  # a dependency of distributed

        for pid in self._pids:
            with contextlib.suppress(OSError, psutil.Error):
                if psutil.Process(pid).ppid() == os.getpid():  # still our worker, not a reused pid
                    os.kill(pid, signal.SIGKILL)
        self._pids = []

    def close(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        # A slow shutdown (a loaded machine) is not an error: the workers of a local cluster
        # also end when this process does.
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=5)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=10)


def _prepare_worker(spec: StrategySpec) -> None:
    _prepare(_strategy_of(spec))


def _prepare(strategy: Strategy) -> None:
    """Load the strategy's tables and compiled code; for the optimal strategy, only those of its
    search (its own prepare would search the whole tree)."""
    if not isinstance(strategy, Optimal):
        strategy.prepare()
        return
    optimal.solve_piece(Rules(pegs=2, colors=3), ())  # loads the compiled search
    optimal.game_of(strategy.rules)


def make_executor(name: str, address: str | None = None, workers: int | None = None) -> Executor:
    """An executor by name: ``"local"`` or ``"dask"``."""
    if name == "local":
        if address is not None or workers is not None:
            raise ExecutorError("a scheduler address and a number of workers are for the Dask executor")
        return LocalExecutor()
    if name == "dask":
        DaskExecutor.require()
        return DaskExecutor(address, workers)
    raise ExecutorError(f"unknown executor {name!r}; choose local or dask")


# ---------------------------------------------------------------------------------------------
# checkpoints

_MAGIC = "mastermind-checkpoint"


def run_identity(spec: StrategySpec, unit_size: int | None) -> dict[str, Any]:
    """What a checkpoint must match to be trusted: the strategy, the game, the cut (None for the
    optimal strategy's search, cut by its root guesses), the package."""
    return {
        "strategy": spec.name,
        "rules": rules_to_dict(spec.rules),
        "first": spec.first,
        "options": [[k, v] for k, v in spec.options],
        "unit_size": unit_size,
        "version": package_version(),
    }


def runs_dir() -> Path:
    """Where default checkpoints are kept: ``runs`` under :func:`mastermind.core.records.cache_home`."""
    from ..core.records import cache_home

    return cache_home() / "runs"


def default_checkpoint(strategy: Strategy, unit_size: int | None = None) -> Path:
    """A file under the user cache directory named by the run (strategy, game, cut, version)."""
    identity = run_identity(strategy.spec(), _cut(strategy, unit_size))
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:12]
    rules = strategy.rules
    game = f"{rules.pegs}x{rules.colors}{'' if rules.repeats else '-norep'}"
    return runs_dir() / f"{strategy.name}-{game}-{digest}.jsonl"


def remove_stale_checkpoints(folder: Path | None = None) -> list[Path]:
    """Delete the checkpoints in ``folder`` (default :func:`runs_dir`) that no run can resume:
    those of another version of the package (the version is part of a run's identity), and
    files that are not checkpoints at all. Returns what was removed."""
    folder = runs_dir() if folder is None else folder
    removed = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        try:
            with open(path, encoding="utf-8") as lines:
                header = json.loads(lines.readline())
            stale = header.get(_MAGIC) != 1 or header["run"]["version"] != package_version()
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            stale = True
        if stale:
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def _cut(strategy: Strategy, unit_size: int | None) -> int | None:
    return None if isinstance(strategy, Optimal) else unit_size_for(strategy, unit_size)


def _check(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


class Checkpoint:
    """What a run has finished, appended to a file as it is finished (JSON lines, fsync'd).

    The first line names the run; each other line, with a checksum, is the guess chosen at a
    node above the units, the distribution of a finished unit, or (the optimal strategy's
    search) the cost and tree of a finished piece, both null if it found none below its budget.
    A last line cut short by a
    killed process is dropped; anything else that does not check out, or a file of another
    run, raises CheckpointError: a checkpoint is never half trusted.
    """

    def __init__(self, path: str | os.PathLike[str], identity: dict[str, Any]) -> None:
        self.path = Path(path)
        self.identity = identity
        self.guesses: dict[str, int] = {}
        self.units: dict[str, tuple[int, dict[int, int]]] = {}  # key -> (line number, distribution)
        self.pieces: dict[str, tuple[int, int | None, np.ndarray | None]] = {}  # key -> (line, cost, tree)
        self._file: Any = None

    def open(self) -> None:
        """Read what an earlier run finished (or create the file); then ready to append."""
        where = f"checkpoint {self.path}"
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            first_line = json.dumps({_MAGIC: 1, "run": self.identity}, sort_keys=True) + "\n"
            temp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
            with open(temp, "w", encoding="utf-8") as out:
                out.write(first_line)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)  # the file exists whole, header and all, or not at all
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open
            return
        try:
            raw = self.path.read_bytes()
        except OSError as err:
            raise CheckpointError(f"cannot read {where}: {err.strerror}") from err
        cut = raw.rfind(b"\n") + 1  # a last line without its newline was being written: drop it
        lines = raw[:cut].decode("utf-8", errors="replace").splitlines()
        header: Any = None
        with contextlib.suppress(ValueError):
            header = json.loads(lines[0]) if lines else None
        if not isinstance(header, dict) or header.get(_MAGIC) != 1:
            raise CheckpointError(f"{where} is not a mastermind checkpoint; delete it or name another file")
        if header.get("run") != self.identity:
            raise CheckpointError(
                f"{where} belongs to another run ({_describe(header.get('run'))}); "
                "delete it or name another file"
            )
        for number, line in enumerate(lines[1:], 2):
            try:
                item = json.loads(line)
                kind = next(k for k in ("node", "piece", "unit") if k in item)
                body = item[kind]
                ok = _check(body) == item["check"]
                if kind == "node":
                    self.guesses[str(body["key"])] = int(body["guess"])
                elif kind == "piece":
                    cost, tree = body["cost"], body["tree"]
                    ok = ok and (cost is None) == (tree is None)
                    flat = None if tree is None else np.array([int(v) for v in tree], dtype=np.int64)
                    self.pieces[str(body["key"])] = (number, None if cost is None else int(cost), flat)
                else:
                    dist = {int(k): int(n) for k, n in body["distribution"].items()}
                    self.units[str(body["key"])] = (number, dist)
            except (ValueError, KeyError, TypeError, AttributeError, StopIteration):
                ok = False
            if not ok:
                raise self.damaged(number)
        with open(self.path, "r+b") as out:  # drop the cut line before appending
            out.truncate(cut)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open

    def damaged(self, line: int) -> CheckpointError:
        return CheckpointError(f"checkpoint {self.path} is damaged at line {line}; delete it to start again")

    def finished(self, plan: Plan) -> dict[str, dict[int, int]]:
        """The finished units, each checked against the plan (its key, its number of secrets)."""
        known = {u.key: u.size for u in plan.units}
        for key, (line, dist) in self.units.items():
            if known.get(key) != sum(dist.values()) or min(dist, default=1) < 1:
                raise self.damaged(line)
        return {key: dist for key, (_, dist) in self.units.items()}

    def _append(self, items: list[dict[str, Any]]) -> None:
        self._file.write("".join(json.dumps(item, sort_keys=True) + "\n" for item in items))
        self._file.flush()
        os.fsync(self._file.fileno())

    def record_guesses(self, chosen: Iterable[tuple[str, int]]) -> None:
        """Append chosen guesses (node key, guess); they are on disk when this returns."""
        items = []
        for key, guess in chosen:
            body = {"key": key, "guess": guess}
            items.append({"node": body, "check": _check(body)})
            self.guesses[key] = guess
        self._append(items)

    def record(self, finished: Iterable[tuple[Unit, dict[int, int]]]) -> None:
        """Append finished units; they are on disk when this returns."""
        items = []
        for unit, dist in finished:
            body = {"key": unit.key, "distribution": {str(k): n for k, n in sorted(dist.items())}}
            items.append({"unit": body, "check": _check(body)})
        self._append(items)

    def record_piece(self, key: str, cost: int | None, flat: np.ndarray | None) -> None:
        """Append a finished piece of an optimal search; it is on disk when this returns."""
        body = {"key": key, "cost": cost, "tree": None if flat is None else flat.tolist()}
        self._append([{"piece": body, "check": _check(body)}])
        self.pieces[key] = (0, cost, flat)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _describe(run: Any) -> str:
    if not isinstance(run, dict):
        return "unknown"
    try:
        rules = rules_from_dict(run["rules"])
        game = f"{rules.describe()}, at most {rules.max_guesses} guesses"
    except Exception:  # a damaged or foreign header: say what it holds
        game = repr(run.get("rules"))
    return f"{run.get('strategy')} on {game}, version {run.get('version')}"


# ---------------------------------------------------------------------------------------------
# the whole run


@dataclass
class Outcome:
    """A finished run: the first guess, the distribution, and how the work went."""

    first_guess: int
    distribution: dict[int, int]
    units: int
    resumed: int
    seconds: float


def run(
    strategy: Strategy,
    executor: Executor | None = None,
    *,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    unit_size: int | None = None,
) -> Outcome:
    """The strategy's whole tree: cut into units, run by ``executor`` (local by default).

    With ``checkpoint``, what an earlier run of the same strategy and game finished (guesses
    chosen while cutting, units solved) is read from that file and not computed again, and
    everything finished now is added to it as it is finished.
    """
    started = time.perf_counter()
    executor = executor or LocalExecutor()
    size = unit_size_for(strategy, unit_size)
    book = None
    if checkpoint is not None:
        book = Checkpoint(checkpoint, run_identity(strategy.spec(), size))
        book.open()
    try:
        return _run(strategy, executor, book, progress, size, started)
    finally:
        if book is not None:
            book.close()


def _run(strategy, executor, book, progress, unit_size, started) -> Outcome:
    secrets = strategy.space.size
    chosen = 0

    def tick(n: int) -> None:
        nonlocal chosen
        chosen += n
        if progress:
            progress(RunProgress("split", chosen, level, 0, secrets))

    level = 0

    def choose(nodes: list[Node]) -> list[int]:
        nonlocal chosen, level
        known = book.guesses if book is not None else {}
        todo = [n for n in nodes if _key(n[1]) not in known]
        chosen, level = len(nodes) - len(todo), len(nodes)
        if progress:
            progress(RunProgress("split", chosen, level, 0, secrets))
        if todo:
            guesses = executor.choose(strategy, todo, tick)
            if book is not None:
                book.record_guesses([(_key(n[1]), g) for n, g in zip(todo, guesses, strict=True)])
            known = {**known, **{_key(n[1]): g for n, g in zip(todo, guesses, strict=True)}}
        return [known[_key(n[1])] for n in nodes]

    the_plan = plan(strategy, unit_size, choose=choose)
    done = book.finished(the_plan) if book is not None else {}
    total = dict(the_plan.found)
    secrets_done = sum(the_plan.found.values())
    for dist in done.values():
        for k, n in dist.items():
            total[k] = total.get(k, 0) + n
        secrets_done += sum(dist.values())
    units_done = len(done)
    if progress:
        progress(RunProgress("solve", units_done, len(the_plan.units), secrets_done, secrets))

    def record(finished: list[tuple[Unit, dict[int, int]]]) -> None:
        nonlocal units_done, secrets_done
        if book is not None:
            book.record(finished)
        for unit, dist in finished:
            for k, n in dist.items():
                total[k] = total.get(k, 0) + n
            units_done += 1
            secrets_done += unit.size
        if progress:
            progress(RunProgress("solve", units_done, len(the_plan.units), secrets_done, secrets))

    left = [u for u in the_plan.units if u.key not in done]
    if left:
        executor.run(strategy, the_plan, left, record)
    if sum(total.values()) != secrets:  # pragma: no cover - a broken executor
        raise RuntimeError(f"the run counted {sum(total.values())} secrets of {secrets}")
    return Outcome(
        the_plan.first_guess, dict(sorted(total.items())), len(the_plan.units), len(done),
        time.perf_counter() - started,
    )  # fmt: skip


def evaluate(
    strategy: Strategy,
    executor: Executor | None = None,
    *,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
    unit_size: int | None = None,
) -> Stats:
    """Statistics of a deterministic strategy over every secret, as :func:`mastermind.evaluate`
    gives them, computed by :func:`run`."""
    executor = executor or LocalExecutor()
    if isinstance(strategy, Optimal):
        return _evaluate_optimal(strategy, executor, checkpoint, progress)
    stop = np.zeros(1, dtype=np.int64)
    # JIT and tables: not part of the time
    interruptible(executor.prepare, strategy, stop=stop, compiled=not _on_numpy(strategy))
    outcome = run(strategy, executor, checkpoint=checkpoint, progress=progress, unit_size=unit_size)
    return Stats(
        strategy=strategy.name,
        rules=strategy.rules,
        first_guess=strategy.space.code(outcome.first_guess),
        distribution=outcome.distribution,
        seconds=outcome.seconds,
        codes=strategy.space.size,
    )


def tree_distribution(strategy: Strategy, progress: Callable[[int], None] | None = None) -> dict[int, int]:
    """Guesses -> secrets over every secret, in this process, for a strategy that has a whole
    tree at once (``evaluate``'s fast path): a compiled one cut into subtrees here, one that
    computes its own tree (optimal) by itself."""
    if not _compiled(strategy):
        return strategy.tree_distribution(progress)
    seen = 0

    def advance(status: RunProgress) -> None:
        nonlocal seen
        if progress and status.secrets_done > seen:
            progress(status.secrets_done - seen)
        seen = status.secrets_done

    return run(strategy, progress=advance if progress else None).distribution


# ---------------------------------------------------------------------------------------------
# the optimal strategy: its root search in pieces


@dataclass
class Search:
    """A finished optimal search: the tree, and how the work went (pieces solved now, pieces
    read back from the checkpoint; both 0 for a tree from the cache)."""

    solution: optimal.Solution
    pieces: int
    resumed: int
    seconds: float


def solve_optimal(
    strategy: Optimal,
    executor: Executor | None = None,
    *,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
) -> Search:
    """The optimal strategy's whole tree, its root search cut into pieces run by ``executor``.

    As the parallel search of :mod:`mastermind.strategies.optimal.search` does at the root: first every cell
    (reply) of the first root guess in the search's order, each a piece solved exactly; then each
    other root guess left after the lower-bound pruning, a piece whose budget is the best total
    so far (one more for a guess before the best one in that order, which wins ties). The least
    (total, rank) is kept, so the tree is the one the local search finds, bit for bit, whatever
    the executor and the order in which pieces finish. With ``checkpoint``, each finished piece
    is recorded (a piece that found nothing below its budget too: that proves its guess loses),
    and a run of the same search resumes from it. A finished tree goes into the strategy's cache.

    Raises:
        StrategyError: no tree finds every secret within the guess limit.
    """
    started = time.perf_counter()
    executor = executor or LocalExecutor()
    book = None
    if checkpoint is not None:
        book = Checkpoint(checkpoint, run_identity(strategy.spec(), None))
        book.open()
    try:
        known = strategy.known_tree()
        if known is not None:
            solution, pieces, resumed = optimal.Solution(known.cost, optimal.to_flat(known)), 0, 0
        else:
            solution, pieces, resumed = _search(strategy, executor, book, progress)
            strategy.adopt(solution)
    finally:
        if book is not None:
            book.close()
    return Search(solution, pieces, resumed, time.perf_counter() - started)


def _search(strategy: Optimal, executor: Executor, book: Checkpoint | None,
            progress: ProgressCallback | None) -> tuple[optimal.Solution, int, int]:  # fmt: skip
    rules = strategy.rules
    game = optimal.game_of(rules)
    n, left, win, dmin = game.space.size, rules.max_guesses, game.win, game.t.dmin
    S = np.arange(n, dtype=np.int64)
    fail = optimal.FAIL
    if n <= 2 or left < int(dmin[n]):
        cost, flat = optimal.solve_piece(rules, (), first=strategy.first)
        if flat is None:
            raise StrategyError(strategy.no_tree_message())
        return optimal.Solution(cost, flat), 0, 0
    if strategy.first is not None:
        roots = [(int(strategy.first), 0)]
    else:
        ctl = np.zeros(4, dtype=np.int64)
        codes, bounds = interruptible(game.root_guesses, S, left, fail, game.group([]), ctl, stop=ctl)
        if ctl[0]:
            raise KeyboardInterrupt
        roots = list(zip(codes.tolist(), bounds.tolist(), strict=True))
    if not roots:
        raise StrategyError(strategy.no_tree_message())
    rank_of = {g: r for r, (g, _) in enumerate(roots)}
    g0 = roots[0][0]
    from .._kernels import feedback  # numba: a search is made

    cells = dict(feedback.cells(game.codes, g0, S))
    found = cells.pop(win, None) is not None
    playable = all(len(c) < n and int(dmin[len(c)]) <= left - 1 for c in cells.values())
    costs: dict[int, int | None] = {}
    trees: dict[int, np.ndarray] = {}
    best: list[Any] = [fail, len(roots), None]  # total, its rank in roots, tree
    finished: set[int] = set()  # ranks of the other root guesses searched
    resumed, solved = 0, 0
    # what an earlier run finished: each piece checked against this search before it is used
    for key, (line, kept, tree) in (book.pieces if book is not None else {}).items():
        kind, _, rest = key.partition(":")
        try:
            f = int(rest.split(":")[1]) if kind == "cell" and rest.startswith(f"{g0}:") else -1
            if len(cells.get(f, ())) > 2:
                if tree is not None:
                    if optimal.check_tree(rules, tree, cells[f], left - 1).cost != kept:
                        raise ValueError("not this cell's tree")
                    trees[f] = tree
                costs[f] = kept
            elif kind == "root" and rank_of.get(int(rest), 0) > 0:
                rank = rank_of[int(rest)]
                if tree is not None:
                    node = optimal.check_tree(rules, tree, S, left)
                    if node.cost != kept or node.guess != int(rest):
                        raise ValueError("not this guess's tree")
                    if (node.cost, rank) < (best[0], best[1]):
                        best[:] = [node.cost, rank, tree]
                finished.add(rank)
            else:
                raise ValueError("a piece of another search")
        except ValueError:
            raise book.damaged(line) from None  # type: ignore[union-attr]
        resumed += 1
    tasks = [f for f in sorted(cells, key=lambda f: (-len(cells[f]), f)) if len(cells[f]) > 2]

    def report() -> None:
        if progress is None:
            return
        done = sum(1 for f in tasks if f in costs) + len(finished)
        todo = sum(1 for f in tasks if f not in costs) if playable else 0
        todo += sum(1 for r, (_, b) in enumerate(roots) if r and r not in finished and b < best[0])
        progress(RunProgress("search", done, done + todo, 0, n, None if best[2] is None else best[0]))

    report()
    if playable:  # the first root guess: its cells, each exactly

        def cell_done(args: tuple, result: tuple[int, np.ndarray | None]) -> None:
            nonlocal solved
            solved += 1
            f = args[1][0][1]
            cost, flat = result
            costs[f] = None if flat is None else cost
            if flat is not None:
                trees[f] = flat
            if book is not None:
                book.record_piece(f"cell:{g0}:{f}", costs[f], flat)
            report()

        todo = [(rules, ((g0, f),)) for f in tasks if f not in costs]
        executor.map(optimal.solve_piece, todo, cell_done)
        for f in cells:
            if len(cells[f]) <= 2:
                costs[f], leaf = optimal.solve_piece(rules, ((g0, f),))
                assert leaf is not None  # a playable guess's cells of one or two secrets
                trees[f] = leaf
        if all(costs[f] is not None for f in cells):
            total = n + sum(costs[f] or 0 for f in cells)
            if (total, 0) < (best[0], best[1]):
                best[:] = [total, 0, optimal.join_cells(g0, found, trees)]
        report()

    def others() -> Iterable[tuple]:  # read as room frees: each with the best total then
        for rank in range(1, len(roots)):
            g, bound = roots[rank]
            ahead = 1 if rank < best[1] else 0
            if rank not in finished and bound < best[0] + ahead:
                yield rules, (), min(best[0] + ahead, fail), g

    def root_done(args: tuple, result: tuple[int, np.ndarray | None]) -> None:
        nonlocal solved
        solved += 1
        g = args[3]
        cost, flat = result
        rank = rank_of[g]
        finished.add(rank)
        if book is not None:
            book.record_piece(f"root:{g}", None if flat is None else cost, flat)
        if flat is not None and (cost, rank) < (best[0], best[1]):
            best[:] = [cost, rank, flat]
        report()

    executor.map(optimal.solve_piece, others(), root_done)
    if best[2] is None:
        raise StrategyError(strategy.no_tree_message())
    return optimal.Solution(best[0], best[2]), solved, resumed


def _evaluate_optimal(strategy: Optimal, executor: Executor, checkpoint, progress) -> Stats:
    stop = np.zeros(1, dtype=np.int64)
    if strategy.known_tree() is None:
        interruptible(executor.prepare, strategy, stop=stop)  # JIT and tables: not part of the time
    search = solve_optimal(strategy, executor, checkpoint=checkpoint, progress=progress)
    root = search.solution.tree()
    return Stats(
        strategy=strategy.name,
        rules=strategy.rules,
        first_guess=strategy.space.code(root.guess),
        distribution=dict(sorted(root.distribution().items())),
        seconds=search.seconds,
        codes=strategy.space.size,
    )
