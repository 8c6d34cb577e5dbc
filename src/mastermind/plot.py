"""Bar charts of guess distributions, with matplotlib (imported only when a chart is drawn)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import MastermindError
from .text import quote

if TYPE_CHECKING:
    from .evaluation import Stats

#: File types a chart can be written as, by suffix.
FORMATS = ("png", "svg", "pdf")


class PlotError(MastermindError, ValueError):
    """A chart that cannot be written (unknown file type)."""


def check_plot_path(path: str | Path) -> Path:
    """The path as a Path, or PlotError if its suffix is not a known image type.

    Called before any work is done, so a long evaluation is not lost to a typo in the file name.
    """
    if not str(path).strip():
        raise PlotError(f"no file to draw in: give a file name ending in .{', .'.join(FORMATS)}")
    path = Path(path)
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise PlotError(f"cannot draw {quote(path)}: the file name must end in .{', .'.join(FORMATS)}")
    if not path.parent.exists():
        raise PlotError(f"cannot draw {quote(path)}: folder {quote(path.parent)} does not exist")
    return path


def plot_distributions(stats: Sequence[Stats], path: str | Path) -> Path:
    """Draw each strategy's distribution of guesses as grouped bars; the file type follows the suffix."""
    from matplotlib.figure import Figure

    path = check_plot_path(path)
    guesses = sorted({k for s in stats for k in s.distribution})
    fig = Figure(figsize=(max(6.0, 1.0 + 0.9 * len(guesses)) + 3.0, 4.0), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / max(1, len(stats))
    for i, s in enumerate(stats):
        xs = [k + (i - (len(stats) - 1) / 2) * width for k in guesses]
        label = f"{s.strategy} (mean {s.mean:.3f}, max {s.max})"
        ax.bar(xs, [s.distribution.get(k, 0) for k in guesses], width=width, label=label)
    ax.set_xticks(guesses)
    ax.set_xlabel("guesses to find the secret")
    ax.set_ylabel("secrets")
    if stats:
        rules = stats[0].rules
        what = "a sample of secrets" if any(s.sample for s in stats) else f"all {stats[0].codes:,} secrets"
        ax.set_title(f"{rules.describe()}: {what}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)  # beside, not over, the bars
    fig.savefig(path)
    return path
