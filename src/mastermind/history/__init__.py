"""The player's history: the SQLite store of every game and run, and the statistics drawn from it."""
