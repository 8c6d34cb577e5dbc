"""What every command shares: the game and colour options, output, input, the board."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..core.notation import CHOSEN_STYLES
from ..core.text import guess_count
from ..history import store as store_module

if TYPE_CHECKING:  # names for the annotations only: `mastermind --help` imports none of them
    import numpy as np
    from rich.console import Console
    from rich.text import Text

    from .. import Code, Feedback, Notation, Rules, SolverState, Strategy
    from ..core.notation import Terms
    from ..history.store import Store, StoredGame

#: Exit statuses: 0 done (a game won), 1 a game not won (lost, or given up), 2 bad input.
EXIT_OK, EXIT_NOT_WON, EXIT_USAGE = 0, 1, 2

_NO_COLOR_KEY = "mastermind.no_color"
_NOTATION_KEY = "mastermind.notation"


def game_notation(rules: Rules) -> Notation:
    """The notation of this command: --notation, or the game's default."""
    from ..core.notation import Notation

    ctx = click.get_current_context(silent=True)
    return Notation(rules, ctx.meta.get(_NOTATION_KEY, "") if ctx else "")


def fail(message: str) -> NoReturn:
    click.echo(f"mastermind: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _rules_from(options: dict[str, Any]) -> Rules:
    from ..core.notation import Notation
    from ..core.rules import PRESETS, Rules, find_rules

    base = find_rules(options["preset"]) if options["preset"] is not None else PRESETS["classic"]
    pegs = options["pegs"] if options["pegs"] is not None else base.pegs
    colors = options["colors"] if options["colors"] is not None else base.real_colors
    repeats = base.repeats and not options["no_repeats"]
    blank = base.blank or options["blank"]
    max_guesses = options["max_guesses"] if options["max_guesses"] is not None else base.max_guesses
    # --colors counts real pegs; the Rules count the blank as one more colour
    rules = Rules(pegs=pegs, colors=colors + blank, repeats=repeats, max_guesses=max_guesses, blank=blank)
    if options["preset"] is not None and rules != base:  # say which wins: the options given
        given = {"pegs": rules.pegs, "colors": rules.real_colors, "max_guesses": rules.max_guesses}
        preset = {"pegs": base.pegs, "colors": base.real_colors, "max_guesses": base.max_guesses}
        changed = [
            f"--{name.replace('_', '-')} {value}" for name, value in given.items() if value != preset[name]
        ]
        changed += ["--no-repeats"] if rules.repeats != base.repeats else []
        changed += ["--blank"] if rules.blank != base.blank else []
        limit = f", {guess_count(rules.max_guesses)}" if rules.max_guesses != base.max_guesses else ""
        click.echo(
            f"mastermind: note: preset {base_name(options['preset'])} with {' '.join(changed)} is "
            f"{Notation(rules).describe_game()}{limit} (options given override the preset)",
            err=True,
        )
    return rules


def base_name(preset: str) -> str:
    from ..core.rules import PRESETS, find_rules

    found = find_rules(preset)
    return next(name for name, rules in PRESETS.items() if rules == found)


def game_options(command: Callable) -> Callable:
    """The options every command takes to say which game is played; passes ``rules``."""

    @click.option(
        "--preset",
        metavar="NAME",
        help="classic (4x6), super (5x8), super-blank (5x8 and the blank) or bulls-and-cows (4 of 10 "
        "digits, no repeats). Options given override its values (--preset super --pegs 4: 4 pegs, "
        "8 colours).",
    )
    @click.option("--pegs", "-p", type=int, metavar="N", help="Pegs per code, 1-10 [4].")
    @click.option("--colors", "--colours", "-c", type=int, metavar="N", help="Colours, 2-36 [6].")
    @click.option("--no-repeats", is_flag=True, help="A colour may appear only once in a code.")
    @click.option(
        "--blank",
        is_flag=True,
        help="One more colour: the blank, a hole left empty, written - or . (a code that starts "
        "with it as an argument: .123, not -123, which reads as an option).",
    )
    @click.option("--max-guesses", type=int, metavar="N", help="Guesses allowed per game [10].")
    @click.option(
        "--notation",
        type=click.Choice(CHOSEN_STYLES),
        metavar="STYLE",
        help="How codes are written: digits (1122; 0-9 with 10 colours), letters (aabb) or colors "
        "(RRGB: Red Green Blue Yellow Orange Purple Cyan White blacK Magenta). A code may be typed "
        "in any of them that has a symbol for every colour of the game, in either case, with digits "
        "of any script; a code that reads differently in two of them is refused.",
    )
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        options = {k: kwargs.pop(k) for k in RULE_OPTIONS}
        kwargs["rules"] = _rules_from(options)
        style = kwargs.pop("notation")
        if style:
            from ..core.notation import Notation

            Notation(kwargs["rules"], style)  # a style too small for the game: one line, exit 2
        click.get_current_context().meta[_NOTATION_KEY] = style or ""
        return command(**kwargs)

    return wrapper


#: The parameters of :func:`game_options` that say which game is played (--notation only writes it).
RULE_OPTIONS = ("preset", "pegs", "colors", "no_repeats", "blank", "max_guesses")


def rules_given() -> bool:
    """Whether the command line named the game (any of :data:`RULE_OPTIONS`), or left the default."""
    ctx = click.get_current_context()
    return any(
        ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)
        for name in RULE_OPTIONS
    )


