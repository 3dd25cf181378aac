"""Illegal actions raise ``ValueError("action N is illegal here: <reason>")`` with a reason a player understands."""

from __future__ import annotations

import re

import numpy as np
import pytest

from boardenvs.games.battle_sheep import PRESETS, BattleSheep, BattleSheepState, Move
from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES, parse_cell
from tests.battle_sheep.helpers import board, small_game

PLACING = [". . . . .", ". . . . .", "A4 . . . .", ". . . . .", "# . . . ."]
"""Player 0 has placed on a3; player 1 places next. a5 is not field; b4 is diagonal to it."""
MOVING = ["A2 B2 . . .", ". . . . .", ". # A3 . .", ". . B1 . .", ". . . . ."]
"""Move phase, player 0 to move: a1 (2 sheep) and c3 (3 sheep); b3 is not field."""
STUCK = ["A2 B2 . . .", "B1 # . . .", ". . A3 . .", ". . . . .", ". . . . ."]
"""Move phase, player 0 to move: a1 is walled in, only c3 can move."""


def action_of(game: BattleSheep, state: BattleSheepState, text: str) -> int:
    """The action id of ``"place c5"`` or ``"c5 NE 3"`` in ``state`` whether or not it is legal there."""
    words, size = text.split(), game.config.board_size
    if words[0] == "place":
        return game.encode(state, Move("place", parse_cell(size, words[1])))
    move = Move("move", parse_cell(size, words[0]), DIRECTION_NAMES.index(words[1]), int(words[2]))
    return game.encode(state, move)


def refuse(game: BattleSheep, state: BattleSheepState, text: str, reason: str) -> None:
    """``apply`` and ``check_action`` both refuse ``text`` with the message ``... illegal here: <reason>``."""
    action = action_of(game, state, text)
    expected = f"action {action} is illegal here: {text}: {reason}"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        game.apply(state, action)
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        game.check_action(state, action)


# -- placement phase ----------------------------------------------------------------------------
FREE_BORDER_4 = "free border cells: a1, b1, c1, d1, e1, a2, e2, e3, a4, e4, b5, c5, d5, e5"


def test_placing_on_an_occupied_cell() -> None:
    game = small_game(field_size=24)
    refuse(game, board(game, PLACING, 1), "place a3", f"a3 is already taken by player 0 (A); {FREE_BORDER_4}")


def test_placing_outside_the_field() -> None:
    game = small_game(field_size=24)
    refuse(game, board(game, PLACING, 1), "place a5", f"a5 is not on the playing field; {FREE_BORDER_4}")


def test_placing_away_from_the_border_with_4_neighbourhood() -> None:
    game = small_game(field_size=24)
    state = board(game, PLACING, 1)
    why = "b4 is not a border cell (a starting stack goes on the board edge or beside a non-field cell)"
    refuse(game, state, "place b4", f"{why}; {FREE_BORDER_4}")


def test_placing_away_from_the_border_with_8_neighbourhood() -> None:
    game = small_game(field_size=24, border_neighbourhood=8)
    state = board(game, PLACING, 1)
    game.apply(state, action_of(game, state, "place b4"))  # diagonal to a5: a border cell here
    why = "c3 is not a border cell (a starting stack goes on the board edge or beside or diagonal to a non-field cell)"
    refuse(game, state, "place c3", f"{why}; {FREE_BORDER_4.replace('a4', 'a4, b4')}")


def test_moving_during_placement() -> None:
    game = small_game(field_size=24)
    why = "it is the placement phase: player 1 (B) must place its starting stack before any stack can split"
    refuse(game, board(game, PLACING, 1), "a3 E 1", f"{why}; {FREE_BORDER_4}")


def test_long_cell_lists_are_cut() -> None:
    game = BattleSheep(**PRESETS["overcrowded"])
    state = game.initial_state(np.random.default_rng(5))
    action = int(np.flatnonzero(~game.legal_action_mask(state))[0])
    with pytest.raises(ValueError, match=r"free border cells: (\w+, ){15}\w+ and \d+ more$"):
        game.apply(state, action)


# -- move phase ---------------------------------------------------------------------------------
MOVABLE = "stacks that can move: a1 (2 sheep), c3 (3 sheep)"


def test_placing_after_the_placement_phase() -> None:
    game = small_game(field_size=24)
    why = "the placement phase is over; player 0 (A) must split a stack"
    refuse(game, board(game, MOVING, 0), "place b2", f"{why}; {MOVABLE}")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("b1 S 1", "the stack on b1 belongs to player 1 (B), not to player 0 (A)"),
        ("b2 N 1", "there is no stack on b2"),
        ("b3 E 1", "b3 is not on the playing field"),
    ],
)
def test_moving_from_a_cell_without_own_stack(text: str, why: str) -> None:
    game = small_game(field_size=24)
    refuse(game, board(game, MOVING, 0), text, f"{why}; {MOVABLE}")


def test_moving_from_a_stack_of_one_sheep() -> None:
    game = small_game(field_size=24)
    state = board(game, ["A2 . . . .", ". . . . .", ". . . . .", ". . . . A1", ". . . . ."], 0)
    why = "the stack on e4 has only 1 sheep and cannot be split"
    refuse(game, state, "e4 N 1", f"{why}; stacks that can move: a1 (2 sheep)")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a1 E 1", "b1, E of a1, is taken by player 1 (B); open directions from a1: S, SE"),
        ("a1 N 1", "a1 is on the board edge, no cell lies N of it; open directions from a1: S, SE"),
        ("c3 W 2", "b3, W of c3, is not on the playing field; open directions from c3: NW, SW, N, NE, E, SE"),
        ("c3 S 1", "c4, S of c3, is taken by player 1 (B); open directions from c3: NW, SW, N, NE, E, SE"),
    ],
)
def test_moving_towards_a_blocked_cell(text: str, why: str) -> None:
    game = small_game(field_size=24)
    refuse(game, board(game, MOVING, 0), text, why)


