"""`mastermind tui` as a person's terminal sees it: a real process on a pseudo-terminal, stopped by
a signal or by Ctrl+Q, must leave the terminal as it found it (out of the app's screen), and say
how to go on with a game left unfinished."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from mastermind import Rules
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
        """What is written after the app left its screen, as text (the terminal's modes it resets
        left out)."""
        assert LEAVE in self.written, "the app never left its screen: the terminal is left in its mode"
        text = self.written.rsplit(LEAVE, 1)[1].decode(errors="replace")
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


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


def test_ctrl_q_mid_game_says_how_to_go_on_and_resume_goes_on(tui_env):
    """Ctrl+Q mid-game once printed nothing, and the next launch started a new game. Now one line,
    after the terminal is given back, names the game and how to take it up again, as play says it
    when stopped; `mastermind tui --resume ID` starts on it."""
    term = Terminal("tui", "--preset", "classic")
    guess_and_wait(term, tui_env, b"1234")
    term.type(b"\x11")  # Ctrl+Q
    assert term.end() == 0
    assert term.after_the_app().strip() == "Stopped game 1; resume with mastermind tui --resume 1."
    term = Terminal("tui", "--resume", "1")
    term.wait_for(b"goes on from its last move")
    term.type(b"\x11")
    assert term.end() == 0
    assert term.after_the_app().strip() == "Stopped game 1; resume with mastermind tui --resume 1."
    assert moves_saved(tui_env) == 1  # the same game, in its own row: no second game


def test_leaving_with_no_unfinished_game_says_nothing(tui_env):
    term = Terminal("tui", "--preset", "classic")
    term.wait_for(b"Guess")
    term.type(b"\x11")
    assert term.end() == 0
    assert term.after_the_app().strip() == ""


def test_a_game_that_cannot_be_resumed_is_one_line(tui_env):
    from click.testing import CliRunner

    from mastermind.cli import cli
    from mastermind.games.game import Game

    game = Game.breaking(Rules(pegs=3, colors=4), seed=1)
    game.guess(game.secret)
    with Store(tui_env) as store:
        won = store.add(game.record())
    for args, words in [
        (["--resume", "7"], "there is no game 7 in the history"),
        (["--resume", str(won)], f"game {won} is over (won): there is nothing to resume"),
        (["--resume", str(won), "--no-history"], "--resume needs the history"),
        (["--resume", str(won), "--pegs", "5"], "it takes no game options"),
    ]:
        result = CliRunner().invoke(cli, ["tui", *args])
        assert result.exit_code == 2 and words in result.stderr, (args, result.output)
        assert len(result.stderr.strip().splitlines()) == 1
