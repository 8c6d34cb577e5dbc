"""The checks of a proof: of a proof in memory (:func:`check`) and of a proof file as it is read
(:func:`check_file`, after :func:`scan`), whole, in parts, or on several processes."""

from __future__ import annotations

import itertools
import lzma
import os
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..core.rules import Rules
from ..errors import ProofError
from ..runtime.pool import can_fork
from .arithmetic import other_replies
from .checker import _Checker, _Entry, _Open, _walk
from .files import alphabet, code_text, opener, read_header, write_file
from .parts import Parts, _Cut, _pieces
from .proof import COMPACT, FORMAT, VERSION, ProofFile, _claim, _file_text, _lines, _Reader, _within
from .workers import _Dealer, _processes


@dataclass(frozen=True)
class Checked:
    """What a checked proof proved: no tree finds every secret of ``rules`` within ``guesses``
    (claim ``guesses``), or every tree's total is at least ``total`` (claim ``total``; with
    ``guesses``, every tree's that finds every secret within that many)."""

    rules: Rules
    claim: str
    guesses: int
    total: int
    nodes: int
    secrets_scored: int
    first: tuple[str, ...] = ()
    #: The parts checked, if only some (:class:`Parts`): the claim then holds once every other
    #: part is checked too; ``nodes`` is then the lines those parts checked.
    parts: Parts | None = None
    #: On the total within a guess limit: every first guess is refuted (no tree finds every
    #: secret in time), so the total claimed holds of no tree.
    vacuous: bool = False

    @property
    def whole(self) -> bool:
        """Whether the whole proof was checked (not only some of its parts)."""
        return self.parts is None or self.parts.whole


#: Proofs of at least this many nodes are checked on several processes when asked
#: (:func:`check`'s ``jobs``); smaller ones gain less than the processes cost to start.
PARALLEL_FROM = 20_000
#: What a line of a compact proof (version 3, on the total) weighs against :data:`PARALLEL_FROM`:
#: the leaves it stands for, which its check works out (4x7: 81,426 lines in version 2, 1,270 in 3).
COMPACT_WEIGHT = 64
#: Pieces per process that a parallel check cuts the proof into, at least (the last ones to
#: finish are small).
PIECES_PER_JOB = 16


def check(
    proof: ProofFile,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    parts: Parts | None = None,
    passed: Callable[[int, int], None] | None = None,
) -> Checked:
    """Check the proof's claim by replaying it (see the module's documentation): no tree finds
    every secret of its game within its number of guesses, or every tree's total is at least its
    total; ``progress(n)`` as n more nodes are checked. The proof is checked from the lines a
    file of it would hold, as :func:`check_file` checks a file.

    With ``jobs`` above 1 (and a proof of :data:`PARALLEL_FROM` nodes or more, on a system that
    can fork), that many processes share the nodes (see :func:`_walk`), each node checked by the
    same code. The verdict is the same either way (and in parts): a set met again is taken on
    the strength of an earlier check only where its lines are a copy of those checked, so that
    they would pass again; a proof with several faults may be refused for another first.

    With ``parts``, only those parts of the check (see :class:`_Cut`; the others may be checked
    anywhere else, the claim holding once all have passed), in order, ``passed(part, nodes)`` as
    each passes (its number from 1, the nodes it checked beside those all parts check).

    Raises:
        ProofError: a claim of the proof does not hold (the message says which line), or the
            header's counts are wrong.
    """
    rules = proof.rules
    h = proof.header
    nodes = proof.root.size()
    _counted(h, rules, nodes, "")
    within = proof.guesses if proof.claim == "total" else 0
    reader = _Reader(rules, proof.claim, "the proof", proof.version, within)
    reader.firsts = bool(proof.first)
    symbols = alphabet(rules)
    version = proof.version
    split = None if parts is None else proof.cut(parts.count)
    total = proof.total if proof.claim == "total" else None
    checker = _checker(rules, proof.first, version, proof.claim, within)
    scored = _check_lines(
        checker,
        reader,
        lambda: enumerate(_lines(proof.root, symbols, version), start=3),
        proof.guesses,
        nodes,
        jobs,
        progress,
        split,
        parts,
        passed,
        total,
    )
    first = tuple(code_text(rules, code) for code in proof.first)
    return Checked(
        rules,
        proof.claim,
        proof.guesses,
        proof.total,
        proof.nodes_checked(parts),
        scored,
        first,
        parts,
        checker.vacuous,
    )


