"""Games and matches, tested directly: games, fixes, hints, records and matches."""

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind import (
    Code,
    ContradictionError,
    Feedback,
    Game,
    GameError,
    Match,
    Notation,
    RecordError,
    Rules,
    SolverState,
    StrategyError,
    score,
)
from mastermind.games.moves import Move, check_history, problem
from mastermind.strategies import make_strategy
from mastermind.strategies.walk import guesses_per_secret

CLASSIC = Rules()
SMALL = Rules(pegs=3, colors=4)


def test_a_game_is_won_with_the_secret_and_records_each_move():
    game = Game.breaking(CLASSIC, seed=2026)
    secret = game.secret
    assert game.guess("1122").reply == score((0, 0, 1, 1), secret.colors)
    assert game.turn == 2 and game.guesses_left == 9 and game.outcome == "playing"
    assert game.repeat_of("1122") == 1 and game.repeat_of("1123") is None
    game.guess(secret)
    assert game.outcome == "won" and game.over
    with pytest.raises(GameError, match="the game is over"):
        game.guess("1234")


def test_hard_mode_has_no_repeat_to_warn_about_it_refuses_it():
    game = Game.breaking(CLASSIC, seed=5, hard=True)
    game.guess("1122")  # 0 black, 0 white
    assert game.repeat_of("1122") is None  # not "played already": refused (a front end says so at once)
    with pytest.raises(GameError, match="hard mode: 1122 cannot be the secret"):
        game.check_hard("1122")
    easy = Game.breaking(CLASSIC, seed=5)
    easy.guess("1122")
    assert easy.repeat_of("1122") == 1


def test_the_warning_before_a_guess_says_a_repeat_first_and_an_impossible_guess_only_when_asked():
    """One rule for every front end (Game.warning): a guess played already, in words, before
    "cannot be the secret" (a repeat not won is both); an impossible guess only with the player's
    setting; none in hard mode, which refuses both; codes in the notation the front end shows."""
    game = Game.breaking(CLASSIC, seed=2026)
    game.guess("1122")  # 1 black, 1 white
    repeat = "You played 1122 already (row 1): it would get the same reply"
    assert game.warning("1122") == repeat and game.warning("1122", inconsistent=True) == repeat
    assert game.warning("3456") is None  # legal, and not asked to be warned of
    clash = "3456 cannot be the secret: guess 1, 1122, got 1 black, 1 white, and would have got 0 black"
    assert game.warning("3456", inconsistent=True).startswith(clash)
    assert game.warning("1233", inconsistent=True) is None  # it could be the secret
    letters = Notation(CLASSIC, "letters")
    assert game.warning("1122", notation=letters).startswith("You played aabb already (row 1)")
    hard = Game.breaking(CLASSIC, seed=2026, hard=True)
    hard.guess("1122")
    assert hard.warning("1122", inconsistent=True) is None and hard.warning("3456", True) is None


def test_a_matchs_game_warns_as_a_single_game_does_at_a_persons_turn_to_guess():
    match = Match(CLASSIC, ["human", "human"], games=2, seed=1)
    with pytest.raises(GameError, match="it is not a person's turn to guess"):
        match.warning("1122")  # the codemaker is choosing
    match.set_secret("1234")
    match.guess("1122")  # 1 black, 0 white
    assert match.warning("1122") == "You played 1122 already (row 1): it would get the same reply"
    assert match.warning("3456") is None
    assert match.warning("3456", inconsistent=True).startswith("3456 cannot be the secret: guess 1, 1122")


def test_the_same_seed_draws_the_same_secret():
    assert Game.breaking(CLASSIC, seed=7).secret == Game.breaking(CLASSIC, seed=7).secret


def test_out_of_guesses_is_lost_and_undo_takes_back():
    game = Game.breaking(Rules(max_guesses=2), seed=1)
    wrong = "1111" if game.secret != Code((0, 0, 0, 0)) else "2222"
    game.guess(wrong)
    assert game.undo().guess == game.notation.parse_code(wrong)
    with pytest.raises(GameError, match="nothing to undo"):
        game.undo()
    game.guess(wrong)
    game.guess(wrong)
    assert game.outcome == "lost"


