"""Tree files: `mastermind tree --save` and `mastermind verify`, and the format itself.

Published figures (Koyama and Lai, "An optimal Mastermind strategy", J. Recreational Math. 25,
1993: the classic optimum 5625 guesses over 1296 secrets; Knuth, "The Computer as Master Mind",
J. Recreational Math. 9, 1976-77: 5801, at most 5, distribution 1:1 2:6 3:62 4:533 5:694).
"""

import gzip
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.core.feedback import Feedback
from mastermind.core.rules import Rules
from mastermind.errors import TreeFileError
from mastermind.verify.files import alphabet, code_text, every_code
from mastermind.verify.tree import TreeFile, TreeNode, replay


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def knuth_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("trees") / "knuth.tree"
    code, out, err = run("tree", "-s", "knuth", "--save", path)
    assert code == 0, err
    assert "total 5,801" in out and "at most 5 guesses" in out
    return path


def test_knuths_tree_file_verifies_to_his_published_figures(knuth_file):
    code, out, _ = run("verify", knuth_file, "--json")
    assert code == 0
    result = json.loads(out)
    assert (result["total"], result["max"], result["secrets"]) == (5801, 5, 1296)
    assert result["distribution"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert result["strategy"] == "knuth" and result["verified"] is True
    code, out, _ = run("verify", knuth_file)
    assert code == 0
    assert "total 5,801  mean 4.4761  max 5" in out and "1:1  2:6  3:62  4:533  5:694" in out


def test_a_tree_with_its_first_guess_given_says_so(tmp_path):
    path = tmp_path / "knuth-1234.tree"
    code, out, err = run("tree", "-s", "knuth", "--first", "1234", "--save", path)
    assert code == 0, err
    assert out.startswith(  # Knuth's tree opened with 1234 instead of his 1122
        "knuth on 4 pegs, colours 1-6, repeats allowed, first guess 1234 given: total 5,803 "
    )
    code, out, _ = run("verify", path)
    assert code == 0 and "knuth tree of 4 pegs, colours 1-6, repeats allowed, first guess 1234 given" in out
    assert "max 6  first guess 1234" in out  # its first guess, given or not
    code, out, _ = run("verify", path, "--json")
    assert (json.loads(out)["first_given"], json.loads(out)["first_guess"]) == ("1234", "1234")
    plain = tmp_path / "knuth.tree"
    assert run("tree", "-s", "knuth", "--save", plain)[0] == 0
    code, out, _ = run("verify", plain)
    assert code == 0 and "given" not in out and "max 5  first guess 1122" in out
    result = json.loads(run("verify", plain, "--json")[1])
    assert "first_given" not in result and result["first_guess"] == "1122"


def test_the_classic_optimal_tree_file_verifies_to_koyama_and_lais_5625(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "optimal.tree.gz"
    code, _, err = run("tree", "-s", "optimal", "--save", path)
    assert code == 0, err
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # compressed, by its name
    code, out, _ = run("verify", path, "--json", "--pegs", "4", "--colors", "6")
    assert code == 0
    result = json.loads(out)
    assert (result["total"], result["max"]) == (5625, 6)
    assert sum(result["distribution"].values()) == 1296


def test_the_file_is_the_documented_text(knuth_file):
    lines = knuth_file.read_text().splitlines()
    assert lines[0] == "mastermind-tree 1"
    header = json.loads(lines[1])
    assert header["game"] == {"pegs": 4, "colors": 6, "repeats": True, "blank": False, "max_guesses": 10}
    assert lines[2] == "1122"  # Knuth's first guess, then his second after 0,0
    assert lines[3] == " 0,0 3345"
    assert lines[-1] == f"end {header['nodes']}" and header["nodes"] == len(lines) - 3
    assert all(line.startswith(" ") for line in lines[3:-1])


def python(code):
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_the_replay_runs_on_plain_python_alone(knuth_file):
    # the library's check imports nothing compiled, not even numpy
    out = python(
        "import sys\n"
        "from mastermind import TreeFile\n"
        f"print(TreeFile.read({str(knuth_file)!r}).verify().total)\n"
        "print('numpy' in sys.modules, 'numba' in sys.modules)\n"
    )
    assert out == ["5801", "False False"]
    # nor does the command
    out = python(
        "import sys\n"
        "from mastermind.cli import main\n"
        f"sys.argv = ['mastermind', 'verify', {str(knuth_file)!r}, '--json']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as end:\n"
        "    assert end.code in (0, None), end.code\n"
        "print('numpy' in sys.modules, 'numba' in sys.modules)\n"
    )
    assert out[-1] == "False False" and json.loads(out[0])["total"] == 5801


def damage(path, tmp_path, change):
    lines = path.read_text().split("\n")
    change(lines)
    out = tmp_path / "damaged.tree"
    out.write_text("\n".join(lines))
    return out


def refused(path, *options):
    code, out, err = run("verify", path, *options)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("mastermind: error: ")
    return err


def test_a_changed_guess_is_refused(knuth_file, tmp_path):
    def change(lines):  # the second guess after 0,0 becomes 3344: its cells are not the tree's
        lines[3] = " 0,0 3344"

    err = refused(damage(knuth_file, tmp_path, change))
    assert "line" in err


def test_a_changed_claim_is_refused(knuth_file, tmp_path):
    def change(lines):
        lines[1] = lines[1].replace('"total": 5801', '"total": 5800')

    err = refused(damage(knuth_file, tmp_path, change))
    assert "the tree gives total 5,801, its header says 5,800" in err


def test_a_truncated_file_is_refused_wherever_it_is_cut(knuth_file, tmp_path):
    text = knuth_file.read_text()
    for cut in (10, len(text) // 2, text.rindex("\nend") + 1, len(text) - 3):
        path = tmp_path / "cut.tree"
        path.write_text(text[:cut])
        refused(path)
    packed = gzip.compress(text.encode())
    path = tmp_path / "cut.tree.gz"
    path.write_bytes(packed[: len(packed) // 2])
    assert "gzip" in refused(path)


def test_a_lost_line_is_refused(knuth_file, tmp_path):
    def change(lines):  # a leaf's line removed, and the count fixed to match
        del lines[4]
        lines[-2] = f"end {len(lines) - 4}"
        lines[1] = lines[1].replace('"nodes": 1378', '"nodes": 1377')

    assert "does not say what to play" in refused(damage(knuth_file, tmp_path, change))


def test_a_tree_of_another_game_is_refused(knuth_file):
    err = refused(knuth_file, "--pegs", "3")
    assert "is a tree of 4 pegs, colours 1-6, repeats allowed, not of 3 pegs" in err
    refused(knuth_file, "--max-guesses", "5")


def test_a_file_s_guess_limit_is_checked_only_where_max_guesses_is_given_tree_and_proof_alike(tmp_path):
    capped = "results/4x6-max5-optimal.tree.gz"
    code, out, err = run("verify", capped, "-p", "4", "-c", "6")  # the game named, its limit not
    assert code == 0 and "total 5,626" in out, err  # Koyama and Lai
    assert "at most 5 guesses, not of 4 pegs, colours 1-6, repeats allowed, at most 6" in refused(
        capped, "-p", "4", "-c", "6", "--max-guesses", "6"
    )
    code, out, err = run("verify", "results/3x4-optimal.tree.gz", "--max-guesses", "10")  # its game kept
    assert code == 0 and "total 206" in out, err
    proof = tmp_path / "p.proof"  # no tree of 3 pegs 4 colours within 3 guesses
    assert run("worst", "-p", "3", "-c", "4", "--max-guesses", "3", "--proof", proof)[0] == 0
    code, out, err = run("verify", proof, "-p", "3", "-c", "4", "--max-guesses", "3")
    assert code == 0 and "within 3 guesses" in out, err
    assert "within 3 guesses, not 3 pegs, 4 colours, repeats allowed, within 4 guesses" in refused(
        proof, "--max-guesses", "4"
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello\n",
        "mastermind-tree 2\n{}\n1122\nend 1\n",
        "mastermind-tree 1\nnot json\n1122\nend 1\n",
        'mastermind-tree 1\n{"game": {"pegs": 4}}\n1122\nend 1\n',
    ],
)
def test_what_is_not_a_tree_file_is_refused(tmp_path, text):
    path = tmp_path / "x.tree"
    path.write_text(text)
    refused(path)


@pytest.mark.parametrize("name", ["x.tree", "x.proof.xz", "x.txt"])
def test_a_file_of_neither_kind_is_called_neither_whatever_its_name(tmp_path, name):
    path = tmp_path / name
    path.write_text("hello\n")
    assert refused(path) == (
        f"mastermind: error: {path}: neither a tree file nor a proof file "
        "(they start with 'mastermind-tree 1' and 'mastermind-proof N')\n"
    )


def test_a_gzip_file_damaged_past_its_header_is_refused_in_one_line(knuth_file, tmp_path):
    with open(knuth_file, "rb") as f:
        data = bytearray(gzip.compress(f.read()))
    for i in range(12, 40):  # (the deflate stream's first bytes: the header still reads)
        data[i] ^= 0xFF
    path = tmp_path / "damaged.tree.gz"
    path.write_bytes(bytes(data))
    assert "a damaged or truncated gzip file" in refused(path)


def test_a_missing_or_binary_file_is_refused(tmp_path):
    assert "cannot read" in refused(tmp_path / "none.tree")
    assert "no file named" in refused("")  # not the working folder
    with pytest.raises(TreeFileError, match="no tree file named"):
        TreeFile.read("")
    path = tmp_path / "bin.tree"
    path.write_bytes(bytes(range(256)))
    refused(path)


def test_save_refuses_a_partial_tree(tmp_path):
    code, _, err = run("tree", "-s", "knuth", "--depth", "2", "--save", tmp_path / "x.tree")
    assert code == 2 and "leave out --depth" in err
    # Shapiro's counter needs 9 guesses on the classic game: with 8 allowed, some are lost
    code, _, err = run(
        "tree", "-s", "counter", "--no-tables", "--max-guesses", "8", "--save", tmp_path / "x.tree"
    )
    assert code == 2 and "does not find every secret within the 8 guesses" in err
    assert not (tmp_path / "x.tree").exists()


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "--save: no file name given"),
        (".", "it is a directory"),
        ("/", "it is a directory"),
        ("-", "--save: this file cannot go to stdout"),
        ("no/such/x.tree", "folder 'no/such' does not exist"),
    ],
)
def test_save_to_no_file_is_one_line_before_the_tree_is_built(name, words):
    code, out, err = run("tree", "-s", "knuth", "-p", "3", "-c", "3", "--save", name)
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize("name", ["k.json", "k.JSON", "k.json.gz"])
def test_save_to_a_json_name_writes_what_format_json_prints(tmp_path, name):
    import gzip

    path = tmp_path / name
    code, out, err = run("tree", "-s", "knuth", "-p", "2", "-c", "3", "--save", path)
    assert (code, err) == (0, "")
    assert out == (
        "knuth on 2 pegs, colours 1-3, repeats allowed: total 24 over 9 secrets (mean 2.6667), at most "
        f"4 guesses; 9 nodes written to {path} as JSON (as --format json prints them)\n"
    )
    code, printed, _ = run("tree", "-s", "knuth", "-p", "2", "-c", "3", "--format", "json")
    assert code == 0
    saved = (gzip.open if name.endswith(".gz") else open)(path, "rt").read()
    assert saved == printed and json.loads(saved)["tree"]["guess"] == "11"


def test_trees_of_games_with_the_blank_letters_and_no_repeats_round_trip(tmp_path):
    for args in (
        ["--pegs", "2", "--colors", "3", "--blank"],
        ["--pegs", "2", "--colors", "12"],
        ["--pegs", "3", "--colors", "10", "--no-repeats"],
    ):
        path = tmp_path / "t.tree"
        code, _, err = run("tree", "-s", "entropy", *args, "--save", path)
        assert code == 0, err
        code, out, _ = run("verify", path, "--json", *args)
        assert code == 0
        tree = TreeFile.read(path)
        assert TreeFile.loads(tree.dumps()).dumps() == tree.dumps()
        assert json.loads(out)["secrets"] == tree.rules.size == len(every_code(tree.rules))


def test_the_alphabet_is_fixed_by_the_format():
    assert alphabet(Rules(pegs=2, colors=9)) == "123456789"
    assert alphabet(Rules(pegs=2, colors=10)) == "0123456789"
    assert alphabet(Rules(pegs=2, colors=11)) == "abcdefghijk"
    assert alphabet(Rules(pegs=2, colors=36))[:12] == "0123456789ab"
    assert alphabet(Rules(pegs=2, colors=9, blank=True)) == "12345678-"


def test_replay_counts_each_secret_at_its_depth():
    # 2 pegs, 2 colours: guess 12 finds 12; 21 (0,2) is found next; 11 and 22 (1,0) by 11 then 22
    rules = Rules(pegs=2, colors=2)
    root = TreeNode((0, 1))
    root.children[Feedback(0, 2)] = TreeNode((1, 0))
    pair = root.children[Feedback(1, 0)] = TreeNode((0, 0))
    pair.children[Feedback(0, 0)] = TreeNode((1, 1))
    tree = TreeFile(rules, root, {"game": {}})
    result = replay(tree)
    assert (result.total, result.distribution) == (1 + 2 + 2 + 3, {1: 1, 2: 2, 3: 1})
    del pair.children[Feedback(0, 0)]
    with pytest.raises(TreeFileError, match="does not say what to play"):
        tree.verify()
    pair.children[Feedback(0, 0)] = TreeNode((1, 1))
    pair.children[Feedback(2, 0)] = TreeNode((1, 1))  # a reply no secret there gives
    with pytest.raises(TreeFileError, match="no secret there gives reply 2,0"):
        tree.verify()


RESULTS = {  # docs/results.md: the files in results/ and the totals they prove
    "4x6-optimal": 5625,
    "4x6-max5-optimal": 5626,
    "4x7-optimal": 11228,
    "5x5-optimal": 13496,
    "bulls-and-cows-optimal": 26274,
    "4x8-optimal": 20471,
    "4x8-max6-optimal": 20473,
    "4x9-optimal": 34666,
    "4x9-max7-optimal": 34666,
    "5x6-optimal": 36721,
    "5x6-max6-optimal": 36721,
    "4x10-bounds": 56034,
    "4x10-optimal": 55632,
    "4x10-max7-optimal": 55634,
    "5x7-bounds": 86358,
    "5x7-optimal": 85645,
    "5x7-rollout": 86015,
    "5x8-rollout": 179112,
    "6x6-rollout": 241699,
    "5x7-max6-first11223": 85656,
}


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_the_result_files_prove_their_totals(name):
    from pathlib import Path

    tree = TreeFile.read(Path(__file__).parent.parent / "results" / f"{name}.tree.gz")
    assert tree.verify().total == RESULTS[name] == tree.header["total"]
    if name.endswith("-rollout"):
        assert tree.header["strategy"] == "rollout" and "exact" not in tree.header
    elif "-first" in name:  # the optimum given its first guess (benchmarks/mend_limit.py --least)
        first = name.rsplit("-first", 1)[1]
        assert tree.header["exact"] and tree.header["first"] == first == code_text(
            tree.rules, tree.root.guess
        )
    else:  # the optimal search's: exact unless it was stopped (-bounds)
        assert tree.header["exact"] is name.endswith("-optimal") and tree.header["first"] is None
    limits = {
        "4x6-max5-optimal": 5,
        "4x8-max6-optimal": 6,
        "5x6-max6-optimal": 6,
        "4x9-max7-optimal": 7,
        "4x10-max7-optimal": 7,
        "5x7-max6-first11223": 6,
    }
    limit = limits.get(name)
    if limit is not None:
        assert tree.verify().max <= limit == tree.rules.max_guesses


def test_a_reply_left_without_a_next_guess_is_said_with_its_number_of_secrets():
    # 2 pegs, 2 colours: after 12, the reply 1,0 leaves 11 and 22; after 11, the reply 0,0 leaves 22
    rules = Rules(pegs=2, colors=2)
    root = TreeNode((0, 1))
    root.children[Feedback(0, 2)] = TreeNode((1, 0))
    root.children[Feedback(1, 0)] = TreeNode((0, 0))
    with pytest.raises(TreeFileError, match=r"1 secret gives reply 0,0 to its guess"):
        replay(TreeFile(rules, root, {"game": {}}))
    del root.children[Feedback(1, 0)]
    with pytest.raises(TreeFileError, match=r"2 secrets give reply 1,0 to its guess"):
        replay(TreeFile(rules, root, {"game": {}}))


@pytest.mark.parametrize("name", ["k.json", "k.json.gz"])
def test_verify_given_a_tree_saved_as_json_says_which_file_it_checks(tmp_path, name):
    path = tmp_path / name
    assert run("tree", "-s", "knuth", "-p", "2", "-c", "3", "--save", path)[0] == 0
    code, out, err = run("verify", path)
    assert code == 2 and out == ""
    assert err == (
        f"mastermind: error: {path}: a tree as JSON (for reading), not a tree file: verify replays a "
        "tree file, which 'mastermind tree --save NAME.tree' writes (a NAME not ending in .json)\n"
    )


@pytest.mark.parametrize(
    "text, error",
    [
        ("mastermind-tree 1\nnot json\n", "{path}, line 2: the header is not one line of JSON"),
        ("garbage\n", "{path}: neither a tree file nor a proof file"),
        (None, "{path}: cannot read it"),
    ],
    ids=["a broken tree", "not a tree", "missing"],
)
def test_verify_json_of_a_file_that_fails_is_a_json_object_too(tmp_path, text, error):
    """--json is what a program reads: a file that fails its check prints a result as well."""
    path = tmp_path / "t.tree"
    if text is not None:
        path.write_text(text)
    code, out, err = run("verify", path, "--json")
    assert code == 2 and err.count("\n") == 1 and err.startswith("mastermind: error: ")
    result = json.loads(out)
    assert result == {"file": str(path), "passed": False, "verified": False, "error": result["error"]}
    assert (
        result["error"].startswith(error.format(path=path))
        and err == f"mastermind: error: {result['error']}\n"
    )
