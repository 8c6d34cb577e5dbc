"""What a command loads before it answers: help and the history need no numeric library.

numpy costs about a tenth of a second to import and numba several; a command that only prints
text or reads the history database must not pay for them.
"""

import subprocess
import sys

import pytest


def script(report: str) -> str:
    """A program that runs ``mastermind ARGS`` (its arguments) and then prints ``report`` (an
    expression) on its standard error: what the command left loaded."""
    return (
        "import sys\n"
        "from mastermind.cli import main\n"
        "sys.argv = ['mastermind', *sys.argv[1:]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print({report}, file=sys.stderr)\n"
    )


LOADED = script("sorted(m for m in ('numpy', 'numba', 'textual', 'dask') if m in sys.modules)")


def loaded_by(*args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, check=False, env=env
    )
    return proc.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("args", [["--help"], ["history", "--help"], ["stats", "--help"]])
def test_help_loads_no_numeric_library(args):
    assert loaded_by(*args) == "[]"


@pytest.mark.parametrize("args", [["history"], ["history", "--json"], ["stats"]])
def test_the_history_loads_no_numeric_library(args, tmp_path):
    import os

    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.db")}
    assert loaded_by(*args, env=env) == "[]"


def test_a_command_that_plays_does_load_numpy():
    """The check above can fail: a command that computes loads numpy."""
    assert "numpy" in loaded_by("solve", "1122=1,0", "--pegs", "4", "--colors", "6")


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "-s", "knuth", "--no-history"],
        ["evaluate", "-s", "entropy", "--json", "--no-history"],
        ["tree", "-s", "knuth", "--depth", "2"],
        ["solve", "1122=1,0", "1344=0,1"],
        ["guess", "--secret", "3632", "--no-history"],
    ],
)
def test_the_classic_games_commands_load_no_numba(args, tmp_path):
    """The classic game's whole-tree strategies and one guess run on numpy: no numba to import,
    no kernel to load or compile (tests/test_quick_start.py checks the results are the same)."""
    import os

    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.db"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    assert loaded_by(*args, env=env) == "['numpy']"


MODULES = script("' '.join(sorted(sys.modules))")

#: What none of the classic game's commands below loads: numba; the exact search's strategy and
#: its search (only `-s optimal` needs them); importlib.metadata (the plug-ins' entry points are
#: read only for a name that is not built in, and the package's version without it); and the
#: modules of the commands not run.
NOT_LOADED = [
    "numba",
    "mastermind.strategies.optimal.strategy",
    "mastermind.strategies.optimal.search",
    "importlib.metadata",
    "mastermind.cli.worst",
    "mastermind.cli.web",
    "mastermind.cli.tui",
    "mastermind.cli.match",
    "mastermind.cli.compiling",
]


def modules_loaded_by(*args: str, env: dict[str, str]) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", MODULES, *args], capture_output=True, text=True, check=False, env=env
    )
    return set(proc.stderr.strip().splitlines()[-1].split())


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "-s", "knuth", "--no-history"],
        ["evaluate", "-s", "knuth"],
        ["solve", "1122=1,0"],
        ["tree", "-s", "knuth", "--depth", "2"],
        ["review", "1122=1,0", "1344=1,3", "4134=4,0"],
    ],
)
def test_a_classic_command_loads_only_what_it_uses(args, tmp_path):
    """A command imports its own module and its own strategy's: not the exact search, nor numba,
    nor the other commands (each a part of the start that no classic command needs)."""
    import os

    env = {
        **os.environ,
        "MASTERMIND_DB": str(tmp_path / "h.db"),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "MASTERMIND_CACHE_DIR": str(tmp_path / "cache"),
    }
    loaded = modules_loaded_by(*args, env=env)
    assert "numpy" in loaded  # it did compute (so the check below can fail)
    assert sorted(m for m in NOT_LOADED if m in loaded) == []