@pytest.mark.parametrize("end", ["won", "lost", "gave-up"])
def test_a_finished_game_cannot_be_undone(end):
    game = Game.breaking(Rules(max_guesses=2), seed=1)
    wrong = "1111" if game.secret != Code((0, 0, 0, 0)) else "2222"
    if end == "won":
        game.guess(game.secret)
    elif end == "lost":
        game.guess(wrong)
        game.guess(wrong)
    else:
        game.guess(wrong)
        game.give_up()
    rows = list(game.moves)
    with pytest.raises(GameError, match="the game is over .*cannot be taken back"):
        game.undo()
    assert game.moves == rows and game.outcome == end  # the result stands


def test_a_hint_names_the_candidates_and_the_strategy_guess_and_is_counted():
    game = Game.breaking(CLASSIC, seed=3)
    hint = game.hint()
    assert (hint.strategy, str(hint.guess), hint.candidates) == ("knuth", "1122", 1296)
    assert game.record()["hints"] == 1


def test_a_hint_strategy_that_cannot_play_the_game_gives_way_to_one_that_can_and_the_hint_says_so():
    big = Game.breaking(Rules(pegs=8, colors=10), seed=3)  # knuth cannot list 100,000,000 codes
    hint = big.hint()
    assert (hint.strategy, hint.instead_of, hint.candidates) == ("counter", "knuth", None)
    assert hint.note == "knuth cannot play this game, so counter hints"
    assert big.record()["strategy"] == "knuth" and big.record()["hints"] == 1  # the choice is kept
    small = Game.breaking(Rules(pegs=3, colors=4), seed=3, strategy="six-guess")  # classic only
    hint = small.hint()
    assert (hint.strategy, hint.instead_of, hint.candidates) == ("knuth", "six-guess", 64)
    knuth = make_strategy("knuth", small.rules)
    assert hint.guess == knuth.space.code(knuth.first_guess())
    assert Game.breaking(CLASSIC, seed=3).hint().instead_of is None  # the one asked hints: no note
    with pytest.raises(StrategyError):  # a breaker that cannot play is refused, not replaced
        Game.solving(Rules(pegs=8, colors=10), "knuth")


def test_a_match_hints_only_to_a_person_at_their_guess():
    match = Match(CLASSIC, ["human", "human"], games=2, seed=1)
    with pytest.raises(GameError, match="a hint is for a person breaking a code"):
        match.hint()  # the codemaker is choosing
    match.set_secret("1234")
    hint = match.hint()
    assert (hint.strategy, str(hint.guess), hint.candidates) == ("knuth", "1122", 1296)
    assert match.current.game.hints == 1
    match.guess("1122")
    first = Code("1122", CLASSIC)
    left = SolverState(CLASSIC, [(first, score(first, "1234"))]).candidate_indices()
    assert match.hint().candidates == len(left)


def test_the_computer_breaks_knuths_example_code():
    game = Game.solving(CLASSIC)
    for reply in ["1,0", "0,1", "1,2", "1,1", "4,0"]:
        game.reply(reply)
    assert [str(m.guess) for m in game.moves] == ["1122", "1344", "3526", "1462", "3632"]
    assert game.outcome == "won"


def test_a_contradiction_is_found_at_once_with_its_corrections_and_a_fix_repairs_it():
    game = Game.solving(CLASSIC)
    game.reply("1,0")  # 1122
    game.reply("0,1")  # 1344
    game.reply("1,2")  # 3526
    game.reply("1,2")  # 1462, truly 1,1 for 3632
    assert game.problem is None
    game.reply("0,2")  # 6425
    problem = game.problem
    assert problem is not None and problem.rows == (0, 1, 3, 4)
    assert {(c.row, str(c.reply)) for c in problem.corrections} >= {(3, "1,1"), (4, "4,0")}
    assert "row 4 to 1,1 (1), 1,0 (1) or 2,0 (1)" in problem.message
    with pytest.raises(GameError):
        game.proposal()
    game.fix(4, "1,1")
    assert game.problem is None and str(game.proposal()) == "3632"


def test_only_the_last_row_can_be_fixed_to_the_all_black_reply_and_no_row_is_lost():
    game = Game.solving(CLASSIC)
    for reply in ["1,0", "0,1", "1,2"]:
        game.reply(reply)
    rows = list(game.moves)
    with pytest.raises(GameError, match="row 1 cannot be all black: you replied to guesses after it"):
        game.fix(1, "4,0")
    assert game.moves == rows and game.outcome == "playing"
    game.fix(3, "4,0")  # the last row: the game is won there
    assert game.outcome == "won" and len(game.moves) == 3 and str(game.moves[2].reply) == "4,0"


def test_an_impossible_reply_is_refused_and_changes_nothing():
    game = Game.solving(CLASSIC)
    with pytest.raises(ValueError, match="impossible reply"):
        game.reply("3,1")
    assert game.moves == []


