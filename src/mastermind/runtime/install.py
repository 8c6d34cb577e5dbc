"""How to add an optional part (an extra: tui, web, plot, distributed, rl) to this installation,
for the one-line messages of a feature that needs it."""

from __future__ import annotations

import json
import shlex
from urllib.parse import unquote, urlparse

#: The distribution's name (pyproject.toml).
DISTRIBUTION = "mastermind-lab"


def install_command(extra: str) -> str:
    """The pip command that adds the optional part ``extra``: from the checkout the package was
    installed from (``pip install -e .``, as the README says: the name alone would look for it
    in a package index), else by name."""
    where = _installed_from()
    if where is None:
        return f"pip install '{DISTRIBUTION}[{extra}]'"
    path, editable = where
    return f"pip install {'-e ' if editable else ''}{shlex.quote(f'{path}[{extra}]')}"


def _installed_from() -> tuple[str, bool] | None:
    """The folder the package was installed from and whether in editable mode, from the record
    pip leaves (``direct_url.json``, PEP 610) in the first installation of it that has one (a
    checkout's own build metadata, which a path may name first, has none); None for an install
    from an index or a file."""
    from importlib.metadata import distributions

    for found in distributions(name=DISTRIBUTION):
        try:
            raw = found.read_text("direct_url.json")
            record = json.loads(raw) if raw else None
        except (ValueError, OSError):
            continue
        if not isinstance(record, dict):
            continue
        url = urlparse(str(record.get("url", "")))
        if url.scheme != "file" or not isinstance(record.get("dir_info"), dict):
            return None
        return unquote(url.path), bool(record["dir_info"].get("editable"))
    return None
