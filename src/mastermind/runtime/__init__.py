"""What a long run stands on, below the game and its searches: the journal a search appends its
finished work to, so that the same search started again resumes where it was."""