def test_referee_scores_the_computer_and_there_is_nothing_to_fix():
    game = Game.solving(CLASSIC, secret="3632")
    while not game.over:
        game.guess(game.proposal())
    assert game.outcome == "won" and len(game.moves) == 5
    with pytest.raises(GameError, match="scores this game itself"):
        game.fix(1, "0,0")


@settings(max_examples=40, deadline=None)
@given(
    secret=st.integers(0, SMALL.size - 1),
    actions=st.lists(st.one_of(st.just("undo"), st.integers(0, SMALL.size - 1)), max_size=12),
)
def test_random_play_never_breaks_the_invariants(secret, actions):
    from mastermind import CodeSpace

    space = CodeSpace.of(SMALL)
    game = Game(SMALL, secret=space.code(secret), seed=0)
    for action in actions:
        if game.over:
            break
        if action == "undo":
            if game.moves:
                game.undo()
            continue
        game.guess(space.code(action))
        # invariants: every reply is the true score; the win ends the game; never past the limit
        assert all(m.reply == score(m.guess.colors, game.secret.colors) for m in game.moves)
        assert len(game.moves) <= SMALL.max_guesses
        assert (game.outcome == "won") == (game.moves[-1].guess == game.secret)
        left = game.candidates()
        assert left is not None and left >= 1  # the secret always fits
    again = Game.from_record(json.loads(json.dumps(game.record())))
    assert again.record() == game.record()


@settings(max_examples=30, deadline=None)
@given(secret=st.integers(0, SMALL.size - 1), lie=st.integers(0, 3))
def test_a_codemaker_who_lies_once_is_caught_or_still_consistent(secret, lie):
    from mastermind import CodeSpace

    space = CodeSpace.of(SMALL)
    code = space.code(secret)
    game = Game.solving(SMALL, strategy="most-parts")
    turn = 0
    while not game.over and game.problem is None:
        guess = game.proposal()
        fb = score(guess.colors, code.colors)
        if turn == lie and fb.black < SMALL.pegs:
            fb = Feedback(fb.black, 0) if fb.white else Feedback(0, 1) if fb.black < SMALL.pegs - 1 else fb
        game.reply(fb)
        turn += 1
    if game.problem is not None:
        assert game.problem.rows and game.outcome == "playing"
    assert Game.from_record(game.record()).record() == game.record()


def test_records_are_versioned_and_refused_when_newer_or_foreign():
    record = Game.breaking(CLASSIC, seed=1).record()
    assert record["version"] == 4 and record["kind"] == "play" and record["finished"] is False
    with pytest.raises(RecordError, match="newer"):
        Game.from_record({**record, "version": 99})
    with pytest.raises(RecordError, match="kind"):
        Game.from_record({**record, "kind": "chess"})
    with pytest.raises(RecordError, match="incomplete"):
        Game.from_record({k: v for k, v in record.items() if k != "moves"})


def test_a_record_with_a_move_without_its_guess_is_refused_even_under_python_O():
    """The check is an exception, not an assert: ``python -O`` would drop an assert."""
    record = Game.breaking(CLASSIC, seed=1).record()
    record["moves"] = [{"guess": None, "reply": "0,0"}]
    with pytest.raises(RecordError, match="a move without its guess"):
        Game.from_record(record)
    script = (
        "import json, sys\n"
        "from mastermind import Game, RecordError\n"
        "try:\n"
        "    Game.from_record(json.loads(sys.argv[1]))\n"
        "except RecordError as err:\n"
        "    print('refused:', err)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-O", "-c", script, json.dumps(record)], capture_output=True, text=True, check=True
    )
    assert proc.stdout.startswith("refused: a game record has a move without its guess"), proc.stderr


def test_a_record_of_play_without_its_secret_is_refused():
    record = Game.breaking(CLASSIC, seed=1).record()
    with pytest.raises(RecordError, match="a record of play has no secret"):
        Game.from_record({**record, "secret": None})
    solving = Game.solving(CLASSIC, "knuth").record()  # the person keeps the code: none is recorded
    assert solving["secret"] is None and Game.from_record(solving).secret is None


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("hints", -1, "number of hints"),
        ("seed", 10**30, "seed"),
        ("daily", 5, "YYYY-MM-DD"),
        ("daily", ["x"], "YYYY-MM-DD"),
        ("daily", "2026-13-01", "YYYY-MM-DD"),
        ("moves", [{"guess": "1122", "reply": "0,0"}] * 11, "number of guesses"),
        ("moves", [{"guess": "1122", "reply": "4,0"}, {"guess": "1344", "reply": "1,0"}], "follows a win"),
    ],
)
def test_a_record_bringing_a_number_out_of_bounds_is_refused_in_one_line(key, value, says):
    # a record read from a file is anyone's: each number it brings is bounded before it is used
    record = Game.breaking(CLASSIC, seed=3).record()
    with pytest.raises(RecordError, match=says) as err:
        Game.from_record({**record, key: value})
    assert "\n" not in str(err.value)


