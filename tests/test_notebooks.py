"""The example notebooks of docs/notebooks execute in a Jupyter kernel (nbclient), and the library's
values show themselves there as rich displays: a game as a board, candidates as pegs, a partition
as a table, statistics as a chart, a strategy tree to unfold."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from mastermind import Game, Rules, SolverState, evaluate, make_strategy, partition, strategy_tree

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "docs" / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_an_example_notebook_runs_and_shows_rich_displays(path, tmp_path):
    book = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in book.cells if cell.cell_type == "code"), (
        f"{path.name} is kept without outputs: clear them before committing"
    )
    NotebookClient(
        book, timeout=600, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    ).execute()
    outputs = [out for cell in book.cells if cell.cell_type == "code" for out in cell.outputs]
    assert not [out for out in outputs if out.output_type == "error"]
    html = [out for out in outputs if "text/html" in out.get("data", {})]
    assert len(html) >= 3, f"{path.name} shows {len(html)} rich displays"


def test_a_game_draws_its_board_with_its_rows_and_what_it_waits_for():
    game = Game.solving(Rules())
    for reply in ["1,0", "0,1", "1,2", "1,2", "0,2"]:
        game.reply(reply)
    html = game._repr_html_()
    assert html.count("<tr") == 5 and html.count("background:#fde8e6") == 4  # rows 1, 2, 4, 5 marked
    assert "the replies contradict each other" in html and ">6<" in html  # 6425's first peg


def test_candidates_are_drawn_as_pegs_and_counted():
    html = SolverState(Rules()).add("1122", "1,0").add("1344", "0,1")._repr_html_()
    assert "44 codes possible" in html and html.count("border-radius:50%") == 44 * 4


def test_a_large_set_of_candidates_is_cut_with_how_many_more():
    html = SolverState(Rules())._repr_html_()
    assert "and 1,236 more codes" in html


def test_a_partition_draws_a_row_per_reply():
    html = partition(Rules(), "4113", ["1123", "3151", "1141", "6544"])._repr_html_()
    assert html.count("<tr>") == 1 + 3 and "largest class 2" in html


def test_stats_draw_a_bar_per_number_of_guesses():
    html = evaluate(make_strategy("knuth", Rules()))._repr_html_()
    assert html.count("<rect") == 5 and ">694<" in html and "total 5,801 guesses" in html


def test_a_tree_unfolds_reply_by_reply_and_a_large_one_is_cut():
    small = strategy_tree(make_strategy("knuth", Rules(pegs=2, colors=3)))._repr_html_()
    assert small.count("<details") == 4  # the guesses with replies below them: 11, 22, 23 and 12
    large = strategy_tree(make_strategy("knuth", Rules()))._repr_html_()
    assert "(then 1 more guess)" in large
