"""Battle Sheep (seed 003): the scripted agent ``evaluation`` (the "Evaluation Score" used greedily, and the
convolution start) and the value function of the search agents.

:class:`EvaluationAgent` implements the seed's two pieces:

* **Starting cell** (``InitPos``/``weightedMap``): the course map ``|mapStat|`` (0 free, 1 non-field, the
  owner's id 1..4 on occupied cells, as the seed treats them "as a scalar") padded with 1 (obstacle) is summed
  over a 5x5 window around each cell; the agent places on the legal placement cell with the smallest sum,
  the first in row-major order on ties (``np.argmin`` as in the seed). The seed's own filter ("at least
  one obstacle among the four neighbours", board edge not counting) is replaced by the game's legal
  placement cells, which are exactly the border cells that rule allows plus the edge.
* **Evaluation score** of the state after a move, for the mover ``i`` (section "Evaluation Score"), as the
  seed's code computes it: ``score = s_i / S**1.25``; ``rank = 1 - r_i / p`` (``r_i`` = 1 + players with a
  strictly higher score); ``sheep = (-max stack of i - 1) / (S - 1)`` (the code's form; the prose form
  ``-max / S`` differs only by a constant and scale); ``moves = legal moves of i / (8 * cells of i with
  more than one sheep + 1)``. The four parts are divided by their Euclidean norm and averaged (all weights
  1/4, as in the seed). With ``teams`` the scores are the partner-averaged ranking scores.

"Legal moves" and the candidate moves are the seed's move set: splits of 1, n // 2 and n - 1 sheep only
(the agent only plays those, whatever ``restricted_splits`` says), every (cell, direction) with a free
first cell. The greedy choice is a one-step look-ahead over these candidates; ties go to the agent's
generator. For hidden counts the agent reasons on the determinized view it is given.

**Value function** (:func:`battle_sheep_value`, for the search agents): the evaluation score ``e_i`` of every
player, partner-averaged with ``teams``; ``v_i = tanh(4 (e_i - mean(e)))``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.agent import BaseAgent
from boardenvs.core import Game
from boardenvs.games.battle_sheep import Move
from boardenvs.games.battle_sheep.legality import movable_cells, open_directions, placement_cells

START_KERNEL = 5
"""Side of the seed's crowding window (``weightedMap`` default kernel 5x5)."""
BATTLE_SHEEP_GAIN = 4.0
"""Gain of :func:`battle_sheep_value` on the centred evaluation scores."""


def crowding_map(map_stat: np.ndarray, kernel: int = START_KERNEL) -> np.ndarray:
    """Sum of ``|mapStat|`` over a ``kernel x kernel`` window around each cell, padding with 1 (seed 003)."""
    pad = kernel // 2
    padded = np.abs(np.pad(map_stat, pad, constant_values=-1)).astype(np.float64)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kernel, kernel))
    return windows.sum(axis=(2, 3))


def seed_splits(count: int) -> list[int]:
    """The seed's group sizes for a stack of ``count`` sheep: 1, count // 2 and count - 1 (distinct)."""
    return sorted({m for m in (1, count // 2, count - 1) if 1 <= m < count})


def seed_moves(game: Game, state: Any, player: int) -> list[tuple[int, int, int]]:
    """``(cell, direction, split)`` of ``player``'s moves in the seed's move set."""
    cells = movable_cells(game.tables, state, player)
    open_ = open_directions(game.tables, state.owner, cells)
    moves = []
    for direction, index in zip(*np.nonzero(open_)):
        cell = int(cells[index])
        moves += [(cell, int(direction), m) for m in seed_splits(int(state.counts[cell]))]
    return moves


def evaluation_score(game: Game, state: Any, player: int) -> float:
    """Seed 003's evaluation of ``state`` for ``player`` (see the module docstring)."""
    sheep, p = game.config.sheep_per_player, game.config.num_players
    scores = game.ranking_scores(state)
    mine = state.counts[: game.tables.cells][state.owner[: game.tables.cells] == player + 1]
    score_part = scores[player] / sheep**1.25
    rank_part = 1 - (1 + int(np.sum(scores > scores[player]))) / p
    sheep_part = (-int(mine.max(initial=0)) - 1) / max(1, sheep - 1)
    moves_part = len(seed_moves(game, state, player)) / (8 * int(np.count_nonzero(mine > 1)) + 1)
    parts = np.array([score_part, rank_part, sheep_part, moves_part])
    norm = float(np.linalg.norm(parts))
    return float(np.mean(parts / norm)) if norm > 0 else 0.0


def battle_sheep_value(game: Game, state: Any) -> np.ndarray:
    """Seed 003's evaluation score of every player, centred (see the module docstring)."""
    p = game.spec.num_players
    scores = np.array([evaluation_score(game, state, i) for i in range(p)])
    if game.config.teams:
        scores = (scores + np.roll(scores, 2)) / 2
    return np.tanh(BATTLE_SHEEP_GAIN * (scores - scores.mean()))


class EvaluationAgent(BaseAgent):
    """Seed 003's agent without search: the convolution start cell, then the greedy evaluation score."""

    name = "evaluation"

    def act(self, game: Game, view: Any, player: int) -> int:
        """The seed's start cell in the placement phase, else the best move by one-step evaluation."""
        if game.in_placement(view):
            return self.start_cell(game, view)
        best, best_value = [], -np.inf
        for cell, direction, split in seed_moves(game, view, player):
            action = game.encode(view, Move("move", cell, direction, split))
            value = evaluation_score(game, game.apply(view, action), player)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return self.choose(best) if best else self.choose(game.legal_actions(view))

    @staticmethod
    def start_cell(game: Game, view: Any) -> int:
        """The legal placement cell with the least crowded 5x5 window (first in row-major order on ties)."""
        n = game.config.board_size
        crowding = crowding_map(view.owner[: n * n].reshape(n, n)).ravel()
        legal = placement_cells(game.tables, view.owner, game.config.border_neighbourhood)
        return int(np.argmin(np.where(legal, crowding, np.inf)))