def test_the_optimal_strategy_is_loaded_when_it_is_asked_for(tmp_path):
    """The registry finds a strategy whose module was not imported yet."""
    import os

    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.db"), "MASTERMIND_CACHE_DIR": str(tmp_path / "c")}
    loaded = modules_loaded_by("solve", "1122=1,0", "1344=0,1", "-s", "optimal", env=env)
    assert "mastermind.strategies.optimal.strategy" in loaded


EXIT_HANDLERS = (
    "import atexit, gc, sys\n"
    # registered before main(): runs after main's own exit handler, and sees what it left
    "def later():\n"
    "    print('frozen', gc.get_freeze_count() > 0, 'later handler ran', file=sys.stderr)\n"
    "atexit.register(later)\n"
    "from mastermind.cli import main\n"
    "sys.argv = ['mastermind', *sys.argv[1:]]\n"
    "main()\n"
)


def test_the_command_freezes_the_collector_at_exit_and_every_handler_runs():
    """The interpreter's last garbage collections (slow with numba loaded) skip the objects that
    exist when the command ends; the other exit handlers still run, and the output is whole."""
    proc = subprocess.run(
        [sys.executable, "-c", EXIT_HANDLERS, "solve", "1122=1,0", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.rstrip().endswith("}")  # the JSON whole: flushed before the exit
    assert proc.stderr.strip().splitlines()[-1] == "frozen True later handler ran"


#: Modules that numba imports only to ready its compiler (its typing and lowering rules for
#: strings, typed dicts, linear algebra, array functions).
COMPILER_ONLY = ["numba.cpython.unicode", "numba.typed.typeddict", "numba.np.linalg", "numba.np.arraymath"]

LOADS = script(
    f"[m for m in {COMPILER_ONLY!r} if m in sys.modules], 'numba' in sys.modules, "
    "__import__('numba.core.runtime', fromlist=['rtsys']).rtsys._init"
)


@pytest.mark.parametrize(
    ("game", "runtime"),
    [
        (["-s", "knuth", "-p", "4", "-c", "8"], False),
        (["-s", "entropy", "-p", "5", "-c", "6"], False),
        (["-s", "counter", "-p", "4", "-c", "8", "--seed", "7"], True),  # skip-ahead counts references
    ],
)
def test_kernels_are_loaded_from_numba_s_cache_without_its_compiler(game, runtime, tmp_path):
    """A game past the quick start's size runs compiled kernels: loaded from numba's cache, they
    need none of numba's compiler (a fifth of a second to ready), and those that count no
    references not even its memory runtime. The first run fills the cache; the second loads it.
    (The counter's cached code brings an environment whose unpickling may import numba's array
    module, and with it some of the modules above, as numba's version has it.)"""
    import json
    import os

    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.db"), "MASTERMIND_CACHE_DIR": str(tmp_path / "c")}
    args = [sys.executable, "-c", LOADS, "evaluate", *game, "--json", "--no-history", "--recompute"]
    runs = [subprocess.run(args, capture_output=True, text=True, check=False, env=env) for _ in range(2)]
    assert [json.loads(run.stdout)["total"] for run in runs] == [json.loads(runs[0].stdout)["total"]] * 2
    compiler, numba, started = runs[1].stderr.strip().splitlines()[-1].rsplit(" ", 2)
    assert (numba, started) == ("True", str(runtime))
    if not runtime:
        assert compiler == "[]"


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "-s", "knuth", "--json", "--no-history"],
        ["evaluate", "-s", "knuth", "-p", "4", "-c", "8", "--json", "--no-history"],
    ],
)
def test_a_run_for_a_script_loads_no_rich(args, tmp_path):
    """Output for a script (``--json``, stderr not a terminal) needs no progress bar, so no rich,
    a fiftieth of a second to import; on a terminal the bar loads it (tests/test_progress.py)."""
    import os

    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.db")}
    for name in ("FORCE_COLOR", "FORCE_TERMINAL", "TTY_COMPATIBLE"):
        env.pop(name, None)
    loaded = modules_loaded_by(*args, env=env)
    assert "numpy" in loaded  # it did compute (so the check below can fail)
    assert "rich" not in loaded