def asked_game(theirs: Rules, rules: Rules) -> Rules:
    """The game a file must be of, as the command line asks (``rules``, from its options): a
    file's (``theirs``) with what the line named put in its place: the pegs, colours, repeats
    and blank where any of them (or a preset) was given, the guess limit where --max-guesses
    was. ``theirs`` itself where nothing was."""
    import dataclasses

    ctx = click.get_current_context()

    def given(name: str) -> bool:
        return ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)

    asked = theirs
    if any(given(name) for name in RULE_OPTIONS if name != "max_guesses"):
        asked = dataclasses.replace(rules, max_guesses=theirs.max_guesses)
    if given("max_guesses"):
        asked = dataclasses.replace(asked, max_guesses=rules.max_guesses)
    return asked


def notation_style() -> str:
    """The --notation given ("" for the game's default)."""
    return str(click.get_current_context().meta.get(_NOTATION_KEY, ""))


def color_option(command: Callable) -> Callable:
    """``--no-color``: plain text. NO_COLOR in the environment does the same; colour is only ever
    used when the output is a terminal that supports it."""

    @click.option(
        "--no-color",
        "--no-colour",
        "no_color",
        is_flag=True,
        help="No colour or styles (also when NO_COLOR is set).",
    )
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        click.get_current_context().meta[_NO_COLOR_KEY] = kwargs.pop("no_color")
        return command(**kwargs)

    return wrapper


def console_for(stderr: bool = False) -> Console:
    """A rich console for this command: styled only on a colour terminal and unless told not to."""
    from rich.console import Console

    ctx = click.get_current_context(silent=True)
    plain = bool(os.environ.get("NO_COLOR")) or bool(ctx and ctx.meta.get(_NO_COLOR_KEY))
    console = Console(
        stderr=stderr,
        color_system=None if plain else "auto",
        highlight=False,
        emoji=False,
        soft_wrap=True,
    )
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 160  # a file or a pipe: do not fold tables at 80 columns
    return console


def strategy_help() -> str:
    """The registry's strategies and their summaries (imported only when help is shown)."""
    from ..strategies import STRATEGIES

    return "; ".join(f"{s.name}: {s.summary}" for s in STRATEGIES)


class StrategyOption(click.Option):
    """An option whose help lists the registered strategies, read from the registry when shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        plain = self.help
        self.help = f"{plain} {strategy_help()}."
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = plain


def registered_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The registry's own spelling of a strategy name (KNUTH is knuth); an unknown one is refused."""
    from ..strategies import find_strategy

    return None if value is None else find_strategy(value).name


def strategy_given() -> bool:
    """Whether --strategy was given on the command line (not its default)."""
    ctx = click.get_current_context()
    return ctx.get_parameter_source("strategy") == click.core.ParameterSource.COMMANDLINE


def strategy_option(command: Callable) -> Callable:
    return click.option(
        "--strategy",
        "-s",
        cls=StrategyOption,
        default="knuth",
        show_default=True,
        metavar="NAME",
        help="Codebreaking strategy:",
        callback=registered_name,
    )(command)


# --- shared pieces of the commands below ------------------------------------------------------------


def long_search_note(
    player: Strategy, state: SolverState | None = None, way_out: str = "", resumes: bool = False
) -> str | None:
    """Before a strategy's work that may be long (its
    :func:`~mastermind.strategies.capabilities.search_cost`): how large it is, what it is likely
    to cost, ``way_out`` and how to stop it (``resumes``: the same command resumes), in a line;
    None where the work is quick or not needed."""
    from ..strategies.capabilities import search_cost

    cost = search_cost(player, state)
    if cost is None:
        return None
    stop = "Ctrl-C stops, and the same command again resumes" if resumes else "Ctrl-C stops"
    return f"{player.name}: {cost}; {way_out}{stop}"


