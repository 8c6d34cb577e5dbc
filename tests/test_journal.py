"""The journal under every long search (mastermind.runtime.journal): what a kill leaves in the
file is repaired when it is opened again, and every record written whole survives."""

import json
import os
import signal
import subprocess
import sys

import pytest

from mastermind.errors import CheckpointError
from mastermind.runtime.journal import Journal, JsonLines

HEAD = {"checkpoint": "test-search", "game": {"pegs": 4, "colors": 6}}


def journal(path, head=HEAD):
    return Journal(path, head, "a test search")


def written(path, records):
    book = journal(path)
    assert book.read(dict) == []
    for record in records:
        book.append(record)
    return path.read_bytes()


def test_a_new_journal_writes_its_head_and_reads_back_its_records(tmp_path):
    path = tmp_path / "run.jsonl"
    records = [{"n": i, "text": "é\u2028" * i} for i in range(5)]  # (no character splits a line)
    written(path, records)
    assert json.loads(path.read_text().splitlines()[0]) == HEAD
    assert journal(path).read(dict) == records
    assert not list(tmp_path.glob("*.tmp"))


def test_a_last_line_torn_by_a_kill_is_dropped_and_cut_from_the_file_on_open(tmp_path):
    path = tmp_path / "run.jsonl"
    whole = written(path, [{"n": 1}, {"n": 2}])
    path.write_bytes(whole + b'{"n": 3, "te')  # kill -9 in the middle of a write
    book = journal(path)
    assert book.read(dict) == [{"n": 1}, {"n": 2}]
    assert path.read_bytes() == whole  # repaired when opened, before anything is appended
    book.append({"n": 3})
    assert journal(path).read(dict) == [{"n": 1}, {"n": 2}, {"n": 3}]


def test_a_line_that_reads_but_lost_its_newline_is_dropped_too(tmp_path):
    """A record is whole only with its newline: one appended after it would share its line."""
    path = tmp_path / "run.jsonl"
    whole = written(path, [{"n": 1}])
    path.write_bytes(whole + b'{"n": 2}')
    book = journal(path)
    assert book.read(dict) == [{"n": 1}]
    book.append({"n": 2})
    assert journal(path).read(dict) == [{"n": 1}, {"n": 2}]


def test_a_file_cut_anywhere_keeps_every_record_before_the_cut(tmp_path):
    path = tmp_path / "run.jsonl"
    records = [{"n": i, "pad": "x" * i} for i in range(4)]
    whole = written(path, records)
    ends, end = [], len(json.dumps(HEAD)) + 1  # where each record's line ends
    for record in records:
        end += len(json.dumps(record)) + 1
        ends.append(end)
    for cut in range(len(whole) + 1):
        path.write_bytes(whole[:cut])
        kept = journal(path).read(dict)
        assert kept == records[: sum(end <= cut for end in ends)], cut
        assert json.loads(path.read_text().splitlines()[0]) == HEAD  # a torn head: written anew


def test_a_killed_writer_leaves_a_journal_that_opens(tmp_path):
    """A real process appending as fast as it can, killed with SIGKILL: whatever it left opens,
    and holds the records it wrote, in order."""
    path = tmp_path / "run.jsonl"
    journal(path).read(dict)
    script = (
        "import sys\nfrom mastermind.runtime.journal import Journal\n"
        f"book = Journal(sys.argv[1], {HEAD!r}, 'a test search')\nbook.read(dict)\n"
        "print('ready', flush=True)\n"
        "for n in range(10**9):\n    book.append({'n': n, 'pad': 'x' * 4000})\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "ready\n"
    while path.stat().st_size < 50_000 and proc.poll() is None:
        pass
    assert proc.poll() is None  # (still writing)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    records = journal(path).read(dict)
    assert len(records) >= 10 and [r["n"] for r in records] == list(range(len(records)))
    assert path.read_bytes().endswith(b"\n")


def test_damage_other_than_a_torn_last_line_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    lines = written(path, [{"n": 1}, {"n": 2}]).decode().splitlines()
    path.write_text("\n".join([lines[0], lines[1][:5], lines[2]]) + "\n")
    with pytest.raises(CheckpointError, match=r"run.jsonl, line 2: damaged$"):
        journal(path).read(dict)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CheckpointError, match="line 3: damaged"):  # a record its reader refuses
        journal(path).read(lambda item: {1: item}[item["n"]])
    with pytest.raises(CheckpointError, match=r"is the checkpoint of another game \(4 pegs, 6 colours\)"):
        journal(path, {**HEAD, "game": {"pegs": 4, "colors": 7}}).read(dict)
    # the same size, another guess limit: said, as the size alone would not show it
    other = tmp_path / "limited.jsonl"
    journal(other, {**HEAD, "game": {**HEAD["game"], "max_guesses": 10}}).read(dict)
    with pytest.raises(CheckpointError, match=r"another game \(4 pegs, 6 colours; max guesses 10, not 6\)"):
        journal(other, {**HEAD, "game": {**HEAD["game"], "max_guesses": 6}}).read(dict)
    with pytest.raises(CheckpointError, match="is not a checkpoint of a test search"):
        journal(path, {**HEAD, "checkpoint": "another"}).read(dict)
    with pytest.raises(CheckpointError, match="run.jsonl was written by another"):
        journal(path).read(dict, lambda head: "was written by another")
    assert path.read_text() == "\n".join(lines) + "\n"  # a journal refused is left as it was


def test_a_journal_that_cannot_be_written_is_one_error(tmp_path):
    with pytest.raises(CheckpointError, match="cannot write the checkpoint .*missing/run.jsonl"):
        journal(tmp_path / "missing" / "run.jsonl").read(dict)


def test_json_lines_leave_a_torn_line_out_until_repaired(tmp_path):
    lines = JsonLines(tmp_path / "a.jsonl")
    assert lines.read() is None
    lines.create("head")
    lines.append(["one", "two"])
    with open(tmp_path / "a.jsonl", "a") as out:
        out.write("thr")
    assert lines.read() == ["head", "one", "two"]
    assert (tmp_path / "a.jsonl").read_text().endswith("thr")  # a reader decides before it is cut
    lines.repair()
    assert (tmp_path / "a.jsonl").read_text() == "head\none\ntwo\n"
