"""The first run: kernels compile only when a command needs them, and the person is told so (on a
terminal, or in one line of a log).

Nothing here is timed (benchmarks/first_run.py measures); these tests check what is imported and
what is written.
"""

import io
import json
import subprocess
import sys

import pytest

from mastermind._kernels.jit import njit
from mastermind.cli.progress import COMPILING, compile_notice, live_note


class Terminal(io.StringIO):
    def isatty(self):
        return True


def fresh_kernel():
    """A kernel the JIT has never seen (no cache): calling it compiles."""

    @njit
    def double(x):
        return 2 * x

    return double


def fresh_pair():
    """Two kernels the JIT has never seen, the first calling the second: calling it compiles both."""

    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return 2 * inner(x)

    return outer


def test_a_terminal_shows_a_bar_of_the_kernels_compiled_erased_when_they_are(monkeypatch):
    from mastermind._kernels import on_compile_step
    from mastermind.cli.progress import COMPILE_LABEL

    monkeypatch.setenv("TERM", "xterm")  # a terminal that can redraw a line (not TERM=dumb)
    stream, steps = Terminal(), []
    remove = on_compile_step(lambda done, total: steps.append((done, total)))
    try:
        with compile_notice(stream) as notice:
            assert notice is not None
            assert fresh_pair()(20) == 42
            assert steps == [(0, 2), (1, 2), (2, 2)]  # the kernel called and the one it calls
            shown = stream.getvalue()
            assert COMPILE_LABEL in shown and "2/2" in shown
            assert shown.endswith("\x1b[2K")  # erased: the line is cleared once it is done
            fresh_kernel()(1.5)  # another compilation: the bar again, of its one kernel
            assert steps[-1] == (1, 1) and stream.getvalue().count("1/1") >= 1
        fresh_kernel()(3)  # the command is over: nothing more is written
        assert stream.getvalue().endswith("\x1b[2K")
    finally:
        remove()


def test_the_kernels_needed_are_the_one_called_and_those_it_calls():
    from mastermind._kernels.jit import kernels_called

    assert sorted(k.py_func.__name__ for k in kernels_called(fresh_pair())) == ["inner", "outer"]
    assert [k.py_func.__name__ for k in kernels_called(fresh_kernel())] == ["double"]


def test_stderr_in_a_file_or_pipe_gets_one_line_that_stays_when_the_kernels_compile(tmp_path):
    log = tmp_path / "stderr.log"
    with log.open("w") as stream, compile_notice(stream) as notice:
        assert notice is not None
        assert fresh_kernel()(21) == 42
        fresh_kernel()(1.5)  # another compilation in the same command: no second line
    assert log.read_text() == f"mastermind: note: {COMPILING}\n"


def test_stderr_in_a_file_or_pipe_gets_nothing_when_nothing_compiles(tmp_path):
    warm = fresh_kernel()
    warm(1)  # compiled before the command starts
    log = tmp_path / "stderr.log"
    with log.open("w") as stream, compile_notice(stream):
        assert warm(2) == 4
    assert log.read_text() == ""


def test_nothing_is_written_to_a_stream_in_memory_such_as_a_test_runner_reads():
    stream = io.StringIO()
    with compile_notice(stream) as notice:
        assert notice is None
        fresh_kernel()(2)
    assert stream.getvalue() == ""


def test_inside_a_progress_display_the_notice_is_a_line_of_that_display():
    stream, notes = Terminal(), []
    with compile_notice(stream), live_note(notes.append):
        fresh_kernel()(5)
    assert notes == [COMPILING, None, None] and stream.getvalue() == ""  # (the last: the display's end)


def test_inside_a_progress_display_its_line_counts_the_kernels_compiled():
    class Note(list):
        def __call__(self, text):
            self.append(text)

        def step(self, done, total):
            self.append((done, total))

    stream, note = Terminal(), Note()
    with compile_notice(stream), live_note(note):
        fresh_pair()(5)
    assert note == [COMPILING, (0, 2), (1, 2), (2, 2), None, None] and stream.getvalue() == ""


def test_a_display_that_ends_while_the_kernels_compile_takes_its_note_away():
    from mastermind import _kernels

    stream, notes = Terminal(), []
    with compile_notice(stream), live_note(notes.append):
        _kernels._compiling(True)  # a budget runs out mid-compile: the bar stops first
    assert notes == [COMPILING, None]
    _kernels._compiling(False)


def python(code):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_numba_is_imported_only_by_a_command_that_runs_a_kernel():
    out = python(
        "import sys\n"
        "import mastermind, mastermind.cli, mastermind.strategies, mastermind.research.evaluation\n"
        "import mastermind.research.runner, mastermind.strategies.optimal.search\n"
        "import mastermind.deduction.state\n"
        "print('numba' in sys.modules)\n"
    )
    assert out == "False\n"


def test_a_cached_optimal_tree_is_checked_and_played_without_the_compiled_search(tmp_path):
    run = (
        "import json, sys\n"
        "from click.testing import CliRunner\n"
        "from mastermind.cli import cli\n"
        "result = CliRunner().invoke(cli, ['evaluate', '-s', 'optimal', '--pegs', '3', '--colors', '3',"
        " '--json'])\n"
        "print(json.dumps([json.loads(result.stdout)['total'], 'numba' in sys.modules]))\n"
    )
    env_code = f"import os; os.environ['MASTERMIND_CACHE_DIR'] = {str(tmp_path)!r}\n"
    first = json.loads(python(env_code + run))
    again = json.loads(python(env_code + run))
    assert first[1] is True  # searched: the compiled kernels ran
    assert again == [first[0], False]  # loaded from the cache and checked in numpy
    assert list((tmp_path / "optimal").glob("3x3-*.npz"))


