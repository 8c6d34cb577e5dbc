"""The progress display of long runs: counts that stay whole on a narrow terminal."""

from io import StringIO

from rich.console import Console

from mastermind.cli.progress import progress_display


def _shown(width: int, label: str, done: int, total: int | None) -> str:
    out = StringIO()
    console = Console(file=out, width=width, force_terminal=False, color_system=None)
    bar = progress_display(console, "units")
    task = bar.add_task(label, total=total, units="secrets")
    bar.update(task, completed=done)
    console.print(bar.make_tasks_table(bar.tasks))
    return out.getvalue()


def test_a_large_count_is_shown_whole_with_separators_on_80_columns():
    line = _shown(80, "counter on 10 pegs, 10 colours, no repeats", 4839, 3_628_800)
    assert "4,839/3,628,800" in line  # not cut to "4839/36288…", which reads as 36,288
    assert "secrets" in line
    assert len(line.rstrip("\n")) <= 80 and "counter on" in line  # the label is what is cut


def test_a_count_without_total_is_the_count_alone():
    assert "1,234 " in _shown(80, "searching", 1234, None)
