"""The words that tell what happened in a game or a match (games/words.py, Game.closing_lines): written
once in the games package, so that the command line, the terminal board and the web page say the
same sentences. Each is checked here as a whole string, from every point of view."""

from __future__ import annotations

from mastermind import Rules
from mastermind.games.game import Game
from mastermind.games.match import Match
from mastermind.games.words import Voice, event_text, match_ending, round_moment, round_text

RULES = Rules(pegs=2, colors=3)


def two_people(scoring: str = "standard") -> Match:
    """Player 1 hides 12, player 2 breaks it in 2 guesses; player 2 hides 33, player 1 breaks it at once."""
    match = Match(RULES, ["human", "human"], seed=1, scoring=scoring)
    match.set_secret("12")
    match.guess("21")
    match.guess("12")
    match.set_secret("33")
    match.guess("33")
    return match


def test_each_voice_names_the_players_as_its_device_speaks_of_them():
    assert Voice.of(Match(RULES, ["human", "knuth"], seed=1)).names == ("you", "player 2 (knuth)")
    assert Voice.of(Match(RULES, ["knuth", "human"], seed=1)).names == ("player 1 (knuth)", "you")
    assert Voice.of(Match(RULES, ["human", "human"], seed=1)).names == ("player 1", "player 2")
    assert Voice.of(Match(RULES, ["knuth", "knuth"], seed=1)).names == (
        "player 1 (knuth)",
        "player 2 (knuth)",
    )
    assert Voice.of(Match(RULES, ["human", "human"], seed=1), seat=1).names == ("you", "your friend")
    assert Voice.of(Match(RULES, ["human", "human"], seed=1), seat=2).names == ("your friend", "you")


def test_a_finished_game_of_a_match_is_told_from_each_point_of_view():
    match = two_people()
    first, second = match.rounds
    notation = first.game.notation
    assert first.points == [2, 0] and second.points == [0, 1]
    one_device = Voice.of(match)
    assert round_text(first, notation, one_device) == (
        "Game 1: player 2 broke the code 12 in 2 guesses. Points: player 1 2, player 2 0."
    )
    assert round_text(second, notation, one_device) == (
        "Game 2: player 1 broke the code 33 in 1 guess. Points: player 1 0, player 2 1."
    )
    # a friend's match: each device speaks to its own player, "you" first
    assert round_text(first, notation, Voice.of(match, seat=1)) == (
        "Game 1: your friend broke the code 12 in 2 guesses. Points: you 2, your friend 0."
    )
    assert round_text(first, notation, Voice.of(match, seat=2)) == (
        "Game 1: you broke the code 12 in 2 guesses. Points: your friend 2, you 0."
    )


def test_a_game_not_broken_or_given_up_names_the_code_and_a_game_replied_by_hand_none():
    match = Match(Rules(pegs=2, colors=3, max_guesses=2), ["knuth", "human"], seed=1)
    match.advance()  # knuth chooses the code
    lost = match.rounds[0]
    notation = Game.breaking(RULES).notation
    for code in [c for c in ("11", "22", "33") if c != notation.format_code(lost.game.secret)][:2]:
        match.guess(code)  # out of guesses
    secret = notation.format_code(lost.game.secret)
    assert round_text(lost, notation, Voice.of(match)) == (
        f"Game 1: you did not break the code {secret}. Points: player 1 (knuth) 3, you 0."
    )
    given = Match(RULES, ["human", "human"], seed=1)
    given.set_secret(None)  # the codemaker replies by hand: no code is known
    given.guess("11")
    given.reply("0,0")
    given.give_up()
    assert round_text(given.rounds[0], notation, Voice.of(given, seat=2)) == (
        "Game 1: you gave up. Points: your friend 11, you 0."  # scored as every guess used
    )
    kept = Match(RULES, ["human", "human"], seed=1)
    kept.set_secret("12")
    kept.give_up()
    assert round_text(kept.rounds[0], notation, Voice.of(kept)) == (
        "Game 1: player 2 gave up; the code was 12. Points: player 1 11, player 2 0."
    )


