"""The checkpoint book of a guided proof: what a proof started again reads back, and what a
worker process sends to the prover to be written there."""

from __future__ import annotations

import base64
import hashlib
import os
import threading
import zlib
from collections.abc import Callable
from typing import Any

from ...core.rules import Rules
from ...errors import CheckpointError, ProofError
from ...runtime.journal import Journal
from ...verify.files import game_dict, read_header
from ...verify.proof import COMPACT, FORMAT, VERSION, PackedNode, ProofFile, ProofNode
from .lower import TASK_DEPTH, _Set


def _limit_differs(theirs: Any, ours: int | None) -> str | None:
    """Why a checkpoint of a proof within one guess limit is not another's (None: it is)."""
    if theirs == ours:
        return None
    said = "no guess limit" if theirs is None else f"a limit of {theirs} guesses"
    return f"is the checkpoint of a proof with {said}, not this one"


class _Book:
    """The checkpoint of a guided proof: a :class:`~mastermind.runtime.journal.Journal` of the sets
    proved (those at most :data:`TASK_DEPTH` guesses deep: each with its claim, bound and line)
    and of the exact costs asked above them (each with its budget), recorded as each is done.
    A proof started again makes the same requests in the same order (each is decided by what was
    proved and asked before it), and takes the answers from here. Each record holds for its set
    alone, whatever the optimum aimed at; its line is checked with the rest of the proof, by the
    checker.

    A set's lines are recorded as the prover holds them: in version 2 (``line``: the whole
    proof of the set as a file, zlib, base64) or, in a ``compact`` proof, in version 3
    (``compact``: its lines alone, the leaves left out, zlib at level 9, base64; a set that is a
    leaf itself is recorded in version 2, one line). A compact proof reads both (a checkpoint
    begun by a proof in version 2 goes on in version 3); a proof in version 2 cannot take the
    records of version 3 (their leaves are not known), and says so."""

    def __init__(
        self, path: str | os.PathLike[str], rules: Rules, compact: bool = False, within: int | None = None
    ) -> None:
        self.rules, self.compact, self.path = rules, compact, path
        head: dict[str, Any] = {"checkpoint": "mastermind-guided-proof", "game": game_dict(rules)}
        if within is not None:  # (a set's cost within a limit is not its cost without)
            head["within"] = within
        self.journal = Journal(path, head, "a guided proof")
        #: by (history, set, claim): the bound proved and its line
        self.sets: dict[tuple[tuple[int, ...], str, int], tuple[int, ProofNode]] = {}
        #: by (history, set, budget): the exact cost, or the budget where it costs that much or more
        self.costs: dict[tuple[tuple[int, ...], str, int], int] = {}
        self.lock = threading.Lock()
        self.journal.read(self._parse, lambda theirs: _limit_differs(theirs.get("within"), within))

    @staticmethod
    def key(node: _Set, number: int) -> tuple[tuple[int, ...], str, int]:
        return node.history, hashlib.blake2b(node.S.tobytes(), digest_size=16).hexdigest(), number

    def _parse(self, item: dict[str, Any]) -> None:
        history = tuple(int(g) for g in item["history"])
        if len(history) > TASK_DEPTH or not isinstance(item["set"], str):
            raise ValueError("not a set this proof records")
        if "budget" in item:
            self.costs[history, item["set"], int(item["budget"])] = int(item["cost"])
            return
        claim, low = int(item["claim"]), int(item["low"])
        proof = self._compact(item["compact"]) if "compact" in item else self._whole(item["line"])
        if proof.total != low or low < claim:
            raise ValueError("a line that does not claim the bound recorded")
        self.sets[history, item["set"], claim] = (low, proof)

    def _compact(self, line: str) -> PackedNode:
        """A set's lines recorded in version 3."""
        if not self.compact:
            raise CheckpointError(
                f"{self.path} holds sets proved in version {COMPACT} (compact), whose leaves are left "
                "out: resume it as a compact proof (a proof file whose name ends in .xz)"
            )
        try:  # (its lines are checked with the rest of the proof, by the checker)
            body = zlib.decompress(base64.b64decode(line, validate=True)).decode()
            return PackedNode(self.rules, body, body.count("\n") + 1, COMPACT)
        except (ProofError, zlib.error) as err:
            raise ValueError(str(err)) from None

    def _whole(self, line: str) -> PackedNode:
        """A set's lines recorded in version 2, as the file of a proof of that set."""
        try:  # (its lines are checked with the rest of the proof, by the checker)
            text = zlib.decompress(base64.b64decode(line, validate=True)).decode()
            lines, _, rules = read_header(text, "a line", FORMAT, VERSION, "proof", ProofError)
            if rules != self.rules or len(lines) < 4 or lines[-1] != f"end {len(lines) - 3}":
                raise ValueError("not a whole proof of this game")
            return PackedNode(self.rules, "\n".join(lines[2:-1]), len(lines) - 3)
        except (ProofError, zlib.error) as err:
            raise ValueError(str(err)) from None

    def take(self, node: _Set, claim: int) -> bool:
        """Give the node its line and bound from the book, if it has them."""
        found = self.sets.get(self.key(node, claim))
        if found is None:
            return False
        node.low, node.proof = max(node.low, found[0]), found[1]
        return True

    def keep(self, node: _Set, claim: int) -> None:
        proof = node.proof
        assert proof is not None
        history, digest, _ = self.key(node, claim)
        record: dict[str, Any] = {"history": list(history), "set": digest, "claim": claim, "low": node.low}
        if isinstance(proof, PackedNode) and proof.version >= COMPACT:
            record["compact"] = base64.b64encode(zlib.compress(proof.body().encode(), 9)).decode()
        else:
            text = ProofFile.of_total(self.rules, node.low, proof).dumps()
            record["line"] = base64.b64encode(zlib.compress(text.encode(), 6)).decode()
        self.write(record)

    def keep_cost(self, cell: _Set, budget: int, cost: int) -> None:
        history, digest, _ = key = self.key(cell, budget)
        with self.lock:  # (the prover's threads each keep theirs as they find them)
            self.costs[key] = cost
            self.write({"history": list(history), "set": digest, "budget": budget, "cost": cost})

    def write(self, record: dict[str, Any]) -> None:
        self.journal.append(record)


