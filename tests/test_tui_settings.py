"""The settings dialog as a player meets it: every field in sight and whole at 60 x 24, and the
preset naming what the fields make after they are edited."""

from __future__ import annotations

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mastermind.tui.app import MastermindApp  # noqa: E402
from tui_pilot import configure, driven, settle  # noqa: E402


async def open_settings(app, pilot):
    await settle(app, pilot)
    await pilot.press("escape", "s")
    await settle(app, pilot)
    return app.screen


async def edit(pilot, screen, field: str, text: str) -> None:
    """A field emptied and typed into, as a person does it (a click on it, then the keys)."""
    widget = screen.query_one(f"#{field}")
    widget.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(widget.value), *text)
    await pilot.pause()


def preset(screen) -> str:
    return str(screen.query_one("#preset").value)


@driven
async def test_the_preset_names_what_the_fields_make_once_they_are_edited():
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(80, 30)) as pilot:
        screen = await open_settings(app, pilot)
        assert preset(screen) == "classic"
        await edit(pilot, screen, "pegs", "5")
        assert preset(screen) == "custom"  # 5 pegs of 6 colours: no preset (it said classic)
        await edit(pilot, screen, "colors", "8")
        assert preset(screen) == "super"  # the preset the fields now make
        await pilot.click("#blank")
        await pilot.pause()
        assert preset(screen) == "super-blank"
        await edit(pilot, screen, "max-guesses", "12")
        assert preset(screen) == "custom"  # a preset's guess limit is part of it
        await edit(pilot, screen, "max-guesses", "10")
        assert preset(screen) == "super-blank"
        await edit(pilot, screen, "colors", "")
        assert preset(screen) == "custom"  # no game yet: not the preset it was
        # choosing a preset still sets the fields, and names it
        from textual.widgets import Select

        screen.query_one("#preset", Select).value = "bulls-and-cows"
        await pilot.pause()
        await pilot.pause()
        fields = ("pegs", "colors", "max-guesses", "repeats", "blank")
        values = [screen.query_one(f"#{f}").value for f in fields]
        assert values == ["4", "10", "10", False, False] and preset(screen) == "bulls-and-cows"
        await pilot.click("#repeats")
        await pilot.pause()
        assert preset(screen) == "custom"


@pytest.mark.parametrize("strategy", ["knuth", "rollout"])  # rollout: the longest line on a strategy
@driven
async def test_every_field_of_a_match_is_in_sight_and_whole_at_60_by_24(private_settings, strategy):
    """A match has the most fields: at 60 x 24 its players, games and scoring were below the
    form's edge (reached only by scrolling, with nothing on screen to say they were there) and the
    blank's tick was cut ('the blank (an empty hole')."""
    from textual.widgets import Checkbox

    configure(private_settings, mode="match", strategy=strategy)
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(60, 24)) as pilot:
        screen = await open_settings(app, pilot)
        form = screen.query_one("#settings-form")
        assert form.max_scroll_y == 0  # nothing to scroll to
        shown = [w for w in screen.query("#settings-form Grid > *") if w.display]
        assert len(shown) == 2 * 13  # a label and a field for each
        for widget in [*shown, *screen.query(Checkbox)]:
            assert form.region.contains_region(widget.region), (widget, widget.region, form.region)
        for name in ("player1", "player2", "games", "scoring"):
            assert form.region.contains_region(screen.query_one(f"#{name}").region), name
        for button in ("#start", "#cancel"):
            region = screen.query_one(button).region
            assert region.height and region.bottom <= 24 and region.right <= 60, button
        # on a taller terminal the lines on the choices follow the form, with no blank lines between
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        await pilot.pause()
        about = screen.query_one("#settings-about")
        assert form.region.height == 13, form.region
        assert about.region.y - form.region.bottom <= 1, (form.region, about.region)
