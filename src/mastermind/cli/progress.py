"""What a command shows while it works: progress bars, the spinner of a strategy that thinks, and
the one line said while the JIT compiles kernels (shown inside a live display when there is one)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from .._kernels import COMPILING  # imports no numba: the words the board says too
from .console import console_for

if TYPE_CHECKING:  # names for the annotations only: `mastermind --help` imports none of them
    from rich.console import Console
    from rich.progress import Progress, Task, TaskID

    from .. import Strategy
    from ..strategies import progress as work
    from ..strategies.progress import OnProgress


#: The live displays on screen (progress bars, spinners), innermost last: each takes a note to
#: show (or None to take it away), so that the compile notice does not write across them.
_live_notes: list[Callable[[str | None], None]] = []


class CompileNotice:
    """On a terminal while the JIT compiles: a bar of the kernels compiled, of those that the
    compilation under way needs (:func:`mastermind._kernels.on_compile_step`), with the time
    taken and left, erased when the compilation ends. Inside another progress bar or spinner,
    one line of that display instead. Kernels compile once: later runs load them and show none."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, started: bool) -> None:
        if _live_notes:
            _live_notes[-1](COMPILING if started else None)
        elif started and self.bar is None:
            console = console_for(file=self.stream)  # --no-color and NO_COLOR, as every display
            self.bar = progress_display(console)
            self.task = self.bar.add_task(COMPILE_LABEL, total=None)
            self.bar.start()
        elif not started:
            self.clear()

    def step(self, done: int, total: int) -> None:
        """The kernels compiled so far, of those needed (the bar's count, or the count of the
        line shown in another display)."""
        bar = self.bar
        if bar is not None and self.task is not None:
            bar.update(self.task, completed=done, total=total)
        elif bar is None and _live_notes:
            shown = getattr(_live_notes[-1], "step", None)
            if shown is not None:
                shown(done, total)

    def clear(self) -> None:
        bar, self.bar = self.bar, None
        if bar is not None:
            bar.stop()  # transient: the bar is erased


#: The bar's label (the notice's words without the estimate: the bar shows the time left).
COMPILE_LABEL = "compiling the kernels this needs, the first time only"


class CompileLogLine:
    """Off a terminal, where nothing is erased and no progress is shown until the end: one line,
    when the JIT first starts compiling in this command (a cold cache: seconds before anything
    else is written), and nothing at all when the kernels are loaded from numba's cache."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.shown = False

    def __call__(self, started: bool) -> None:
        if started and not self.shown:
            self.stream.write(f"mastermind: note: {COMPILING}\n")
            self.stream.flush()
            self.shown = True

    def clear(self) -> None:
        """The line stays: it is part of the log."""


def _file_or_pipe(stream: Any) -> bool:
    """Whether ``stream`` is a file or a pipe of the operating system (a log, another program);
    not a buffer in memory, such as a caller that runs the command in its own process reads."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return False
    return True


@contextmanager
def compile_notice(stream: Any = None) -> Iterator[CompileNotice | CompileLogLine | None]:
    """While the command runs: the compile notice on ``stream`` (stderr): on a terminal a line
    erased when the compilation ends; redirected to a file or a pipe, one line that stays."""
    stream = stream if stream is not None else sys.stderr
    notice: CompileNotice | CompileLogLine
    if stream.isatty():
        notice = CompileNotice(stream)
    elif _file_or_pipe(stream):
        notice = CompileLogLine(stream)
    else:
        yield None
        return
    from .._kernels import on_compile, on_compile_step  # imports no numba

    remove = on_compile(notice)
    remove_step = on_compile_step(notice.step) if isinstance(notice, CompileNotice) else None
    try:
        yield notice
    finally:
        remove()
        if remove_step is not None:
            remove_step()
        notice.clear()


@contextmanager
def ctrl_c_kept() -> Iterator[Callable[[], None]]:
    """A check for long work to call as it reports progress: it raises KeyboardInterrupt again
    if Ctrl-C was pressed and the work went on.

    Python prints and drops an exception raised where it cannot go on up (a finalizer, a gc or
    ctypes callback: "Exception ignored in ..."); a Ctrl-C that lands there is lost, and the run
    would go on as if it had not been pressed. The handler notes each Ctrl-C, so the run ends at
    its next report instead, and Python's "Exception ignored" traceback of it is not printed.
    Only the main thread raises it (another would only end itself).
    """
    import signal
    import threading

    previous = signal.getsignal(signal.SIGINT)
    main = threading.current_thread() is threading.main_thread()
    if not main or not callable(previous):  # Ctrl-C ignored, or heard by no Python handler
        yield lambda: None
        return
    heard = threading.Event()

    def hear(signum: int, frame: Any) -> None:
        heard.set()
        previous(signum, frame)

    def check() -> None:
        if heard.is_set() and threading.current_thread() is threading.main_thread():
            raise KeyboardInterrupt

    unraisable = sys.unraisablehook

    def quiet(dropped: Any) -> None:  # a dropped Ctrl-C is not a traceback to show: raised again
        if not isinstance(dropped.exc_value, KeyboardInterrupt):
            unraisable(dropped)

    signal.signal(signal.SIGINT, hear)
    sys.unraisablehook = quiet
    try:
        yield check
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = unraisable


@contextmanager
def live_note(note: Callable[[str | None], None]) -> Iterator[None]:
    _live_notes.append(note)
    try:
        yield
    finally:
        _live_notes.remove(note)
        note(None)  # a note still shown (the display stopped mid-compile) is not left on screen


