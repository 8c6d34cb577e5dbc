"""The package's errors: all in mastermind.errors, all MastermindErrors, all on the facade."""

import ast
import inspect
from pathlib import Path

import pytest

import mastermind
from mastermind import errors


def error_classes() -> dict[str, type]:
    return {
        name: cls
        for name, cls in inspect.getmembers(errors, inspect.isclass)
        if cls.__module__ == errors.__name__
    }


def test_every_error_class_is_a_mastermind_error_exported_from_the_facade():
    classes = error_classes()
    assert {"MastermindError", "StoreError", "PlotError", "CheckpointError", "ExecutorError"} <= set(classes)
    for name, cls in classes.items():
        assert issubclass(cls, errors.MastermindError), name
        assert name in mastermind.__all__, name
        assert getattr(mastermind, name) is cls, name


def test_the_facade_lists_agree():
    """Each public name is in __all__, found at run time (_HOME) and seen by type checkers (the
    TYPE_CHECKING imports): three lists kept by hand."""
    tree = ast.parse(Path(mastermind.__file__).read_text(encoding="utf-8"))
    checked = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for stmt in node.body
        if isinstance(stmt, ast.ImportFrom)
        for alias in stmt.names
    }
    assert set(mastermind._HOME) == set(mastermind.__all__) == checked
    assert len(mastermind.__all__) == len(set(mastermind.__all__))


def test_plot_error_lives_in_errors_and_is_still_found_where_it_is_raised():
    from mastermind.research import plot

    assert plot.PlotError is errors.PlotError is mastermind.PlotError
    with pytest.raises(mastermind.PlotError, match="must end in .png, .svg, .pdf"):
        plot.check_plot_path("chart.txt")
