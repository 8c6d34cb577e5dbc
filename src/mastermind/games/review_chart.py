"""The game on one chart, and in one line to share.

The chart: the codes left after each guess, the player's line against the best guess's at each
move (the codes it would have left: with the secret when it is known), on a log
scale, each move marked with its verdict. :func:`chart_points` gives the points every front end
draws; :func:`chart_lines` draws them in text, for the terminal (the command line and the board).
:func:`share_line` is the game in one line, as a player pastes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.notation import Notation
    from .review import Review

#: The text chart's marks: the player's line, the best line, both at one place.
YOURS, BEST, BOTH = "o", "+", "*"


@dataclass(frozen=True)
class ChartPoint:
    """One point of the chart: after guess ``number`` (0: before the first), the codes the
    player's guesses left, those the best guess at that move would have left, and the move's
    verdict (None before the first)."""

    number: int
    left: float
    best: float
    verdict: str | None

    def to_dict(self) -> dict[str, Any]:
        best = round(self.best, 6)
        return {"number": self.number, "left": self.left, "best": best, "verdict": self.verdict}


def chart_points(result: Review) -> list[ChartPoint]:
    """The chart's points: the codes possible at the start, then after each move."""
    if not result.moves:
        return []
    start = float(result.moves[0].before)
    points = [ChartPoint(0, start, start, None)]
    points += [ChartPoint(m.number, float(m.after), m.best_after, m.verdict) for m in result.moves]
    return points


def chart_lines(result: Review, height: int = 6, step: int = 4) -> list[str]:
    """The chart in text: a row per level of a log scale (``height`` rows, from the codes at the
    start down to 1), a column every ``step`` characters per move, the verdicts' marks under it.
    A point is on the row nearest it on the scale; the bottom row holds one code left alone, the
    top row the codes at the start alone (a count between goes to the row next to them).

    >>> from mastermind import review
    >>> print("\\n".join(chart_lines(review("1123=0,0 4456=3,0 4455=4,0"))))
    codes left  o your guesses  + the best guess  * both
     1296 ┤*
      309 ┤
       74 ┤    *
       18 ┤
        4 ┤        *
        1 ┤            *
          └┴───┴───┴───┴
           0   1   2   3
               ★   ★   ?!
    """
    from .review import VERDICT_MARKS

    points = chart_points(result)
    if not points:
        return []
    top = max(max(p.left, p.best) for p in points)
    span = math.log(top) if top > 1 else 1.0

    def row(value: float) -> int:  # 0 at the top
        level = int(math.floor(math.log(max(value, 1.0)) / span * (height - 1) + 0.5))
        # the nearest level on the log scale, but the end rows are their labels alone: the
        # bottom row ("1") is one code left (2 codes nearer to 1 than to 4 said the code was
        # found), the top row is as many as at the start
        if round(value) > 1:
            level = max(level, 1)
        if round(value) < round(top):
            level = min(level, height - 2)
        return height - 1 - level

    grid = [[" "] * (len(points) * step) for _ in range(height)]
    for i, p in enumerate(points):
        mine, best = row(p.left), row(p.best)
        grid[best][i * step] = BEST
        grid[mine][i * step] = BOTH if mine == best else YOURS
    labels = [top ** ((height - 1 - r) / (height - 1)) for r in range(height)]
    out = [f"codes left  {YOURS} your guesses  {BEST} the best guess  {BOTH} both"]
    out += [f"{round(v):>5} ┤{''.join(cells).rstrip()}" for v, cells in zip(labels, grid, strict=True)]
    out.append("      └" + "".join(("┴" + "─" * (step - 1)) for _ in points).rstrip("─"))
    out.append("       " + "".join(f"{p.number:<{step}}" for p in points).rstrip())
    marks = "".join(f"{VERDICT_MARKS[p.verdict] if p.verdict else '':<{step}}" for p in points)
    out.append("       " + marks.rstrip())
    return out


def share_line(result: Review, notation: Notation | None = None) -> str:
    """The game in one line to share: the game (named as ``notation`` speaks of it:
    :meth:`.Notation.title`), the guesses, accuracy, luck, a mark per move.

    >>> from mastermind import review
    >>> share_line(review("1123=0,0 4456=3,0 4455=4,0"))
    'Mastermind 4x6: won in 3 (best play 4.34) · accuracy 85 · luck 66 · ★ ★ ?!'
    """
    from ..core.notation import Notation
    from ..core.text import guess_count
    from .accuracy import rounded
    from .review import VERDICT_MARKS

    how = {"won": "won in", "lost": "lost after", "gave-up": "gave up after"}.get(result.outcome or "", "")
    played = f"{how} {len(result.moves)}" if how else guess_count(len(result.moves))
    best = result.optimal_expected
    expects = "" if best is None else f" (best play {float(best):.2f})"
    parts = [f"{(notation or Notation(result.rules)).title()}: {played}{expects}"]
    if result.moves:  # a game with no move has no accuracy, luck nor marks to share
        marks = " ".join(VERDICT_MARKS[m.verdict] for m in result.moves)
        parts += [f"accuracy {rounded(result.accuracy)}", f"luck {rounded(result.luck)}", marks]
    return " · ".join(parts)
