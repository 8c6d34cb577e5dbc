"""The ``mastermind`` command line: thin commands that parse, call the library and render.

One module per command family; heavy modules are imported lazily, inside the commands.
"""

from __future__ import annotations

import signal
import sys
from typing import Any, NoReturn

import click

from .common import fail
from .progress import compile_notice

#: Each command's module (in this package), imported only when the command is asked for: its
#: decorators register it. A command then imports neither the other commands' modules nor what
#: they need; ``mastermind --help`` lists them all, so it imports them all.
COMMANDS = {
    "compare": "compare",
    "compile": "compiling",
    "evaluate": "evaluate",
    "guess": "games",
    "history": "history",
    "match": "match",
    "partition": "explore",
    "play": "games",
    "review": "review",
    "solve": "explore",
    "stats": "history",
    "tree": "tree",
    "tui": "tui",
    "verify": "verify",
    "web": "web",
    "worst": "worst",
}


class Main(click.Group):
    """Turns the package's errors into one line and exit status 2, Ctrl-C into status 130; finds
    each command in its module when it is asked for (``COMMANDS``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            import importlib

            importlib.import_module(f"{__name__}.{COMMANDS[cmd_name]}")
        return super().get_command(ctx, cmd_name)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """An option of the command itself misread (``mastermind --frob``): one line, as below."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as err:
            fail(f"{usage_message(err)} (see '{info_name or 'mastermind'} --help')")

    def invoke(self, ctx: click.Context) -> Any:
        from ..errors import MastermindError

        try:
            with compile_notice():  # a cold numba cache: say why the first run is slow
                return super().invoke(ctx)
        except MastermindError as err:
            fail(str(err))
        except click.UsageError as err:
            where = err.ctx.command_path if err.ctx else ctx.command_path
            if err.ctx is None and ctx.invoked_subcommand:  # click gives an option's missing value no context
                where += f" {ctx.invoked_subcommand}"
            fail(f"{usage_message(err)} (see '{where} --help')")
        except KeyboardInterrupt:
            _interrupted()
        except SystemError as err:
            # Ctrl-C while a compiled (numba) function runs: the function returns with the
            # KeyboardInterrupt set, and Python reports a SystemError caused by it
            if not isinstance(err.__cause__ or err.__context__, KeyboardInterrupt):
                raise
            _interrupted()


def usage_message(err: click.UsageError) -> str:
    """Click's message, with an unknown option's suggestions made on the names alone (click
    compares them with their dashes, which made '--bogus' look like '--colours' and '--pegs'),
    one name for each option (--colors, not --colors and its alias --colours), hidden ones left out.

    >>> ctx = click.Context(click.Command("x", params=[click.Option(["--hard"]), click.Option(["--pegs"])]))
    >>> usage_message(click.NoSuchOption("--bogus", ctx=ctx))
    "No such option '--bogus'."
    >>> usage_message(click.NoSuchOption("--hardd", ctx=ctx))
    "No such option '--hardd'. Did you mean '--hard'?"
    """
    if not isinstance(err, click.NoSuchOption) or err.ctx is None:
        return err.format_message()
    typed = err.option_name.lstrip("-")
    best: dict[str, float] = {}  # an option's name most like the one typed: how alike (0 to 1)
    for param in err.ctx.command.params:
        if getattr(param, "hidden", False):
            continue
        for names in (param.opts, param.secondary_opts):  # --color and --no-color: two options
            alike = [(_alike(typed, n[2:]), n) for n in names if n.startswith("--")]
            if alike:
                ratio, name = max(alike, key=lambda pair: pair[0])  # the first of the likest
                if ratio >= 0.7:
                    best[name] = ratio
    close = sorted(sorted(best, key=lambda n: -best[n])[:3])
    quoted = [f"'{name}'" for name in close]
    if not quoted:
        return err.message
    if len(quoted) == 1:
        return f"{err.message} Did you mean {quoted[0]}?"
    return f"{err.message} (Did you mean one of: {', '.join(quoted)}?)"