def _match_record() -> dict:
    match = Match(Rules(pegs=2, colors=3), ["human", "knuth"], 2, "standard", seed=5)
    if match.waiting_for == "secret":
        match.set_secret("12")
    return match.record()


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("replayed", 10**12, "games replayed"),  # drawn again once each: a thread held for ever
        ("maker", 10**30, "codemaker"),
        ("breaker", None, "codebreaker"),
        ("breaker", 1, "codebreaker"),
        ("number", 5, "game number"),
        ("points", -1, "two numbers"),
        ("points", [-1, 0], "points of a game"),
        ("points", [10**9, 0], "points of a game"),
        ("referee", "yes", "referee"),
    ],
)
def test_a_match_record_bringing_a_number_out_of_bounds_is_refused_at_once(key, value, says):
    record = _match_record()
    assert Match.from_record(record).record() == record  # the record as made reads back
    bad = json.loads(json.dumps(record))
    bad["games"][0][key] = value
    with pytest.raises(RecordError, match=says):
        Match.from_record(bad)


def test_a_match_record_with_more_games_than_planned_or_a_game_of_other_rules_is_refused():
    record = _match_record()
    with pytest.raises(RecordError, match="more games than its 2"):
        Match.from_record({**record, "games": record["games"] * 3})
    other = json.loads(json.dumps(record))
    other["games"][0]["game"] = Game.breaking(CLASSIC, seed=1).record()
    with pytest.raises(RecordError, match="not of the match's"):
        Match.from_record(other)


# --- matches --------------------------------------------------------------------------------------


def test_an_odd_number_of_games_is_refused():
    with pytest.raises(GameError, match="even number of games"):
        Match(CLASSIC, ["knuth", "entropy"], games=3)


@pytest.mark.parametrize("games", [0, -2, 1])
def test_a_match_has_at_least_two_games(games):
    with pytest.raises(GameError, match=f"a match has at least 2 games .*, not {games}$"):
        Match(CLASSIC, ["knuth", "entropy"], games=games)


def test_a_match_has_at_most_so_many_games():
    with pytest.raises(GameError, match="at most 10,000 games, not 99,999,999,999,999,999,999$"):
        Match(CLASSIC, ["knuth", "entropy"], games=99999999999999999999)


def test_a_strategy_tournament_alternates_roles_and_scores_by_the_default_rule():
    match = Match(CLASSIC, ["knuth", "entropy"], games=4, seed=5)
    match.play_out()
    assert match.over and match.waiting_for is None
    record = match.record()
    assert [(g["maker"], g["breaker"]) for g in record["games"]] == [(1, 2), (2, 1), (1, 2), (2, 1)]
    for g in record["games"]:
        assert g["broken"] and g["replayed"] == 0
        points = [0, 0]
        points[g["maker"] - 1] = g["guesses"]  # broken: one point per guess, no extra point
        assert g["points"] == points
    assert record["score"] == [sum(g["points"][i] for g in record["games"]) for i in (0, 1)]
    a, b = record["score"]
    assert record["winner"] == (None if a == b else 1 if a > b else 2)
    assert Match.from_record(json.loads(json.dumps(record))).record() == record


def test_the_codebreakers_score_counts_rows_and_fewest_wins():
    match = Match(CLASSIC, ["knuth", "random"], games=2, scoring="codebreaker", seed=2)
    match.play_out()
    games = match.record()["games"]
    assert games[0]["points"] == [0, games[0]["guesses"]]
    assert games[1]["points"] == [games[1]["guesses"], 0]
    a, b = match.score
    assert match.winner == (None if a == b else 1 if a < b else 2)


