"""What the search agents use on Splendor: the value function.

:func:`splendor_value`: a strength ``s_i`` = points + 1.5 per bonus card + 0.2 per coloured token + 0.3 per
gold + 0.1 per reserved card (points plus "engine value"; weights picked by a few short matches of heuristic
MCTS against :class:`~baselines.games.splendor.agents.BuyerAgent`), turned into values by
:func:`~baselines.search.values.lead_values` with a scale of 5 points. RHEA's event-value functions, the other
Splendor-specific way to value a plan, are in :mod:`baselines.games.splendor.event_values`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.search.values import lead_values
from boardenvs.core import Game
from boardenvs.games.splendor.state import BONUSES as SPLENDOR_BONUSES
from boardenvs.games.splendor.state import POINTS as SPLENDOR_POINTS
from boardenvs.games.splendor.state import TOKENS as SPLENDOR_TOKENS

SPLENDOR_WEIGHTS = {"bonus": 1.5, "token": 0.2, "gold": 0.3, "reserved": 0.1}
SPLENDOR_SCALE = 5.0


def splendor_value(game: Game, state: Any) -> np.ndarray:
    """Points plus engine value: bonuses, tokens, gold and reserved cards (see the module docstring)."""
    players = state.players.astype(np.float64)
    tokens, w = players[:, SPLENDOR_TOKENS], SPLENDOR_WEIGHTS
    strength = (
        players[:, SPLENDOR_POINTS]
        + w["bonus"] * players[:, SPLENDOR_BONUSES].sum(axis=1)
        + w["token"] * tokens[:, :5].sum(axis=1)
        + w["gold"] * tokens[:, 5]
        + w["reserved"] * (state.reserved >= 0).sum(axis=1)
    )
    return lead_values(strength, SPLENDOR_SCALE)
