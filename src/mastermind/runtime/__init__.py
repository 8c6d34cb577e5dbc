"""What the package's long runs share below every other layer: the processes a run forks (its
pool), how a run stops or is stopped, and the journal a search appends its finished work to, so
that the same search started again resumes where it was. Imports nothing of the package but its
errors."""