def test_the_codemakers_score_counts_rows_not_showing_the_code_and_an_unbroken_code():
    match = Match(Rules(max_guesses=3), ["human", "knuth"], games=2, scoring="codemaker", seed=1)
    assert match.waiting_for == "secret"
    match.set_secret("3632")  # knuth needs 5 guesses for 3632: not broken in 3
    match.play_out()
    first = match.record()["games"][0]
    assert first["guesses"] == 3 and not first["broken"] and first["points"] == [3, 0]
    assert match.waiting_for == "guess"  # knuth has made a code for the human
    secret = match.current.game.secret
    match.guess(secret)
    second = match.record()["games"][1]
    assert second["broken"] and second["points"] == [0, 0] and match.over
    assert match.score == [3, 0] and match.winner == 1


def test_wrong_information_replays_the_game_and_gives_the_breaker_three_points():
    match = Match(CLASSIC, ["human", "knuth"], games=2, seed=1)
    match.set_secret(None)  # the human replies by hand
    for reply in ["1,0", "0,1", "1,2", "1,2", "0,2"]:
        match.advance()
        assert match.waiting_for == "reply"
        events = match.reply(reply)
    assert [e.kind for e in events][-1] == "replayed" and events[-1].problem.rows == (0, 1, 3, 4)
    assert match.current.replayed == 1 and match.current.game.moves == []
    assert match.score == [0, 0] and match.standing == [0, 3]  # the breaker's points, given already
    for reply in ["1,0", "0,1", "1,2", "1,1", "4,0"]:
        match.advance()
        match.reply(reply)
    first = match.record()["games"][0]
    assert first["replayed"] == 1 and first["guesses"] == 5 and first["points"] == [5, 3]
    assert match.standing == match.score == [5, 3]  # counted once the game ends


def test_wrong_information_under_the_codebreakers_score_costs_the_codemaker():
    match = Match(CLASSIC, ["human", "knuth"], games=2, scoring="codebreaker", seed=1)
    match.set_secret(None)
    for reply in ["1,0", "0,1", "1,2", "1,2", "0,2"]:
        match.advance()
        match.reply(reply)
    for reply in ["1,0", "0,1", "1,2", "1,1", "4,0"]:
        match.advance()
        match.reply(reply)
    assert match.record()["games"][0]["points"] == [3, 5]


def test_the_hardest_codemaker_picks_a_secret_that_costs_the_breaker_most():
    rules = Rules(pegs=3, colors=4)
    depths = guesses_per_secret(make_strategy("knuth", rules))
    match = Match(rules, ["knuth", "knuth"], games=2, seed=0, codemaker="hardest")
    match.play_out()
    for g in match.record()["games"]:
        assert g["guesses"] == depths.max()


@pytest.mark.parametrize("codemaker", ["random", "hardest"])
def test_a_match_read_back_from_its_record_goes_on_as_if_never_stopped(codemaker):
    """The secrets and seeds drawn after a match was stopped and read back are those it would have
    drawn anyway: the same seed, the same match, interrupted or not."""
    rules = Rules(pegs=3, colors=4)
    whole = Match(rules, ["knuth", "random"], games=6, seed=11, codemaker=codemaker)
    whole.play_out()
    for stop in (0, 1, 3, 7, 12):  # a few moves in, mid-game, between games
        match = Match(rules, ["knuth", "random"], games=6, seed=11, codemaker=codemaker)
        for _ in range(stop):
            match.advance()
        again = Match.from_record(json.loads(json.dumps(match.record())))
        again.play_out()
        assert again.record() == whole.record(), stop


def test_reading_a_hardest_match_walks_no_tree_until_it_draws_again(monkeypatch):
    """The history's listings read every record with the engine: a match of hardest secrets read
    back walks its breakers' trees (an optimal breaker's is the exact search) only once it draws
    its next secret, not while it is read."""
    from mastermind.strategies import walk

    rules = Rules(pegs=3, colors=4)
    match = Match(rules, ["knuth", "random"], games=4, seed=11, codemaker="hardest")
    for _ in range(7):
        match.advance()
    walks = []
    real = walk.guesses_per_secret
    monkeypatch.setattr(walk, "guesses_per_secret", lambda s: walks.append(s.name) or real(s))
    again = Match.from_record(json.loads(json.dumps(match.record())))
    assert walks == [] and again.record() == match.record()
    again.play_out()
    match.play_out()
    assert walks and again.record() == match.record()