def _alike(typed: str, name: str) -> float:
    """How alike an option typed and an option's name are (0 to 1): difflib's ratio, or 0.8 where
    one begins with the other (--review-after, --strat), four letters or more."""
    from difflib import SequenceMatcher

    ratio = SequenceMatcher(None, typed, name).ratio()
    shorter, longer = sorted((typed, name), key=len)
    return max(ratio, 0.8) if len(shorter) >= 4 and longer.startswith(shorter) else ratio


def _interrupted() -> NoReturn:
    """Ctrl-C: say so and exit, another Ctrl-C ignored from here (pressed again while the
    process ends, it would interrupt Python's own shutdown, with a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    click.echo("mastermind: interrupted", err=True)
    sys.exit(130)


@click.group(cls=Main, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mastermind-lab")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Mastermind: play, solve, and study codebreaking strategies.

    The game options (--pegs, --colors, --no-repeats, --blank, --preset, --max-guesses,
    --notation) are taken by play, guess, solve, partition, tree, evaluate, compare, match,
    review, tui, web, verify and worst; --no-color by play, guess, solve, partition, tree, verify,
    evaluate, compare, match, review, worst, history and stats; --help by every command. Codes
    are written 1122 (or AABB); replies BLACK,WHITE (1,0) or key pegs (BW); a history is
    GUESS=REPLY items: 1122=1,0 1344=0,1.

    \b
    Examples:
      mastermind play --seed 7                 # you break the computer's code
      mastermind guess                         # the computer breaks yours
      mastermind solve 1122=1,0 1344=0,1       # what is still possible, what to play
      mastermind partition --candidates 1123,3151,1141,6544 --guess 4113
      mastermind tree --strategy knuth --depth 2
      mastermind tree -s optimal --save t.gz && mastermind verify t.gz   # a result anyone checks
      mastermind compare --strategies knuth,entropy --plot dist.png
      mastermind evaluate --strategy knuth
      mastermind review                        # your last game against the optimum

    \b
    Exit status: 0 done (for play and guess: the code was broken),
    1 a game not won (out of guesses, quit, or stopped by Ctrl-C or Ctrl-D: play, guess
    and match say how to resume it), 2 bad input or a contradictory history.
    Colour only on a terminal; --no-color or NO_COLOR turn it off.
    """
    if ctx.invoked_subcommand is None:  # the bare command is a question: the help answers it
        click.echo(ctx.get_help())


def _quick_exit() -> None:
    """Freezes the garbage collector's objects as the interpreter exits (an ``atexit`` handler).

    Why: with numba loaded, the interpreter's exit spent more time than many a command's work
    in its last garbage collections, walking numba's and llvmlite's hundreds of thousands of
    objects (types, templates, compiled libraries) that only the process's end frees anyway.
    Frozen objects are skipped by those collections and nothing else changes: every other exit
    handler still runs (those registered before this one run after it), open files are still
    flushed and closed, and an object that only a reference cycle keeps goes with the process,
    as Python's exit never promised to finalise it. What a command writes it closes itself
    (``with`` blocks, committed transactions), before it returns.
    """
    import gc

    gc.freeze()


def main() -> None:
    """The ``mastermind`` command (the console script, ``python -m mastermind``)."""
    import atexit

    from .._kernels import quick_start
    from .._kernels.compiled import never_wait

    # One command is one short process: small games run on numpy rather than load numba for
    # a search that takes it less time than the loading (the same results either way).
    quick_start()
    # A hint or a review's move never waits for the compiler: what is not compiled yet is
    # compiled in the background, and the move valued without it meanwhile.
    never_wait()
    atexit.unregister(_quick_exit)  # once, however often a test calls main()
    atexit.register(_quick_exit)
    cli(prog_name="mastermind")