def _counted(header: dict[str, Any], rules: Rules, nodes: int, name: str) -> None:
    """Refuse a header whose counts (the game's codes, the proof's nodes) are wrong."""
    if header.get("secrets", rules.size) != rules.size:
        raise ProofError(f"{name}the game has {rules.size:,} codes, the header says {header['secrets']}")
    if header.get("nodes", nodes) != nodes:
        raise ProofError(f"{name}the proof has {nodes:,} nodes, its header says {header['nodes']}")


@dataclass
class ProofHead:
    """A proof file's header, its game and claim (``guesses`` or ``total``, and its number), and
    its nodes, counted (:func:`scan`); ``within``: the guess limit a claim on the total is
    within (0 for none)."""

    rules: Rules
    header: dict[str, Any]
    claim: str
    number: int
    nodes: int
    path: str | os.PathLike[str]
    version: int = VERSION
    within: int = 0
    _cuts: dict[int, _Cut] = field(default_factory=dict, repr=False)

    def cut(self, count: int) -> _Cut:
        """The cut of its check into ``count`` parts (see :class:`_Cut`), made once (a pass
        over the file).

        Raises:
            ProofError: the file is not text.
        """
        found = self._cuts.get(count)
        if found is None:
            try:
                with _opened(self.path) as f:
                    lines = (line for _, line in _body(f, self.nodes))
                    found = self._cuts[count] = _Cut(_pieces(lines, self.nodes, count), self.nodes, count)
            except UnicodeDecodeError:
                raise ProofError(f"{self.path}: not a proof file (not text)") from None
        return found

    def nodes_checked(self, parts: Parts | None = None) -> int:
        """As :meth:`ProofFile.nodes_checked`."""
        return self.nodes if parts is None else self.cut(parts.count).nodes_checked(parts)


def scan(path: str | os.PathLike[str]) -> ProofHead:
    """A proof file read through once, by bytes, to its ``end`` line: its header and nodes.

    Raises:
        ProofError: it cannot be read, is not a proof file of this version, or is damaged or
            cut short.
    """
    nodes, header, rules, claim, number, version = _scan(path)
    return ProofHead(rules, header, claim, number, nodes, path, version, _within(header, str(path)))


def check_file(
    path: str | os.PathLike[str],
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    head: ProofHead | None = None,
    parts: Parts | None = None,
    passed: Callable[[int, int], None] | None = None,
) -> Checked:
    """:func:`check` of a proof file as it is read, line by line: what it holds at a time is the
    path to the line read, whatever the proof's size (a proof of tens of millions of lines
    checks in the memory of a small one). A first pass reads the file through to its ``end``
    line (a file cut short or damaged is refused before any claim is checked; ``head``: that
    pass, made already); the second checks. With ``jobs`` above 1, the lines of each node of at
    most 1 / :data:`PIECES_PER_JOB` of a process's share are checked by one of that many
    processes (see :func:`_walk`). With ``parts``, a pass finds the cut (from the lines'
    indents alone), then each part is a pass of its own.

    Raises:
        ProofError: the file cannot be read or is damaged, or a claim of the proof does not hold
            (the message says which line).
    """
    name = str(path)
    head = head or scan(path)
    rules, header, claim, number, nodes = head.rules, head.header, head.claim, head.number, head.nodes
    _counted(header, rules, nodes, f"{name}: ")
    reader = _Reader(rules, claim, name, head.version, head.within)
    first = tuple(reader.first(header))
    guesses = number if claim == "guesses" else head.within

    def lines() -> Iterator[tuple[int, str]]:
        with _opened(path) as f:
            yield from _body(f, nodes)
            if next(f, "").rstrip("\n") != f"end {nodes}":  # (as the first pass found it)
                raise ProofError(f"{name}: the file changed while it was checked")

    checker = _checker(rules, first, head.version, claim, head.within)
    try:
        split = None if parts is None else head.cut(parts.count)
        scored = _check_lines(
            checker,
            reader,
            lines,
            guesses,
            nodes,
            jobs,
            progress,
            split,
            parts,
            passed,
            number if claim == "total" else None,
        )
    except UnicodeDecodeError:
        raise ProofError(f"{name}: not a proof file (not text)") from None
    except ProofError as err:
        said = str(err)
        raise (err if said.startswith(name) else ProofError(f"{name}, {said}")) from None
    checked = head.nodes_checked(parts)
    if claim == "total":
        return Checked(rules, claim, head.within, number, checked, scored, (), parts, checker.vacuous)
    shown = tuple(code_text(rules, code) for code in first)
    return Checked(rules, claim, number, 0, checked, scored, shown, parts)


