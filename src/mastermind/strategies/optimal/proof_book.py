"""The checkpoint book of a guided proof: what a proof started again reads back, and what a
worker process sends to the prover to be written there."""

from __future__ import annotations

import base64
import hashlib
import multiprocessing
import os
import threading
import zlib
from typing import Any

from ...core.rules import Rules
from ...errors import ProofError
from ...runtime.journal import Journal
from ...verify.files import game_dict, read_header
from ...verify.proof import FORMAT, VERSION, PackedNode, ProofFile, ProofNode
from .lower import TASK_DEPTH, _Set


class _Book:
    """The checkpoint of a guided proof: a :class:`~mastermind.runtime.journal.Journal` of the sets
    proved (those at most :data:`TASK_DEPTH` guesses deep: each with its claim, bound and line)
    and of the exact costs asked above them (each with its budget), recorded as each is done.
    A proof started again makes the same requests in the same order (each is decided by what was
    proved and asked before it), and takes the answers from here. Each record holds for its set
    alone, whatever the optimum aimed at; its line is checked with the rest of the proof, by the
    checker."""

    def __init__(self, path: str | os.PathLike[str], rules: Rules) -> None:
        self.rules = rules
        head = {"checkpoint": "mastermind-guided-proof", "game": game_dict(rules)}
        self.journal = Journal(path, head, "a guided proof")
        #: by (history, set, claim): the bound proved and its line
        self.sets: dict[tuple[tuple[int, ...], str, int], tuple[int, ProofNode]] = {}
        #: by (history, set, budget): the exact cost, or the budget where it costs that much or more
        self.costs: dict[tuple[tuple[int, ...], str, int], int] = {}
        self.lock = threading.Lock()
        self.journal.read(self._parse)

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
        try:  # (its lines are checked with the rest of the proof, by the checker)
            text = zlib.decompress(base64.b64decode(item["line"], validate=True)).decode()
            lines, _, rules = read_header(text, "a line", FORMAT, VERSION, "proof", ProofError)
            if rules != self.rules or len(lines) < 4 or lines[-1] != f"end {len(lines) - 3}":
                raise ValueError("not a whole proof of this game")
            proof = PackedNode(self.rules, "\n".join(lines[2:-1]), len(lines) - 3)
        except (ProofError, zlib.error) as err:
            raise ValueError(str(err)) from None
        if proof.total != low or low < claim:
            raise ValueError("a line that does not claim the bound recorded")
        self.sets[history, item["set"], claim] = (low, proof)

    def take(self, node: _Set, claim: int) -> bool:
        """Give the node its line and bound from the book, if it has them."""
        found = self.sets.get(self.key(node, claim))
        if found is None:
            return False
        node.low, node.proof = max(node.low, found[0]), found[1]
        return True

    def keep(self, node: _Set, claim: int) -> None:
        assert node.proof is not None
        history, digest, _ = self.key(node, claim)
        text = ProofFile.of_total(self.rules, node.low, node.proof).dumps()
        line = base64.b64encode(zlib.compress(text.encode(), 6)).decode()
        self.write({"history": list(history), "set": digest, "claim": claim, "low": node.low, "line": line})

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
    """A worker process's book: what the prover's held when the worker was forked; what the
    worker proves goes to the prover as it is proved, for it to write (a task of a large game
    runs for many minutes: a stop loses no more than the set it was proving)."""

    def __init__(self, book: _Book, results: multiprocessing.Queue) -> None:  # (no journal of its own)
        self.rules, self.sets, self.costs = book.rules, book.sets, book.costs
        self.lock = threading.Lock()  # (its own: the prover's may have been held when it was forked)
        self.results = results

    def write(self, record: dict[str, Any]) -> None:
        self.results.put((_KEEP, record, None))
