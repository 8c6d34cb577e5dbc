"""The core library imports no front-end library, so that a worker, a notebook or another front
end can use it without them."""

import subprocess
import sys

CORE = [
    "mastermind",
    "mastermind.core.rules",
    "mastermind.core.code",
    "mastermind.core.feedback",
    "mastermind.core.notation",
    "mastermind.solver.state",
    "mastermind.strategies",
    "mastermind.research.evaluation",
    "mastermind.core.tree",
    "mastermind.strategies.walk",
    "mastermind.research.results",
    "mastermind.core.records",
    "mastermind.engine.game",
    "mastermind.engine.match",
    "mastermind.research.runner",
    "mastermind.history.store",
    "mastermind.history.stats",
]


def test_the_core_imports_without_click_rich_or_textual():
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('click', 'rich', 'textual'):\n"
        "            raise ImportError('front-end library imported by the core: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for name in {CORE!r}:\n"
        "    __import__(name)\n"
        "import mastermind\n"
        "mastermind.Game.breaking(mastermind.Rules(), seed=1).hint()\n"
    )
    proc = subprocess.run([sys.executable, "-c", blocker], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_strategies_import_nothing_above_them():
    """Imports point inwards: the strategies never reach up for the runner or the evaluation
    (not even lazily, inside a function); those call the strategies."""
    import ast
    from pathlib import Path

    import mastermind.strategies

    above = {"runner", "evaluation", "walk", "results", "stats", "cli", "tui", "game", "store"}
    for path in Path(mastermind.strategies.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 2:
                top = (node.module or "").split(".")[0]
                assert top not in above, f"{path.name} imports ..{node.module}"