def compact_file(path: str | os.PathLike[str], out: str | os.PathLike[str]) -> int:
    """Write the proof file at ``path`` (of any version) in the compact version (3; see
    :func:`.proof.compact`) to ``out`` (xz-compressed if its name ends in ``.xz``), line by line,
    nothing checked (check ``out``); its lines.

    Raises:
        ProofError: ``path`` cannot be read or is damaged or cut short (:func:`scan`), or
            ``out`` cannot be written.
    """
    head = scan(path)

    def lines() -> Iterator[str]:
        with _opened(path) as f:
            for _, line in _body(f, head.nodes):
                line = line.rstrip("\n")
                yield line if head.version < COMPACT or head.claim != "total" else _wordy(line)

    header = {**head.header, "claim": head.claim}
    text = _file_text(header, COMPACT, lines, head.claim, head.version)
    try:
        write_file(out, text)
    except OSError as err:
        raise ProofError(f"{out}: cannot write it ({err.strerror or err})") from None
    except UnicodeDecodeError:
        raise ProofError(f"{path}: not a proof file (not text)") from None
    return scan(out).nodes


def _wordy(line: str) -> str:
    """A line of version 3 on the total in version 2's words (its leaves are left out already:
    :func:`.proof._compact_line` takes the word out again)."""
    pad = line[: len(line) - len(line.lstrip(" "))]
    words = line.split()
    if pad and len(words) > 2 and words[2] in ("count", "all"):  # (within a guess limit)
        return line
    return pad + " ".join(["total", *words] if not pad else [*words[:2], "total", *words[2:]])


@contextmanager
def _opened(path: str | os.PathLike[str], binary: bool = False) -> Iterator[Any]:
    """A proof file open for reading as text, line by line, or as bytes (gzip-compressed or
    not, by its first bytes)."""
    how = opener(path)
    # (lines end at "\n" alone, as the first pass counts them: not at a "\r" too)
    with how(path, "rb") if binary else how(path, "rt", encoding="utf-8", newline="\n") as f:
        yield f


def _body(f: Iterable[str], nodes: int) -> Iterator[tuple[int, str]]:
    """The proof's lines in an open file (the ``nodes`` after its header), each with its number."""
    return itertools.islice(enumerate(f, start=1), 2, 2 + nodes)


def _scan(path: str | os.PathLike[str]) -> tuple[int, dict[str, Any], Rules, str, int, int]:
    """A proof file read through once, by bytes (its nodes counted, its ``end`` line read): its
    nodes, header, game, claim and the claim's number.

    Raises:
        ProofError: it cannot be read, is not a proof file of this version, or is damaged or
            cut short.
    """
    name = str(path)
    try:
        with _opened(path, binary=True) as raw:
            head = [raw.readline(), raw.readline()]
            count, tail = 0, b""
            while chunk := raw.read(1 << 22):
                count += chunk.count(b"\n")
                tail = (tail + chunk)[-200:]
    except OSError as err:
        raise ProofError(f"{name}: cannot read it, or a damaged gzip file ({err.strerror or err})") from None
    except (EOFError, zlib.error, lzma.LZMAError) as err:
        raise ProofError(f"{name}: a damaged or truncated compressed file ({err})") from None
    try:
        text = b"".join(head).decode()
    except UnicodeDecodeError:
        raise ProofError(f"{name}: not a proof file (not text)") from None
    lines, header, rules = read_header(
        text, name, FORMAT, COMPACT, "proof file", ProofError, older=(1, VERSION)
    )
    claim, number = _claim(lines[0], header, name)
    if tail and not tail.endswith(b"\n"):
        count += 1  # (the last line, without its newline)
    last = tail.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    if not last.startswith(b"end "):
        raise ProofError(f"{name}: cut short (no 'end' line)")
    try:
        said = int(last[4:])
    except ValueError:
        raise ProofError(f"{name}, line {count + 2}: a damaged 'end' line") from None
    nodes = count - 1  # (the lines after the header, less the 'end' line)
    if said != nodes or nodes < 1:
        raise ProofError(f"{name}: {max(0, nodes):,} nodes, where its 'end' line says {said:,}: damaged")
    return nodes, header, rules, claim, number, int(lines[0].split()[1])