def note_long_search(
    player: Strategy, state: SolverState | None = None, way_out: str = "", resumes: bool = False
) -> bool:
    """:func:`long_search_note` on stderr, where there is one (on a terminal or not: it is the one
    line a run off a terminal shows before its end); whether there was one."""
    note = long_search_note(player, state, way_out, resumes)
    if note is not None:
        click.echo(f"mastermind: note: {note}", err=True)
    return note is not None


#: The way out of a long exact search when a guess is asked for (solve, hints).
HEURISTIC_WAY_OUT = "a heuristic strategy answers in seconds (--strategy entropy); "


def seed_option(help: str) -> Callable:
    """--seed N, checked as it is read (a negative seed is refused even where no seed is used)."""

    def check(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
        from ..core.seeds import check_seed

        return check_seed(value)

    return click.option("--seed", type=int, metavar="N", callback=check, help=help)


def make_player(name: str, rules: Rules, seed: int | None, first: str | None = None) -> Strategy:
    """A strategy from the registry, ready for a game (randomised ones get a generator from ``seed``)."""

    from ..core.seeds import generator
    from ..strategies import make_strategy

    player = make_strategy(name, rules, first=first)
    player.new_game(generator(seed))
    return player


def parse_history(rules: Rules, items: tuple[str, ...]) -> list[tuple[Code, Feedback]]:
    return game_notation(rules).parse_history(list(items))


def candidates_or_fail(
    rules: Rules, history: Sequence[tuple[Code, Feedback]]
) -> tuple[SolverState, np.ndarray]:
    """The candidate indices of a history; a contradictory one ends the command with the diagnosis."""
    from ..deduction.state import SolverState, diagnose
    from ..errors import ContradictionError

    state = SolverState(rules, history)
    try:
        return state, state.candidate_indices()
    except ContradictionError:
        fail(diagnose(rules, history, game_notation(rules)) or "the history is contradictory")


def ask(prompt: str, err: bool = False) -> str | None:
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
    "bold white on red",
    "bold black on green",
    "bold white on blue",
    "bold black on yellow",
    "bold black on dark_orange",
    "bold white on purple",
    "bold black on cyan",
    "bold black on white",
    "bold white on grey35",
    "bold white on magenta",
]


def peg_style(color: int) -> str:
    if color < len(_PEG_STYLES):
        return _PEG_STYLES[color]
    return f"bold black on color({16 + (color * 37) % 216})"


#: The blank is an empty hole: its symbol on no colour.
BLANK_STYLE = "dim"


def styled_code(notation: Notation, code: Code | Sequence[int]) -> Text:
    """A code as coloured pegs for the terminal (its symbols on their colours)."""
    from rich.text import Text

    text = Text()
    symbols = notation.format_code(code)
    blank = notation.rules.blank_color
    for color, symbol in zip(code, symbols, strict=True):
        text.append(f" {symbol} ", style=BLANK_STYLE if color == blank else peg_style(color))
    return text


def keys_text(console: Console, fb: Feedback, pegs: int, terms: Terms | None = None) -> Text:
    from rich.text import Text

    from ..core.notation import MASTERMIND

    utf = (console.encoding or "").lower().startswith("utf")
    keys = (terms or MASTERMIND).keys
    black, white, empty = ("●", "○", "·") if utf else (keys[0], keys[1], ".")
    # black pegs drawn black and white ones white, as the words say, on a grey strip (a black
    # peg on a dark terminal would not be seen; the shapes tell them apart without colour)
    text = Text()
    text.append(black * fb.black, style=f"bold black on {KEY_STRIP}")
    text.append(white * fb.white, style=f"bold bright_white on {KEY_STRIP}")
    text.append(empty * (pegs - fb.black - fb.white), style=f"grey23 on {KEY_STRIP}")
    return text


#: The strip the key pegs sit on, on a terminal.
KEY_STRIP = "grey62"


def board(
    console: Console,
    notation: Notation,
    history: Sequence[tuple[Code, Feedback]],
    rules: Rules,
    secret: Code | None = None,
) -> None:
    """The decoding board: one row per guess, its code pegs and key pegs."""
    from rich.text import Text

    width = len(str(rules.max_guesses))
    if not history and secret is None:
        console.print("  (no guesses yet)")
    for i, (code, fb) in enumerate(history, 1):
        board_row(console, notation, i, code, fb, rules)
    if secret is not None:
        row = Text(f"  {'':>{width}}  ")
        row.append_text(styled_code(notation, secret))
        row.append("   the secret")
        console.print(row)


