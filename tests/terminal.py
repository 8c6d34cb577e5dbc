"""A command started as a terminal starts it, for the tests that press Ctrl-C: in a process group
of its own (SIGINT to the group reaches it and its workers, as a terminal sends it), hearing
SIGINT even when the tests run as a background job (which starts with SIGINT ignored, and
children inherit that)."""

import os
import signal
import subprocess
import time


def _hear_ctrl_c():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started(args, **options):
    """The command running, its output and errors piped back as text."""
    return subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_hear_ctrl_c,
        **options,
    )


def group_is_gone(pgid):
    """Whether every process of the group has ended, waiting for them a while."""
    deadline = time.monotonic() + 30  # a bound for a loaded machine, not a timing
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False
