"""The terminal UI: a Textual app over the game engine (``mastermind tui``), which
``mastermind web`` serves to a browser. Needs the ``tui`` extra (textual, textual-serve)."""
