"""The ``mastermind`` command line: thin, no rules logic; heavy modules are imported lazily."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

#: For help text only: the registry (mastermind.strategies.STRATEGIES) decides which names work.
STRATEGY_NAMES = ["knuth", "expected-size", "entropy", "most-parts", "six-guess", "counter", "random"]

#: Exit statuses: 0 done (a game won), 1 a game not won (lost, or given up), 2 bad input.
EXIT_OK, EXIT_NOT_WON, EXIT_USAGE = 0, 1, 2

_NO_COLOR_KEY = "mastermind.no_color"
_NOTATION_KEY = "mastermind.notation"


def _notation(rules):
    """The notation of this command: --notation, or the game's default."""
    from .notation import Notation

    ctx = click.get_current_context(silent=True)
    return Notation(rules, ctx.meta.get(_NOTATION_KEY, "") if ctx else "")


def _fail(message: str) -> NoReturn:
    click.echo(f"mastermind: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _rules_from(options: dict[str, Any]):
    from .rules import PRESETS, Rules, find_rules

    base = find_rules(options["preset"]) if options["preset"] else PRESETS["classic"]
    pegs = options["pegs"] if options["pegs"] is not None else base.pegs
    colors = options["colors"] if options["colors"] is not None else base.colors
    repeats = base.repeats and not options["no_repeats"]
    max_guesses = options["max_guesses"] if options["max_guesses"] is not None else base.max_guesses
    return Rules(pegs=pegs, colors=colors, repeats=repeats, max_guesses=max_guesses)


def game_options(command: Callable) -> Callable:
    """The options every command takes to say which game is played; passes ``rules``."""

    @click.option(
        "--preset",
        metavar="NAME",
        help="classic (4x6), super (5x8) or bulls-and-cows (4 of 10 digits, no repeats).",
    )
    @click.option("--pegs", "-p", type=int, metavar="N", help="Pegs per code, 1-10 [4].")
    @click.option("--colors", "--colours", "-c", type=int, metavar="N", help="Colours, 2-36 [6].")
    @click.option("--no-repeats", is_flag=True, help="A colour may appear only once in a code.")
    @click.option("--max-guesses", type=int, metavar="N", help="Guesses allowed per game [10].")
    @click.option(
        "--notation", type=click.Choice(["digits", "letters", "colors"]), metavar="STYLE",
        help="How codes are written: digits (1122; 0-9 with 10 colours), letters (aabb) or colors "
        "(RRGB: Red Green Blue Yellow Orange Purple Cyan White blacK Magenta). Input may be "
        "in any of them that fits the game.",
    )  # fmt: skip
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        keys = ("preset", "pegs", "colors", "no_repeats", "max_guesses")
        options = {k: kwargs.pop(k) for k in keys}
        kwargs["rules"] = _rules_from(options)
        style = kwargs.pop("notation")
        if style == "digits" and kwargs["rules"].colors == 10:
            style = "digits0"
        if style:
            from .notation import Notation

            Notation(kwargs["rules"], style)  # a style too small for the game: one line, exit 2
        click.get_current_context().meta[_NOTATION_KEY] = style or ""
        return command(**kwargs)

    return wrapper


def color_option(command: Callable) -> Callable:
    """``--no-color``: plain text. NO_COLOR in the environment does the same; colour is only ever
    used when the output is a terminal that supports it."""

    @click.option(
        "--no-color", "--no-colour", "no_color", is_flag=True,
        help="No colour or styles (also when NO_COLOR is set).",
    )  # fmt: skip
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        click.get_current_context().meta[_NO_COLOR_KEY] = kwargs.pop("no_color")
        return command(**kwargs)

    return wrapper


def _console(stderr: bool = False):
    """A rich console for this command: styled only on a colour terminal and unless told not to."""
    from rich.console import Console

    ctx = click.get_current_context(silent=True)
    plain = bool(os.environ.get("NO_COLOR")) or bool(ctx and ctx.meta.get(_NO_COLOR_KEY))
    console = Console(
        stderr=stderr, color_system=None if plain else "auto", highlight=False, emoji=False,
        soft_wrap=True,
    )  # fmt: skip
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 160  # a file or a pipe: do not fold tables at 80 columns
    return console


def strategy_option(command: Callable) -> Callable:
    return click.option(
        "--strategy", "-s", default="knuth", show_default=True, metavar="NAME",
        help="Codebreaking strategy: " + ", ".join(STRATEGY_NAMES) + ".",
    )(command)  # fmt: skip


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal; yields the callback to advance it."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    console = _console(stderr=True)  # honours --no-color and NO_COLOR like every other output
    if not console.is_terminal:
        yield None
        return
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


class Main(click.Group):
    """Turns the package's errors into one line and exit status 2, Ctrl-C into status 130."""

    def invoke(self, ctx: click.Context) -> Any:
        from .errors import MastermindError

        try:
            return super().invoke(ctx)
        except MastermindError as err:
            _fail(str(err))
        except click.UsageError as err:
            where = err.ctx.command_path if err.ctx else "mastermind"
            _fail(f"{err.format_message()} (see '{where} --help')")
        except KeyboardInterrupt:
            click.echo("mastermind: interrupted", err=True)
            sys.exit(130)


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mastermind-lab")
def cli() -> None:
    """Mastermind: play, solve, and study codebreaking strategies.

    Every command takes the game options (--pegs, --colors, --no-repeats, --preset,
    --max-guesses) and --help. Codes are written 1122 (or AABB); replies BLACK,WHITE (1,0)
    or key pegs (BW); a history is GUESS=REPLY items: 1122=1,0 1344=0,1.

    \b
    Examples:
      mastermind play --seed 7                 # you break the computer's code
      mastermind guess                         # the computer breaks yours
      mastermind solve 1122=1,0 1344=0,1       # what is still possible, what to play
      mastermind partition --candidates 1123,3151,1141,6544 --guess 4113
      mastermind tree --strategy knuth --depth 2
      mastermind compare --strategies knuth,entropy --plot dist.png
      mastermind evaluate --strategy knuth

    \b
    Exit status: 0 done (for play and guess: the code was broken),
    1 a game not won (out of guesses, or quit), 2 bad input or a contradictory history.
    Colour only on a terminal; --no-color or NO_COLOR turn it off.
    """


@cli.command()
@game_options
@strategy_option
@click.option("--first", metavar="CODE", help="Override the strategy's first guess, e.g. 1122.")
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    metavar="N",
    help="Evaluate a random sample of N secrets instead of all of them.",
)
@click.option("--seed", type=int, metavar="N", help="Seed for sampling and randomised strategies.")
@click.option(
    "--no-tables", is_flag=True, help="counter: plain numeric order instead of random colour tables."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", metavar="FILE", help="Also draw the distribution as a bar chart (.png, .svg, .pdf).")
@color_option
def evaluate(
    rules,
    strategy: str,
    first: str | None,
    sample: int | None,
    seed: int | None,
    no_tables: bool,
    as_json: bool,
    plot: str | None,
) -> None:
    """Play a strategy against every secret and report exact statistics.

    \b
    Examples:
      mastermind evaluate --strategy knuth            # 5801 guesses, at most 5
      mastermind evaluate -s most-parts --first 1123 --json
      mastermind evaluate -s entropy --preset bulls-and-cows
      mastermind evaluate -s knuth --plot knuth.png
    """
    from .evaluation import evaluate as run
    from .evaluation import sample_secrets
    from .plot import check_plot_path
    from .strategies import make_strategy

    if plot:
        check_plot_path(plot)
    player = make_strategy(strategy, rules, first=first, **({"tables": False} if no_tables else {}))
    if seed is None and (sample is not None or player.randomized):
        seed = _fresh_seed()  # drawn here and reported, so the run can be repeated
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    total = rules.size if secrets is None else len(secrets)
    with progress_bar(total, f"{strategy} on {rules.describe()}") as advance:
        stats = run(player, secrets, seed=seed, progress=advance)
    if plot:
        _draw([stats], plot)
    if as_json:
        click.echo(json.dumps(stats.to_dict(_notation(rules))))
        return
    _print_stats(stats)


def _draw(stats: list, path: str) -> None:
    from .plot import plot_distributions

    written = plot_distributions(stats, path)
    click.echo(f"chart written to {written}", err=True)


def _first_text(stats) -> str:
    return "random" if stats.first_guess is None else _notation(stats.rules).format_code(stats.first_guess)


def _print_stats(stats) -> None:
    from rich.table import Table

    console = _console()
    rules = stats.rules
    title = f"{stats.strategy} on {rules.describe()} ({stats.codes:,} codes)"
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("first guess", _first_text(stats))
    table.add_row("total guesses", f"{stats.total:,}")
    table.add_row("mean", f"{stats.mean:.4f}")
    table.add_row("max", str(stats.max))
    dist = "  ".join(f"{k}:{n}" for k, n in stats.distribution.items())
    table.add_row("distribution", dist)
    table.add_row(f"lost (> {rules.max_guesses})", str(stats.lost))
    table.add_row("seconds", f"{stats.seconds:.3f}")
    if stats.seed is not None and not stats.sample:
        table.add_row("seed", f"{stats.seed} (repeat with --seed {stats.seed})")
    if stats.sample:
        table.add_row(
            "note",
            f"a random sample of {stats.games:,} of the {stats.codes:,} secrets"
            + (f" (seed {stats.seed})" if stats.seed is not None else ""),
        )
    console.print(table)


# --- shared pieces of the commands below ------------------------------------------------------------


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(2**31)


def _make_player(name: str, rules, seed: int | None, first: str | None = None):
    """A strategy from the registry, ready for a game (randomised ones get a generator from ``seed``)."""
    import numpy as np

    from .strategies import make_strategy

    player = make_strategy(name, rules, first=first)
    player.new_game(np.random.default_rng(seed))
    return player


def _next_guess(player, state) -> int:
    """The strategy's guess for ``state`` (its first guess, with any override, on an empty history)."""
    return player.choose(state)


def _thinking(console, who: str):
    """A spinner while a strategy thinks, on a terminal only (it leaves nothing behind)."""
    from contextlib import nullcontext

    return console.status(f"{who} is thinking...") if console.is_terminal else nullcontext()


def _parse_history(rules, items: tuple[str, ...]) -> list:

    return _notation(rules).parse_history(list(items))


def _candidates_or_fail(rules, history):
    """The candidate indices of a history; a contradictory one ends the command with the diagnosis."""
    from .errors import ContradictionError
    from .solver import SolverState, diagnose

    state = SolverState(rules, history)
    try:
        return state, state.candidate_indices()
    except ContradictionError:
        _fail(diagnose(rules, history, _notation(rules)) or "the history is contradictory")


def _ask(prompt: str, err: bool = False) -> str | None:
    """One line from the user, stripped; None at end of input. ``err``: prompt on stderr."""
    try:
        if err:
            click.echo(prompt, nl=False, err=True)
            line = input()
        else:
            line = input(prompt)
    except EOFError:
        click.echo(err=err)
        return None
    if not sys.stdin.isatty():  # scripted input: show it, so the transcript reads like a session
        click.echo(line, err=err)
    return line.strip()


#: Background colours of the code pegs, by colour number; more colours cycle through the 256-colour set.
_PEG_STYLES = [
    "bold white on red", "bold black on green", "bold white on blue", "bold black on yellow",
    "bold black on dark_orange", "bold white on purple", "bold black on cyan", "bold black on white",
    "bold white on grey35", "bold white on magenta",
]  # fmt: skip


def _peg_style(color: int) -> str:
    if color < len(_PEG_STYLES):
        return _PEG_STYLES[color]
    return f"bold black on color({16 + (color * 37) % 216})"


def _code_text(notation, code):
    from rich.text import Text

    text = Text()
    symbols = notation.format_code(code)
    for color, symbol in zip(code, symbols, strict=True):
        text.append(f" {symbol} ", style=_peg_style(color))
    return text


def _keys_text(console, fb, pegs: int):
    from rich.text import Text

    utf = (console.encoding or "").lower().startswith("utf")
    black, white, empty = ("●", "○", "·") if utf else ("B", "W", ".")
    text = Text()
    text.append(black * fb.black, style="bold red")
    text.append(white * fb.white, style="bold white")
    text.append(empty * (pegs - fb.black - fb.white), style="dim")
    return text


def _board(console, notation, history, rules, secret=None) -> None:
    """The decoding board: one row per guess, its code pegs and key pegs."""
    from rich.text import Text

    width = len(str(rules.max_guesses))
    if not history and secret is None:
        console.print("  (no guesses yet)")
    for i, (code, fb) in enumerate(history, 1):
        row = Text(f"  {i:>{width}}  ")
        row.append_text(_code_text(notation, code))
        row.append("   ")
        row.append_text(_keys_text(console, fb, rules.pegs))
        row.append(f"   {fb.black} black, {fb.white} white", style="dim")
        console.print(row)
    if secret is not None:
        row = Text(f"  {'':>{width}}  ")
        row.append_text(_code_text(notation, secret))
        row.append("   the secret")
        console.print(row)


def _game_record(notation, history, won: bool, secret=None) -> str:
    record = {
        "won": won,
        "turns": len(history),
        "guesses": [{"guess": notation.format_code(g), "reply": str(f)} for g, f in history],
    }
    if secret is not None:
        record["secret"] = notation.format_code(secret)
    return json.dumps(record)


# --- play: the user breaks the computer's code ------------------------------------------------------


@cli.command()
@game_options
@strategy_option
@click.option("--seed", type=int, metavar="N", help="Seed for the secret: the same seed, the same game.")
@click.option(
    "--json", "as_json", is_flag=True, help="Board on stderr; at the end, the game as JSON on stdout."
)
@color_option
def play(rules, strategy: str, seed: int | None, as_json: bool) -> None:
    """You are the codebreaker: find the computer's secret code.

    Type a guess (1122, "1 1 2 2" or AABB); the board is drawn again with the key pegs: one
    black (red) for each peg of the right colour in the right place, one white for each other
    peg of the right colour. Commands: hint (the --strategy's guess and how many codes are
    still possible), undo, board, help, quit (a code that spells a command can be typed with
    spaces: h i n t). Exit status 0 if you break the code, 1 if not.

    \b
    Examples:
      mastermind play
      mastermind play --seed 42 --strategy entropy
      mastermind play --preset super --max-guesses 12
      mastermind play --pegs 3 --colors 5 --no-repeats
    """
    import random

    from .code import CodeSpace
    from .errors import MastermindError
    from .feedback import score
    from .solver import SolverState
    from .strategies import find_strategy

    find_strategy(strategy)  # an unknown name is bad input, before the game starts
    notation = _notation(rules)
    space = CodeSpace.of(rules)
    secret = space.code(random.Random(seed).randrange(space.size))
    console = _console(stderr=as_json)
    say = console.print
    say(
        f"I have chosen a secret: {rules.pegs} pegs, colours {notation.describe_symbols()}, "
        f"{'repeats allowed' if rules.repeats else 'no colour repeats'}. "
        f"You have {rules.max_guesses} guesses. Type a guess, or help.",
        markup=False,
    )
    history: list = []
    player = None

    def finish(won: bool) -> NoReturn:
        if as_json:
            click.echo(_game_record(notation, history, won, secret))
        sys.exit(EXIT_OK if won else EXIT_NOT_WON)

    while len(history) < rules.max_guesses:
        line = _ask(f"guess {len(history) + 1} of {rules.max_guesses}> ", err=as_json)
        if line is None or line.lower() in ("quit", "q", "exit"):  # end of input, or quit
            say(f"You gave up. The secret was {notation.format_code(secret)}.", markup=False)
            finish(False)
        command = (line or "").lower()
        if command in ("help", "?"):
            say(
                f"Type a code of {rules.pegs} pegs (e.g. {notation.example()}); hint: ask "
                f"{strategy}; undo: take back the last guess; board: show the board; quit: give up.",
                markup=False,
            )
        elif command == "board":
            _board(console, notation, history, rules)
        elif command == "undo":
            if not history:
                say("Nothing to undo.")
                continue
            history.pop()
            say("Took back the last guess.")
            _board(console, notation, history, rules)
        elif command == "hint":
            try:
                state = SolverState(rules, history)
                # games too large to list: a strategy that does not enumerate still hints
                left = len(state.candidate_indices()) if space.enumerable else None
                with _thinking(console, strategy):
                    player = player or _make_player(strategy, rules, seed)
                    hint = notation.format_code(space.code(_next_guess(player, state)))
            except MastermindError as err:
                say(f"No hint: {err}", markup=False)
                continue
            if left is None:
                say(f"Hint: {strategy} would play {hint}.", markup=False)
                continue
            codes = "1 code is" if left == 1 else f"{left:,} codes are"
            say(f"Hint: {codes} still possible; {strategy} would play {hint}.", markup=False)
        elif not command:
            continue
        else:
            try:
                guess = notation.parse_code(line)
            except MastermindError as err:
                say(f"[red]Not a guess:[/] {_escape(str(err))}. Try again (or type help).")
                continue
            fb = score(guess.colors, secret.colors)
            history.append((guess, fb))
            _board(console, notation, history, rules)
            if fb.black == rules.pegs:
                turns = len(history)
                say(f"[bold green]You broke the code in {turns} guess{'es' if turns > 1 else ''}![/]")
                finish(True)
    _board(console, notation, [], rules, secret)
    say(f"Out of guesses. The secret was {notation.format_code(secret)}.", markup=False)
    finish(False)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


# --- guess: the computer breaks the user's code -----------------------------------------------------


@cli.command()
@game_options
@strategy_option
@click.option("--secret", metavar="CODE", help="Let the computer score its own guesses (a demonstration).")
@click.option("--first", metavar="CODE", help="Override the strategy's first guess.")
@click.option("--seed", type=int, metavar="N", help="Seed for randomised strategies.")
@click.option("--json", "as_json", is_flag=True, help="Transcript on stderr; at the end, the game as JSON.")
@color_option
def guess(
    rules, strategy: str, secret: str | None, first: str | None, seed: int | None, as_json: bool
) -> None:
    """The computer is the codebreaker: keep a secret code in mind and reply to its guesses.

    Reply BLACK,WHITE (1,2), key pegs (BWW) or - for none. If your replies contradict each
    other you are told at once which rows cannot all be true, and which single reply could be
    corrected, and to what. Commands: fix ROW REPLY (correct an earlier reply), undo, board,
    help, quit. Exit status 0 when the code is found, 1 if not (out of guesses, or quit).

    \b
    Examples:
      mastermind guess
      mastermind guess --strategy entropy --preset bulls-and-cows
      mastermind guess --secret 3632           # scores itself: Knuth's example game
      mastermind guess --secret 3632 --json 2>/dev/null
    """
    from .code import CodeSpace
    from .errors import MastermindError
    from .feedback import score
    from .solver import SolverState, diagnose

    notation = _notation(rules)
    space = CodeSpace.of(rules)
    secret_code = notation.parse_code(secret) if secret else None
    player = _make_player(strategy, rules, seed, first)
    console = _console(stderr=as_json)
    say = console.print
    if secret_code is None:
        say(
            f"Think of a secret: {rules.pegs} pegs, colours {notation.describe_symbols()}, "
            f"{'repeats allowed' if rules.repeats else 'no colour repeats'}. I have "
            f"{rules.max_guesses} guesses. Reply BLACK,WHITE (e.g. 1,2), key pegs (BWW) or - for none; "
            "or type help.",
            markup=False,
        )
    history: list = []

    def finish(won: bool) -> NoReturn:
        if as_json:
            click.echo(_game_record(notation, history, won, secret_code))
        sys.exit(EXIT_OK if won else EXIT_NOT_WON)

    def command(line: str) -> str:
        """Handle a command; 'again' to choose the guess anew, 'ask' to ask for the reply again."""
        words = line.split()
        verb = words[0].lower()
        if verb in ("quit", "q", "exit"):
            say("Stopped.")
            finish(False)
        if verb in ("help", "?"):
            say(
                "Reply with black,white (1,2), key pegs (BWW) or - for none. fix ROW REPLY: "
                "correct an earlier reply (e.g. fix 2 0,1); undo: take back the last reply; "
                "board: show the board; quit: stop.",
                markup=False,
            )
            return "ask"
        if verb == "board":
            _board(console, notation, history, rules)
            return "ask"
        if verb == "undo":
            if not history:
                say("Nothing to undo.")
                return "ask"
            history.pop()
            say("Took back the last reply.")
            return "again"
        if verb == "fix":
            if len(words) < 3 or not words[1].isdigit() or not 1 <= int(words[1]) <= len(history):
                rows = f"1 to {len(history)}" if history else "none yet"
                say(f"Write fix ROW REPLY, e.g. fix 1 0,1 (rows: {rows}).", markup=False)
                return "ask"
            row = int(words[1]) - 1
            try:
                fb = notation.parse_feedback(" ".join(words[2:]))
            except MastermindError as err:
                say(f"[red]Not a reply:[/] {_escape(str(err))}")
                return "ask"
            history[row] = (history[row][0], fb)
            say(f"Row {row + 1} is now {notation.format_code(history[row][0])} = {fb}.", markup=False)
            return "again"
        return "reply"

    def repair(problem: str) -> None:
        """Show what is wrong and take commands until a row is corrected or taken back."""
        say(f"[bold red]{_escape(problem[0].upper() + problem[1:])}.[/]")
        _board(console, notation, history, rules)
        while True:
            line = _ask("fix ROW REPLY, undo or quit> ", err=as_json)
            if line is None:
                say("Stopped.")
                finish(False)
            if not line:
                continue
            outcome = command(line)
            if outcome == "again":
                return
            if outcome == "reply":
                say("First correct a reply: fix ROW REPLY (e.g. fix 1 0,1), or undo.", markup=False)

    while True:
        # Games too large to enumerate cannot be diagnosed; a strategy that plays them without
        # enumerating reports an impossible history itself, when it finds no code to play.
        problem = diagnose(rules, history, notation) if history and space.enumerable else None
        if problem:
            repair(problem)
            continue
        if history and history[-1][1].black == rules.pegs:
            turns = len(history)
            say(
                f"[bold green]Found it: {notation.format_code(history[-1][0])} in {turns} "
                f"guess{'es' if turns > 1 else ''}.[/]"
            )
            finish(True)
        if len(history) >= rules.max_guesses:
            say(f"I could not find it in {rules.max_guesses} guesses.")
            finish(False)
        state = SolverState(rules, history)
        try:
            with _thinking(console, strategy):
                left = len(state.candidate_indices()) if space.enumerable else None
                code = space.code(_next_guess(player, state))
        except MastermindError as err:
            if not history:
                raise  # the strategy cannot play this game at all: bad input, exit 2
            repair(str(err))
            continue
        codes = "" if left is None else f"   ({'1 code' if left == 1 else f'{left:,} codes'} possible)"
        say(f"Guess {len(history) + 1}: {notation.format_code(code)}{codes}", markup=False)
        if secret_code is not None:
            fb = score(code.colors, secret_code.colors)
            say(f"  reply: {fb}", markup=False)
            history.append((code, fb))
            continue
        while True:
            line = _ask("your reply> ", err=as_json)
            if line is None:
                say("Stopped.")
                finish(False)
            if not line:
                continue
            outcome = command(line)
            if outcome == "again":
                break
            if outcome == "ask":
                continue
            try:
                fb = notation.parse_feedback(line)
            except MastermindError as err:
                say(f"[red]Not a reply:[/] {_escape(str(err))}. Try again (or type help).")
                continue
            history.append((code, fb))
            break


# --- solve, partition, tree, compare ---------------------------------------------------------------


@cli.command()
@game_options
@strategy_option
@click.argument("history", nargs=-1)
@click.option(
    "--show", type=click.IntRange(min=1), default=20, show_default=True, metavar="N",
    help="List every candidate when there are at most N, otherwise a sample of N.",
)  # fmt: skip
@click.option("--seed", type=int, metavar="N", help="Seed for randomised strategies.")
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"candidates": N, "guess": ..., "sample": [...]}.'
)
@color_option
def solve(rules, strategy: str, history: tuple[str, ...], show: int, seed: int | None, as_json: bool) -> None:
    """What the guesses and replies so far leave possible, and what to play next.

    HISTORY is GUESS=BLACK,WHITE items (1122=1,0 1344=0,1); none means the start of a game. A
    contradictory history is diagnosed (which rows, which reply could be corrected) with exit
    status 2.

    \b
    Examples:
      mastermind solve 1122=1,0 1344=0,1
      mastermind solve "1122=1,0 1344=0,1 3526=1,2" --strategy entropy
      mastermind solve 1122=BW --json
      mastermind solve 1234=0,2 --preset bulls-and-cows --show 5
    """
    import numpy as np

    from .solver import SolverState

    notation = _notation(rules)
    rows = _parse_history(rules, history)
    if SolverState(rules).space.enumerable:
        state, cands = _candidates_or_fail(rules, rows)
    else:  # too many codes to list: only a strategy that does not enumerate can answer
        state, cands = SolverState(rules, rows), None
    with _thinking(_console(stderr=True), strategy):
        player = _make_player(strategy, rules, seed)
        next_guess = notation.format_code(state.space.code(_next_guess(player, state)))
    if cands is None:
        if as_json:
            click.echo(json.dumps({"candidates": None, "guess": next_guess, "sample": []}))
        else:
            say = _console().print
            say(f"{state.space.size:,} codes in all: too many to list or count.", markup=False)
            say(f"{strategy} plays next: [bold]{next_guess}[/]")
        return
    complete = len(cands) <= show
    picked = cands if complete else cands[np.linspace(0, len(cands) - 1, show).round().astype(np.int64)]
    sample = [notation.format_code(state.space.code(i)) for i in picked]
    if as_json:
        click.echo(json.dumps({"candidates": len(cands), "guess": next_guess, "sample": sample}))
        return
    say = _console().print
    n = len(cands)
    if n == 1:
        say(f"1 code is possible: the secret is [bold]{sample[0]}[/].")
    elif complete:
        say(f"{n:,} codes are possible:")
        say("  " + " ".join(sample), markup=False)
    else:
        say(f"{n:,} codes are possible; {len(sample)} of them, evenly spread:")
        say("  " + " ".join(sample) + " ...", markup=False)
    say(f"{strategy} plays next: [bold]{next_guess}[/]")


