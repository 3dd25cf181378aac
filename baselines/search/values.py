"""Position values shared by the search agents: what a value function returns, and two generic ones.

A value is a vector with one entry per player in [-1, 1], each from that player's point of view, like
``game.returns``. Each game's own value function (its heuristic) and move priors live with the game in
:mod:`baselines.games`; this module holds the shapes they share and the game-independent helpers:
:func:`lead_values` (a strength per player turned into values) and :func:`score_value` (values from
``game.scores``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from boardenvs.core import Game

ValueFn = Callable[[Game, Any], np.ndarray]
"""``fn(game, state) -> float[num_players]`` in [-1, 1], each entry from that player's point of view."""
PriorsFn = Callable[[Game, Any], np.ndarray]
"""``fn(game, state) -> float[num_actions]``: non-negative move-ordering priors of the player to move."""


def lead_values(strength: Sequence[float] | np.ndarray, scale: float) -> np.ndarray:
    """``tanh((s_i - max_{j != i} s_j) / scale)`` for every player ``i`` (antisymmetric with 2 players)."""
    s = np.asarray(strength, dtype=np.float64)
    if s.size < 2:
        return np.zeros_like(s)
    order = np.argsort(s)
    best, second = s[order[-1]], s[order[-2]]
    others_best = np.where(np.arange(s.size) == order[-1], second, best)
    return np.tanh((s - others_best) / scale)


def score_value(game: Game, state: Any) -> np.ndarray:
    """Value from ``game.scores``: ``(s_i - max_{j != i} s_j) / (max s - min s)``; returns if terminal.

    Games whose scores are the returns (the default) give zeros before the end.
    """
    if game.is_terminal(state):
        return np.asarray(game.returns(state), dtype=np.float64)
    scores = np.asarray(game.scores(state), dtype=np.float64)
    spread = float(scores.max() - scores.min())
    if spread <= 0:
        return np.zeros(game.spec.num_players)
    order = np.argsort(scores)
    others_best = np.where(np.arange(scores.size) == order[-1], scores[order[-2]], scores[order[-1]])
    return (scores - others_best) / spread
