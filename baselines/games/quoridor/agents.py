"""Scripted Quoridor agents of seed 004 (Hol'a's thesis): §4.5 PathPlayer and §4.6 HeuristicPlayer.

Both agents use only the public helpers of the Quoridor game (``distance_to_goal``, ``walls_left``,
``pawn_square``, ``decode``) together with ``legal_actions`` and ``apply``; action ids are never computed by
hand, because they are egocentric (in the acting player's frame).

Reading of §4.6 used by :class:`HeuristicAgent` (the rules are tried in this order):

1. No walls in stock: follow the shortest path.
2. "One step left to goal row" (``distance_to_goal == 1``): play the pawn move that wins, if one is legal
   (a pawn may stand on the square; then the next rules decide).
3. Standing on the starting line (the board edge the pawn started on): follow the shortest path.
4. "More than 2 possibilities to block (prolong) the opponent's path": count the legal walls that increase
   the opponent's shortest distance; if there are more than 2, follow the shortest path with probability 0.6.
5. "Wall positions blocking the opponent's path and not blocking its own path": the walls of rule 4 that do
   not increase the agent's own distance. Place the one that lengthens the opponent's path most (ties broken
   by the agent's generator). "Would not cut the opponent from the goal row" needs no test: such walls are
   illegal.
6. Otherwise follow the shortest path.

"Follow the shortest path" (also :class:`PathAgent`) is a legal pawn move that minimises the agent's
distance to its goal after the move (jumps included), ties broken by the agent's generator; with no pawn
move (a boxed-in pawn in the 4-player game) any legal action is played, which is then PASS.

With 4 players "the opponent" is the opponent closest to its goal, ties going to the one who moves soonest
after the agent: the thesis only covers 2 players, and the leader is the one worth slowing down.

Every legal wall is evaluated (apply + breadth-first distance). The engine caches distances per wall set, so
a whole move of the heuristic agent on 9x9 takes about 0.7 ms on average (1.2 ms at the 95th percentile).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.params import float_param
from boardenvs.core import Game

PATH_PROBABILITY = 0.6
"""Rule 4: probability of following the path when there are many ways to block."""
MANY_BLOCKING_WALLS = 2
"""Rule 4: "more than 2 possibilities to block"."""


# -- what a position offers ---------------------------------------------------------------------
def actions_of_kind(game: Game, state: Any, kind: str) -> list[int]:
    """The legal actions whose decoded ``Move.kind`` is ``kind`` ("pawn", "wall" or "pass")."""
    return [int(action) for action in game.legal_actions(state) if game.decode(state, int(action)).kind == kind]


def distance_after(game: Game, state: Any, action: int, player: int) -> int:
    """``player``'s distance to its goal once ``action`` is played."""
    return game.distance_to_goal(game.apply(state, action), player)


def shortest_path_moves(game: Game, state: Any, player: int) -> list[int]:
    """The legal pawn moves that leave ``player`` closest to its goal (empty if the pawn cannot move)."""
    moves = actions_of_kind(game, state, "pawn")
    if not moves:
        return []
    distances = [distance_after(game, state, move, player) for move in moves]
    best = min(distances)
    return [move for move, distance in zip(moves, distances) if distance == best]


def winning_moves(game: Game, state: Any, player: int) -> list[int]:
    """The legal pawn moves that put ``player`` on its goal line at once."""
    return [move for move in actions_of_kind(game, state, "pawn") if distance_after(game, state, move, player) == 0]


def on_start_line(game: Game, state: Any, player: int) -> bool:
    """Whether ``player``'s pawn is on the board edge it started from (its base line)."""
    start_row, start_col = start_squares(game)[player]
    row, col = game.pawn_square(state, player)
    last = game.config.board_size - 1
    if start_row in (0, last) and start_col not in (0, last):
        return row == start_row
    return col == start_col


