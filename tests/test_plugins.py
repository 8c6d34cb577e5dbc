"""Strategies written outside the package (issue 23): registered with register_strategy or through
the ``mastermind.strategies`` entry points of an installed package, then found by name wherever a
built-in strategy is: make_strategy, evaluate, games, matches, the command line, the boards'
settings, and the spec that rebuilds a strategy in a Dask worker."""

import base64
import hashlib
import json
import os
import pickle
import subprocess
import sys
import zipfile

import pytest

from mastermind import (
    STRATEGIES,
    Game,
    Match,
    Rules,
    Strategy,
    StrategyError,
    evaluate,
    find_strategy,
    make_strategy,
    register_strategy,
)
from mastermind.strategies import unregister_strategy

CLASSIC = Rules()


class FirstCandidate(Strategy):
    """The first code that fits, in numeric order (Shapiro's strategy)."""

    name = "first-candidate"
    summary = "the first consistent code in numeric order"

    def pick(self, state):
        return int(state.candidate_indices()[0])


@pytest.fixture
def registered():
    register_strategy(FirstCandidate)
    yield FirstCandidate
    if FirstCandidate in STRATEGIES:
        unregister_strategy("first-candidate")


def test_a_registered_strategy_is_made_and_evaluated_by_name(registered):
    # Shapiro (1983), "Playing Mastermind logically": 7471 guesses over the 1296 classic secrets.
    assert find_strategy("First_Candidate") is FirstCandidate
    stats = evaluate(make_strategy("first-candidate", CLASSIC))
    assert (stats.total, stats.max, str(stats.first_guess)) == (7471, 9, "1111")


def test_a_registered_strategy_breaks_codes_hints_and_plays_matches_by_name(registered):
    game = Game.solving(CLASSIC, "first-candidate", secret="3632")
    while not game.over:
        game.guess(game.proposal())
    assert game.outcome == "won" and str(game.moves[0].guess) == "1111"
    assert Game.from_record(game.record()).moves == game.moves
    assert str(Game.breaking(CLASSIC, seed=1, strategy="first-candidate").hint().guess) == "1111"
    match = Match(CLASSIC, ("first-candidate", "knuth"), seed=3)
    match.play_out()
    assert match.over and match.players == ["first-candidate", "knuth"]


def test_a_registered_strategy_is_offered_by_the_boards_and_the_help(registered):
    from mastermind.cli.common import strategy_help
    from mastermind.tui.screens import _strategies
    from mastermind.web.limits import Limits
    from mastermind.web.records import choices

    assert ("first-candidate", "first-candidate") in _strategies()
    offered = choices(Limits())["strategies"]
    assert {"name": "first-candidate", "summary": "the first consistent code in numeric order"} in offered
    assert "first-candidate: the first consistent code in numeric order" in strategy_help()


def test_a_worker_that_does_not_know_the_name_rebuilds_it_from_its_spec(registered):
    spec = make_strategy("first-candidate", CLASSIC, first="1122").spec()
    unregister_strategy("first-candidate")  # as in a Dask worker: the name is unknown there
    with pytest.raises(StrategyError, match="unknown strategy 'first-candidate'"):
        find_strategy("first-candidate")
    rebuilt = pickle.loads(pickle.dumps(spec)).build()
    assert type(rebuilt) is FirstCandidate and rebuilt.first_guess() == 7 and rebuilt.spec() == spec


def test_a_built_in_strategys_spec_names_it_only():
    assert make_strategy("knuth", CLASSIC).spec().strategy_class is None


def test_register_strategy_is_a_decorator_and_a_cell_run_again_replaces_its_class():
    @register_strategy
    class Again(FirstCandidate):
        name = "again"

    first = Again

    @register_strategy
    class Again(FirstCandidate):  # noqa: F811 - the same cell of a notebook, run a second time
        name = "again"

    try:
        assert find_strategy("again") is Again and first is not Again
    finally:
        unregister_strategy("again")


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: int, "a strategy is a subclass of mastermind.Strategy, not <class 'int'>"),
        (lambda: type("Bad", (FirstCandidate,), {"name": "Bad Name"}), "needs a name of lower-case words"),
        (lambda: type("NoPick", (Strategy,), {"name": "no-pick"}), "NoPick does not implement pick"),
        (
            lambda: type("Knuth2", (FirstCandidate,), {"name": "knuth"}),
            "'knuth' is a strategy of this package",
        ),
        (
            lambda: type("Other", (FirstCandidate,), {"name": "first-candidate"}),
            "a strategy named 'first-candidate' is registered already .*replace=True",
        ),
    ],
    ids=["not-a-strategy", "bad-name", "abstract", "built-in-name", "taken"],
)
def test_a_strategy_that_cannot_be_registered_is_refused_saying_why(registered, make, message):
    with pytest.raises(StrategyError, match=message):
        register_strategy(make())


