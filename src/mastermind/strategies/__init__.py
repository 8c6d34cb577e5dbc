"""Codebreaking strategies, chosen by name.

>>> from mastermind.core.rules import Rules
>>> make_strategy("knuth", Rules()).name
'knuth'
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any, TypeVar

from ..core.code import Code
from ..core.rules import Rules
from ..core.text import quote
from ..errors import StrategyError, UnknownStrategyError
from .base import Strategy, StrategySpec
from .partition import PartitionStrategy

S = TypeVar("S", bound=Strategy)

#: The strategies of this package, in the order they are listed: the module (in this package)
#: and the class of each, imported when the strategy is first asked for, so that a command that
#: plays Knuth's strategy does not import the exact search.
_BUILT_IN: dict[str, tuple[str, str]] = {
    "knuth": ("partition", "Knuth"),
    "expected-size": ("partition", "ExpectedSize"),
    "entropy": ("partition", "Entropy"),
    "most-parts": ("partition", "MostParts"),
    "rollout": ("rollout", "Rollout"),
    "optimal": ("optimal.strategy", "Optimal"),
    "six-guess": ("six_guess", "SixGuess"),
    "counter": ("counter", "Counter"),
    "random": ("random_choice", "RandomCandidate"),
}

#: Every registered strategy class, this package's first, then installed plug-ins' and those
#: registered by a program. Made when first read (a module attribute made on demand), which
#: imports every strategy's module and loads the installed plug-ins.
STRATEGIES: list[type[Strategy]]


#: The entry-point group through which an installed package adds strategies: each entry names a
#: Strategy subclass by its ``name``, e.g. ``first-candidate = "my_package.module:FirstCandidate"``.
ENTRY_POINT_GROUP = "mastermind.strategies"

#: The names of the strategies of this package.
BUILT_IN = frozenset(_BUILT_IN)

#: A strategy's name: lower-case letters and digits, words joined by hyphens.
_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

#: Installed plug-ins that could not be loaded, by name: why (said when the name is asked for).
_BROKEN: dict[str, str] = {}

#: The plug-ins loaded from installed packages, by name: found by name in every process.
_INSTALLED: dict[str, type[Strategy]] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def find_strategy(name: str) -> type[Strategy]:
    """The strategy class registered under ``name`` (a built-in, a registered or an installed one)."""
    if not isinstance(name, str):
        raise StrategyError(f"a strategy's name is text, not {name!r}")
    key = _key(name)
    if "STRATEGIES" not in globals() and key in _BUILT_IN:
        return _built_in(key)  # the one module it needs: no plug-in read, no other strategy
    strategies = _registry()
    for cls in strategies:
        if cls.name == key:
            return cls
    if key in _BROKEN:
        raise StrategyError(f"the strategy {quote(name)} could not be loaded: {_BROKEN[key]}")
    names = ", ".join(s.name for s in strategies)
    raise UnknownStrategyError(f"unknown strategy {quote(name)}; choose one of: {names}")


def _built_in(key: str) -> type[Strategy]:
    module, name = _BUILT_IN[key]
    cls: type[Strategy] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return cls


def __getattr__(name: str) -> Any:
    """``STRATEGIES``, made when first read: this package's strategies, then the installed
    plug-ins (each module imported and each entry point loaded once, at that moment)."""
    if name != "STRATEGIES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    strategies = [_built_in(key) for key in _BUILT_IN]
    globals()["STRATEGIES"] = strategies
    _load_installed()
    return strategies


def _registry() -> list[type[Strategy]]:
    """``STRATEGIES`` as it is now (a test or a program may have replaced the list)."""
    strategies: list[type[Strategy]] = (
        globals()["STRATEGIES"] if "STRATEGIES" in globals() else __getattr__("STRATEGIES")
    )
    return strategies


def make_strategy(name: str, rules: Rules, first: Code | str | int | None = None, **options: Any) -> Strategy:
    """A strategy bound to ``rules``.

    ``options`` are the strategy's own (e.g. ``tables=False`` for the counter); an option the
    strategy does not take is refused with a StrategyError.
    """
    return find_strategy(name)(rules, first, **options)


def register_strategy(cls: type[S], *, replace: bool = False) -> type[S]:
    """Add a strategy written outside the package to the registry, under its ``name``: from then
    on it works by name wherever a built-in one does (``make_strategy``, ``evaluate``, games and
    matches, the command line and the boards' settings, Dask workers). Usable as a decorator.

    ``cls`` is a subclass of :class:`Strategy` that implements ``pick`` and has a ``name`` of
    lower-case words joined by hyphens. A name already registered is refused unless ``replace``
    (a built-in's never); the same class defined again (a notebook's cell run twice) replaces
    its former self.

    >>> class FirstCandidate(Strategy):
    ...     name = "first-candidate-doc"
    ...     def pick(self, state):
    ...         return int(state.candidate_indices()[0])
    >>> _ = register_strategy(FirstCandidate)
    >>> make_strategy("first-candidate-doc", Rules()).first_guess()
    0
    >>> _ = unregister_strategy("first-candidate-doc")
    """
    _check_class(cls)
    strategies = _registry()
    former = next((s for s in strategies if s.name == cls.name), None)
    if former is cls:
        return cls
    if former is not None:
        if cls.name in BUILT_IN:
            raise StrategyError(f"{cls.name!r} is a strategy of this package; give yours another name")
        again = (former.__module__, former.__qualname__) == (cls.__module__, cls.__qualname__)
        if not (replace or again):
            raise StrategyError(
                f"a strategy named {cls.name!r} is registered already ({_where(former)}); "
                "give yours another name, or register it with replace=True"
            )
        strategies[strategies.index(former)] = cls
        _INSTALLED.pop(cls.name, None)
    else:
        strategies.append(cls)
    _BROKEN.pop(cls.name, None)
    return cls


def unregister_strategy(name: str) -> type[Strategy]:
    """Take a registered strategy out of the registry (never a built-in one); returns its class."""
    cls = find_strategy(name)
    if cls.name in BUILT_IN:
        raise StrategyError(f"{cls.name!r} is a strategy of this package: it cannot be unregistered")
    _registry().remove(cls)
    _INSTALLED.pop(cls.name, None)
    return cls


def found_by_name(cls: type[Strategy]) -> bool:
    """Whether every process finds ``cls`` by its name: a built-in, or an installed plug-in's
    (a worker loads the same entry points); not a class registered by a running program."""
    return cls.name in BUILT_IN or _INSTALLED.get(cls.name) is cls


def _check_class(cls: object) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyError(f"a strategy is a subclass of mastermind.Strategy, not {cls!r}")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise StrategyError(
            f"{cls.__qualname__} needs a name of lower-case words joined by hyphens "
            f"(e.g. 'first-candidate'), not {name!r}"
        )
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise StrategyError(f"{cls.__qualname__} does not implement {missing}")


def _where(cls: type[Strategy]) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _load_installed() -> None:
    """Register the strategies of installed packages (the ``mastermind.strategies`` entry
    points). One that cannot be loaded is left out, and its name says why when it is asked for."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        package = f"the package {entry.dist.name}" if entry.dist is not None else "an installed package"
        try:
            cls = entry.load()
            _check_class(cls)
            if _key(entry.name) != cls.name:
                raise StrategyError(f"its entry point is named {entry.name!r} but the strategy {cls.name!r}")
            if cls.name in BUILT_IN:
                raise StrategyError(f"{cls.name!r} is the name of a strategy of this package")
            register_strategy(cls)
        except Exception as err:  # any failure of someone else's code: said, not raised at import
            _BROKEN[_key(entry.name)] = f"{entry.value} of {package}: {type(err).__name__}: {err}"
            continue
        _INSTALLED[cls.name] = cls


__all__ = [
    "BUILT_IN",
    "ENTRY_POINT_GROUP",
    "STRATEGIES",
    "PartitionStrategy",
    "Strategy",
    "StrategySpec",
    "find_strategy",
    "make_strategy",
    "register_strategy",
    "unregister_strategy",
]
