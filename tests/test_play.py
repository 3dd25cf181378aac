"""Tests of ``scripts/play.py`` driven by scripted input."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from baselines.arena.terminal import PlaySession
from boardenvs import make_game
from scripts.play import Args, main, make_session

Line = str | Callable[[Any], str]
"""A scripted input line, or a function of the true position at the prompt that writes it."""


class Console:
    """Scripted input and collected output for ``scripts.play.main``; records the true position at every prompt."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = iter(lines)
        self.printed: list[str] = []
        self.session: PlaySession | None = None
        self.prompted: list[Any] = []

    def input(self, prompt: str) -> str:
        self.printed.append(prompt)
        state = self.session.state if self.session is not None else None
        self.prompted.append(state)
        try:
            line = next(self.lines)
        except StopIteration:
            raise EOFError from None  # like input() at the end of the input
        return line if isinstance(line, str) else line(state)

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


def run_session(lines: list[Line], **settings: Any) -> tuple[PlaySession, Console]:
    """Play ``lines`` through :func:`scripts.play.make_session`; the console holds the position at every prompt."""
    console = Console(lines)
    args = Args(**{"opponent": "random", **settings})
    console.session = make_session(args, console.input, console.output)
    console.session.run()
    return console.session, console


def reserved_card(state: Any, seat: int) -> int:
    return int(state.reserved[seat, 0])


@pytest.mark.parametrize("human_seat", [0, 1])
def test_undo_redraws_the_deck_so_a_reserved_deck_card_is_not_learned(human_seat: int) -> None:
    game = make_game("splendor")
    seen, redone = [], []
    for seed in range(6):
        lines = ["reserve deck L1", "undo", "reserve deck L1", "quit"]
        _, console = run_session(lines, game="splendor", seed=seed, human_seat=human_seat)
        before, first, after_undo, second = console.prompted[:4]
        assert "shuffled again" in console.text
        assert_same_view(game, before, after_undo, human_seat)
        seen.append(reserved_card(first, human_seat))
        redone.append(reserved_card(second, human_seat))
        assert first.hidden[human_seat, 0] and second.hidden[human_seat, 0]
    assert sum(a != b for a, b in zip(seen, redone)) >= 3  # 1 in 36 chance of the same card per seed


def assert_same_view(game: Any, before: Any, after: Any, seat: int) -> None:
    """The position after the undo looks exactly like the one before the move to ``seat``."""
    np.testing.assert_array_equal(game.observe(before, seat), game.observe(after, seat))
    assert game.text_for(before, seat) == game.text_for(after, seat)
    assert np.array_equal(game.legal_action_mask(before), game.legal_action_mask(after))


def first_open_stack(state: Any) -> str:
    return f"draft {state.open_stacks()[0][0]}"


def test_undo_redraws_the_face_down_draft_card_a_gravwell_draft_showed() -> None:
    game = make_game("gravwell", num_players=2)
    changed = 0
    for seed in range(6):
        lines = [first_open_stack, "undo", "quit"]
        _, console = run_session(lines, game="gravwell", config=["num_players=2"], seed=seed)
        before, _, after_undo = console.prompted[:3]
        stack = before.open_stacks()[0][0]
        assert_same_view(game, before, after_undo, 0)
        down = {index: face_down for index, _, face_down in before.open_stacks()}
        down_after = {index: face_down for index, _, face_down in after_undo.open_stacks()}
        changed += down[stack] != down_after[stack]
    assert changed >= 3


def test_a_game_with_perfect_information_is_unchanged_by_the_redraw() -> None:
    session, console = run_session(["c4", "undo", "quit"], config=["board_size=5"])
    assert console.prompted[0].key() == console.prompted[2].key() == session.state.key()
    assert "shuffled" not in console.text


@pytest.mark.parametrize(
    ("game", "config", "opponent", "move"),
    [
        ("quoridor", ["board_size=5"], "random", "c4"),
        ("quoridor", ["board_size=5"], "heuristic", "c4"),
        ("splendor", [], "random", "take WUG"),
        ("gravwell", ["num_players=3"], "random", None),
    ],
)
def test_the_same_move_after_an_undo_gets_the_same_reply(game: str, config: list, opponent: str, move: Any) -> None:
    move = move or first_open_stack
    _, console = run_session([move, "undo", move, "quit"], game=game, config=config, opponent=opponent)
    assert "Took back" in console.text
    before_undo = console.printed.index(next(line for line in console.printed if line.startswith("Took back")))
    first = [line for line in console.printed[:before_undo] if " plays " in line]
    second = [line for line in console.printed[before_undo:] if " plays " in line]
    assert second and first[-len(second) :] == second


def test_opponent_decisions_are_seeded_from_seed_ply_and_seat() -> None:
    session, _ = run_session(["quit"], config=["board_size=5"])
    a, b = session.decision_rng(1).integers(2**62), session.decision_rng(1).integers(2**62)
    assert a == b and a != session.decision_rng(0).integers(2**62)


def test_help_explains_that_undo_shuffles_the_hidden_cards() -> None:
    _, console = run(["help", "quit"])
    assert "undo" in console.text and "shuffled again" in console.text


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
