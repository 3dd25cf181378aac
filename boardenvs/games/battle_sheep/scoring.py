"""Battle Sheep's scores and ranking points (docs/rules/rules.md §4.5): regions of a player's cells, their score and
the course's tournament points by rank."""

from __future__ import annotations

import numpy as np

from boardenvs.games.battle_sheep.tables import Tables

SCORE_EXPONENT = 1.25
RANK_POINTS = (5.0, 3.0, 2.0, 1.0)
"""Tournament points of the 1st..4th highest score (docs/rules/rules.md §4.5); ties split them evenly."""


def region_sizes(t: Tables, owner: np.ndarray, player: int) -> list[int]:
    """Sizes of the 4-connected regions of ``player``'s cells."""
    mine = set(np.flatnonzero(owner[: t.cells] == player + 1).tolist())
    sizes = []
    while mine:
        stack, size = [mine.pop()], 0
        while stack:
            cell = stack.pop()
            size += 1
            for nxt in t.orthogonal[:, cell].tolist():
                if nxt in mine:
                    mine.remove(nxt)
                    stack.append(nxt)
        sizes.append(size)
    return sizes


def region_score(t: Tables, owner: np.ndarray, player: int) -> int:
    """``round(sum of |region| ** 1.25)`` over ``player``'s 4-connected regions (Python's round)."""
    return round(sum(size**SCORE_EXPONENT for size in region_sizes(t, owner, player)))


def rank_points(values: np.ndarray) -> np.ndarray:
    """5/3/2/1 points by descending value (first ``len(values)`` entries), ties sharing their points evenly."""
    table = np.array(RANK_POINTS[: len(values)])
    points = np.zeros(len(values))
    for index, value in enumerate(values):
        better = int(np.sum(values > value))
        tied = int(np.sum(values == value))
        points[index] = table[better : better + tied].mean()
    return points