def _checker(
    rules: Rules, first: tuple[tuple[int, ...], ...], version: int, claim: str, within: int = 0
) -> _Checker:
    """The checker of a proof: a compact one (version 3) on the total leaves its leaves out, and
    the checker bounds the cells it does not list itself; one on the total ``within`` a guess
    limit refutes guesses by the guesses left too."""
    return _Checker(rules, first, implicit=version >= COMPACT and claim == "total", within=bool(within))


def _check_lines(
    checker: _Checker,
    reader: _Reader,
    lines: Callable[[], Iterator[tuple[int, str]]],
    guesses: int,
    nodes: int,
    jobs: int,
    progress: Callable[[int], None] | None,
    split: _Cut | None = None,
    parts: Parts | None = None,
    passed: Callable[[int, int], None] | None = None,
    total: int | None = None,
) -> int:
    """Check a proof's ``nodes`` lines (``lines()``: each with its number, from the root, read
    afresh at each call), or only the ``parts`` of its cut ``split`` (a pass over the lines for
    each part, in order, ``passed`` as each passes); the secrets scored. ``total``: the total
    its header claims (a claim on the total), which its root must claim. On ``jobs`` processes
    (from :data:`PARALLEL_FROM` nodes, where processes can be forked) the pieces are shared out
    (:func:`_walk`)."""
    chosen = [-1] if split is None or parts is None else [part - 1 for part in parts.numbers]
    share = nodes if split is None else max(split.lines[part] for part in chosen)
    weight = COMPACT_WEIGHT if checker.implicit else 1
    parallel = jobs > 1 and nodes * weight >= PARALLEL_FROM and can_fork()
    most = max(1, share // (PIECES_PER_JOB * jobs))

    def said(part: int) -> None:
        if passed and split is not None:
            passed(part + 1, split.lines[part])

    above: dict[tuple[int, ...], _Open] = {}  # the nodes every part checks, opened in the first part's pass

    def walk(part: int, pool: _Dealer | None) -> None:
        top, root, source = _root(checker, reader, lines(), guesses, total)
        owner = None if split is None else split.owner
        _walk(
            checker,
            top,
            root,
            source,
            progress,
            root=True,
            pool=pool,
            most=most,
            owner=owner,
            part=part,
            shared=above,
        )

    if not parallel:
        for part in chosen:
            walk(part, None)
            said(part)
        return checker.game.scored
    with _processes(checker, jobs, reader) as (processes, receive):
        pool = _Dealer(processes, receive, jobs, progress, said)
        for part in chosen:
            walk(part, pool)
            pool.walked(part)
        pool.drain()
        return pool.scored + checker.game.scored


def _root(
    checker: _Checker, reader: _Reader, source: Iterator[tuple[int, str]], guesses: int, total: int | None
) -> tuple[_Reader, _Entry, Iterator[tuple[int, str]]]:
    """A pass over a proof's lines begun: its root read (it must claim the header's ``total``, on
    the total), a reader of the lines below it, and the root's entry: every code of the game."""
    at, line = next(source)
    top = reader.again()
    _, _, _, node = top.take(at, line)
    if total is not None and node.total != total:
        raise ProofError(f"line {at}: the root claims {node.total}, the header {total}")
    return top, (node, list(range(checker.rules.size)), guesses, other_replies(checker.rules.pegs)), source
