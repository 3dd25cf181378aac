"""Hidden stack sizes (course game 3), the course board format, notation and rendering."""

from __future__ import annotations

import importlib.util

import numpy as np

from boardenvs.games.battle_sheep import BattleSheep
from tests.battle_sheep.helpers import board, small_game

ROWS = ["A3 . . B2 .", ". A1 . . B1", ". . . . .", "B1 . . . .", ". . . . ."]


def test_hidden_counts_are_hidden_in_observe_but_ownership_is_public() -> None:
    game = small_game(field_size=25, sheep_per_player=4, hidden_counts=True)
    state = board(game, ROWS, 0)
    obs = game.spec.split_observation(game.observe(state, 0))
    assert obs["owners"][1].sum() == 3  # player 1's three cells are visible
    assert obs["stacks"][1].sum() == 0  # ... but not their sizes
    assert obs["stacks"][0][0, 0] == 3 / 4
    assert obs["count_known"].sum() == 2


def test_determinize_keeps_each_players_total_and_at_least_one_sheep_per_cell() -> None:
    game = small_game(field_size=25, sheep_per_player=6, hidden_counts=True)
    state = board(game, ["A3 . . B2 .", ". A3 . . B3", ". . . . .", "B1 . . . .", ". . . . ."], 0)
    seen = set()
    for seed in range(30):
        view = game.determinize(state, 0, np.random.default_rng(seed))
        theirs = view.counts[:25][view.owner[:25] == 2]
        assert theirs.sum() == 6 and theirs.min() >= 1
        assert np.array_equal(view.counts[view.owner == 1], state.counts[state.owner == 1])
        assert np.array_equal(game.observe(view, 0), game.observe(state, 0))
        seen.add(tuple(theirs))
    assert len(seen) > 3  # it really resamples


def test_course_format_round_trip() -> None:
    game = BattleSheep()
    state = game.initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(4)
    for _ in range(20):
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    map_stat, sheep_stat, player = game.to_course(state)
    assert {v for row in map_stat for v in row} <= {-1, 0, 1, 2, 3, 4}
    assert sum(v for row in sheep_stat for v in row) == 4 * 16
    again = game.state_from_course(map_stat, sheep_stat, player)
    assert again.key() == state.key()


def test_course_format_of_a_placement_position() -> None:
    game = BattleSheep()
    state = game.initial_state(np.random.default_rng(5))
    state = game.apply(state, int(game.legal_actions(state)[0]))
    again = game.state_from_course(*game.to_course(state))
    assert again.key() == state.key() and game.in_placement(again)


def test_notation_and_text_and_picture() -> None:
    game = small_game(field_size=25)
    state = board(game, ROWS, 0)
    assert game.action_to_str(state, game.parse_action(state, "a1 E 2")) == "a1 E 2"
    assert game.to_text(state).splitlines()[2] == "  1 A 3  .   .  B 2  . "
    if importlib.util.find_spec("PIL") is not None:  # the picture needs the render extra
        image = game.render_rgb(state)
        assert image.dtype == np.uint8 and image.shape[2] == 3 and image.shape[0] % 16 == image.shape[1] % 16 == 0
