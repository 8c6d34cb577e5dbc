"""A kernel that only other kernels call (``jit.inner``) is compiled without the wrapper that
converts Python's arguments: a kernel calling it gets its result, and a call from Python raises
TypeError (rather than jumping to a wrapper that is not there)."""

import pytest

from mastermind._kernels.jit import InnerKernel, inner, njit


def test_an_inner_kernel_answers_kernels_and_refuses_python():
    @inner()
    def twice(x):
        return 2 * x

    @njit()
    def outer(x):
        return twice(x) + 1

    assert outer(20) == 41
    assert isinstance(twice, InnerKernel)
    with pytest.raises(TypeError, match="twice is a kernel that only other kernels call"):
        twice(20)


def test_the_search_kernels_called_from_python_keep_their_wrapper():
    from mastermind._kernels import exact, feedback

    # called from Python by the search's driver, the proofs or the tests
    for kernel in (exact.search, exact.bound_guesses, exact.child_group, exact.reply_rows, exact.cell_bounds):
        assert not isinstance(kernel, InnerKernel), kernel
    assert not isinstance(exact.least_in_history_class, InnerKernel)
    assert not isinstance(feedback.replies, InnerKernel)
    with pytest.raises(TypeError, match="_shortcut is a kernel that only other kernels call"):
        exact._shortcut()