def test_a_replayed_game_is_counted_when_a_match_is_read_back():
    match = Match(CLASSIC, ["human", "knuth"], games=2, seed=1)
    match.set_secret(None)
    for reply in ["1,0", "0,1", "1,2", "1,2", "0,2"]:  # wrong information: the game is replayed
        match.advance()
        match.reply(reply)
    for reply in ["1,0", "0,1", "1,2", "1,1", "4,0"]:
        match.advance()
        match.reply(reply)
    again = Match.from_record(match.record())
    assert again.record() == match.record()
    (replay,) = again.rounds[0].replays  # the game given up for wrong information, kept row by row
    assert [str(m.reply) for m in replay.moves] == ["1,0", "0,1", "1,2", "1,2", "0,2"]
    assert replay.problem is not None and replay.problem.rows == (0, 1, 3, 4)
    match.play_out()  # knuth makes the code of game 2
    again.play_out()
    assert again.waiting_for == "guess" and match.waiting_for == "guess"
    assert again.current.game.secret == match.current.game.secret
    assert again.current.game.seed == match.current.game.seed


def test_a_replied_guess_in_a_match_stands_so_the_score_counts_every_reply_seen():
    match = Match(CLASSIC, ["knuth", "human"], games=2, seed=3)
    with pytest.raises(GameError, match="nothing to undo: no guess yet"):
        match.undo()
    match.play_out()  # knuth makes the code of game 1; the engine scores every guess at once
    with pytest.raises(GameError, match="nothing to undo: no guess yet"):
        match.undo()
    match.guess("1122")
    match.guess("3456")
    with pytest.raises(GameError, match="^guess 2 has had its reply: in a match a replied guess stands$"):
        match.undo()
    game = match.current.game
    assert [str(m.guess) for m in game.moves] == ["1122", "3456"] and match.waiting_for == "guess"
    match.guess("1234")
    match.guess(game.secret)
    assert match.rounds[0].points == [4, 0]  # every reply the breaker saw is counted
    with pytest.raises(GameError, match="game 1 is over and game 2 has no guess yet: nothing to undo"):
        match.undo()


def test_a_guess_waiting_for_a_persons_reply_is_withdrawn_alone_and_the_record_follows():
    match = Match(CLASSIC, ["human", "human"], games=2, seed=1)
    match.set_secret(None)  # player 1 replies by hand to player 2's guesses
    match.guess("1122")
    match.reply("1,0")
    match.guess("1344")
    assert match.waiting_for == "reply"
    [event] = match.undo()  # withdrawn before its reply: nothing was revealed
    assert event.kind == "undone" and event.move is None and event.row == 2 and event.round.breaker == 2
    assert match.waiting_for == "guess" and [str(m.guess) for m in match.current.game.moves] == ["1122"]
    with pytest.raises(GameError, match="^guess 1 has had its reply: in a match a replied guess stands$"):
        match.undo()
    assert [str(m.guess) for m in match.current.game.moves] == ["1122"]
    # read back from its record after the undo, the match ends as the one never stopped
    again = Match.from_record(json.loads(json.dumps(match.record())))
    assert again.record() == match.record()
    for m in (match, again):
        m.guess("3456")
        m.reply("0,3")
        m.guess("1563")  # the code player 1 had in mind: every reply fits it
        m.reply("4,0")
    assert again.record() == match.record()
    assert match.rounds[0].replayed == 0 and match.rounds[0].points == [3, 0]


def test_a_strategys_guesses_in_a_match_are_not_taken_back():
    match = Match(CLASSIC, ["human", "knuth"], games=2, seed=1)
    match.set_secret("3632")
    match.advance()
    with pytest.raises(GameError, match="knuth breaks this code: a strategy's guesses are not taken back"):
        match.undo()
    assert len(match.current.game.moves) == 1


def test_only_a_person_breaking_a_code_gives_up_a_match_game_and_only_at_their_guess():
    against = Match(CLASSIC, ["human", "knuth"], games=2, seed=1)
    against.set_secret("3632")  # knuth breaks it
    with pytest.raises(GameError, match="only a person breaking a code can give up, at their turn to guess"):
        against.give_up()
    assert not against.current.game.over
    by_hand = Match(CLASSIC, ["human", "human"], games=2, seed=1)
    by_hand.set_secret(None)  # the codemaker replies to each guess
    by_hand.guess("1122")
    with pytest.raises(GameError, match="at their turn to guess"):
        by_hand.give_up()  # the reply is owed first
    by_hand.reply("1,0")
    assert [e.kind for e in by_hand.give_up()][:1] == ["round-over"] and by_hand.current.number == 2


