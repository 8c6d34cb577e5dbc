"""A proof file's check on a Dask cluster (``mastermind verify FILE --executor dask``): the check
cut into parts (:class:`~mastermind.verify.parts.Parts`, as ``--part`` cuts it), each part a task
that checks the file, sent with it, in plain Python on one worker. The claim holds once every
part has passed, as it does when the parts are checked on machines apart."""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from pathlib import Path

from ...errors import ProofError
from ...verify.check import Checked, ProofHead, check_file
from ...verify.parts import Parts
from .executors import DaskExecutor

#: Parts per worker thread that a whole check is cut into: parts end at different times, and each
#: checks again the nodes that every part checks (the top of the proof), so a few each.
PARTS_PER_WORKER = 2


def whole_check(executor: DaskExecutor) -> Parts:
    """Every part of a check cut for the cluster's workers (reached, or started, now)."""
    count = PARTS_PER_WORKER * executor.width
    return Parts(1, count, count)


def check_on(
    executor: DaskExecutor,
    head: ProofHead,
    parts: Parts,
    progress: Callable[[int], None] | None = None,
    passed: Callable[[int, int], None] | None = None,
) -> Checked:
    """Check these ``parts`` of the proof file read through as ``head``
    (:func:`~mastermind.verify.check.scan`: a damaged file is refused before any task starts), a
    task each on the cluster's workers, each sent the file's bytes; ``passed(part, nodes)`` here
    as each passes, in any order (its number, and the nodes it checked beside those all parts
    check), and ``progress(n)`` as n more of the nodes to check are.

    Raises:
        ProofError: a claim does not hold (the message says which line, as the check in one
            process says it), or the file changed since it was read through.
    """
    shared = head.cut(parts.count).shared
    data = executor.client.scatter(Path(head.path).read_bytes(), broadcast=True)
    found: list[Checked] = []

    def each(args: tuple, checked: Checked) -> None:
        found.append(checked)
        if progress is not None:
            progress(checked.nodes - (shared if len(found) > 1 else 0))
        if passed is not None:
            passed(args[2], checked.nodes - shared)

    tasks = ((data, str(head.path), part, parts.count) for part in parts.numbers)
    executor.map(_check_part, tasks, each)
    scored = sum(checked.secrets_scored for checked in found)
    return dataclasses.replace(found[0], nodes=head.nodes_checked(parts), secrets_scored=scored, parts=parts)


def _check_part(data: bytes, name: str, part: int, count: int) -> Checked:
    """On a worker: part ``part`` of ``count`` of the check of the proof file ``data`` (named
    ``name`` where it was read), in plain Python, in this process."""
    with tempfile.TemporaryDirectory(prefix="mastermind-check-") as folder:
        path = Path(folder) / Path(name).name
        path.write_bytes(data)
        try:
            return check_file(path, parts=Parts(part, part, count))
        except ProofError as err:  # (said of the file as it was given, not of this copy)
            raise ProofError(str(err).replace(str(path), name)) from None
