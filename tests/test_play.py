"""Tests of ``scripts/play.py`` driven by scripted input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from boardenvs import make_game
from scripts.play import Args, main


class Console:
    """Scripted input and collected output for ``scripts.play.main``."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = iter(lines)
        self.printed: list[str] = []

    def input(self, prompt: str) -> str:
        self.printed.append(prompt)
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None  # like input() at the end of the input

    def output(self, text: str) -> None:
        self.printed.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.printed)


def run(lines: list[str], **settings) -> tuple:
    console = Console(lines)
    args = Args(**{"config": ["board_size=5"], "opponent": "random", **settings})
    return main(args, input_fn=console.input, output=console.output), console


def test_a_malformed_move_re_prompts_with_the_reason() -> None:
    result, console = run(["x9", "hello", "c1", "quit"])
    assert "move 'x9' is off the board" in console.text
    assert "cannot read move 'hello'" in console.text
    assert "illegal move 'c1': c1 is not reachable" in console.text
    assert console.text.count("your move") == 4 and result.actions == []


def test_undo_takes_back_the_move_and_the_reply() -> None:
    result, console = run(["c4", "undo", "b5", "quit"])
    game = make_game("quoridor", board_size=5)
    start = game.initial_state(np.random.default_rng(0))
    assert "Took back your last move and 1 reply." in console.text
    assert len(result.actions) == 2 and result.actions[0] == game.parse_action(start, "b5")
    boards = [text for text in console.printed if text.startswith("Quoridor 5x5")]
    assert "ply 0" in boards[2]  # the board shown after the undo is the start position again


def test_undo_with_nothing_to_undo() -> None:
    _, console = run(["undo", "quit"])
    assert "Nothing to undo." in console.text


def test_quit_and_end_of_input_leave_cleanly() -> None:
    result, console = run(["quit"])
    assert not result.finished and result.returns is None and "Bye." in console.text
    result, _ = run([])  # end of input
    assert not result.finished


def test_help_lists_commands_and_legal_moves() -> None:
    _, console = run(["help", "moves", "quit"])
    assert "undo" in console.text and "Legal moves: c4 b5 d5" in console.text
    assert "(35 in all; 'moves' lists them)" in console.text


def test_a_full_game_against_random_on_three_by_three() -> None:
    squares = [f"{col}{row}" for row in "123" for col in "abc"]  # tried in turn: the illegal ones re-prompt
    result, console = run(list(itertools.islice(itertools.cycle(squares), 2000)), config=["board_size=3"])
    assert result.finished and len(result.returns) == 2
    assert "Game over" in console.text


def test_playing_the_second_seat_against_the_heuristic() -> None:
    result, console = run(["quit"], opponent="heuristic", human_seat=1)
    assert "heuristic (seat 0) plays c4" in console.text and result.actions != []


def test_bad_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="human_seat"):
        run([], human_seat=2)
    with pytest.raises(ValueError, match="unknown agent"):
        run([], opponent="nobody")


def test_a_human_never_sees_the_bots_secret_cards() -> None:
    # Gravwell, human in the last seat: the bots draft, then commit their cards before the human's turn
    lines = ["moves"] + ["draft 0", "draft 1", "draft 2", "draft 3", "draft 4", "draft 5"] * 2 + ["quit"]
    _, console = run(lines, game="gravwell", config=["num_players=3"], human_seat=2, opponent="random_es")
    bot_moves = [line for line in console.printed if "(seat 0) plays" in line or "(seat 1) plays" in line]
    assert bot_moves and all("play " not in line or "play (secret)" in line for line in bot_moves)
    boards = [text for text in console.printed if text.startswith("round ")]
    assert boards and all("P0 stop" in board for board in boards)
    for board in boards:
        for line in board.splitlines():
            if line.startswith(("P0 ", "P1 ")):  # the bots' hands: known cards (*) and ? only
                hand = line.split("hand:")[1].split()
                assert all(card == "?" or card.endswith("*") for card in hand)
