"""Random playouts for tests that check a property at every position of a few seeded games."""

from __future__ import annotations

from typing import Any

import numpy as np

from boardenvs.core import Game


def random_game_positions(game: Game, rng: np.random.Generator, games: int = 1, min_positions: int = 0) -> list[Any]:
    """Every position of ``games`` random games drawn from ``rng`` (setup and moves), the final ones included, and of
    more games while there are fewer than ``min_positions``."""
    positions: list[Any] = []
    played = 0
    while played < games or len(positions) < min_positions:
        played += 1
        state = game.initial_state(rng)
        positions.append(state)
        while not game.is_terminal(state):
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
            positions.append(state)
    return positions
