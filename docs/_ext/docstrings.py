"""A griffe extension for the API reference: the package's docstrings, written for the terminal
and for doctest, made into Markdown for mkdocstrings.

- Sphinx-style roles (``:class:`~mastermind.core.code.Code```) become code spans (``Code``): the
  docstrings keep them because ``help()`` and editors show them as they are, and they name the
  full path of what they mention.
- Doctest examples (``>>>`` lines and the output after them) become ``pycon`` code blocks;
  Markdown would otherwise read each ``>`` as a quotation.
- reST double backquotes become single ones (a code span either way).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|meth|func|attr|mod|data|exc|obj):`(~?)([^`]+)`")


def _role(match: re.Match[str]) -> str:
    short, target = match.groups()
    name = target.rsplit(".", 1)[-1] if short else target
    return f"`{name}`"


def markdown(text: str) -> str:
    """A docstring's text as Markdown (see the module's docstring)."""
    text = _ROLE.sub(_role, text)
    text = re.sub(r"``([^`]+)``", r"`\1`", text)
    out: list[str] = []
    in_example = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") and not in_example:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            in_example = True
        elif in_example and not stripped:
            out.append(f"{indent}```")
            in_example = False
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class Docstrings(griffe.Extension):
    """Rewrites every docstring as it is loaded (see :func:`markdown`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
