"""Random playouts for tests that check a property at every position of a few seeded games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from baselines.search.playout import UniformStream, random_playout
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


def positions_before_the_end(game: Game, seed: int) -> list[Any]:
    """Every position of one random game from ``seed`` (the start included, the end excluded)."""
    rng = np.random.default_rng(seed)
    state, positions = game.initial_state(rng), []
    while not game.is_terminal(state):
        positions.append(state)
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
    return positions


def both_playouts(
    game: Game, state: Any, compiled_playout: Callable[..., Any], seed: int, plies: int, block: int = 4096
) -> tuple[Any, Any]:
    """The generic and the compiled playout from ``state`` with equal streams: ``(expected, found)``, after checking
    that both used the same numbers, give the same returns and left ``state`` as it was."""
    generic = UniformStream(np.random.default_rng(seed), block)
    fast = UniformStream(np.random.default_rng(seed), block)
    before = state.key()
    expected = random_playout(game, state, generic, plies)
    found = compiled_playout(game, state, fast, plies)
    assert found.key() == expected.key(), (state, plies)
    assert (fast.index, fast.values) == (generic.index, generic.values)
    assert game.returns(found).tolist() == game.returns(expected).tolist()
    assert state.key() == before
    return expected, found
