"""What the search agents use on Gravwell: the value function.

:func:`gravwell_value`: the strength of a player is the tile of its ship (the distance travelled toward the
Warp Gate, tile 54), turned into values by :func:`~baselines.search.values.lead_values` with a scale of 10
tiles.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.search.values import lead_values
from boardenvs.core import Game

GRAVWELL_SCALE = 10.0


def gravwell_value(game: Game, state: Any) -> np.ndarray:
    """Each ship's lead toward the Warp Gate (see the module docstring)."""
    return lead_values(state.pos[: game.spec.num_players], GRAVWELL_SCALE)
