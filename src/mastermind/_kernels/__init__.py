"""Private numeric kernels: numpy reference versions and numba-compiled fast versions.

Nothing outside the package imports this. Feedback is one small integer,
``black * (pegs + 1) + white``; codes are indices into a CodeSpace.

* ``reference``: plain numpy, the readable version every fast path is tested against.
* ``tables``: :class:`~.tables.CodeTables`, the arrays of one code space as one named structure.
* ``feedback``: the one compiled feedback rule and the one counting sort (grouping by reply).
* ``workspace``: kernels carve one buffer into named parts whose sizes are listed once.
* ``tree``: the partition strategies' search; ``optimal``: the exact optimal search;
  ``search``: the counter's skip-ahead search.
"""
