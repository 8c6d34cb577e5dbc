"""Where evaluations run and where they are kept: --executor, --scheduler, --workers,
--checkpoint, the history options, and the progress of a run (subtrees and secrets, with an ETA).

The policy (a stored run taken from the history, the runner used where it helps, checkpoints)
is the library's :class:`mastermind.research.session.Session`; this module turns options into
one and draws what it does.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..research import EXECUTORS
from .common import db_option, fail, open_store
from .console import console_for, stderr_is_terminal
from .files import check_output, check_output_folder
from .progress import LogLines, ctrl_c_kept, live_note, progress_display, progress_note

if TYPE_CHECKING:
    from ..research.runner import Executor
    from ..research.session import Session
    from ..strategies.progress import OnProgress, Progress

Command = Callable[..., Any]


@dataclass(frozen=True)
class Scale:
    """Where whole trees run and are kept, as the options say."""

    executor: str
    scheduler: str | None
    workers: int | None
    checkpoint: str | None
    unit_size: int | None


@dataclass(frozen=True)
class History:
    """Whether runs are looked up in and saved to the history (``store`` None: neither)."""

    store: Any
    recompute: bool


def executor_option(where: str) -> Callable[[Command], Command]:
    """``--executor local|dask``, its help beginning with ``where`` the local one runs."""
    return click.option(
        "--executor",
        type=click.Choice(EXECUTORS),
        default="local",
        show_default=True,
        help=f"{where} or a Dask cluster (needs the distributed extra: docs/index.md, Optional parts).",
    )


#: ``--scheduler ADDRESS``: the Dask cluster to use, if not one started here.
scheduler_option = click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="With --executor dask: the scheduler of an existing cluster, e.g. tcp://host:8786 "
    "[a local cluster on this machine].",
)


def executor_options(checkpoint_help: str) -> Callable[[Command], Command]:
    """The options that say where a whole-tree evaluation runs; passes ``scale`` (a :class:`Scale`)."""

    def decorate(command: Command) -> Command:
        @executor_option("Where whole trees are computed: this process (all cores)")
        @scheduler_option
        @click.option(
            "--workers",
            type=click.IntRange(min=1),
            metavar="N",
            help="With --executor dask and no --scheduler: worker processes [one per core].",
        )
        @click.option("--checkpoint", type=click.Path(dir_okay=True), metavar="PATH", help=checkpoint_help)
        @click.option(
            "--unit-size",
            type=click.IntRange(min=1),
            metavar="N",
            help="The largest part of the run done (and checkpointed) as one unit: a subtree of at "
            "most N secrets; for the optimal search, a set of at most N secrets (48 or more) searched "
            "in one piece. Smaller units are checkpointed sooner, at some cost in work "
            "[a 64th of the game, at least 64; the optimal search: the game over twice the workers].",
        )
        @functools.wraps(command)
        def wrapper(**kwargs: Any) -> Any:
            keys = ("executor", "scheduler", "workers", "checkpoint", "unit_size")
            scale = Scale(*(kwargs.pop(k) for k in keys))
            if scale.executor != "dask" and (scale.scheduler or scale.workers):
                fail("--scheduler and --workers go with --executor dask")
            if scale.scheduler and scale.workers:
                fail("a cluster given by --scheduler has its own workers: drop --workers")
            where = scale.checkpoint
            if where is not None and not (Path(where).is_dir() or Path(where).resolve().parent.is_dir()):
                from ..core.text import quote

                fail(
                    f"--checkpoint: cannot write {quote(where)}: folder {quote(str(Path(where).parent))} "
                    "does not exist"
                )
            kwargs["scale"] = scale
            return command(**kwargs)

        return wrapper

    return decorate


def run_history_options(command: Command) -> Command:
    """``--db``, ``--no-history`` and ``--recompute``; passes ``history`` (a :class:`History`)."""

    @db_option
    @click.option(
        "--no-history",
        is_flag=True,
        help="Neither look the run up in the history nor save it there.",
    )
    @click.option(
        "--recompute",
        is_flag=True,
        help="Evaluate even when the same run is in the history (the new run is saved too).",
    )
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        db, off, recompute = kwargs.pop("db"), kwargs.pop("no_history"), kwargs.pop("recompute")
        store = None if off else open_store(db, "; use --no-history to evaluate without it")
        kwargs["history"] = History(store, recompute)
        return command(**kwargs)

    return wrapper


def open_session(scale: Scale, history: History, *, per_run: bool) -> Session:
    """The research session the options ask for: the history, the executor (not started yet),
    the checkpoint: a file, or with ``per_run`` a folder of one file per run (compare)."""
    from ..research.runner import make_executor
    from ..research.session import Session

    checkpoint = checkpoints_in = None
    if scale.checkpoint is not None:
        path = Path(scale.checkpoint)
        if per_run and path.exists() and not path.is_dir():
            fail(f"--checkpoint {path} is a file; compare needs a directory (one file per strategy)")
        if per_run:
            check_output_folder(scale.checkpoint, "--checkpoint")
        else:
            check_output(scale.checkpoint, "--checkpoint")
        checkpoint, checkpoints_in = (None, path) if per_run else (path, None)
    return Session(
        history.store,
        recompute=history.recompute,
        executor=make_executor(scale.executor, scale.scheduler, scale.workers),
        checkpoint=checkpoint,
        checkpoints_in=checkpoints_in,
        unit_size=scale.unit_size,
        notify=lambda text: click.echo(f"mastermind: {text}", err=True),
    )


def refuse_runner_options(session: Session, player: Any, secrets: Any) -> None:
    """Exit 2 when the options ask for what only a whole-tree run does, and this evaluation
    cannot be one."""
    why = session.why_not_whole(player, secrets)
    if why is not None:
        fail(f"--executor dask and --checkpoint evaluate whole trees, cut into subtrees: not with {why}")


def taken_from_history(session: Session, stats: Any, label: str) -> None:
    """Say on stderr that ``stats`` came from the history, and which run."""
    from .history import when

    found = session.origin(stats)
    if found is not None:
        click.echo(
            f"mastermind: {label}: taken from the history (run {found.id} of {when(found.created)}, "
            f"{stats.seconds:.3g} s); --recompute runs it again",
            err=True,
        )


def save_run(session: Session, player: Any, stats: Any, sample: int | None, seed: int | None) -> None:
    """Save a complete run; a database that fails now is a warning (the result is still shown)."""
    from ..errors import StoreError

    try:
        session.save(player, stats, sample, seed)
    except StoreError as err:
        click.echo(f"mastermind: warning: {err}; this run was not saved", err=True)


def started(session: Session) -> contextlib.AbstractContextManager[None]:
    """The session's executor in use (a Dask cluster is started or reached when a whole-tree run
    first needs it: a run taken from a cache needs none), closed after use.

    On Ctrl-C the run's kernels have stopped (local) or its tasks are cancelled and the workers
    told to drop what they compute (Dask); every finished subtree is already on disk in the
    checkpoint and the progress display is gone. Then the command ends at once, with os._exit,
    rather than wait for an orderly shutdown of the cluster and of the interpreter (together
    a second or more on a busy machine); a local cluster's worker processes are killed first.
    """
    return contextlib.nullcontext() if session.executor is None else executor_in_use(session.executor)


@contextmanager
def executor_in_use(executor: Executor) -> Iterator[None]:
    """The executor in use, closed after use; on Ctrl-C abandoned (a local cluster's workers
    killed) and the command ended at once, status 130 (see :func:`started`)."""
    if executor.starts_workers:
        # multiprocessing's resource tracker (started with the cluster, with this process's -W
        # options) would warn about the queues of workers that ended with us; it frees them.
        sys.warnoptions.append("ignore:resource_tracker:UserWarning")
    try:
        yield
    except KeyboardInterrupt:
        executor.abandon()
        click.echo("mastermind: interrupted", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    except BaseException:
        executor.close()
        raise
    executor.close()


def _stage_words(status: Progress) -> str:
    """Where a run stands, in words (what the progress bar shows)."""
    if status.stage == "split":
        return f"splitting the tree, {status.units_done:,} of {status.units:,} guesses chosen"
    if status.stage == "search":
        found = _found(status, "best total so far")
        return f"searching, {status.units_done:,} pieces done" + (f", {found}" if found else "")
    done = f"{status.secrets_done:,} of {status.secrets:,} secrets"
    return f"{done}, subtrees {status.units_done:,}/{status.units:,}"


def _found(status: Progress, best: str) -> str:
    """What an exact search has found: the ``best`` total and the first guesses settled."""
    words = [] if status.best is None else [f"{best} {status.best:,}"]
    if status.lower is not None and status.lower != status.best:
        words.append(f"proved at least {status.lower:,}")
    if status.firsts is not None and status.firsts[1] > 1:
        words.append(f"first guesses settled {status.firsts[0]} of {status.firsts[1]}")
    return ", ".join(words)


@contextmanager
def run_progress(label: str) -> Iterator[OnProgress]:
    """A progress display on stderr when it is a terminal: while the tree is split, the guesses
    chosen; then the secrets and subtrees done, with the time left (for a strategy's own search:
    the pieces done, of those left, and the best total so far); off a terminal, a line every
    :data:`LOG_EVERY` seconds of a long run. Yields the runner's callback, which also ends the
    run on a Ctrl-C that was lost on its way (see :func:`ctrl_c_kept`)."""
    with ctrl_c_kept() as check, _shown(label) as show:

        def report(status: Progress) -> None:
            check()
            show(status)

        yield report


@contextmanager
def _shown(label: str) -> Iterator[OnProgress]:
    if not stderr_is_terminal():
        import threading

        log, done = LogLines(label, _stage_words), threading.Event()

        def beat() -> None:
            while not done.wait(max(log.every, 1.0)):
                log.again()

        threading.Thread(target=beat, name="mastermind-log", daemon=True).start()
        try:
            yield log
        finally:
            done.set()
        return
    with progress_display(console_for(stderr=True), "units") as bar, live_note(progress_note(bar, units="")):
        # Until the runner first reports (choosing the first guess of a big game takes a while), a
        # pulsing bar and the time elapsed show that work is going on.
        first = bar.add_task(f"{label}: choosing the first guess", total=None, units="")
        state: dict[str, Any] = {"task": first, "stage": "start"}

        def update(status: Progress) -> None:
            if status.stage != state["stage"]:  # a fresh task for each stage, so the ETA is fresh
                if state["task"] is not None:
                    bar.remove_task(state["task"])
                state["stage"] = status.stage
                if status.stage == "split":
                    state["task"] = bar.add_task(
                        f"{label}: splitting the tree",
                        total=status.units,
                        completed=status.units_done,
                        units="guesses chosen",
                    )
                elif status.stage == "search":  # a strategy's own search: pieces of its root
                    state["task"] = bar.add_task(
                        f"{label}: searching", total=status.units, completed=status.units_done, units=""
                    )
                else:  # resumed work is there from the start and does not speed up the ETA
                    state["task"] = bar.add_task(
                        label, total=status.secrets, completed=status.secrets_done, units="secrets"
                    )
            if status.stage == "split":
                bar.update(state["task"], total=status.units, completed=status.units_done)
            elif status.stage == "search":
                found = _found(status, "best total")
                bar.update(state["task"], total=status.units, completed=status.units_done, units=found)
            else:
                bar.update(
                    state["task"],
                    completed=status.secrets_done,
                    units=f"secrets, subtrees {status.units_done}/{status.units}",
                )

        yield update
