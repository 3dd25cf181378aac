"""The table-driven ``observe`` against a straightforward reference, on thousands of random states.

``observation.observe`` reads every cell's column of planes from a per-variant table by the cell's
``(owner, count)`` code. The reference below builds the planes one comparison at a time (the code before
issue 18): for every preset and a few other variants, every seat of every state (placement, moves, the end,
and determinized views where counts are hidden) must get the same bytes, dtype and shape, in a fresh array.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import boardenvs
from boardenvs.games.battle_sheep import PRESETS, BattleSheep, BattleSheepState
from boardenvs.games.battle_sheep.state import FREE, NONFIELD
from tests.playouts import random_game_positions

CONFIGS: list[dict[str, Any]] = [
    *(PRESETS[name] for name in boardenvs.list_presets("battle_sheep")),
    {"board_size": 7, "field_size": 24, "num_players": 3, "sheep_per_player": 5, "hidden_counts": True},
    {"board_size": 8, "field_size": 30, "num_players": 2, "sheep_per_player": 9, "restricted_splits": True},
    {"board_size": 6, "field_size": 20, "num_players": 3, "sheep_per_player": 7, "border_neighbourhood": 8},
    {"board_size": 5, "field_size": 12, "num_players": 2, "sheep_per_player": 3, "hidden_counts": True},
    {"board_size": 4, "field_size": 4, "num_players": 4, "sheep_per_player": 1},
]
MIN_STATES = 2000
"""Random states checked per variant (whole games, so a few more)."""


def reference_observe(game: BattleSheep, state: BattleSheepState, player: int) -> np.ndarray:
    """The planes seen by ``player``, built plane by plane from the state's arrays."""
    c = game.config
    cells, p = c.board_size**2, c.num_players
    owner, counts = state.owner[:cells], state.counts[:cells]
    obs = np.zeros((2 * p + 5, cells), dtype=np.float32)
    for slot in range(p):
        seat = (player + slot) % p
        obs[slot] = owner == seat + 1
        if slot == 0 or not c.hidden_counts:
            obs[p + slot] = np.where(owner == seat + 1, counts, 0) / c.sheep_per_player
    obs[2 * p] = (owner == player + 1) if c.hidden_counts else (owner > 0)
    obs[2 * p + 1] = owner != NONFIELD
    obs[2 * p + 2] = owner == FREE
    obs[2 * p + 3] = state.placed < p and state.current_player >= 0
    obs[2 * p + 4] = state.current_player == player
    return obs.reshape(2 * p + 5, c.board_size, c.board_size)


def check_observations(game: BattleSheep, state: BattleSheepState) -> None:
    """Every seat's observation of ``state`` equals the reference's, and each is a fresh writable array."""
    for player in range(game.config.num_players):
        seen, expected = game.observe(state, player), reference_observe(game, state, player)
        assert seen.dtype == expected.dtype and seen.shape == expected.shape == game.spec.observation_shape
        assert seen.tobytes() == expected.tobytes()
        seen[...] = 7.0  # callers may write into it: nothing cached changes
        assert game.observe(state, player).tobytes() == expected.tobytes()


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_observe_agrees_with_the_reference(config: dict[str, Any]) -> None:
    game, rng = BattleSheep(**config), np.random.default_rng(18)
    for state in random_game_positions(game, rng, min_positions=MIN_STATES):
        check_observations(game, state)
        if game.config.hidden_counts and not game.is_terminal(state):
            observer = (state.current_player + 1) % game.config.num_players
            check_observations(game, game.determinize(state, observer, rng))


def test_observe_of_a_hand_built_board_agrees_with_the_reference() -> None:
    game = BattleSheep(board_size=4, field_size=10, num_players=3, sheep_per_player=6, hidden_counts=True)
    state = game.state_from_course(
        [[1, 0, 0, 2], [1, -1, 3, 0], [0, 0, 3, -1], [-1, 0, 0, 2]],
        [[5, 0, 0, 4], [1, 0, 6, 0], [0, 0, 1, 0], [0, 0, 0, 2]],
        1,
    )
    check_observations(game, state)


def test_observe_refuses_a_player_outside_the_game() -> None:
    game = BattleSheep(**PRESETS["basic"])
    state = game.initial_state(np.random.default_rng(0))
    for player in (-1, 4):
        with pytest.raises(ValueError, match="player must be 0..3"):
            game.observe(state, player)
