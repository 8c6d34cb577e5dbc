"""solve and partition: what a history leaves possible, and how guesses split it."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from . import cli
from .common import (
    HEURISTIC_WAY_OUT,
    candidates_or_fail,
    check_history_or_fail,
    fail,
    make_player,
    note_long_search,
    parse_history,
    seed_option,
    strategy_given,
    strategy_option,
)
from .console import color_option, console_for
from .game_options import game_notation, game_options
from .progress import search_progress, thinking

if TYPE_CHECKING:
    import numpy as np
    from rich.table import Table

    from .. import Rules
    from ..core.code import Code
    from ..core.feedback import Feedback
    from ..core.notation import Notation
    from ..deduction.analysis import Partition
    from ..deduction.state import SolverState


@cli.command()
@game_options
@strategy_option
@click.argument("history", nargs=-1)
@click.option(
    "--show",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    metavar="N",
    help="List every candidate when there are at most N, otherwise a sample of N.",
)
@seed_option("Seed for randomised strategies.")
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"candidates": N, "guess": ..., "sample": [...]}.'
)
@color_option
def solve(
    rules: Rules, strategy: str, history: tuple[str, ...], show: int, seed: int | None, as_json: bool
) -> None:
    """What the guesses and replies so far leave possible, and what to play next.

    HISTORY is GUESS=BLACK,WHITE items (1122=1,0 1344=0,1), GUESS=BULLS,COWS in Bulls and Cows;
    none means the start of a game. A contradictory history is diagnosed (which rows, which reply
    could be corrected) with exit status 2.

    \b
    Examples:
      mastermind solve 1122=1,0 1344=0,1
      mastermind solve "1122=1,0 1344=0,1 3526=1,2" --strategy entropy
      mastermind solve 1122=BW --json
      mastermind solve 1234=0,2 --preset bulls-and-cows --show 5
    """
    from ..deduction.state import SolverState
    from ..games.moves import check_rows, ending

    notation = game_notation(rules)
    rows = parse_history(rules, history)
    if SolverState(rules).space.enumerable:
        state, cands = candidates_or_fail(rules, rows)
    else:  # too many codes to list: only a strategy that does not enumerate can answer
        check_rows(rules, rows)  # the rules of play; the strategy's search finds a contradiction
        state, cands = SolverState(rules, rows), None
    end = ending(rules, rows)
    if end == "won":  # the last guess was the secret: nothing to choose
        _print_solved(notation.format_code(rows[-1][0]), len(rows), as_json)
        return
    next_guess, expected = None, None
    if end != "lost":  # when lost, no guess is left to suggest: only what the secret may be
        player = make_player(strategy, rules, seed)
        note_long_search(player, state, HEURISTIC_WAY_OUT)
        with search_progress(player, f"{strategy} from here"), thinking(console_for(stderr=True), strategy):
            next_guess = notation.format_code(state.space.code(player.choose(state)))
            # a strategy that knows it (optimal) also tells the expected number of guesses left
            expected = player.expected_guesses(state)
    plays = _plays(rules, strategy, next_guess)
    if cands is None:  # too many codes to enumerate: the first few that fit, found by search
        from ..deduction.state import first_candidates

        first = [notation.format_code(c) for c in first_candidates(rules, rows, show + 1)]
        _print_first_found(first, show, state.space.size, plays, next_guess, as_json)
    else:
        _print_candidates(notation, state, cands, show, plays, next_guess, expected, as_json)


def _plays(rules: Rules, strategy: str, next_guess: str | None) -> str:
    """solve's last line: the strategy's next guess, or that none is left."""
    if next_guess is None:
        from ..core.text import guess_count

        return f"No guess is left: the game allows {guess_count(rules.max_guesses)}, all played."
    return f"{strategy} plays next: [bold]{next_guess}[/]"


def _print_solved(secret: str, guesses: int, as_json: bool) -> None:
    """solve after the winning guess: the secret, and in how many guesses it was found."""
    if as_json:
        click.echo(json.dumps({"candidates": 1, "guess": None, "solved": True, "secret": secret}))
        return
    from ..core.text import plural

    console_for().print(
        f"Solved: the secret is [bold]{secret}[/], found in {plural(guesses, 'guess', 'guesses')}."
    )


def _print_first_found(
    first: list[str], show: int, size: int, plays: str, next_guess: str | None, as_json: bool
) -> None:
    """solve in a game too large to enumerate: the first ``show`` codes that fit (of ``first``,
    one more when there are more), and the strategy's next guess (``plays`` says it)."""
    count = len(first) if len(first) <= show else None  # exact only when they all were found
    if as_json:
        found: dict[str, Any] = {"candidates": count, "guess": next_guess, "sample": first[:show]}
        if next_guess is None:
            found["lost"] = True  # every guess the game allows was played
        click.echo(json.dumps(found))
        return
    say = console_for().print
    if count == 1:
        say(f"1 code is possible: the secret is [bold]{first[0]}[/].")
    elif count is not None:
        say(f"{count:,} codes are possible:")
        say("  " + " ".join(first), markup=False)
    else:
        say(
            f"More than {show:,} codes are possible (of {size:,}: too many to count); the first {show:,}:",
            markup=False,
        )
        say("  " + " ".join(first[:show]) + " ...", markup=False)
    say(plays)


