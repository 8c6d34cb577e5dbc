"""What a history of guesses and replies leaves possible: the candidates, the contradictions and
how to correct them, and how a guess splits the candidates."""
