"""Names of a package imported on first use, so that a command that needs few of them (``--help``,
the history) does not wait for numpy and numba."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, home: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name of ``home`` is read from its module
    (``home[name]``, relative to the package) when first asked for, and kept in the package."""
    import sys

    def __getattr__(name: str) -> Any:
        if name in home:
            value = getattr(importlib.import_module(f".{home[name]}", package), name)
            setattr(sys.modules[package], name, value)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
