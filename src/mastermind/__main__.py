"""python -m mastermind: the same as the mastermind command."""

from .cli import main

main()
