"""The game options every command takes (--preset, --pegs, --colors, --no-repeats, --blank,
--max-guesses, --notation): the game they name, and the notation codes are written in."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..core.notation import CHOSEN_STYLES
from ..core.text import guess_count

if TYPE_CHECKING:  # names for the annotations only: `mastermind --help` imports none of them
    from .. import Notation, Rules


_NOTATION_KEY = "mastermind.notation"


def game_notation(rules: Rules) -> Notation:
    """The notation of this command: --notation, or the game's default."""
    from ..core.notation import Notation

    ctx = click.get_current_context(silent=True)
    return Notation(rules, ctx.meta.get(_NOTATION_KEY, "") if ctx else "")


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
        if style:  # a style too small for the game: one line in the options' words, exit 2
            from ..core.notation import too_few_symbols
            from ..errors import NotationError

            problem = too_few_symbols(
                style, kwargs["rules"].real_colors, "--notation {}", "the default (no --notation)"
            )
            if problem is not None:
                raise NotationError(problem)
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