#: The tag of a worker's message that carries a record for the book (the others carry a task's
#: number and its answer).
_KEEP = -1


class _Outbox(_Book):
    """A worker's book: the records the prover's held when the worker was forked (or, on a
    cluster, those of the sets below its task: :func:`records_below`); what the worker proves
    goes to the prover as it is proved, by ``send``, for it to write (a task of a large game runs
    for many minutes: a stop loses no more than the set it was proving)."""

    def __init__(
        self,
        rules: Rules,
        compact: bool,
        path: str | os.PathLike[str],
        records: tuple[dict[Any, tuple[int, ProofNode]], dict[Any, int]],
        send: Callable[[dict[str, Any]], None],
    ) -> None:  # (no journal of its own)
        self.rules, self.compact, self.path = rules, compact, path
        self.sets, self.costs = records
        self.lock = threading.Lock()  # (its own: the prover's may have been held when it was forked)
        self.send = send

    @classmethod
    def of(cls, book: _Book, send: Callable[[dict[str, Any]], None]) -> _Outbox:
        """An outbox with every record of ``book``."""
        return cls(book.rules, book.compact, book.path, (book.sets, book.costs), send)

    def write(self, record: dict[str, Any]) -> None:
        self.send(record)


def records_below(
    book: _Book, history: tuple[int, ...]
) -> tuple[dict[Any, tuple[int, ProofNode]], dict[Any, int]]:
    """The book's records (sets proved, exact costs) of the sets that ``history`` leads to: what
    a task that raises the guess at the end of ``history`` may take from it."""
    n = len(history)
    sets = {key: found for key, found in book.sets.items() if key[0][:n] == history}
    return sets, {key: cost for key, cost in book.costs.items() if key[0][:n] == history}