def test_moving_from_a_walled_in_stack() -> None:
    game = small_game(field_size=24)
    why = "a2, S of a1, is taken by player 1 (B); no direction is open from a1; stacks that can move: c3 (3 sheep)"
    refuse(game, board(game, STUCK, 0), "a1 S 1", why)


def test_moving_too_many_sheep() -> None:
    game = small_game(field_size=24)
    refuse(game, board(game, MOVING, 0), "c3 N 3", "the stack on c3 (3 sheep) can send 1 or 2 sheep, not 3")
    game = small_game(field_size=24, sheep_per_player=8)
    state = board(game, ["A6 . . . .", ". . . . .", ". . . . .", ". . . . .", ". . . . B8"], 0)
    refuse(game, state, "a1 SE 7", "the stack on a1 (6 sheep) can send 1..5 sheep, not 7")


def test_restricted_split_sizes() -> None:
    game = small_game(field_size=25, sheep_per_player=8, restricted_splits=True)
    state = board(game, [". . . . .", ". . . . .", ". . A7 . .", ". . . . .", ". . . . B8"], 0)
    refuse(game, state, "c3 N 2", "with restricted splits, the stack on c3 (7 sheep) can send 1, 3 or 6 sheep, not 2")


def test_hidden_counts_never_show_another_players_stack_size() -> None:
    game = small_game(field_size=24, sheep_per_player=9, hidden_counts=True)
    rows = ["A3 {} . . .", ". . . . .", ". # A6 . .", ". . {} . .", ". . . . ."]
    one, other = (board(game, [r.format(*b) for r in rows], 0) for b in (("B5", "B4"), ("B8", "B1")))
    for text in ("b1 S 3", "b1 S 8", "c4 S 1", "a1 E 1", "c3 S 1", "place b2"):
        action = action_of(game, one, text)
        assert game.illegal_reason(one, action) == game.illegal_reason(other, action)
    refuse(
        game,
        one,
        "b1 S 3",
        "the stack on b1 belongs to player 1 (B), not to player 0 (A); "
        "stacks that can move: a1 (3 sheep), c3 (6 sheep)",
    )


# -- parse_action ---------------------------------------------------------------------------------
def test_parse_action_gives_the_reason_or_the_notation() -> None:
    game = small_game(field_size=24)
    state = board(game, MOVING, 0)
    with pytest.raises(ValueError, match=r"^move 'c3 S 1' is not legal here: c3 S 1: c4, S of c3, is taken by"):
        game.parse_action(state, "c3 S 1")
    with pytest.raises(ValueError, match=r"^move 'c3 up 1' is not legal here: write 'place <cell>' \(cells a1..e5\)"):
        game.parse_action(state, "c3 up 1")
    with pytest.raises(ValueError, match=r"'<cell> <direction> <sheep>' \(directions NW, W, SW, N, S, NE, E, SE; 1..3"):
        game.parse_action(state, "c3 N 4")


# -- sweep over random games of every preset --------------------------------------------------------
def sample_illegal(game: BattleSheep, state: BattleSheepState, rng: np.random.Generator, cap: int) -> np.ndarray:
    """Up to ``cap`` illegal actions: every place action's family, the player's own cells' moves, the rest."""
    illegal = np.flatnonzero(~game.legal_action_mask(state))
    own = np.flatnonzero(state.owner[: game.cells] == state.current_player + 1)
    first, last = game.cells + own * 8 * game.splits, game.cells + (own + 1) * 8 * game.splits
    on_own = np.zeros(game.spec.num_actions, dtype=np.bool_)
    for lo, hi in zip(first, last, strict=True):
        on_own[lo:hi] = True
    places, mine = illegal < game.cells, on_own[illegal]
    groups = [illegal[places], illegal[mine], illegal[~places & ~mine]]
    picks = [rng.choice(group, size=min(cap // 3, group.size), replace=False) for group in groups if group.size]
    return np.concatenate(picks)


def reason_of(game: BattleSheep, state: BattleSheepState, action: int) -> str:
    """The reason in ``apply``'s error, checked to equal ``check_action``'s message."""
    with pytest.raises(ValueError, match=f"^action {action} is illegal here: ") as error:
        game.apply(state, action)
    with pytest.raises(ValueError) as checked:
        game.check_action(state, action)
    assert str(checked.value) == str(error.value)
    return str(error.value).split("illegal here: ", 1)[1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_sampled_illegal_action_has_a_reason(preset: str) -> None:
    game = BattleSheep(**PRESETS[preset])
    rng = np.random.default_rng(11)
    first_seed = 2 * sorted(PRESETS).index(preset)
    for seed in (first_seed, first_seed + 1):
        state = game.initial_state(np.random.default_rng(seed))
        while not game.is_terminal(state):
            if state.ply % 3 == 0 or game.in_placement(state):
                for action in sample_illegal(game, state, rng, cap=36).tolist():
                    reason = reason_of(game, state, action)
                    assert reason.startswith(game.action_to_str(state, action) + ": ") and "\n" not in reason
                    if game.config.hidden_counts:  # nothing hidden from the mover shows: same on a resampled view
                        view = game.determinize(state, state.current_player, rng)
                        assert game.illegal_reason(view, action) == reason
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
