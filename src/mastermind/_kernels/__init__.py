"""Private numeric kernels: numpy reference versions and numba-compiled fast versions.

Nothing outside the package imports this. Feedback is one small integer,
``black * (pegs + 1) + white``; codes are indices into a CodeSpace.
"""
