"""numba's ``njit`` and ``prange`` for the kernels, two intrinsics they need (a shift and a bit
count in a mask's own width), and word of when the JIT compiles.

Every kernel module imports numba through here, so importing one also starts watching numba's
compile events: a kernel compiled (not loaded from numba's on-disk cache) calls the listeners
given to :func:`mastermind._kernels.on_compile`, once when the outermost compilation starts and
once when it ends.
"""

from __future__ import annotations

import signal
import sys
import threading
import types
from typing import Any, cast

from numba import config, prange
from numba import njit as _njit
from numba.core import event
from numba.core.caching import FunctionCache
from numba.core.dispatcher import Dispatcher
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys
from numba.extending import intrinsic

from . import _compile_step, _compiling

__all__ = ["ALLOCATES_NOTHING", "bit_of", "bits_set", "inner", "njit", "prange"]

#: Options for a kernel that allocates nothing (every buffer it uses is a slice of a workspace
#: made in Python): it is compiled without numba's reference counting, which otherwise wraps
#: every array slice, argument and call in increments and decrements that the JIT must emit
#: and optimise (about a tenth of a cold compilation). numba refuses to compile such a kernel
#: if it does allocate. (``_nrt`` is numba's own switch for this.)
ALLOCATES_NOTHING = {"_nrt": False}


class _CacheLoadedAlone(FunctionCache):
    """numba's on-disk cache of one kernel, whose compiled code is loaded without first readying
    numba's compiler.

    Why: numba's own load refreshes the whole target context first, importing dozens of numba's
    modules and installing every typing and lowering rule it has: longer than a game of 4,096
    codes takes to walk (docs/performance.md, the sixth round), and of use only to compile
    (numba's compiler refreshes the context itself before anything is compiled). Loading
    compiled code needs only the functions that code calls: numba's memory runtime (itself
    compiled when started), and only where the kernel or a kernel it calls counts references
    (:func:`_counts_references`).
    The kernels here use no other part of numba's runtime (no hashing, no parallel loops), whose
    rules would register their own functions.
    """

    kernel: Any = None  # the kernel's dispatcher (set by _loaded_alone)

    def load_overload(self, sig: Any, target_context: Any) -> Any:  # noqa: ANN401 - as numba's
        if self.kernel is None or _counts_references(self.kernel):
            rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)


def _counts_references(kernel: Dispatcher) -> bool:
    """Whether the code of ``kernel`` calls numba's memory runtime: it or a kernel it calls was
    compiled with reference counting (see :data:`ALLOCATES_NOTHING`; a kernel inlined in its
    caller is compiled as its caller is)."""
    return any(
        one.targetoptions.get("_nrt", True) and (one is kernel or one.targetoptions.get("inline") != "always")
        for one in kernels_called(kernel)
    )


def _loaded_alone(kernel: Any) -> Any:  # noqa: ANN401 - numba is untyped
    cache = getattr(kernel, "_cache", None)
    if type(cache) is FunctionCache:
        alone = cast(_CacheLoadedAlone, cache)
        alone.__class__ = _CacheLoadedAlone
        alone.kernel = kernel
    return kernel


def njit(*args: Any, **options: Any) -> Any:  # noqa: ANN401 - numba's decorator is untyped
    """numba's ``njit``, without the C callback wrapper that numba otherwise
    compiles beside every kernel (for passing it to another kernel as a first-class function,
    which no kernel here does): a part of each first compilation, in Python and in LLVM. With
    ``cache=True``, the kernel is loaded from the cache alone (:class:`_CacheLoadedAlone`)."""
    options.setdefault("no_cfunc_wrapper", True)
    if args and callable(args[0]):
        return _loaded_alone(_njit(*args, **options))
    decorate = _njit(*args, **options)
    return lambda func: _loaded_alone(decorate(func))


