"""python -m mastermind.cli: the same as the mastermind command."""

from . import main

main()
