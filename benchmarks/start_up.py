"""Where a command's time goes: the whole process, and its parts.

Each command runs as its own process (the ``mastermind`` command line, in-process through
``mastermind.cli.main``) under a small driver that splits its wall time into:

* ``python``: from the ``exec`` to the driver's first line (the interpreter and ``site``);
* ``cli``: importing ``mastermind.cli`` (click, the package, every command's module);
* ``numpy``, ``numba``: importing them (first import only, wherever it happens);
* ``load``: loading compiled kernels from numba's on-disk cache;
* ``compile``: numba compiling kernels (an empty cache: the first run after an install);
* ``work``: the rest, what the command itself does.

``cold`` runs use fresh numba, optimal-tree and history directories (a fresh install); ``warm`` runs
reuse those of the last cold run. Prints the least of the repeats of each part (the machine may
be shared, and the least is the steadiest), and with ``--compiled`` every function numba compiled
in the cold run: its signature and its own compile time (exclusive of the functions it compiled).

    python benchmarks/start_up.py                     # the issue's commands, warm only
    python benchmarks/start_up.py --cold 1 --warm 3   # a first run too
    python benchmarks/start_up.py --cold 1 --compiled "evaluate -s knuth -p 5 -c 8 --no-history"
    python benchmarks/start_up.py --cold 1 --compiled --phases "evaluate -s optimal -p 4 -c 7 --no-history"
    python benchmarks/start_up.py --baseline /tmp/old/src   # against another version, alternately
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

#: The commands of the issue (#51): the classic game's, the partition strategies on 4x8 and 5x6,
#: and the first runs of 5x8 and of the exact search on 4x7 (after ``<<<``: what the command
#: reads on its standard input).
COMMANDS = [
    "evaluate -s knuth --json --no-history",
    "solve 1122=1,0",
    "play --seed 7 --no-color <<< quit",
    "review 1122=1,0 1344=1,3 4134=4,0 --no-color",
    "tree -s knuth --depth 2",
    "evaluate -s knuth -p 4 -c 8 --json --no-history",
    "evaluate -s entropy -p 5 -c 6 --json --no-history",
    "evaluate -s most-parts -p 5 -c 8 --json --no-history",
    "evaluate -s knuth -p 5 -c 8 --json --no-history",
    "evaluate -s optimal -p 4 -c 7 --json --no-history",
]

#: The driver: times the parts, runs the command, writes the parts as JSON to the file named by
#: ``START_UP_REPORT``. ``START_UP_T0`` is the wall time at which the parent started the process.
DRIVER = r"""
import time
t_first = time.time()
import builtins, json, os, sys
parts = {"python": t_first - float(os.environ["START_UP_T0"]), "numpy": 0.0, "numba": 0.0,
         "load": 0.0, "compile": 0.0, "compiled": []}
_import = builtins.__import__

def _patch_numba():
    from numba.core import caching, event
    load = caching.Cache.load_overload
    def timed_load(self, *args, **kwargs):
        t = time.perf_counter()
        try:
            return load(self, *args, **kwargs)
        finally:
            parts["load"] += time.perf_counter() - t
    caching.Cache.load_overload = timed_load
    stack = []
    class Watch(event.Listener):
        def on_start(self, ev):
            stack.append([time.perf_counter(), 0.0])
        def on_end(self, ev):
            began, inner = stack.pop()
            spent = time.perf_counter() - began
            if stack:
                stack[-1][1] += spent
            else:
                parts["compile"] += spent
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__.rsplit('.', 1)[-1]}.{d.py_func.__name__}"
            parts["compiled"].append([name, str(tuple(ev.data["args"])), spent - inner])
    event.register("numba:compile", Watch())
    if os.environ.get("START_UP_PHASES"):
        _time_phases()