class InnerKernel(CPUDispatcher):
    """A kernel that only other kernels call (see :func:`inner`): called from Python, it says so
    rather than jump to the wrapper it was compiled without."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN401, ARG002 - as numba's
        raise TypeError(f"{self.py_func.__qualname__} is a kernel that only other kernels call")


def inner(*, cache: bool = False, **options: Any) -> Any:  # noqa: ANN401 - numba is untyped
    """:func:`njit` for a kernel that only other kernels call: compiled without the wrapper that
    converts Python's arguments (numba builds and optimises one beside every kernel, and for a
    kernel taking the search's tables it is large: a part of each first compilation). Called from
    Python, such a kernel raises TypeError."""

    def decorate(func: Any) -> Any:  # noqa: ANN401
        if config.DISABLE_JIT:
            return func
        targetoptions = {"nopython": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True, **options}
        kernel = InnerKernel(py_func=func, locals={}, targetoptions=targetoptions)
        if cache:
            kernel.enable_caching()
        return _loaded_alone(kernel)

    return decorate


@intrinsic
def bit_of(typingctx, like, amount):  # noqa: ANN001, ANN201, ARG001 - numba's intrinsic signature
    """``1 << amount`` in the integer type of ``like`` (its value is not used), for an ``amount``
    below that type's width. numba widens every shift to 64 bits, so a loop that ORs such bits
    into a 32-bit mask works in lanes of 64 bits; shifted in 32 bits, it works in twice as many
    lanes at once."""
    sig = like(like, amount)

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202, ARG001
        kind = context.get_value_type(signature.return_type)
        shift = args[1]
        if shift.type.width > kind.width:
            shift = builder.trunc(shift, kind)
        elif shift.type.width < kind.width:
            shift = builder.zext(shift, kind)
        return builder.shl(kind(1), shift)

    return sig, codegen


@intrinsic
def bits_set(typingctx, x):  # noqa: ANN001, ANN201, ARG001 - numba's intrinsic signature
    """The number of bits set in the unsigned integer ``x``, in its type: LLVM's population count,
    one instruction where the processor has one, on as many lanes as the type allows."""
    sig = x(x)

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202, ARG001
        return builder.ctpop(args[0])

    return sig, codegen


def kernels_called(kernel: Dispatcher) -> set[Dispatcher]:
    """``kernel`` and the compiled kernels it calls, directly or through others: the names its
    code (and the code nested in it) reads that are kernels, in its module's globals or in the
    variables of the function it was defined in."""
    found: set[Dispatcher] = set()
    waiting = [kernel]
    while waiting:
        one = waiting.pop()
        if one in found:
            continue
        found.add(one)
        func = one.py_func
        codes, names = [func.__code__], set[str]()
        while codes:
            code = codes.pop()
            names.update(code.co_names)
            codes.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        waiting.extend(v for n in names if isinstance(v := func.__globals__.get(n), Dispatcher))
        cells = func.__closure__ or ()
        waiting.extend(c.cell_contents for c in cells if isinstance(c.cell_contents, Dispatcher))
    return found


class _Watch(event.Listener):
    """Counts nested compilations (a kernel compiles the kernels it calls), reports the outermost,
    and counts the kernels done of those the outermost needs (:func:`kernels_called`, less those
    compiled or loaded already) for a progress bar.

    It also keeps Ctrl-C from being lost while the main thread compiles: LLVM calls back into
    Python as it compiles (numba's object cache), and an exception raised in such a callback is
    printed and dropped by ctypes. So for the compilation the interrupt handler is wrapped, what
    it raised is raised again as each kernel starts or ends, and ctypes prints nothing of it.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.needed: set[Dispatcher] = set()
        self.done: set[Dispatcher] = set()
        self.heard: BaseException | None = None
        self.handler: Any = None
        self.unraisable: Any = None

    def on_start(self, ev: event.Event) -> None:
        self.depth += 1
        if self.depth == 1:
            self._hear_interrupts()
            kernel = ev.data["dispatcher"]
            self.needed = {k for k in kernels_called(kernel) if not k.overloads} | {kernel}
            self.done = set()
            _compiling(True)
            _compile_step(0, len(self.needed))
        self._raise_heard()

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        kernel = ev.data["dispatcher"]
        self.needed.add(kernel)
        self.done.add(kernel)
        try:
            # the outermost's end: every kernel it needs is compiled (or was in numba's cache)
            _compile_step(len(self.needed) if self.depth == 0 else len(self.done), len(self.needed))
            if self.depth == 0:
                _compiling(False)
        finally:
            if self.depth == 0 and self.handler is not None:
                signal.signal(signal.SIGINT, self.handler)
                sys.unraisablehook = self.unraisable
                self.handler = self.unraisable = None
        self._raise_heard()

    def _hear_interrupts(self) -> None:
        self.heard = None
        if threading.current_thread() is not threading.main_thread():
            return  # only the main thread runs signal handlers
        handler = signal.getsignal(signal.SIGINT)
        if not callable(handler):
            return  # ignored, or the default of a process that set none

        def heard(signum: int, frame: types.FrameType | None) -> None:
            try:
                handler(signum, frame)
            except BaseException as err:
                self.heard = err
                raise

        previous = sys.unraisablehook

        def unraisable(report: Any) -> None:  # noqa: ANN401 - sys.UnraisableHookArgs
            if report.exc_value is not self.heard or self.heard is None:
                previous(report)

        self.handler, self.unraisable = handler, previous
        signal.signal(signal.SIGINT, heard)
        sys.unraisablehook = unraisable

    def _raise_heard(self) -> None:
        # raised again even if it went up the first time: then it is the exception going up
        if self.heard is not None:
            heard, self.heard = self.heard, None
            raise heard


event.register("numba:compile", _Watch())
