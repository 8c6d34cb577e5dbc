"""The files anyone can check, and their checkers, in plain Python (no numpy, no numba, no search
code): tree files (:mod:`.tree`: a strategy's tree, replayed against every secret) and proof files
(:mod:`.proof`: a lower bound; :mod:`.check` checks one, whole, in parts or on several processes).
:mod:`.files` is what the two formats share; :mod:`.checker` is the check of a proof, node by
node, on the arithmetic of :mod:`.arithmetic`; :mod:`.parts` cuts a check into parts, and
:mod:`.workers` shares one among processes."""