@cli.command()
@game_options
@strategy_option
@click.argument("history", nargs=-1)
@click.option(
    "--guess", "-g", "guesses", multiple=True, metavar="CODE", help="A guess to score (repeatable)."
)
@click.option(
    "--candidates", metavar="CODES",
    help="The candidate set itself, e.g. 1123,3151,1141,6544 (filtered by HISTORY if given).",
)  # fmt: skip
@click.option(
    "--show", type=click.IntRange(min=1), default=20, show_default=True, metavar="N",
    help="List the codes in each class when there are at most N candidates.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@color_option
def partition(
    rules,
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
    import numpy as np

    from .analysis import CRITERIA
    from .analysis import partition as split
    from .code import CodeSpace

    notation = _notation(rules)
    space = CodeSpace.of(rules)
    rows = _parse_history(rules, history)
    codes = [notation.parse_code(g) for g in guesses]
    if candidates is not None:
        from .solver import SolverState

        given = sorted(
            {space.index(notation.parse_code(c).colors) for c in candidates.split(",") if c.strip()}
        )
        if not given:
            _fail("--candidates is empty: give codes separated by commas, e.g. 1123,3151")
        state = SolverState(rules, rows)
        cands = np.array([i for i in given if state.is_candidate(space.code(i))], dtype=np.int64)
        if not len(cands):
            _fail("none of the --candidates fits the history")
        if not codes:
            _fail("with --candidates, say which guesses to score: --guess CODE")
    else:
        state, cands = _candidates_or_fail(rules, rows)
        if not codes:
            player = _make_player(strategy, rules, None)
            codes = [space.code(_next_guess(player, state))]
    parts = [split(rules, code, cands) for code in codes]
    best = {name: min(p.scores[name] for p in parts) for name in CRITERIA}
    if as_json:
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
            if len(cands) <= show:
                entry["members"] = {
                    str(f): [notation.format_code(c) for c in m] for f, m in p.members.items()
                }
            entries.append(entry)
        click.echo(json.dumps({"candidates": len(cands), "guesses": entries}))
        return
    from rich import box
    from rich.table import Table

    console = _console()
    shown = " ".join(notation.format_code(space.code(i)) for i in cands[:show])
    more = " ..." if len(cands) > show else ""
    word = "candidate" if len(cands) == 1 else "candidates"
    console.print(f"{len(cands):,} {word}: {shown}{more}", markup=False)
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
            mark = " *" if len(parts) > 1 and p.scores[name] == best[name] else ""
            cells.append(formats[name].format(p.value(name)) + mark)
        table.add_row(label, *cells)
    console.print(table)
    if len(parts) > 1:
        console.print("* the best guess under that criterion", markup=False)
    if len(cands) <= show:
        for p in parts:
            classes = "; ".join(
                f"{f}: " + " ".join(notation.format_code(c) for c in m) for f, m in p.members.items()
            )
            console.print(f"{notation.format_code(p.guess)} splits them  {classes}", markup=False)


@cli.command()
@game_options
@strategy_option
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "dot"]), default="text", show_default=True,
    help="text: an outline like Knuth's table; json: nested objects; dot: Graphviz.",
)  # fmt: skip
@click.option("--depth", type=click.IntRange(min=1), metavar="N", help="Show only the first N guesses.")
@click.option("--first", metavar="CODE", help="Override the strategy's first guess.")
@click.option(
    "--no-tables", is_flag=True, help="counter: numeric order (Shapiro's strategy), which has a tree."
)
@color_option
def tree(rules, strategy: str, fmt: str, depth: int | None, first: str | None, no_tables: bool) -> None:
    """The whole decision tree of a strategy: each reply, how many codes it leaves, the next guess.

    Only deterministic strategies have a single tree.

    \b
    Examples:
      mastermind tree --strategy knuth --depth 2      # Knuth's second guesses
      mastermind tree -s most-parts --pegs 3 --colors 4
      mastermind tree -s knuth --format json > knuth.json
      mastermind tree -s knuth --format dot --depth 3 | dot -Tsvg > knuth.svg
      mastermind tree -s counter --no-tables --depth 2  # Shapiro's strategy
    """
    from .evaluation import strategy_tree
    from .strategies import make_strategy

    player = make_strategy(strategy, rules, first=first, **({"tables": False} if no_tables else {}))
    with progress_bar(rules.size, f"{strategy} tree on {rules.describe()}") as advance:
        root = strategy_tree(player, progress=advance, depth=depth)
    notation = _notation(rules)
    if fmt == "json":
        out = {
            "strategy": strategy,
            "pegs": rules.pegs,
            "colors": rules.colors,
            "repeats": rules.repeats,
            "tree": root.to_dict(notation, depth),
        }
        click.echo(json.dumps(out))
    elif fmt == "dot":
        click.echo(root.to_dot(notation, depth, title=f"{strategy} on {rules.describe()}"))
    else:
        click.echo(f"{strategy} on {rules.describe()}: reply: codes left -> next guess")
        click.echo(root.format(notation, depth))