def progress_note(bar: Progress, **fields: Any) -> Callable[[str | None], None]:
    """A note shown as one more line of a rich Progress, removed when done: a pulsing bar, or,
    for the compile notice, the kernels compiled of those needed (its ``step``)."""
    return _ProgressNote(bar, fields)


class _ProgressNote:
    def __init__(self, bar: Progress, fields: dict[str, Any]) -> None:
        self.bar, self.fields = bar, fields
        self.task: list[TaskID] = []  # the note's task id, while it is shown

    def __call__(self, text: str | None) -> None:
        if text and not self.task:
            self.task.append(self.bar.add_task(text, total=None, **self.fields))
        elif text is None and self.task:
            self.bar.remove_task(self.task.pop())

    def step(self, done: int, total: int) -> None:
        if self.task:
            self.bar.update(self.task[0], completed=done, total=total)


def progress_display(console: Console, field: str | None = None) -> Progress:
    """A transient rich Progress for stderr: the label (cut first when the terminal is narrow), a
    bar, the count done of the total with thousands separators, an optional text field of the
    task, the time taken and the time left."""
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column
    from rich.text import Text

    class Count(ProgressColumn):
        def render(self, task: Task) -> Text:
            done = f"{int(task.completed):,}"
            shown = done if task.total is None else f"{done}/{int(task.total):,}"
            return Text(shown, style="progress.download")

    label = Column(ratio=1, no_wrap=True, overflow="ellipsis", min_width=12)
    bar = BarColumn(bar_width=max(10, min(40, console.width - 70)))  # 10 on 80 columns: the label fits
    columns = [
        TextColumn("[progress.description]{task.description}", table_column=label),
        bar,
        Count(table_column=Column(no_wrap=True)),
    ]
    if field is not None:
        columns.append(TextColumn(f"{{task.fields[{field}]}}", table_column=Column(no_wrap=True)))
    columns += [TimeElapsedColumn(), TimeRemainingColumn()]
    return Progress(*columns, console=console, transient=True, expand=True)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[OnProgress | None]:
    """A progress bar of secrets on stderr when it is a terminal; yields the callback that moves it."""
    console = console_for(stderr=True)  # honours --no-color and NO_COLOR like every other output
    if not console.is_terminal:
        yield None
        return
    with progress_display(console) as bar, live_note(progress_note(bar)):
        task = bar.add_task(label, total=total)
        yield lambda status: bar.update(task, completed=status.secrets_done)


#: Off a terminal (a long run's log), a line of progress at most this often, in seconds; none
#: before the first such interval has passed, so that a short run writes nothing.
LOG_EVERY = 60.0


class LogLines:
    """A callback that writes ``label: words(*args) (time elapsed)`` on stderr, at most once
    every :data:`LOG_EVERY` seconds and not before the first have passed: progress in a run's log.
    :meth:`again` writes the last report again where no line has been written for that long (a
    run whose pieces take longer than a minute still shows, each minute, that it goes on)."""

    def __init__(self, label: str, words: Callable[..., str]) -> None:
        import threading
        import time

        self.label, self.words, self.every = label, words, LOG_EVERY
        self.start = self.last = time.monotonic()
        self.seen: tuple[Any, ...] | None = None
        self.lock = threading.Lock()

    def __call__(self, *args: Any) -> None:
        with self.lock:
            self.seen = args
        self._write(args)

    def again(self) -> None:
        if self.seen is not None:
            self._write(self.seen)

    def _write(self, args: tuple[Any, ...]) -> None:
        import time

        from ..core.text import duration

        with self.lock:
            now = time.monotonic()
            if now - self.last < self.every:
                return
            self.last = now
        click.echo(f"{self.label}: {self.words(*args)} ({duration(now - self.start)} in)", err=True)


@contextmanager
def count_bar(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar of things counted a few at a time (the secrets of a plain-Python replay,
    the lines of a proof), on stderr when it is a terminal, else a line a minute in the log
    (``label: done of total (time in)``); yields the callback that advances it by n."""
    console = console_for(stderr=True)
    if not console.is_terminal:
        log, done = LogLines(label, lambda n: f"{n:,} of {total:,}"), 0

        def advance(n: int) -> None:
            nonlocal done
            done += n
            log(done)

        yield advance
        return
    with progress_display(console) as bar, live_note(progress_note(bar)):
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


@contextmanager
def search_progress(player: Strategy, label: str) -> Iterator[None]:
    """While a strategy that searches (optimal) works: a bar on stderr, when it is a terminal, of
    its pieces of work done (the first guess's replies, then the other first guesses left after
    pruning), with the best total so far."""
    from ..strategies.capabilities import tree_search

    if tree_search(player) is None:
        yield
        return
    console = console_for(stderr=True)
    if not console.is_terminal:
        yield
        return
    with progress_display(console, "best") as bar, live_note(progress_note(bar, best="")):
        task = bar.add_task(f"{label}: searching", total=None, best="")

        def update(status: work.Progress) -> None:
            shown = "" if status.best is None else f"best total {status.best:,}"
            bar.update(
                task, completed=status.units_done, total=max(status.units, status.units_done), best=shown
            )

        player.search_progress = update
        try:
            yield
        finally:
            player.search_progress = None


@contextmanager
def thinking(console: Console, who: str) -> Iterator[None]:
    """A spinner while a strategy thinks, on a terminal only (it leaves nothing behind)."""
    if not console.is_terminal:
        yield
        return
    text = f"{who} is thinking..."
    with console.status(text) as status, live_note(lambda note: status.update(f"{text} {note or ''}")):
        yield