def test_a_finished_match_says_who_won_by_how_many_points_to_each_player():
    match = two_people()
    assert match.winner == 1 and match.score == [2, 1]
    assert match_ending(match, Voice.of(match)) == ["The match is over: player 1 wins, 2 points to 1."]
    assert match_ending(match, Voice.of(match, seat=1)) == ["The match is over: you win, 2 points to 1."]
    assert match_ending(match, Voice.of(match, seat=2)) == [
        "The match is over: your friend wins, 2 points to 1."
    ]
    fewest = two_people("codebreaker")  # the breaker scores its guesses: fewest wins
    assert fewest.score == [1, 2] and fewest.winner == 1
    assert match_ending(fewest, Voice.of(fewest)) == ["The match is over: player 1 wins, 1 point to 2."]
    tied = Match(RULES, ["human", "human"], seed=1)
    for secret in ("12", "33"):
        tied.set_secret(secret)
        tied.guess(secret)
    assert match_ending(tied, Voice.of(tied)) == ["The match is over: a draw, 1 point each."]
    assert match_ending(Match(RULES, ["human", "human"], seed=1), Voice.of(tied)) == []  # not over


def test_the_moment_of_a_persons_win_is_said_to_the_breaker_and_to_the_maker():
    match = two_people()
    first = match.rounds[0]
    assert round_moment(first, match, Voice.of(match, seat=2)) == ["You broke the code in 2 guesses!"]
    assert round_moment(first, match, Voice.of(match, seat=1)) == [
        "Your friend broke your code in 2 guesses."
    ]
    assert round_moment(first, match, Voice.of(match)) == ["Player 2 broke the code in 2 guesses!"]
    computer = Match(RULES, ["human", "knuth"], seed=1)
    computer.set_secret("12")
    while computer.current.number == 1:
        computer.advance()
    assert round_moment(computer.rounds[0], computer, Voice.of(computer)) == []  # a computer's: no moment


def test_each_event_of_a_match_has_its_sentence_and_a_move_none():
    match = Match(RULES, ["human", "human"], seed=1)
    notation = Game.breaking(RULES).notation
    said = [event_text(e, match, notation, Voice.of(match, seat=1)) for e in match.set_secret(None)]
    assert said == [None]  # a secret chosen: the board shows it
    match.guess("11")
    (undone,) = match.undo()
    assert event_text(undone, match, notation, Voice.of(match, seat=1)) == (
        "Your friend took back guess 1: it had no reply yet."
    )
    assert (
        event_text(undone, match, notation, Voice.of(match))
        == "Player 2 took back guess 1: it had no reply yet."
    )
    events = []
    for guess, reply in (("11", "0,0"), ("22", "0,0"), ("33", "0,0")):  # no code fits: wrong information
        events += match.guess(guess)
        events += match.reply(reply)
    replayed = [e for e in events if e.kind == "replayed"]
    assert [event_text(e, match, notation, Voice.of(match, seat=2)) for e in replayed] == [
        "Game 1: the replies contradict each other; it is played again and you get 3 points."
    ]
    assert event_text(replayed[0], match, notation, Voice.of(match)) == (
        "Game 1: the replies contradict each other; it is played again and player 2 gets 3 points."
    )
    last = match.guess("12") + match.reply("2,0") + match.set_secret("33") + match.guess("33")
    told = [event_text(e, match, notation, Voice.of(match, seat=1)) for e in last]
    assert [t for t in told if t] == [
        "Game 1: your friend broke the code in 1 guess. Points: you 1, your friend 3.",  # replied by hand
        "Game 2: you broke the code 33 in 1 guess. Points: you 0, your friend 1.",
        "The match is over: your friend wins, 4 points to 1.",
    ]


def test_a_single_games_ending_says_what_helped():
    won = Game.breaking(RULES, seed=1)
    won.hint()
    won.hint()
    for code in ("11", "12", "13", "21", "22", "23", "31", "32", "33"):
        if not won.over:
            won.guess(code)
    n = len(won.moves)
    assert won.closing_lines() == [f"You broke the code in {n} guesses!", "With 2 hints."]
    plain = Game.breaking(RULES, seed=1)
    plain.guess(won.secret)
    assert plain.closing_lines() == ["You broke the code in 1 guess!"]
    solved = Game.solving(RULES, secret="12", strategy="knuth")
    while not solved.over:
        solved.guess(solved.proposal())
    assert solved.closing_lines() == [f"Found it: 12 in {len(solved.moves)} guesses."]
    given = Game.breaking(RULES, seed=1)
    given.guess("11")
    given.give_up()
    assert given.closing_lines() == [f"You gave up: the code was {won.notation.format_code(won.secret)}."]
    assert Game.breaking(RULES, seed=1).closing_lines() == []  # not over
