"""The terminal UI: a Textual app over the games package (``mastermind tui``). Needs the ``tui``
extra (textual); the browser's board is :mod:`mastermind.web`."""
