"""`mastermind history --help` names the columns that --csv writes, every one (blank was left out)."""

import csv
import io
import re

from click.testing import CliRunner

from mastermind.cli import cli


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0 and "Traceback" not in result.output
    return result.stdout


def listed(help_text: str, option: str, after: str) -> list[str]:
    """The columns the help names for ``option``: the comma list after ``after``, up to its end."""
    flat = " ".join(help_text.split())  # click wraps the help over lines
    found = re.search(rf"{option}\b.*?{re.escape(after)}\s*([a-z_, ]+)", flat)
    assert found, flat
    return [name.strip() for name in found[1].split(",")]


def header(out: str) -> list[str]:
    return next(csv.reader(io.StringIO(out)))


def test_the_csv_help_names_the_columns_the_file_has(tmp_path):
    db = str(tmp_path / "h.db")
    run("guess", "--db", db, "-p", "3", "-c", "4", "--secret", "123")
    said = run("history", "--help")
    games = header(run("history", "--db", db, "--csv", "-"))
    moves = header(run("history", "--db", db, "--csv", "-", "--moves"))
    assert "blank" in games and "blank" in moves
    assert listed(said, "--csv FILE", "(- for stdout):") == games
    assert listed(said, "--moves", "one row per move instead (") == moves