def test_a_built_in_strategy_cannot_be_unregistered():
    with pytest.raises(StrategyError, match="'knuth' is a strategy of this package"):
        unregister_strategy("knuth")


# -- an installed package's strategies -----------------------------------------------------------------

PLUGIN = """
from mastermind import Strategy


class FirstCandidate(Strategy):
    name = "first-candidate"
    summary = "the first consistent code in numeric order (an installed plug-in)"

    def pick(self, state):
        return int(state.candidate_indices()[0])
"""


def wheel(folder, name, modules, entry_points):
    """A wheel of a pure-Python package: its modules and its ``mastermind.strategies`` entry points."""
    dist_info = f"{name}-0.1.dist-info"
    files = {f"{module}.py": source for module, source in modules.items()}
    files[f"{dist_info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n"
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: a test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    files[f"{dist_info}/entry_points.txt"] = f"[mastermind.strategies]\n{lines}"
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{dist_info}/RECORD"] = "\n".join([*record, f"{dist_info}/RECORD,,"]) + "\n"
    path = folder / f"{name}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name_, text in files.items():
            archive.writestr(name_, text)
    return path


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A directory where pip installed two tiny plug-in packages: one strategy that works, and an
    entry point whose module is missing. Processes given it on PYTHONPATH see both installed."""
    folder = tmp_path_factory.mktemp("plugins")
    good = wheel(
        folder,
        "mastermind_first_candidate",
        {"mm_first_candidate": PLUGIN},
        {"first-candidate": "mm_first_candidate:FirstCandidate"},
    )
    broken = wheel(folder, "mastermind_broken", {}, {"broken": "mm_no_such_module:Strategy"})
    target = folder / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            str(good),
            str(broken),
        ],
        check=True,
        capture_output=True,
    )
    return target


def mastermind(installed, *args):
    env = {**os.environ, "PYTHONPATH": str(installed), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mastermind", *args], capture_output=True, text=True, env=env, timeout=600
    )


def test_an_installed_plugin_is_evaluated_from_the_command_line(installed):
    done = mastermind(installed, "evaluate", "--strategy", "first-candidate", "--json", "--no-history")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert (stats["total"], stats["max"], stats["first_guess"]) == (7471, 9, "1111")


def test_an_installed_plugin_solves_compares_draws_its_tree_and_plays_matches(installed):
    solved = mastermind(installed, "solve", "--strategy", "first-candidate", "1122=1,0", "1344=0,1")
    assert solved.stdout.splitlines()[-1] == "first-candidate plays next: 3523", solved.stderr
    compared = mastermind(
        installed, "compare", "--strategies", "knuth,first-candidate", "--json", "--no-history"
    )
    assert [s["total"] for s in json.loads(compared.stdout)] == [5801, 7471], compared.stderr
    tree = mastermind(installed, "tree", "--strategy", "first-candidate", "--pegs", "2", "--colors", "2")
    assert tree.stdout.splitlines()[1] == "11  (4 codes)", tree.stderr
    players = ["--players", "first-candidate,knuth"]
    match = mastermind(installed, "match", *players, "--games", "2", "--seed", "1", "--no-history")
    assert match.returncode in (0, 1) and "player 1 (first-candidate)" in match.stdout, match.stderr
    helped = "".join(mastermind(installed, "evaluate", "--help").stdout.split())  # help wraps at hyphens
    assert "first-candidate:thefirstconsistentcodeinnumericorder(aninstalledplug-in)" in helped


def test_an_installed_plugin_runs_on_a_dask_cluster(installed):
    pytest.importorskip("distributed")
    args = [
        "evaluate",
        "--strategy",
        "first-candidate",
        "--pegs",
        "3",
        "--colors",
        "4",
        "--json",
        "--no-history",
    ]
    here = json.loads(mastermind(installed, *args).stdout)
    done = mastermind(installed, *args, "--executor", "dask", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["distribution"] == here["distribution"]


def test_a_plugin_that_cannot_be_loaded_says_why_when_named_and_harms_nothing_else(installed):
    done = mastermind(installed, "evaluate", "--strategy", "broken", "--no-history")
    assert done.returncode == 2
    assert done.stderr.strip().startswith("mastermind: error: the strategy 'broken' could not be loaded:")
    assert "mm_no_such_module:Strategy of the package mastermind_broken: ModuleNotFoundError" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert mastermind(installed, "evaluate", "--strategy", "knuth", "--no-history").returncode == 0
