"""Where whole-tree evaluations run: --executor, --scheduler, --workers, --checkpoint, and the
progress of a run (subtrees and secrets, with an ETA)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from .common import console_for, fail, live_note, progress_display, progress_note


def executor_options(checkpoint_help: str) -> Callable[[Callable], Callable]:
    """The options that say where a whole-tree evaluation runs; passes ``scale`` (a dict)."""

    def decorate(command: Callable) -> Callable:
        @click.option(
            "--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
            help="Where whole trees are computed: this process (all cores) or a Dask cluster "
            "(needs: pip install 'mastermind-lab[distributed]').",
        )  # fmt: skip
        @click.option(
            "--scheduler", metavar="ADDRESS",
            help="With --executor dask: the scheduler of an existing cluster, e.g. tcp://host:8786 "
            "[a local cluster on this machine].",
        )  # fmt: skip
        @click.option(
            "--workers", type=click.IntRange(min=1), metavar="N",
            help="With --executor dask and no --scheduler: worker processes [one per core].",
        )  # fmt: skip
        @click.option("--checkpoint", type=click.Path(dir_okay=True), metavar="PATH", help=checkpoint_help)
        @click.option("--unit-size", type=click.IntRange(min=1), hidden=True)  # tests and experiments
        @functools.wraps(command)
        def wrapper(**kwargs: Any) -> Any:
            keys = ("executor", "scheduler", "workers", "checkpoint", "unit_size")
            scale = {k: kwargs.pop(k) for k in keys}
            if scale["executor"] != "dask" and (scale["scheduler"] or scale["workers"]):
                fail("--scheduler and --workers go with --executor dask")
            if scale["scheduler"] and scale["workers"]:
                fail("a cluster given by --scheduler has its own workers: drop --workers")
            where = scale["checkpoint"]
            if where is not None and not (Path(where).is_dir() or Path(where).resolve().parent.is_dir()):
                from ..core.text import quote

                fail(f"cannot write the checkpoint {quote(where)}: folder {quote(str(Path(where).parent))} "
                     "does not exist")  # fmt: skip
            kwargs["scale"] = scale
            return command(**kwargs)

        return wrapper

    return decorate


@contextmanager
def make_executor(scale: dict[str, Any]) -> Iterator[Any]:
    """The executor the options ask for, closed after use.

    On Ctrl-C the run's kernels have stopped (local) or its tasks are cancelled and the workers
    told to drop what they compute (Dask); every finished subtree is already on disk in the
    checkpoint and the progress display is gone. Then the command ends at once, with os._exit,
    rather than wait for an orderly shutdown of the cluster and of the interpreter (together
    a second or more on a busy machine); a local cluster's worker processes are killed first.
    """
    from ..research.runner import DaskExecutor
    from ..research.runner import make_executor as make

    executor = make(scale["executor"], scale["scheduler"], scale["workers"])
    if isinstance(executor, DaskExecutor) and scale["scheduler"] is None:
        # multiprocessing's resource tracker (started with the cluster, with this process's -W
        # options) would warn about the queues of workers that ended with us; it frees them.
        sys.warnoptions.append("ignore:resource_tracker:UserWarning")
    try:
        yield executor.__enter__()
    except KeyboardInterrupt:
        if isinstance(executor, DaskExecutor):
            executor.abandon()
        click.echo("mastermind: interrupted", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    except BaseException:
        executor.close()
        raise
    executor.close()


def use_runner(player, secrets, scale: dict[str, Any], strict: bool = True) -> bool:
    """Whether the runner computes this evaluation: a deterministic strategy and every secret;
    for the optimal strategy, whose search is fastest in this process, only when a Dask cluster
    or a checkpoint is asked for (the runner then splits its root search). Where the runner
    cannot, options that only it takes are refused (``strict``) or ignored for this strategy
    (compare). An optimal tree already in the cache is read here: no cluster is started for it."""
    from ..strategies.optimal.strategy import Optimal

    asked = scale["executor"] != "local" or scale["checkpoint"] is not None
    if isinstance(player, Optimal) and player.known_tree() is not None:
        return False
    if secrets is None and not player.randomized and (asked or not isinstance(player, Optimal)):
        return True
    if strict and asked:
        why = "--sample" if secrets is not None else "a randomised strategy"
        fail(f"--executor dask and --checkpoint evaluate whole trees, cut into subtrees: not with {why}")
    return False


@contextmanager
def run_progress(label: str) -> Iterator[Callable[[Any], None] | None]:
    """A progress display on stderr when it is a terminal: while the tree is split, the guesses
    chosen; then the secrets and subtrees done, with the time left (for the optimal search: the
    pieces of its root done, of those left, and the best total so far). Yields the runner's
    callback."""
    console = console_for(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with progress_display(console, "units") as bar, live_note(progress_note(bar, units="")):
        # Until the runner first reports (choosing the first guess of a big game takes a while), a
        # pulsing bar and the time elapsed show that work is going on.
        first = bar.add_task(f"{label}: choosing the first guess", total=None, units="")
        state: dict[str, Any] = {"task": first, "stage": "start"}

        def update(status) -> None:
            if status.stage != state["stage"]:  # a fresh task for each stage, so the ETA is fresh
                if state["task"] is not None:
                    bar.remove_task(state["task"])
                state["stage"] = status.stage
                if status.stage == "split":
                    state["task"] = bar.add_task(
                        f"{label}: splitting the tree", total=status.units, completed=status.units_done,
                        units="guesses chosen",
                    )  # fmt: skip
                elif status.stage == "search":  # the optimal search: pieces of its root
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
                best = "" if status.best is None else f"best total {status.best:,}"
                bar.update(state["task"], total=status.units, completed=status.units_done, units=best)
            else:
                bar.update(
                    state["task"], completed=status.secrets_done,
                    units=f"secrets, subtrees {status.units_done}/{status.units}",
                )  # fmt: skip

        yield update


def evaluate_whole(player, executor, scale: dict[str, Any], checkpoint: Path | None, label: str):
    """Stats of ``player`` over every secret through the runner, checkpointed.

    Without a checkpoint named by the user, a run of more than one subtree is checkpointed under
    the user cache directory and the file is removed when the run is done, with those there that
    no run can resume (left by another version of the package).
    """
    from ..research.runner import default_checkpoint, evaluate, remove_stale_checkpoints, unit_size_for
    from ..strategies.optimal.strategy import Optimal

    size = scale["unit_size"]
    search = isinstance(player, Optimal)  # its root search is checkpointed piece by piece
    own = checkpoint is None and (search or unit_size_for(player, size) < player.space.size)
    if search and own and player.known_tree() is not None:
        own = False  # from the cache: nothing to checkpoint
    path = default_checkpoint(player, size) if own else checkpoint
    told = False

    def tell(status, show: Callable[[Any], None] | None) -> None:
        nonlocal told
        if status.stage in ("solve", "search") and not told:
            told = True
            if status.units_done and path is not None:
                what = "pieces of the search" if search else "subtrees"
                click.echo(
                    f"mastermind: resuming from {path}: {status.units_done} of {status.units} "
                    f"{what} already done", err=True,
                )  # fmt: skip
        if show:
            show(status)

    with run_progress(label) as show:
        stats = evaluate(
            player, executor, checkpoint=path, progress=lambda s: tell(s, show), unit_size=size
        )  # fmt: skip
    if own and path is not None:
        path.unlink(missing_ok=True)
        remove_stale_checkpoints(path.parent)
    return stats


def checkpoint_file(scale: dict[str, Any]) -> Path | None:
    """--checkpoint as a file (evaluate)."""
    path = scale["checkpoint"]
    if path is None:
        return None
    path = Path(path)
    if path.is_dir():
        fail(f"--checkpoint {path} is a directory; name a file")
    return path


def checkpoint_in(scale: dict[str, Any], player) -> Path | None:
    """--checkpoint as a directory of per-run files (compare)."""
    from ..research.runner import default_checkpoint

    where = scale["checkpoint"]
    if where is None:
        return None
    folder = Path(where)
    if folder.exists() and not folder.is_dir():
        fail(f"--checkpoint {folder} is a file; compare needs a directory (one file per strategy)")
    return folder / default_checkpoint(player, scale["unit_size"]).name
