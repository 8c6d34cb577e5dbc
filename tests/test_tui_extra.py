"""Without an optional extra, mastermind tui (textual) and mastermind web (aiohttp) say how to get
it."""

import os
import subprocess
import sys

import pytest

from mastermind.runtime.install import install_command

BLOCKED = (
    "import sys\n"
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in {blocked!r}:\n"
    "            raise ModuleNotFoundError(name)\n"
    "sys.meta_path.insert(0, Block())\n"
    "from mastermind.cli import main\n"
    "sys.argv = ['mastermind'] + sys.argv[1:]\n"
    "main()\n"
)


@pytest.mark.parametrize(
    "command, blocked, extra",
    [
        ("tui", ("textual",), "tui"),
        ("web", ("aiohttp",), "web"),
    ],
)
def test_without_the_extra_one_line_says_how_to_install_it(command, blocked, extra, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED.format(blocked=blocked), command],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "MASTERMIND_DB": str(tmp_path / "h")},
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert install_command(extra) in proc.stderr
    assert "Traceback" not in proc.stderr


def test_web_on_a_port_already_taken_is_one_line_and_exit_2(tmp_path):
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "mastermind.cli", "web", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "MASTERMIND_DB": str(tmp_path / "h.sqlite3")},
        )
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"mastermind: error: cannot serve on 127.0.0.1:{port}")
    assert proc.stderr.count("\n") == 1 and "Serving" not in proc.stdout
