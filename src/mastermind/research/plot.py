"""Bar charts of guess distributions, with matplotlib (imported only when a chart is drawn)."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.text import guess_count, quote
from ..errors import PlotError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..history.stats import GameStats
    from .evaluation import Stats

#: What a chart needs installed (matplotlib is an optional extra).

#: File types a chart can be written as, by suffix.
FORMATS = ("png", "svg", "pdf")


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
    if importlib.util.find_spec("matplotlib") is None:
        from ..runtime.install import install_command

        raise PlotError(f"cannot draw {quote(path)}: charts need matplotlib: {install_command('plot')}")
    return path


#: Dots per inch of a PNG chart (SVG and PDF are vector images).
PNG_DPI = 160


def plot_distributions(stats: Sequence[Stats], path: str | Path, log: bool = False) -> Path:
    """Draw each strategy's distribution of guesses as grouped bars, each bar labelled with its count;
    ``log``: a logarithmic count axis, for distributions with small and large counts. One strategy is
    named in the title; several in a legend inside the chart. The file type follows the suffix."""
    path = check_plot_path(path)
    chart(stats, log).savefig(path, dpi=PNG_DPI)
    return path


def chart(stats: Sequence[Stats], log: bool = False) -> Figure:
    """The figure :func:`plot_distributions` writes: the game and its guess limit in the title,
    each strategy's mean, most guesses and games lost past the limit (in the title for one, in
    the legend for several), and a dashed line at the limit where a distribution passes it.
    Beyond three strategies the bar labels stand upright, so that neighbours do not overlap."""
    from matplotlib.figure import Figure

    from ..core.notation import Notation

    guesses = sorted({k for s in stats for k in s.distribution})
    wide = 1.0 + 0.9 * len(guesses) * max(1, len(stats)) ** 0.5  # room for each group of bars
    fig = Figure(figsize=(min(max(6.0, wide), 13.0), 4.5), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / max(1, len(stats))
    font = 8 if len(stats) > 2 else 9
    upright = len(stats) > 3
    for i, s in enumerate(stats):
        xs = [k + (i - (len(stats) - 1) / 2) * width for k in guesses]
        counts = [s.distribution.get(k, 0) for k in guesses]
        label = f"{s.strategy} (mean {s.mean:.3f}, max {s.max}{_lost(s)})"
        bars = ax.bar(xs, counts, width=width, label=label)
        ax.bar_label(
            bars,
            labels=[f"{n:,}" if n else "" for n in counts],
            fontsize=7 if upright else font,
            padding=2,
            rotation=90 if upright else 0,
        )
    ax.set_xticks(guesses)
    ax.set_xlabel("guesses to find the secret")
    ax.set_ylabel("secrets" + (" (log scale)" if log else ""))
    if log:
        from matplotlib.ticker import FuncFormatter

        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    # room for the labels above the tallest bar (upright ones are longer)
    ax.margins(y=(0.45 if upright else 0.25) if log else (0.22 if upright else 0.12))
    if stats:
        rules = stats[0].rules
        limit = rules.max_guesses
        what = "a sample of secrets" if any(s.sample for s in stats) else f"all {stats[0].codes:,} secrets"
        title = f"{Notation(rules).describe_game()}, at most {guess_count(limit)}: {what}"
        if len(stats) == 1:
            only = stats[0]
            title = f"{only.strategy} on {title}\nmean {only.mean:.4f}, max {only.max}{_lost(only)}"
        ax.set_title(title)
        if max(s.max for s in stats) > limit:  # the games past the line are lost
            ax.axvline(limit + 0.5, color="0.35", linestyle="--", linewidth=1)
            which = f"the {stats[0].lost:,} games" if len(stats) == 1 else "games"
            # the words on the side of the line with more room (the right, unless the limit is
            # among the last guesses shown)
            right = limit + 0.5 < (guesses[0] + guesses[-1]) / 2
            ax.annotate(
                f"guess limit {limit}: {which} to its right are lost",
                (limit + 0.5, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(4 if right else -4, -4),
                textcoords="offset points",
                ha="left" if right else "right",
                va="top",
                fontsize=font,
                color="0.25",
            )
    if len(stats) > 1:
        ax.legend(loc="best", fontsize=font, framealpha=0.8)
    return fig


def _lost(stats: Stats) -> str:
    """', 1,013 lost' where games went past the guess limit, else ''."""
    return f", {stats.lost:,} lost" if stats.lost else ""


def plot_game_stats(stats: Sequence[GameStats], path: str | Path) -> Path:
    """Draw a player's record: for each game size, the won games by the guesses they took and one
    bar of the games not won, each bar labelled with its count."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    path = check_plot_path(path)
    if not stats:
        raise PlotError(f"cannot draw {quote(path)}: there are no finished games to draw")
    fig = Figure(figsize=(7.0, 0.5 + 3.0 * len(stats)), layout="constrained")
    axes = fig.subplots(len(stats), 1, squeeze=False)[:, 0]
    for ax, s in zip(axes, stats, strict=True):
        top = max(s.distribution, default=0)
        labels = [str(k) for k in range(1, top + 1)] + ["not won"]
        counts = [s.distribution.get(k, 0) for k in range(1, top + 1)] + [s.played - s.won]
        colors = ["tab:blue"] * top + ["tab:gray"]
        bars = ax.bar(labels, counts, color=colors)
        ax.bar_label(bars, labels=[f"{n:,}" if n else "" for n in counts], padding=2)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(0, max(counts) * 1.15 + 0.5)  # room for the labels above the tallest bar
        ax.set_xlabel("guesses to break the code")
        ax.set_ylabel("games")
        mean = s.mean_guesses
        figures = f"{s.played} played, {s.won} won ({s.win_rate:.0%})"
        if mean is not None:
            figures += f", mean {mean:.2f} guesses"
        ax.set_title(
            f"{s.rules.describe()}, {guess_count(s.rules.max_guesses)}: {figures}", fontsize="medium"
        )
    fig.savefig(path, dpi=PNG_DPI)
    return path