@lru_cache(maxsize=64)
def start_squares(game: Game) -> tuple[tuple[int, int], ...]:
    """Each player's starting square ``(row, col)`` (the Quoridor start position is fixed)."""
    start = game.initial_state(np.random.default_rng(0))
    return tuple(game.pawn_square(start, player) for player in range(game.spec.num_players))


def closest_opponent(game: Game, state: Any, player: int) -> int:
    """The opponent nearest its goal; ties go to the one who moves soonest after ``player``."""
    num_players = game.spec.num_players
    opponents = [(player + offset) % num_players for offset in range(1, num_players)]
    return min(opponents, key=lambda other: game.distance_to_goal(state, other))


@dataclass(frozen=True)
class WallEffect:
    """A legal wall and how many steps it adds to the opponent's and to the agent's own shortest path."""

    action: int
    opponent_gain: int
    own_gain: int


def blocking_walls(game: Game, state: Any, player: int, opponent: int) -> list[WallEffect]:
    """The legal walls that lengthen ``opponent``'s shortest path, with their effect on both paths."""
    opponent_before = game.distance_to_goal(state, opponent)
    own_before = game.distance_to_goal(state, player)
    effects = []
    for action in actions_of_kind(game, state, "wall"):
        after = game.apply(state, action)
        opponent_gain = game.distance_to_goal(after, opponent) - opponent_before
        if opponent_gain > 0:
            effects.append(WallEffect(action, opponent_gain, game.distance_to_goal(after, player) - own_before))
    return effects


# -- the agents ---------------------------------------------------------------------------------
class PathAgent(BaseAgent):
    """§4.5 PathPlayer: always steps along a shortest path to its goal, never places a wall."""

    name = "path"

    def act(self, game: Game, view: Any, player: int) -> int:
        """A pawn move along a shortest path (ties broken at random)."""
        return self.path_move(game, view, player)

    def path_move(self, game: Game, view: Any, player: int) -> int:
        """A shortest-path pawn move, or any legal action (PASS) when the pawn cannot move."""
        moves = shortest_path_moves(game, view, player)
        return self.choose(moves) if moves else self.choose(game.legal_actions(view))


class HeuristicAgent(PathAgent):
    """§4.6 HeuristicPlayer: follows its path and walls in the opponent (rules in the module docstring).

    Args:
        seed: the agent's seed.
        name: display name.
        path_probability: rule 4's probability of following the path when there are many blocking walls.

    Attributes:
        last_rule: which rule (1-6) decided the last move, for tests and debugging.
    """

    name = "heuristic"

    def __init__(self, seed: SeedLike = None, name: str | None = None, path_probability: float = PATH_PROBABILITY):
        super().__init__(seed, name)
        self.path_probability = float_param("path_probability", path_probability, 0.0, 1.0)
        self.last_rule = 0

    def act(self, game: Game, view: Any, player: int) -> int:
        """The move §4.6 prescribes for ``player`` in ``view``."""
        self.last_rule, action = self.decide(game, view, player)
        return action

    def decide(self, game: Game, view: Any, player: int) -> tuple[int, int]:
        """``(rule number, action)``: the first rule of §4.6 that applies, and its move."""
        if game.walls_left(view, player) == 0:
            return 1, self.path_move(game, view, player)
        if game.distance_to_goal(view, player) == 1:
            winning = winning_moves(game, view, player)
            if winning:
                return 2, self.choose(winning)
        if on_start_line(game, view, player):
            return 3, self.path_move(game, view, player)
        effects = blocking_walls(game, view, player, closest_opponent(game, view, player))
        if len(effects) > MANY_BLOCKING_WALLS and self.rng.random() < self.path_probability:
            return 4, self.path_move(game, view, player)
        safe = [effect for effect in effects if effect.own_gain <= 0]
        if safe:
            return 5, self._longest_detour(safe)
        return 6, self.path_move(game, view, player)

    def _longest_detour(self, effects: list[WallEffect]) -> int:
        """The wall that adds the most steps to the opponent's path (ties broken at random)."""
        most = max(effect.opponent_gain for effect in effects)
        return self.choose([effect.action for effect in effects if effect.opponent_gain == most])
