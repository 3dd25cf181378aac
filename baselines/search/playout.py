"""Random playouts for search: a block-drawn stream of uniform numbers and the generic uniform playout.

A playout plays uniformly random legal moves from a position until the game ends or a number of plies were
played. :func:`random_playout` works for every game through ``legal_actions`` + ``apply``; a game can offer a
faster playout with the same distribution (:data:`PlayoutFn`, registered in :mod:`baselines.games`), which
:class:`~baselines.search.evaluators.RolloutEvaluator` then uses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from boardenvs.core import Game

UNIFORM_BLOCK = 4096
"""How many uniform numbers :class:`UniformStream` draws at once."""


class UniformStream:
    """Uniform numbers in [0, 1) from a seeded generator, drawn in blocks of ``block``.

    Hot loops read ``values[index]`` directly and call :meth:`refill` when ``index`` reaches the end.
    """

    def __init__(self, rng: np.random.Generator, block: int = UNIFORM_BLOCK) -> None:
        self.rng = rng
        self.block = block
        self.values: list[float] = []
        self.array = np.empty(0)  # the same block as a float64 array (for compiled loops)
        self.index = 0

    def refill(self) -> list[float]:
        """A new block of numbers (``index`` back to 0)."""
        self.array = self.rng.random(self.block)
        self.values = self.array.tolist()
        self.index = 0
        return self.values

    def next(self) -> float:
        """The next number of the stream."""
        if self.index == len(self.values):
            self.refill()
        self.index += 1
        return self.values[self.index - 1]


PlayoutFn = Callable[[Game, Any, UniformStream, int], Any]
"""``fn(game, state, stream, plies) -> state``: uniformly random legal moves until the game ends or ``plies``
moves were played (``plies < 0``: no limit), random numbers taken from ``stream``."""


def random_playout(game: Game, state: Any, stream: UniformStream, plies: int) -> Any:
    """The generic playout: ``game.legal_actions`` + ``game.apply`` (see :data:`PlayoutFn`)."""
    legal_actions, apply, is_terminal = game.legal_actions, game.apply, game.is_terminal
    values, index = stream.values, stream.index
    while plies != 0 and not is_terminal(state):
        if index == len(values):
            values, index = stream.refill(), 0
        actions = legal_actions(state)
        state = apply(state, actions[int(values[index] * len(actions))])
        index += 1
        plies -= 1
    stream.index = index
    return state