def _time_phases():
    # CPU seconds (process_time) of each of numba's compile phases, each exclusive of the
    # phases nested in it: a kernel's typing compiles the kernels it calls, its lowering calls LLVM
    from numba.core import codegen, dispatcher, lowering, typed_passes, untyped_passes
    phases, stack = {}, []
    parts["phases"] = phases
    def timed(owner, attr, phase):
        f = getattr(owner, attr)
        def run(*args, **kwargs):
            stack.append([time.process_time(), 0.0])
            try:
                return f(*args, **kwargs)
            finally:
                began, inner = stack.pop()
                spent = time.process_time() - began
                phases[phase] = phases.get(phase, 0.0) + spent - inner
                if stack:
                    stack[-1][1] += spent
        setattr(owner, attr, run)
    timed(dispatcher._FunctionCompiler, "_compile_core", "numba, other passes")
    timed(untyped_passes.InlineInlinables, "run_pass", "numba, inlining")
    timed(typed_passes.NopythonTypeInference, "run_pass", "numba, typing")
    timed(typed_passes.NativeLowering, "run_pass", "numba, lowering")
    timed(lowering.BaseLower, "create_cpython_wrapper", "numba, Python wrappers")
    timed(lowering.BaseLower, "create_cfunc_wrapper", "numba, C wrappers")
    timed(codegen.CPUCodeLibrary, "_optimize_functions", "LLVM, each function")
    timed(codegen.CPUCodeLibrary, "_optimize_final_module", "LLVM, with its callees")
    timed(codegen.CPUCodeLibrary, "_finalize_final_module", "LLVM, machine code")

inside = []

def timed_import(name, *args, **kwargs):
    top = name.partition(".")[0]
    if top not in ("numpy", "numba") or top in sys.modules:
        return _import(name, *args, **kwargs)
    t = time.perf_counter()
    inside.append(top)
    try:
        module = _import(name, *args, **kwargs)
        if top == "numba":
            _patch_numba()
    finally:
        inside.pop()
    spent = time.perf_counter() - t
    parts[top] += spent
    if inside:
        parts[inside[-1]] -= spent
    return module

builtins.__import__ = timed_import
t = time.perf_counter()
from mastermind.cli import main
parts["cli"] = time.perf_counter() - t - parts["numpy"] - parts["numba"]
before = parts["numpy"] + parts["numba"]
sys.argv = ["mastermind", *sys.argv[1:]]
t = time.perf_counter()
try:
    main()
except SystemExit:
    pass
finally:
    parts["work"] = time.perf_counter() - t - (parts["numpy"] + parts["numba"] - before)
    parts["work"] -= parts["load"] + parts["compile"]
    with open(os.environ["START_UP_REPORT"], "w") as out:
        json.dump(parts, out)
