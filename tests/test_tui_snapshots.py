"""The look of the app's main screens, pinned with pytest-textual-snapshot (SVG files beside this one).

After a deliberate change of the look: python -m pytest tests/test_tui_snapshots.py --snapshot-update,
and look at the new SVGs before committing them.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")
pytest.importorskip("pytest_textual_snapshot", reason="pytest-textual-snapshot is not installed")

from mastermind.tui.app import MastermindApp  # noqa: E402
from tui_pilot import settle  # noqa: E402


def steps(*keys: str):
    """Key presses, each followed by the end of the strategy's work and a redraw."""

    async def run(pilot) -> None:
        await settle(pilot.app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot.app, pilot)

    return run


def test_breaking_the_computers_code(snap_compare):
    app = MastermindApp(seed=2026, history=False)
    assert snap_compare(app, run_before=steps(*"1122", "enter", *"3456", "enter", "question_mark", "1"))


def test_the_computer_breaking_yours_with_a_contradiction(snap_compare, private_settings):
    private_settings.write_text(json.dumps({"mode": "guess"}))
    app = MastermindApp(seed=1, history=False)
    assert snap_compare(app, run_before=steps("enter", "enter", "enter"))


def test_a_match_between_a_person_and_knuth(snap_compare, private_settings):
    private_settings.write_text(json.dumps({"mode": "match", "players": ["human", "knuth"]}))
    app = MastermindApp(seed=4, history=False, pace=0)
    assert snap_compare(app, run_before=steps(*"3632", "enter", "1"))


def test_the_settings(snap_compare):
    assert snap_compare(MastermindApp(seed=1, history=False), run_before=steps("escape", "s"))


def test_the_help(snap_compare):
    assert snap_compare(MastermindApp(seed=1, history=False), run_before=steps("f1"))


def test_a_small_terminal(snap_compare):
    app = MastermindApp(seed=2026, history=False)
    assert snap_compare(app, terminal_size=(60, 18), run_before=steps(*"1122", "enter"))
