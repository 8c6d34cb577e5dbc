"""The package as a user receives it: the sdist and the wheel build, their metadata passes
``twine check``, and the wheel installed into a clean virtual environment (no test extras, no
matplotlib) runs the README's first command and refuses ``--plot`` in one line naming the extra."""

import importlib.util
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.runtime.install import install_command

ROOT = Path(__file__).resolve().parents[1]


def test_plot_without_matplotlib_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a)
    )
    result = CliRunner().invoke(cli, ["evaluate", "-p", "2", "-c", "3", "--plot", str(tmp_path / "k.png")])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and install_command("plot") in result.stderr
    assert not (tmp_path / "k.png").exists()


@pytest.mark.slow
def test_the_wheel_builds_passes_twine_and_runs_the_readme_command_in_a_clean_venv(tmp_path):
    dist = tmp_path / "dist"
    # sdist first, then the wheel built from the unpacked sdist: a file missing from the sdist breaks it
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], check=True, capture_output=True
    )
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
        check=True,
        capture_output=True,
    )
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    shipped = ("py.typed", "web/static/index.html", "web/static/js/review.js", "games/openings-4x6.json")
    shipped += ("games/tree-puzzles-4x6.json", "web/static/js/puzzles.js", "web/static/puzzles.css")
    assert {f"mastermind/{name}" for name in shipped} <= names
    with tarfile.open(sdist) as t:
        assert any(n.endswith("/README.md") for n in t.getnames())

    env_dir = tmp_path / "clean"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([bin_dir / "python", "-m", "pip", "install", "-q", wheel], check=True, capture_output=True)
    env = {**os.environ, "HOME": str(tmp_path / "home"), "MASTERMIND_DB": str(tmp_path / "h.sqlite3")}
    env["MASTERMIND_CACHE_DIR"] = str(tmp_path / "cache")
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    for name in ("VIRTUAL_ENV", "PYTHONPATH"):
        env.pop(name, None)

    def clean(*args):
        return subprocess.run(
            [bin_dir / args[0], *args[1:]], capture_output=True, text=True, env=env, cwd=tmp_path
        )

    first = clean("mastermind", "evaluate", "--strategy", "knuth")
    assert first.returncode == 0, first.stderr
    assert "5,801" in first.stdout or "5801" in first.stdout
    # the clean environment has only the required dependencies
    assert clean("python", "-c", "import matplotlib").returncode != 0
    plot = clean("mastermind", "evaluate", "-p", "2", "-c", "3", "--plot", "k.png")
    # installed from a wheel file, not a checkout: the extra by the package's name
    assert (
        plot.returncode == 2
        and plot.stderr.count("\n") == 1
        and "pip install 'mastermind-lab[plot]'" in plot.stderr
    )
