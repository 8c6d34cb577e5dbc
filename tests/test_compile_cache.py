"""`mastermind compile` where numba cannot keep what it compiles: one line and exit status 2, no
traceback (numba's own errors are a RuntimeError when it finds no folder it may write in, and an
OSError when writing a cache file fails)."""

import subprocess
import sys

#: The command line in a process where numba can write nowhere: none of its cache locators
#: (NUMBA_CACHE_DIR, beside the sources, the user's cache folder) finds a writable folder.
NO_FOLDER = (
    "import sys\n"
    "from numba.core import caching\n"
    "caching.CacheImpl._locator_classes = []\n"
    "from mastermind.cli import main\n"
    "sys.argv = ['mastermind', *sys.argv[1:]]\n"
    "main()\n"
)

#: ... and where the folder is found but a cache file cannot be written (permission denied).
NO_WRITE = (
    "import sys\n"
    "from numba.core import caching\n"
    "def refuse(self, sig, data):\n"
    "    raise PermissionError(13, 'Permission denied', '/srv/numba/feedback.blacks.nbi')\n"
    "caching.Cache.save_overload = refuse\n"
    "caching.Cache.load_overload = lambda self, sig, ctx: None\n"
    "from mastermind.cli import main\n"
    "sys.argv = ['mastermind', *sys.argv[1:]]\n"
    "main()\n"
)


def run(script: str, tmp_path) -> subprocess.CompletedProcess:
    import os

    env = {
        **os.environ,
        "MASTERMIND_CACHE_DIR": str(tmp_path / "cache"),
        "NUMBA_CACHE_DIR": str(tmp_path / "n"),
    }
    return subprocess.run(
        [sys.executable, "-c", script, "compile", "--only", "partition"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=600,
    )


def test_no_folder_for_numbas_cache_is_one_line_and_exit_2(tmp_path):
    proc = run(NO_FOLDER, tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == (
        "mastermind: error: numba finds no folder it can write its cache in "
        "(set NUMBA_CACHE_DIR to a folder this user can write)"
    )
    assert not (tmp_path / "cache" / "compiled").exists()  # no stamp: nothing was kept


def test_a_cache_file_that_cannot_be_written_is_one_line_and_exit_2(tmp_path):
    proc = run(NO_WRITE, tmp_path)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "mastermind: error: cannot keep the compiled kernels: [Errno 13] Permission denied"
    )
    assert last.endswith("(set NUMBA_CACHE_DIR to a folder this user can write)")
    assert not (tmp_path / "cache" / "compiled").exists()
