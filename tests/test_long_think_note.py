"""Before a computer's guess whose search may take hours (the optimal strategy on a large game),
guess and match say so, as solve, tree and evaluate do, instead of "optimal is thinking..." alone.
The search itself is never run here: the spinner it would run under stops the test first."""

from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from mastermind import Rules
from mastermind.cli import cli
from mastermind.core.notation import Notation
from mastermind.games.game import Game
from mastermind.games.match import Match
from mastermind.games.match_session import MatchSession
from mastermind.games.sessions import search_note

LARGE = Rules(pegs=5, colors=7)


class Searching(Exception):
    """The long search was about to begin."""


def stopped_at(who: str):
    """A front end's spinner that stops the command when ``who`` begins to think."""

    @contextmanager
    def thinking(name: str):
        if who in name:
            raise Searching(name)
        yield

    return thinking


def the_note() -> str:
    note = search_note(Game.solving(LARGE, "optimal").player())
    assert note is not None and "likely hours" in note and "Ctrl-C stops" in note
    return note.split(";")[0]  # 'optimal: an exact search of 16,807 codes: ...'


def test_guess_notes_a_search_of_hours_before_it_begins(monkeypatch):
    monkeypatch.setattr("mastermind.cli.games.thinking", lambda console, who: stopped_at("optimal")(who))
    result = CliRunner().invoke(cli, ["guess", "-s", "optimal", "-p", "5", "-c", "7", "--no-history"])
    assert isinstance(result.exception, Searching)  # it got as far as the search, no further
    notes = [line for line in result.output.splitlines() if line.startswith("Note:")]
    assert len(notes) == 1 and notes[0].startswith(f"Note: {the_note()};")
    assert "a heuristic strategy guesses in seconds (--strategy entropy); Ctrl-C stops." in notes[0]


def said_until_stopped(session: MatchSession) -> list[str]:
    """What a match session says before its thinker is stopped (:func:`stopped_at`), which it must be."""
    said: list[str] = []
    with pytest.raises(Searching):
        for out in session.start():
            said.append(str(out))
    return said


def test_a_match_notes_a_search_of_hours_before_its_breaker_begins():
    match = Match(LARGE, ["knuth", "optimal"], 2, seed=1)  # game 1: knuth makes the code, optimal breaks it
    said = said_until_stopped(MatchSession(match, Notation(LARGE), thinking=stopped_at("optimal")))
    assert said[-1].startswith(f"Note: {the_note()};")
    assert said[-1].endswith("a heuristic strategy plays in seconds (entropy in --players); Ctrl-C stops.")


def test_a_match_notes_the_walk_for_the_hardest_secret_before_it_begins():
    """A computer codemaker picking the hardest secret walks the breaker's whole tree first: an
    optimal breaker's is the exact search, said in the same note (its way out: a random code)."""
    match = Match(LARGE, ["knuth", "optimal"], 2, codemaker="hardest", seed=1)
    said = said_until_stopped(MatchSession(match, Notation(LARGE), thinking=stopped_at("knuth")))  # its turn
    assert said[-1].startswith(f"Note: {the_note()};")
    assert said[-1].endswith("--codemaker random draws a secret at once; Ctrl-C stops.")
    assert match.current.game is None  # the walk has not begun


def test_a_hardest_secret_of_a_quick_walk_has_no_note():
    match = Match(Rules(pegs=3, colors=4), ["knuth", "optimal"], 2, codemaker="hardest", seed=1)
    assert match.secret_search() is not None  # a walk is due, and quick: no note
    session = MatchSession(match, Notation(match.rules))
    said = [str(out) for out in session.start()]
    assert not any(line.startswith("Note:") for line in said) and match.over
    assert match.secret_search() is None


def test_a_quick_search_has_no_note():
    for args in (
        ["guess", "-s", "optimal", "-p", "3", "-c", "4", "--secret", "123"],
        ["match", "--players", "optimal,knuth", "-p", "3", "-c", "4", "--games", "2"],
    ):
        result = CliRunner().invoke(cli, [*args, "--no-history"])
        assert result.exit_code == 0 and "Note:" not in result.output, result.output