def _print_candidates(
    notation: Notation,
    state: SolverState,
    cands: np.ndarray,
    show: int,
    plays: str,
    next_guess: str | None,
    expected: float | None,
    as_json: bool,
) -> None:
    """solve: the candidates (all of them, or ``show`` evenly spread), the strategy's next guess
    (``plays`` says it) and, if it knows it, the expected number of guesses left."""
    import numpy as np

    complete = len(cands) <= show
    picked = cands if complete else cands[np.linspace(0, len(cands) - 1, show).round().astype(np.int64)]
    sample = [notation.format_code(state.space.code(i)) for i in picked]
    if as_json:
        out: dict[str, Any] = {"candidates": len(cands), "guess": next_guess, "sample": sample}
        if expected is not None:
            out["expected_guesses"] = round(expected, 6)
        if next_guess is None:
            out["lost"] = True  # every guess the game allows was played
        click.echo(json.dumps(out))
        return
    say = console_for().print
    n = len(cands)
    if n == 1:
        say(f"1 code is possible: the secret is [bold]{sample[0]}[/].")
    elif complete:
        say(f"{n:,} codes are possible:")
        say("  " + " ".join(sample), markup=False)
    else:
        say(f"{n:,} codes are possible; {len(sample)} of them, evenly spread:")
        say("  " + " ".join(sample) + " ...", markup=False)
    say(plays)
    if expected is not None:
        say(f"Expected number of guesses left, this one included: {expected:.4f}", markup=False)


