"""Strategies measured over every secret: evaluation, results, plots, and the runner that cuts a
whole tree into units for threads or a Dask cluster, with checkpoints."""
