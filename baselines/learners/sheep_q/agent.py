"""Battle Sheep's ``qlearning`` agent (:class:`SheepQAgent`): greedy on seed 003's table, half the stack moved."""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.games.battle_sheep.evaluation import EvaluationAgent
from baselines.learners.sheep_q.table import SHIPPED, SheepQTable
from boardenvs.core import Game
from boardenvs.games.battle_sheep import Move
from boardenvs.games.battle_sheep.legality import movable_cells, open_directions


def move_pairs(game: Game, state: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``(cells, directions)`` of ``player``'s legal (stack, direction) pairs in ``state``."""
    cells = movable_cells(game.tables, state, player)
    directions, index = np.nonzero(open_directions(game.tables, state.owner, cells))
    return cells[index], directions


def half_split_action(game: Game, state: Any, cell: int, direction: int) -> int:
    """The action that moves half the stack on ``cell`` (``n // 2`` sheep) in ``direction``."""
    split = int(state.counts[cell]) // 2
    return game.encode(state, Move("move", int(cell), int(direction), split))


class SheepQAgent(BaseAgent):
    """Seed 003's tabular Q agent, greedy with a trained table (see :mod:`baselines.learners.sheep_q`).

    Args:
        seed: the agent's seed (int, generator or ``None``).
        name: display name (default ``"qlearning"``).
        table: ``"shipped"`` (the package's table), the path of a table saved by :meth:`SheepQTable.save`, or a
            :class:`SheepQTable` (used as is: a learner updates it in place).
    """

    name = "qlearning"

    def __init__(self, seed: SeedLike = None, name: str | None = None, *, table: str | SheepQTable = SHIPPED) -> None:
        super().__init__(seed, name)
        self.table = table if isinstance(table, SheepQTable) else SheepQTable.load(str(table))

    def act(self, game: Game, view: Any, player: int) -> int:
        """The seed's start cell while placing, else half the stack along the best (cell, direction)."""
        if game.in_placement(view):
            return EvaluationAgent.start_cell(game, view)
        cells, directions = move_pairs(game, view, player)
        if cells.size == 0:
            raise ValueError(f"{self.name}: no legal move for player {player} (is the game over?)")
        return self.greedy(game, view, cells, directions)

    def greedy(self, game: Game, view: Any, cells: np.ndarray, directions: np.ndarray) -> int:
        """The half-stack move of a best-valued pair (ties to the generator)."""
        values = self.table.entries(game, cells, directions)
        best = np.flatnonzero(values >= values.max() - 1e-12)
        pick = int(best[int(self.rng.integers(best.size))])
        return half_split_action(game, view, int(cells[pick]), int(directions[pick]))
