"""The one rule of every file a command writes, checked before any work is done."""

from __future__ import annotations

import os

from .common import fail


def check_output(path: str, option: str, stdout: bool = False) -> None:
    """The one rule of every file a command writes, checked before any work is done: a name, not
    a folder, in a folder that exists (nothing is made on the way), where a file can be made or
    the one there written. ``-`` is stdout where the output is text that may go there
    (``stdout``), and refused elsewhere rather than taken as a file's name. ``option`` (the
    option that names the file) begins each message."""
    import tempfile
    from pathlib import Path

    from ..core.text import PATH_LIMIT, quote

    if not path.strip():
        fail(f"{option}: no file name given" + (" (- for stdout)" if stdout else ""))
    if path == "-":
        if stdout:
            return
        fail(f"{option}: this file cannot go to stdout: give a file name (./- for a file named -)")
    target, named = Path(path), quote(path, PATH_LIMIT)
    if target.is_dir() or path.endswith(("/", os.sep)):  # ("new/" names a folder, not a file "new")
        fail(f"{option}: cannot write {named}: it {'is' if target.is_dir() else 'names'} a directory")
    folder = target.resolve().parent
    if not folder.is_dir():
        shown = folder if target.is_symlink() else target.parent  # (a link: the folder it points into)
        fail(f"{option}: cannot write {named}: folder {quote(str(shown), PATH_LIMIT)} does not exist")
    if not target.exists():  # a file can be made there (not /proc, not a read-only folder)
        try:
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".mastermind-"):
                pass
        except OSError as err:
            fail(f"{option}: cannot write {named}: {err.strerror or err}")
    elif not os.access(target, os.W_OK):
        fail(f"{option}: cannot write {named}: permission denied")


def check_output_folder(path: str, option: str) -> None:
    """A folder a command writes its files in (compare's --checkpoint), checked before any work:
    it, or the folder it is to be made in, takes a new file (nothing is made on the way)."""
    import tempfile
    from pathlib import Path

    from ..core.text import PATH_LIMIT, quote

    target = Path(path)
    try:
        with tempfile.NamedTemporaryFile(dir=target if target.is_dir() else target.resolve().parent):
            pass
    except OSError as err:
        fail(f"{option}: cannot write {quote(path, PATH_LIMIT)}: {err.strerror or err}")


def check_plot(path: str) -> None:
    """A chart's file, checked before any work: its ending (the image type), matplotlib at hand,
    and the rule of every file written (:func:`check_output`)."""
    from ..research.plot import check_plot_path

    check_plot_path(path)
    check_output(path, "--plot")