def test_a_wrong_reply_in_a_match_is_not_fixed_by_the_game_itself():
    match = Match(CLASSIC, ["human", "human"], games=2, seed=1)
    match.set_secret(None)
    match.guess("1122")
    match.reply("1,0")
    with pytest.raises(GameError, match="in a match a wrong reply is not fixed: the game is played again"):
        match.current.game.fix(1, "0,0")
    assert str(match.current.game.moves[0].reply) == "1,0"


def test_an_all_black_reply_that_contradicts_the_others_wins_nothing_until_a_row_is_fixed():
    game = Game.solving(CLASSIC)
    game.reply("1,1")  # to 1122
    assert str(game.proposal()) == "1134"
    game.reply("4,0")  # 1134 against 1122 would have got 2,0: one of the replies is wrong
    assert (game.outcome, game.over, game.waiting_for) == ("playing", False, "fix")
    assert game.problem.rows == (0, 1)
    game.undo()  # not over: its rows can be taken back
    game.reply("4,0")
    first_row = next(c for c in game.problem.corrections if c.row == 0)
    assert str(first_row) == "row 1 to 2,0 (1 code would fit)"
    game.correct(first_row)
    assert game.outcome == "won" and game.summary() == "Found it: 1134 in 2 guesses."


def test_a_finished_match_cannot_be_undone():
    match = Match(SMALL, ["knuth", "entropy"], games=2, seed=1)
    match.play_out()
    with pytest.raises(GameError, match="the match is over: its games stand"):
        match.undo()


def test_the_end_of_a_game_in_words():
    won = Game.breaking(SMALL, seed=3)
    won.guess(won.secret)
    assert won.summary() == "You broke the code in 1 guess!"
    lost = Game.breaking(Rules(pegs=3, colors=4, max_guesses=1), seed=3)
    wrong = "111" if lost.secret != Code((0, 0, 0)) else "222"
    lost.guess(wrong)
    assert lost.summary() == f"Out of guesses: the code was {lost.notation.format_code(lost.secret)}."
    found = Game.solving(SMALL, secret="444")
    while not found.over:
        found.guess(found.proposal())
    assert len(found.moves) > 1 and found.summary() == f"Found it: 444 in {len(found.moves)} guesses."
    with pytest.raises(GameError, match="not over"):
        Game.breaking(SMALL).summary()


def test_waiting_for_says_whose_turn_it_is_through_a_game_the_computer_breaks():
    game = Game.solving(CLASSIC, "knuth")
    assert game.waiting_for == "computer"
    game.guess(game.proposal())
    assert game.waiting_for == "reply" and game.notation.format_code(game.pending) == "1122"
    game.reply("0,0")
    assert game.waiting_for == "computer"
    game.guess("1111")  # answered wrongly: 1 was ruled out by the first reply
    game.reply("1,0")
    assert game.waiting_for == "fix" and game.problem is not None and game.problem.rows == (0, 1)
    game.fix(2, "0,0")
    assert game.waiting_for == "computer"
    game.guess(game.proposal())
    game.reply("4,0")
    assert (game.waiting_for, game.outcome) == (None, "won")
    person = Game.breaking(CLASSIC, seed=1)
    assert person.waiting_for == "guess"
    person.guess(person.secret)
    assert person.waiting_for is None


def test_expect_says_whose_turn_it_is_instead_of_playing_out_of_turn():
    game = Game.solving(CLASSIC, "knuth")
    with pytest.raises(GameError, match="it is the computer's turn to guess"):
        game.expect("guess")
    game.guess(game.proposal())
    game.expect("reply")
    with pytest.raises(GameError, match="guess 1 is waiting for its reply"):
        game.expect("guess")
    game.reply("1,0")
    game.guess("3456")
    game.reply("0,0")  # then the secret has only 1s and 2s: 1122 would get more than 1,0
    with pytest.raises(GameError, match="the replies contradict each other"):
        game.expect("reply")
    game.undo()
    game.guess("1345")  # (1345 fits 1122=1,0: its all-black reply wins)
    game.reply("4,0")
    with pytest.raises(GameError, match=r"the game is over \(won\)"):
        game.expect("reply")


def test_a_finished_game_cannot_be_given_up():
    game = Game.breaking(CLASSIC, seed=5)
    game.guess(game.secret)
    with pytest.raises(GameError, match=r"the game is over \(won\)"):
        game.give_up()
    assert game.outcome == "won"