def board_row(
    console: Console, notation: Notation, number: int, code: Code, fb: Feedback, rules: Rules
) -> None:
    """One row of the board: its number, the code pegs, the key pegs and the reply in words."""
    from rich.text import Text

    row = Text(f"  {number:>{len(str(rules.max_guesses))}}  ")
    row.append_text(styled_code(notation, code))
    row.append("   ")
    row.append_text(keys_text(console, fb, rules.pegs, notation.terms))
    row.append(f"   {notation.terms.reply(fb)}", style="dim")
    console.print(row)


def escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


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


def check_plot(path: str) -> None:
    """A chart's file, checked before any work: its ending (the image type), matplotlib at hand,
    and the rule of every file written (:func:`check_output`)."""
    from ..research.plot import check_plot_path

    check_plot_path(path)
    check_output(path, "--plot")


# --- the history: where games are saved as they are played ------------------------------------------


def open_store(db: str | None, hint: str = "", write: bool = True) -> Store:
    """The history database (``--db``, MASTERMIND_DB or the default); one line and exit 2 if unusable
    (``write``: also if it cannot be written)."""
    from ..errors import StoreError
    from ..history.store import Store

    try:
        store = Store(db, write=write)
    except StoreError as err:
        fail(f"{err}{hint}")
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(store.close)
    return store


def db_option(command: Callable) -> Callable:
    return click.option(
        "--db",
        metavar="PATH",
        type=click.Path(dir_okay=False),
        help="The history database [MASTERMIND_DB, or history.sqlite3 in the user data directory].",
    )(command)


def history_options(command: Callable) -> Callable:
    """``--db PATH`` and ``--no-history``; passes ``store`` (None when the history is off)."""

    @db_option
    @click.option("--no-history", is_flag=True, help="Do not save this game in the history.")
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        db, off = kwargs.pop("db"), kwargs.pop("no_history")
        kwargs["store"] = None if off else open_store(db, "; use --no-history to play without it")
        return command(**kwargs)

    return wrapper


def resume_option(command: Callable) -> Callable:
    return click.option(
        "--resume",
        is_flag=False,
        flag_value="latest",
        default=None,
        metavar="[ID]",
        help="Go on with the latest unfinished game of this kind in the history (or game ID): the same "
        "secret and rows; the game options given are then ignored.",
    )(command)


def resumable(store: Store | None, kind: str, which: str) -> StoredGame:
    """The stored game to resume: the latest unfinished one of ``kind``, or game ``which``."""

    def noun_of(kind: str) -> str:
        return "match" if kind == "match" else f"{kind} game"

    noun = noun_of(kind)
    if store is None:
        fail("--resume needs the history, and --no-history turns it off")
    if which == "latest":
        stored = store.latest_unfinished(kind)
        if stored is None:
            fail(f"there is no unfinished {noun} in the history {store.path} to resume")
        return stored
    if not which.isdigit():
        from ..core.text import quote

        fail(f"--resume takes a game's id (a number, see 'mastermind history'), not {quote(which)}")
    stored = store.get(int(which))
    if stored.kind != kind:
        fail(f"game {stored.id} is a {noun_of(stored.kind)}, not a {noun}")
    if stored.finished:
        fail(
            f"{'match' if kind == 'match' else 'game'} {stored.id} is over ({stored.outcome}): there is "
            "nothing to resume"
        )
    return stored


class Recorder(store_module.Recorder):
    """The history's recorder (mastermind.history.store.Recorder), which also prints its warning once and
    says how to resume."""

    def save(self, record: dict[str, Any]) -> str | None:
        warning = super().save(record)
        if warning:
            click.echo(f"mastermind: warning: {warning}", err=True)
        return warning

    def resume_hint(self, command: str) -> str:
        """How to go on with the saved game: '; resume with mastermind play --resume 3' (with --db
        when the history is not the default one), or why it cannot be resumed."""
        if self.store is None:
            return " (the game is not saved in the history: it cannot be resumed)"
        if self.id is None:  # a game with no move is not kept: the history keeps nothing of it
            return " before any move: there is nothing to resume"
        return f"; resume with mastermind {command}{self.db_option()} --resume {self.id}"

    def db_option(self) -> str:
        """' --db PATH' when the history is not the default one, else ''."""
        import shlex

        from ..history.store import default_path

        if self.store is None or self.store.path == default_path():
            return ""
        return f" --db {shlex.quote(str(self.store.path))}"
