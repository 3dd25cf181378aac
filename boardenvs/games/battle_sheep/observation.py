"""The observation planes of Battle Sheep, from the observer's point of view."""

from __future__ import annotations

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState


def observation_fields(num_players: int) -> tuple[ObservationField, ...]:
    """The named planes of ``float32[2p + 5, n, n]``."""
    p = num_players
    return (
        ObservationField("owners", 0, p, 0.0, 1.0, "1 on cells owned by each player, observer first, then turn order"),
        ObservationField("stacks", p, 2 * p, 0.0, 1.0, "stack size / sheep_per_player, same order; 0 where hidden"),
        ObservationField("count_known", 2 * p, 2 * p + 1, 0.0, 1.0, "1 on occupied cells whose count is visible"),
        ObservationField("field", 2 * p + 1, 2 * p + 2, 0.0, 1.0, "1 on playing-field cells"),
        ObservationField("free", 2 * p + 2, 2 * p + 3, 0.0, 1.0, "1 on free playing-field cells"),
        ObservationField("placement_phase", 2 * p + 3, 2 * p + 4, 0.0, 1.0, "constant 1 during the placement phase"),
        ObservationField("my_turn", 2 * p + 4, 2 * p + 5, 0.0, 1.0, "constant 1 when the observer is to move"),
    )


def observe(
    state: BattleSheepState, player: int, num_players: int, size: int, sheep: int, hidden: bool
) -> np.ndarray:
    """The planes seen by ``player``; other players' stack sizes are zero when ``hidden``."""
    cells, p = size * size, num_players
    owner, counts = state.owner[:cells], state.counts[:cells]
    obs = np.zeros((2 * p + 5, cells), dtype=np.float32)
    for slot in range(p):
        seat = (player + slot) % p
        obs[slot] = owner == seat + 1
        if slot == 0 or not hidden:
            obs[p + slot] = np.where(owner == seat + 1, counts, 0) / sheep
    obs[2 * p] = (owner == player + 1) if hidden else (owner > 0)
    obs[2 * p + 1] = owner != NONFIELD
    obs[2 * p + 2] = owner == FREE
    obs[2 * p + 3] = state.placed < p and state.current_player >= 0
    obs[2 * p + 4] = state.current_player == player
    return obs.reshape(2 * p + 5, size, size)
