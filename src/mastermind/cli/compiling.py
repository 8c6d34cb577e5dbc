"""compile: every family of compiled kernels at once, for whoever installs the package for others.

Each family is compiled by running a small game through it (so every type signature a real game
uses is compiled), in its own process, as many at once as there are cores: numba compiles one
function at a time per process. The kernels land in numba's on-disk cache, and each family leaves
its stamp (:mod:`mastermind._kernels.compiled`) so that the front ends know it is there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import IO

import click

from . import cli
from .common import fail


def _partition() -> None:
    from ..core.rules import Rules
    from ..deduction.state import SolverState
    from ..research.evaluation import evaluate
    from ..strategies import make_strategy

    rules = Rules(pegs=3, colors=5)
    for name in ("knuth", "expected-size", "entropy", "most-parts"):
        strategy = make_strategy(name, rules)
        evaluate(strategy)  # the whole tree: subtrees, their roots at once
        strategy.choose(SolverState(rules).add("123", "1,0"))  # one guess (solve, a hint)


def _exact() -> None:
    import numpy as np

    from ..core.rules import Rules
    from ..strategies.optimal.search import solve_position

    rules = Rules(pegs=3, colors=4)
    solve_position(rules, np.arange(rules.colors**rules.pegs, dtype=np.int64))
    solve_position(rules, np.arange(30, dtype=np.int64), [0], left=5, first=1)
    # a guided proof's cell bounds are a kernel of their own (the search bounds cells in Python)
    from ..strategies.optimal.guided import prove_optimum

    prove_optimum(rules, 206)


def _counter() -> None:
    from ..core.rules import Rules
    from ..research.evaluation import evaluate
    from ..strategies import make_strategy

    evaluate(make_strategy("counter", Rules(pegs=3, colors=4)), seed=1)


def _worst() -> None:
    from ..core.rules import Rules
    from ..strategies.optimal.worst import least_guesses

    least_guesses(Rules(pegs=3, colors=3))


#: What compiles each family (mastermind._kernels.compiled.FAMILIES), in the order of their cost.
WORKLOADS: dict[str, Callable[[], None]] = {
    "exact": _exact,
    "partition": _partition,
    "worst": _worst,
    "counter": _counter,
}


def compile_family(family: str) -> None:
    """Compile ``family`` in this process (on the compiled kernels whatever the game's size) and
    leave its stamp."""
    from .._kernels import quick_start
    from .._kernels.compiled import mark_ready

    quick_start(0)  # the command line puts small games on numpy: here they must run compiled
    try:
        WORKLOADS[family]()
        mark_ready(family)
    except OSError as err:  # a cache file, or the stamp's folder, cannot be written
        fail(f"cannot keep the compiled kernels: {err} ({CACHE_HELP})")
    except RuntimeError as err:
        if "cannot cache" not in str(err):
            raise
        # numba found no folder it may write in: not NUMBA_CACHE_DIR, nor beside the package's
        # sources, nor the user's cache folder (it says so when a kernel's module is imported)
        fail(f"numba finds no folder it can write its cache in ({CACHE_HELP})")


#: Where a failure to keep the kernels says to look.
CACHE_HELP = "set NUMBA_CACHE_DIR to a folder this user can write"

#: How a ``mastermind compile --only`` process's own error line begins (see :func:`fail`).
_ERROR = "mastermind: error: "


@cli.command("compile")
@click.option(
    "--only",
    type=click.Choice(list(WORKLOADS)),
    multiple=True,
    help="Compile only this family of kernels (repeatable) [all].",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1, max=64),
    default=None,
    metavar="N",
    help="Families compiled at once, each in its own process [the number of cores].",
)
@click.option("--quiet", is_flag=True, help="Write nothing, and run at low priority (a background compile).")
def compile_command(only: tuple[str, ...], jobs: int | None, quiet: bool) -> None:
    """Compile every numeric kernel now, rather than when a command first needs it.

    A command compiles the kernels it needs the first time it runs (then loads them from numba's
    cache, in NUMBA_CACHE_DIR if set). Run this once where the package is installed for others
    (a server, a Docker image, a cluster's workers) so that no one waits for the compiler later.

    \b
    Examples:
      mastermind compile                 # everything, one family per core
      mastermind compile --only exact    # the optimal search only
    """
    families = list(only) or list(WORKLOADS)
    if quiet:
        os.nice(10)
    if len(families) == 1:
        compile_family(families[0])
    else:
        _in_processes(families, jobs or os.cpu_count() or 1, quiet)
    if not quiet:
        click.echo(f"compiled: {', '.join(families)}")


def _in_processes(families: list[str], jobs: int, quiet: bool) -> None:
    """Each family in its own ``mastermind compile --only`` process, ``jobs`` at once, with a bar;
    Ctrl-C or a failure stops them all."""
    import tempfile

    from .progress import count_bar

    waiting: list[str] = list(families)
    running: list[tuple[str, subprocess.Popen[bytes], IO[bytes]]] = []
    started = time.monotonic()
    try:
        with count_bar(len(families), "compiling the kernels") as advance:
            while waiting or running:
                while waiting and len(running) < jobs:
                    family = waiting.pop(0)
                    args = [sys.executable, "-m", "mastermind.cli", "compile", "--only", family]
                    told: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed below; a file: no child blocks
                    proc = subprocess.Popen(
                        args + (["--quiet"] if quiet else []), stdout=subprocess.DEVNULL, stderr=told
                    )
                    running.append((family, proc, told))
                time.sleep(0.1)
                for family, proc, told in list(running):
                    if proc.poll() is None:
                        continue
                    running.remove((family, proc, told))
                    told.seek(0)
                    last = told.read().decode(errors="replace").strip().splitlines()
                    told.close()
                    if proc.returncode != 0:
                        said = last[-1].removeprefix(_ERROR) if last else f"exit status {proc.returncode}"
                        fail(f"compiling {family} failed: {said}")
                    advance(1)
                    if not quiet:
                        click.echo(f"{family}: {time.monotonic() - started:.1f} s", err=True)
    finally:
        for _, proc, told in running:
            proc.kill()
            told.close()