"""

PARTS = ["python", "cli", "numpy", "numba", "load", "compile", "work", "exit"]


def run(args: list[str], env: dict[str, str], stdin: str | None) -> dict:
    """The parts of one process, its whole wall time (``total``) and its CPU time (``cpu``)."""
    report = tempfile.mktemp(prefix="mastermind-start-up-", suffix=".json")
    env = dict(env, START_UP_REPORT=report, START_UP_T0=repr(time.time()))
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER, *args],
        env=env,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if stdin is not None and proc.stdin is not None:
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
    _, _, usage = os.wait4(proc.pid, 0)
    total = time.perf_counter() - started
    try:
        with open(report) as file:
            parts = json.load(file)
    except FileNotFoundError:
        sys.exit(f"mastermind {' '.join(args)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    os.unlink(report)
    parts["total"], parts["cpu"] = total, usage.ru_utime + usage.ru_stime
    # the rest: the interpreter's exit (and the driver's few lines)
    parts["exit"] = total - sum(parts[p] for p in PARTS if p != "exit")
    return parts


def fresh_env(src: str | None = None) -> dict[str, str]:
    """Empty numba, optimal-tree and history directories (a fresh install); ``src``: the source
    tree to run instead of this one."""
    root = tempfile.mkdtemp(prefix="mastermind-start-up-")
    atexit.register(shutil.rmtree, root, True)
    extra = {"PYTHONPATH": src} if src else {}
    env = dict(os.environ)
    # An installed package runs from its compiled bytecode; a shell that turns writing it off
    # (as this workplace's does) would have every module of the package compiled again each run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return dict(
        env,
        **extra,
        NUMBA_CACHE_DIR=os.path.join(root, "numba"),
        MASTERMIND_CACHE_DIR=os.path.join(root, "cache"),
        MASTERMIND_DB=os.path.join(root, "history.sqlite3"),
    )


def least(runs: list[dict]) -> dict:
    return {key: min(r[key] for r in runs) for key in [*PARTS, "total", "cpu"]}


def line(label: str, parts: dict) -> str:
    cells = " ".join(f"{parts[p]:7.3f}" for p in [*PARTS, "total", "cpu"])
    return f"{label:60} {cells}"


def compiled_report(runs: list[dict]) -> None:
    """The functions numba compiled in the first cold run, the slowest first (and, with
    ``--phases``, its compile's CPU time by phase)."""
    compiled = runs[0]["compiled"]
    if not compiled:
        return
    phases = runs[0].get("phases")
    if phases:
        print(f"  compile phases (CPU, exclusive): {sum(phases.values()):.2f} s")
        for phase, spent in sorted(phases.items(), key=lambda p: -p[1]):
            print(f"    {spent:6.2f} s  {phase}")
    names = {name for name, _, _ in compiled}
    print(
        f"  compiled: {len(names)} functions, {len(compiled)} signatures, {sum(c[2] for c in compiled):.2f} s"
    )
    for name, sig, spent in sorted(compiled, key=lambda c: -c[2]):
        print(f"    {spent:6.2f} s  {name}{sig if len(sig) < 90 else sig[:87] + '...'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=0, help="first runs (fresh caches) per command [0]")
    parser.add_argument("--warm", type=int, default=3, help="warm runs per command [3]")
    parser.add_argument("--compiled", action="store_true", help="list what the cold run compiled")
    parser.add_argument(
        "--phases", action="store_true", help="with --compiled: the compile's CPU time by phase"
    )
    parser.add_argument("--baseline", metavar="SRC", help="another copy's src folder, run alternately")
    parser.add_argument("--stdin", help="text given to every command on its standard input")
    parser.add_argument("commands", nargs="*", help="commands to time (default: the issue's)")
    opts = parser.parse_args()
    print(
        f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'command':60} " + " ".join(f"{p:>7}" for p in [*PARTS, "total", "cpu"]))
    opts_stdin = opts.stdin.replace("\\n", "\n") if opts.stdin else None
    versions = [("", None)] + ([("base ", opts.baseline)] if opts.baseline else [])
    if opts.phases:
        os.environ["START_UP_PHASES"] = "1"
    for command in opts.commands or COMMANDS:
        command, _, typed = command.partition(" <<< ")
        args = command.split()
        stdin = typed.replace("\\n", "\n") + "\n" if typed else opts_stdin
        envs = {label: fresh_env(src) for label, src in versions}
        if opts.cold:
            cold: dict[str, list[dict]] = {label: [] for label, _ in versions}
            for _ in range(opts.cold):  # alternately: both versions see the same load
                for label, src in versions:
                    envs[label] = fresh_env(src)
                    cold[label].append(run(args, envs[label], stdin))
            for label, _ in versions:
                print(line(f"{label}{command} (cold)", least(cold[label])), flush=True)
                if opts.compiled:
                    compiled_report(cold[label])
        if opts.warm:
            warm: dict[str, list[dict]] = {label: [] for label, _ in versions}
            if not opts.cold:
                for label, _ in versions:
                    run(args, envs[label], stdin)  # fill the caches first
            for _ in range(opts.warm):
                for label, _ in versions:
                    warm[label].append(run(args, envs[label], stdin))
            for label, _ in versions:
                print(line(f"{label}{command}", least(warm[label])), flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