@cli.command()
@game_options
@strategy_option
@click.argument("history", nargs=-1)
@click.option(
    "--guess", "-g", "guesses", multiple=True, metavar="CODE", help="A guess to score (repeatable)."
)
@click.option(
    "--candidates",
    metavar="CODES",
    help="The candidate set itself, e.g. 1123,3151,1141,6544 (filtered by HISTORY if given).",
)
@click.option(
    "--show",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    metavar="N",
    help="List the codes in each class when there are at most N candidates.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@color_option
def partition(
    rules: Rules,
    strategy: str,
    history: tuple[str, ...],
    guesses: tuple[str, ...],
    candidates: str | None,
    show: int,
    as_json: bool,
) -> None:
    """How each guess splits the candidates: the table behind the partition strategies.

    For every reply, how many candidates would remain; then each guess's score under each
    criterion: largest class (knuth), expected size (expected-size), entropy in bits
    (entropy), number of classes (most-parts); * marks the best guess under each. The
    candidates are those HISTORY leaves, or --candidates. Without --guess, the --strategy's
    next guess after HISTORY is scored (with --candidates, name the guesses).

    \b
    Examples:
      mastermind partition --candidates 1123,3151,1141,6544 --guess 4113
      mastermind partition --guess 1122 --guess 1123 --guess 1234
      mastermind partition 1122=1,0 1344=0,1 -g 3526 -g 1462 --json
    """
    from ..core.code import CodeSpace
    from ..deduction.analysis import partition as split

    notation = game_notation(rules)
    space = CodeSpace.of(rules)
    rows = parse_history(rules, history)
    codes = [notation.parse_code(g) for g in guesses]
    if codes and strategy_given():
        fail("--strategy picks the guess to score when no --guess is given; with --guess it does nothing")
    chosen = None  # (what says whose guess is scored, when the strategy picks it)
    if candidates is not None:
        cands = _given_candidates(rules, notation, rows, candidates)
        if not codes:
            fail("with --candidates, say which guesses to score: --guess CODE")
    else:
        state, cands = candidates_or_fail(rules, rows)
        if not codes:
            player = make_player(strategy, rules, None)
            codes = [space.code(player.choose(state))]
            chosen = f"{strategy} plays {notation.format_code(codes[0])} next"
    parts = [split(rules, code, cands) for code in codes]
    if as_json:
        click.echo(json.dumps(_partition_json(notation, parts, len(cands), show)))
        return
    console = console_for()
    shown = " ".join(notation.format_code(space.code(i)) for i in cands[:show])
    more = " ..." if len(cands) > show else ""
    word = "candidate" if len(cands) == 1 else "candidates"
    console.print(f"{len(cands):,} {word}: {shown}{more}", markup=False)
    if chosen is not None:
        console.print(chosen, markup=False)
    console.print(_partition_table(notation, parts))
    if len(parts) > 1:
        console.print("* the best guess under that criterion", markup=False)
    if len(cands) <= show:
        for p in parts:
            classes = "; ".join(
                f"{f}: " + " ".join(notation.format_code(c) for c in m) for f, m in p.members.items()
            )
            console.print(f"{notation.format_code(p.guess)} splits them  {classes}", markup=False)


def _given_candidates(
    rules: Rules, notation: Notation, rows: list[tuple[Code, Feedback]], candidates: str
) -> np.ndarray:
    """The codes of --candidates (comma-separated) that fit the history, as code indices in
    increasing order; an empty list, or one that leaves none, ends the command."""
    import numpy as np

    from ..core.code import CodeSpace
    from ..deduction.state import SolverState

    check_history_or_fail(rules, rows)
    space = CodeSpace.of(rules)
    given = sorted({space.index(notation.parse_code(c).colors) for c in candidates.split(",") if c.strip()})
    if not given:
        fail("--candidates is empty: give codes separated by commas, e.g. 1123,3151")
    state = SolverState(rules, rows)
    cands = np.array([i for i in given if state.is_candidate(space.code(i))], dtype=np.int64)
    if not len(cands):
        fail("none of the --candidates fits the history")
    return cands


def _partition_json(notation: Notation, parts: list[Partition], candidates: int, show: int) -> dict[str, Any]:
    """partition --json: each guess's classes and scores (and the classes' codes when there are at
    most ``show`` candidates)."""
    entries: list[dict[str, Any]] = []
    for p in parts:
        entry: dict[str, Any] = {
            "guess": notation.format_code(p.guess),
            "classes": {str(f): n for f, n in p.classes.items()},
            "largest": p.largest,
            "expected_size": round(p.expected_size, 6),
            "entropy": round(p.entropy, 6),
            "parts": p.parts,
        }
        if candidates <= show:
            entry["members"] = {str(f): [notation.format_code(c) for c in m] for f, m in p.members.items()}
        entries.append(entry)
    return {"candidates": candidates, "guesses": entries}


def _partition_table(notation: Notation, parts: list[Partition]) -> Table:
    """partition's table: each guess's class sizes by reply, then its score under each criterion
    (* before the best of several)."""
    from rich import box
    from rich.table import Table

    from ..deduction.analysis import CRITERIA

    best = {name: min(p.scores[name] for p in parts) for name in CRITERIA}
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("reply")
    for p in parts:
        table.add_column(notation.format_code(p.guess), justify="right")
    replies = sorted({f for p in parts for f in p.classes})
    for f in replies:
        table.add_row(str(f), *(str(p.classes.get(f, "")) for p in parts))
    table.add_section()
    formats = {"knuth": "{:d}", "expected-size": "{:.3f}", "entropy": "{:.3f}", "most-parts": "{:d}"}
    for name, label in CRITERIA.items():
        cells = []
        for p in parts:
            # the mark before the figure: right-justified figures then end in one place, marked or not
            mark = "* " if len(parts) > 1 and p.scores[name] == best[name] else ""
            cells.append(mark + formats[name].format(p.value(name)))
        table.add_row(label, *cells)
    return table