@cli.command()
@game_options
@click.option(
    "--strategies", metavar="NAMES",
    help="Comma-separated strategy names [every registered strategy].",
)  # fmt: skip
@click.option(
    "--sample", type=click.IntRange(min=1), metavar="N",
    help="Evaluate a random sample of N secrets instead of all of them.",
)  # fmt: skip
@click.option("--seed", type=int, metavar="N", help="Seed for sampling and randomised strategies.")
@click.option("--plot", metavar="FILE", help="Draw the distributions as a bar chart (.png, .svg, .pdf).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per strategy.")
@color_option
def compare(
    rules, strategies: str | None, sample: int | None, seed: int | None, plot: str | None, as_json: bool
) -> None:
    """Evaluate several strategies on the same secrets, side by side.

    \b
    Examples:
      mastermind compare
      mastermind compare --strategies knuth,expected-size,entropy,most-parts --plot dist.png
      mastermind compare --strategies knuth,entropy --preset bulls-and-cows --sample 500 --seed 1
      mastermind compare --json
    """
    from .errors import StrategyError
    from .evaluation import evaluate as run
    from .evaluation import sample_secrets
    from .plot import check_plot_path
    from .strategies import STRATEGIES, find_strategy, make_strategy

    names = [n.strip() for n in strategies.split(",") if n.strip()] if strategies is not None else None
    if names is not None and not names:
        _fail("--strategies is empty: give names separated by commas, e.g. knuth,entropy")
    chosen = names is not None
    names = names or [cls.name for cls in STRATEGIES]
    names = list(dict.fromkeys(find_strategy(n).name for n in names))  # checked, each once
    if plot:
        check_plot_path(plot)
    players = []
    for name in names:
        try:
            players.append(make_strategy(name, rules))
        except StrategyError as err:
            if chosen:
                raise
            # By default every registered strategy that can play this game takes part.
            click.echo(f"mastermind: skipped {name}: {err}", err=True)
    if not players:
        _fail(f"no strategy can play {rules.describe()} as a whole; try --sample N")
    if seed is None and (sample is not None or any(p.randomized for p in players)):
        seed = _fresh_seed()  # drawn here and reported, so the run can be repeated
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    per = rules.size if secrets is None else len(secrets)
    results = []
    with progress_bar(per * len(players), f"{len(players)} strategies on {rules.describe()}") as advance:
        for player in players:
            results.append(run(player, secrets, seed=seed, progress=advance))
    if plot:
        _draw(results, plot)
    if as_json:
        click.echo(json.dumps([s.to_dict(_notation(rules)) for s in results]))
        return
    from rich import box
    from rich.table import Table

    codes = results[0].codes
    what = f"a sample of {results[0].games:,} secrets" if results[0].sample else f"all {codes:,} secrets"
    table = Table(title=f"{rules.describe()}: {what}", title_justify="left", box=box.SIMPLE_HEAD)
    for column in ("strategy", "first", "total", "mean", "max", "distribution", "seconds"):
        table.add_column(column, justify="left" if column in ("strategy", "distribution") else "right")
    best_mean = min(s.mean for s in results)
    for s in results:
        mean = f"[bold]{s.mean:.4f}[/]" if s.mean == best_mean else f"{s.mean:.4f}"
        dist = " ".join(f"{k}:{n}" for k, n in s.distribution.items())
        table.add_row(
            s.strategy, _first_text(s), f"{s.total:,}", mean, str(s.max), dist, f"{s.seconds:.2f}"
        )  # fmt: skip
    _console().print(table)


def main() -> None:
    cli(prog_name="mastermind")


if __name__ == "__main__":
    main()
