"""`mastermind tui` as a person's terminal sees it: a real process on a pseudo-terminal, stopped by
a signal or by Ctrl+Q, must leave the terminal as it found it (out of the app's screen), and say
how to go on with a game left unfinished."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from mastermind.history.store import Store

#: What Textual writes to enter and to leave the alternate screen: the terminal's own screen
#: (the shell's prompt and all typed before) comes back only with the second.
ENTER, LEAVE = b"\x1b[?1049h", b"\x1b[?1049l"

#: How long to wait, at most, for the app to start or stop under load: a bound, not a timing.
PATIENCE = 60.0


class Terminal:
    """``mastermind ARGS`` on a pseudo-terminal of 100 x 30, read as it writes."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mastermind.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,  # its own session, with the pseudo-terminal as its terminal
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.written = b""

    def read(self, until: float) -> bool:
        """Read what is written, until ``until`` or the end (True at the end)."""
        while time.monotonic() < until:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                if self.process.poll() is not None:
                    return True
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the other end is closed: the process has ended
                return True
            if not chunk:
                return True
            self.written += chunk
        return False

    def wait_for(self, text: bytes) -> None:
        until = time.monotonic() + PATIENCE
        while text not in self.written:
            assert not self.read(min(until, time.monotonic() + 0.5)), self.written[-2000:]
            assert time.monotonic() < until, f"{text!r} never came: {self.written[-2000:]!r}"

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def end(self) -> int:
        """Read to the end; the exit status."""
        assert self.read(time.monotonic() + PATIENCE), "the app did not end"
        code = self.process.wait(PATIENCE)
        os.close(self.master)
        return code

    def after_the_app(self) -> str:
        """What is written after the app left its screen, as text."""
        assert LEAVE in self.written, "the app never left its screen: the terminal is left in its mode"
        return self.written.rsplit(LEAVE, 1)[1].decode(errors="replace")


def moves_saved(db) -> int:
    if not os.path.exists(db):
        return 0
    with Store(db) as store:
        return sum(len(g.record.get("moves", [])) for g in store.games())


def guess_and_wait(term: Terminal, db, code: bytes) -> None:
    """Play ``code`` at the board and wait until its move is in the history."""
    term.wait_for(b"Guess")
    term.type(code + b"\r")
    until = time.monotonic() + PATIENCE
    while moves_saved(db) < 1:
        term.read(time.monotonic() + 0.3)
        assert time.monotonic() < until, "the guess was never saved"


@pytest.fixture
def tui_env(private_history, private_settings):
    return private_history


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_signal_ends_the_app_as_ctrl_q_does_and_gives_the_terminal_back(tui_env, name):
    """SIGTERM (and SIGHUP) once killed the process in the app's mode: the terminal stayed on the
    dead board, typing showed nothing, until `reset`. Now the app ends as Ctrl+Q ends it, leaving
    its screen, the move kept."""
    term = Terminal("tui", "--preset", "classic")
    guess_and_wait(term, tui_env, b"1234")
    term.process.send_signal(getattr(signal, name))
    code = term.end()
    assert code == 0, f"ended by the signal ({code}), not by the app"
    assert term.written.count(ENTER) == 1 and term.written.rindex(LEAVE) > term.written.rindex(ENTER)
    assert moves_saved(tui_env) == 1