def test_a_guess_that_contradicts_a_reply_is_named_with_the_first_reply_it_contradicts():
    game = Game.breaking(CLASSIC, seed=3)
    game.secret = game.notation.parse_code("2154")
    game.guess("1122")  # 1,1
    game.guess("1344")  # 0,2
    clash = game.inconsistency("1134")  # as the secret, 1122 would get 2,0: row 1 is contradicted
    assert (clash.row, str(clash.guess), clash.reply, clash.would_get) == (
        1,
        "1122",
        Feedback(1, 1),
        Feedback(2, 0),
    )
    assert clash.warning(game.notation.parse_code("1134"), game.notation) == (
        "1134 cannot be the secret: guess 1, 1122, got 1 black, 1 white, and would have got 2 black, 0 white"
    )
    later = game.inconsistency("2143")  # fits row 1 (1,1), not row 2: 1344 would get 1,2, not 0,2
    assert (later.row, later.would_get) == (2, Feedback(1, 2))
    assert game.inconsistency("2154") is None  # the secret fits every reply


@given(st.lists(st.integers(0, 63), min_size=1, max_size=4), st.integers(0, 63))
@settings(max_examples=60, deadline=None)
def test_a_guess_is_consistent_exactly_when_it_is_still_a_possible_code(guesses, candidate):
    space = SolverState(SMALL).space
    secret = space.code(17)
    history = [(space.code(g), score(space.code(g).colors, secret.colors)) for g in guesses]
    from mastermind.games.moves import inconsistency

    code = space.code(candidate)
    possible = candidate in set(SolverState(SMALL, history).candidate_indices().tolist())
    assert (inconsistency(history, code) is None) == possible


def test_a_fixed_reply_is_kept_with_the_guess_made_after_it_and_an_undo_brings_the_fix_forward():
    game = Game.solving(SMALL, "knuth")
    for reply in ("1,0", "0,1", "1,1"):
        game.reply(reply)
    game.fix(1, "0,1")
    game.fix(1, "0,1")  # the same reply: nothing fixed
    assert game.moves[0].fixed == ((Feedback(1, 0), 4),) and game.moves[0] == Move(
        game.moves[0].guess, Feedback(0, 1)
    )
    assert [game.told(n)[0][1] for n in (2, 3, 4)] == [Feedback(1, 0), Feedback(1, 0), Feedback(0, 1)]
    game.undo()  # guess 3 taken back: the guess made in its place knows the fix
    assert game.moves[0].fixed == ((Feedback(1, 0), 3),)
    assert game.told(2)[0][1] == Feedback(1, 0) and game.told(3)[0][1] == Feedback(0, 1)


def test_a_record_of_version_3_has_no_fixes_and_still_reads():
    game = Game.solving(SMALL, "knuth")
    game.reply("1,0")
    record = game.record()
    assert "fixed" not in record["moves"][0]
    record["version"] = 3
    again = Game.from_record(record)
    assert again.moves[0].fixed == () and again.told(2) == game.history


@pytest.mark.parametrize(
    ("history", "error", "says"),
    [
        ("1122=4,0 1344=1,0", GameError, "guess 1 won (all 4 black): no guess follows a win"),
        ("1122=4,0 1344=0,0", GameError, "guess 1 won"),
        ("11=0,0 22=0,0 33=1,0", GameError, "3 guesses are more than the 2 the game allows"),
        ("1122=1,0 1122=0,1", ContradictionError, "row 2 to 1,0 (256); or row 1 to 0,1 (256)"),
    ],
)
def test_check_history_refuses_what_no_game_could_have_had(history, error, says):
    rules = Rules(pegs=2, colors=3, max_guesses=2) if history.startswith("11=") else CLASSIC
    with pytest.raises(error) as err:
        check_history(rules, Notation(rules).parse_history(history))
    assert says in str(err.value)


def test_check_history_says_how_a_history_ends_and_every_correction_passes_it():
    rules = Rules(pegs=2, colors=3, max_guesses=3)
    parse = Notation(rules).parse_history
    assert [check_history(rules, parse(h)) for h in ("", "11=0,0 23=2,0", "11=0,0 22=0,0 33=2,0")] == [
        None,
        "won",
        "won",
    ]
    assert check_history(rules, parse("11=0,0 22=0,0 12=0,0")) == "lost"
    for history in ("11=2,0 12=0,0", "11=1,0 22=2,0 33=0,0", "12=2,0 21=0,0"):
        rows = parse(history)
        found = problem(rules, rows)
        assert found is not None and found.corrections
        for c in found.corrections:
            mended = [*rows[: c.row], (rows[c.row][0], c.reply), *rows[c.row + 1 :]]
            check_history(rules, mended)  # a correction offered never leaves a history refused