def fresh_install(tmp_path):
    """The environment of a fresh install: empty numba, optimal-tree and history directories."""
    import os

    return {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "MASTERMIND_CACHE_DIR": str(tmp_path / "cache"),
        "MASTERMIND_DB": str(tmp_path / "h.db"),
    }


ANSWERS = "hint\n1111\nhint\nquit\n"
PLAY = (
    "import sys\n"
    "from mastermind.cli import main\n"
    "sys.argv = ['mastermind', 'play', '--seed', '7', '--no-color']\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(sorted(m for m in ('numba',) if m in sys.modules))\n"
)


def compiling_already(tmp_path, monkeypatch):
    """A fresh install whose exact search is being compiled already (its lock names this live
    process), so that a test starts no background compile: its environment, and the lock."""
    import os

    from mastermind._kernels import compiled

    env = fresh_install(tmp_path)
    for name in ("NUMBA_CACHE_DIR", "MASTERMIND_CACHE_DIR"):
        monkeypatch.setenv(name, env[name])
    compiled._key.cache_clear()
    lock = compiled.stamp("exact").with_suffix(".compiling")
    lock.parent.mkdir(parents=True)
    lock.write_text(str(os.getpid()))
    return env, lock


def test_a_hint_on_a_fresh_install_never_waits_for_the_compiler(tmp_path, monkeypatch):
    """Hints of a classic game, one where the exact search is needed (after 1111, the position of
    500 codes is off the book): numba is never imported, the move is valued by a heuristic's line
    (said so), and the compiled search is left to a background compile (here one already 'running':
    the lock names this live process, so that the test starts none)."""
    import os

    from mastermind._kernels import compiled

    env, lock = compiling_already(tmp_path, monkeypatch)
    proc = subprocess.run(
        [sys.executable, "-c", PLAY],
        input="hint\n1111\nhint\nquit\n",
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.stdout.splitlines()[-1] == "[]"
    assert "With 1122, 4.3997 guesses are expected from here (the best, 1123: 4.3403)." in proc.stdout
    assert "(expected-size line)" in proc.stdout  # the second hint: not exact, and said so
    assert not compiled.ready("exact") and lock.read_text() == str(os.getpid())
    assert not (tmp_path / "numba").exists()


def test_a_review_on_a_fresh_install_never_waits_for_the_compiler(tmp_path, monkeypatch):
    """A classic game off the book (500 codes after 1111): the moves the exact search would value
    are valued by the heuristic's line, said so, and numba is not imported."""
    env, _ = compiling_already(tmp_path, monkeypatch)  # the test starts no compile
    review = PLAY.replace("'play', '--seed', '7'", "'review', '1111=1,0', '2345=0,2', '1236=1,1'")
    proc = subprocess.run([sys.executable, "-c", review], capture_output=True, text=True, env=env)
    assert proc.stdout.splitlines()[-1] == "[]"
    assert " 1  1111  1,0     1,296 -> 500 " in proc.stdout  # the first move: from the book
    assert "mistake" in proc.stdout.splitlines()[2]
    assert (
        "valued by the expected-size line: the exact search is being compiled, once, in the background: "
        "ask again in a minute or two." in proc.stdout
    )


@pytest.mark.slow
def test_the_compile_command_leaves_a_family_compiled_and_stamped(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from mastermind._kernels import compiled
    from mastermind.cli import cli

    env = fresh_install(tmp_path)
    for name in ("NUMBA_CACHE_DIR", "MASTERMIND_CACHE_DIR"):
        monkeypatch.setenv(name, env[name])
    compiled._key.cache_clear()
    assert not compiled.ready("counter")
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "compile", "--only", "counter"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "compiled: counter\n"
    assert compiled.ready("counter")
    assert list((tmp_path / "numba").rglob("skip_ahead*.nbi"))  # in numba's cache
    compiled._key.cache_clear()
    result = CliRunner().invoke(cli, ["compile", "--only", "nothing"])
    assert result.exit_code == 2


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_during_a_compile_on_the_main_thread_is_never_lost(capsys):
    """LLVM calls back into Python as it compiles (numba's object cache); ctypes prints and drops
    an interrupt raised in such a callback, and the command ran on after Ctrl-C. Here a listener
    of the compile hears Ctrl-C inside a ctypes callback: the compile still ends in
    KeyboardInterrupt, nothing is printed, and SIGINT's handler is as it was."""
    import ctypes
    import signal

    from mastermind._kernels import on_compile_step

    def interrupt():
        signal.raise_signal(signal.SIGINT)
        sum(range(1000))  # the handler runs between bytecodes, inside the callback

    callback = ctypes.CFUNCTYPE(None)(interrupt)
    # Python's own handler, as in a command (an in-process test of the command line that ended
    # in Ctrl-C may have left SIGINT ignored in this test process, as the command does on exit)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    remove = on_compile_step(lambda done, total: callback() if done == 1 else None)
    try:
        with pytest.raises(KeyboardInterrupt):
            fresh_pair()(20)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        remove()
        signal.signal(signal.SIGINT, before)
    assert capsys.readouterr().err == ""
    assert fresh_pair()(20) == 42  # no interrupt left pending for the next compile
