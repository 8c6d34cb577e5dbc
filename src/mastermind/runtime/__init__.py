"""What the package's long runs share below every other layer: the processes a run forks (its pool),
and how a run stops or is stopped. Imports nothing of the package but its errors."""
