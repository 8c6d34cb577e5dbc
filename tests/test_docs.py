"""Every code example of the documentation site (docs/) and of the README runs, and says what the
page says it does.

- ```python blocks are executed, a page's blocks in order in one namespace;
- ```pycon blocks are doctests: each output is checked (``...`` stands for what varies, as in
  doctest's ELLIPSIS);
- ```console blocks are commands: each ``$ mastermind ...`` line is run, and its output
  (stdout and stderr together) checked the same way; what a session shows typed after a prompt
  (``guess 1 of 10> 1122``) is typed on its standard input.

```sh blocks show commands that are not run here (installs, benchmarks, runs of minutes, a
server); the site's "About these pages" says so.
"""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mastermind._kernels import COMPILING
from mastermind.strategies import STRATEGIES

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)
FLAGS = doctest.ELLIPSIS
#: A line of a session where something was typed: the prompt, then what was typed after it.
PROMPT = re.compile(r"^[A-Za-z][\w ,]*> (.*)$", re.M)


def blocks(page: Path, kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(page.read_text(encoding="utf-8")) if lang == kind]


def with_examples(*kinds: str) -> list[Path]:
    return [page for page in PAGES if any(blocks(page, kind) for kind in kinds)]


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", with_examples("python", "pycon"), ids=name)
def test_the_python_examples_of_a_page_run_and_print_what_it_says(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    namespace: dict = {"__name__": "__docs__"}
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    parser = doctest.DocTestParser()
    text = page.read_text(encoding="utf-8")
    registered = list(STRATEGIES)  # a page may register strategies of its own: they go with it
    try:
        run_page(page, text, namespace, runner, parser)
    finally:
        STRATEGIES[:] = registered
    assert runner.failures == 0, f"{runner.failures} example(s) of {name(page)} printed something else"


def run_page(page: Path, text: str, namespace: dict, runner, parser) -> None:
    for match in FENCE.finditer(text):
        lang, body = match.groups()
        line = text.count("\n", 0, match.start(2))  # the block's first line, 0-based
        if lang == "python":
            exec(compile("\n" * line + body, name(page), "exec"), namespace)
        elif lang == "pycon":
            test = parser.get_doctest(body, namespace, name(page), name(page), line)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # a doctest runs in a copy of the namespace


def trimmed(text: str) -> str:
    """Without spaces at the ends of lines (tables pad their cells; pages keep no trailing spaces)."""
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def commands(page: Path) -> list[tuple[str, str]]:
    """Each ``$ command`` of the page's console blocks and the output shown after it."""
    out = []
    for body in blocks(page, "console"):
        for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
            command, _, shown = chunk.partition("\n")
            out.append((command, shown))
    return out


def run_session(command: str, shown: str, folder: Path) -> str:
    """What ``$ command`` prints, run in ``folder`` (its history there) with what ``shown`` types."""
    typed = "".join(m.group(1) + "\n" for m in PROMPT.finditer(shown))
    env = {
        **os.environ,
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "PYTHONUNBUFFERED": "1",  # stdout and stderr in the order they were written
        "MASTERMIND_DB": str(folder / "db.sqlite3"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "mastermind", *shlex.split(command)[1:]],
        input=typed,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=folder,
        timeout=300,
    )
    # a cold numba cache adds this line to whichever command compiles first: the machine's state,
    # not the command's output
    return done.stdout.replace(f"mastermind: note: {COMPILING}\n", "")


CONSOLE = [
    (page, command, shown)
    for page in PAGES
    if page != ROOT / "README.md"  # its sessions follow one another: replayed in order below
    for command, shown in commands(page)
]


@pytest.mark.parametrize("page,command,shown", CONSOLE, ids=[f"{name(p)}: {c}" for p, c, _ in CONSOLE])
def test_a_command_on_the_site_prints_what_the_page_shows(page, command, shown, tmp_path):
    args = shlex.split(command)
    assert args[0] == "mastermind", f"a console block of {name(page)} runs {args[0]}, not mastermind"
    printed = run_session(command, shown, tmp_path)
    checker = doctest.OutputChecker()
    assert checker.check_output(trimmed(shown), trimmed(printed), FLAGS), (
        f"{name(page)}: `{command}` printed\n{printed}\nthe page shows\n{shown}"
    )


def test_the_readmes_sessions_print_what_it_shows_one_after_another(tmp_path):
    # one history for all: the review of game 1 is of the game the README plays before it
    seconds = re.compile(r"(│ seconds +│ )[0-9.]+")
    sessions = [(c, s) for c, s in commands(ROOT / "README.md") if not c.startswith("mastermind web")]
    assert [c.split()[1] for c, _ in sessions] == ["evaluate", "play", "review"]
    for command, shown in sessions:
        printed = seconds.sub(r"\1...", run_session(command, shown, tmp_path))
        assert doctest.OutputChecker().check_output(
            trimmed(seconds.sub(r"\1...", shown)), trimmed(printed), FLAGS
        ), f"README.md: `{command}` printed\n{printed}\nthe README shows\n{shown}"


def test_every_page_of_the_site_is_in_its_navigation():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"([\w/-]+\.(?:md|ipynb))", config))
    docs = ROOT / "docs"
    pages = {str(p.relative_to(docs)) for p in docs.rglob("*.md") if "_ext" not in p.parts}
    assert pages <= listed, f"pages missing from mkdocs.yml's nav: {sorted(pages - listed)}"
