"""What the search agents use on Quoridor: the value function, move priors and a fast random playout.

* **Value** (:func:`quoridor_value`): ``s_i = -(d_i + k_i / p) + 0.4 w_i`` with ``d_i`` the shortest-path
  distance to the goal (walls only, the game's cached distance tables), ``k_i`` how many plies until ``i``
  moves (the player to move is ahead in a race), ``w_i`` walls in stock; ``v_i = tanh((s_i - max_{j != i}
  s_j) / 3)`` (:func:`~baselines.search.values.lead_values`, scale 3 steps). A player to move one step from its
  goal gets 0.9 (the others -0.9/(p-1)): it wins next ply unless a pawn stands in the way.
* **Priors** (:func:`quoridor_priors`): a winning step first, then steps by the distance they gain, then the
  walls that lengthen the nearest opponent's path by more than the mover's own; other walls last.
* **Playout** (:func:`quoridor_playout`): the generic uniform playout, compiled with Numba where it is installed
  (:mod:`~baselines.games.quoridor.compiled`), else on the engine's move bitmasks (:func:`quoridor_python_playout`,
  about twice as fast as ``legal_actions`` + ``apply``); the same moves either way.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from baselines.games.quoridor.agents import closest_opponent
from baselines.games.quoridor.compiled import compiled_playout
from baselines.search.playout import UniformStream
from baselines.search.values import lead_values
from boardenvs.core import TERMINAL, Game
from boardenvs.games.quoridor import Quoridor
from boardenvs.games.quoridor.legality import legal_moves
from boardenvs.games.quoridor.notation import move_of_unified
from boardenvs.games.quoridor.transitions import successor

QUORIDOR_WALL_WEIGHT = 0.4
QUORIDOR_WALL_REACH = 2
QUORIDOR_SCALE = 3.0
QUORIDOR_NEAR_WIN = 0.9
QUORIDOR_PRIOR_WEIGHTS = {
    "win": 100.0,
    "closer": 8.0,
    "same": 2.0,
    "back": 1.0,
    "wall": 0.05,
    "blocking": 1.0,
    "per_step": 3.0,
}


def quoridor_value(game: Game, state: Any) -> np.ndarray:
    """Shortest-path race with tempo and walls in stock (see the module docstring)."""
    p = game.spec.num_players
    to_move = state.current_player
    distances = [game.distance_to_goal(state, i) for i in range(p)]
    if distances[to_move] == 1:  # the player to move steps onto its goal line (barring a pawn in the way)
        values = np.full(p, -QUORIDOR_NEAR_WIN / (p - 1))
        values[to_move] = QUORIDOR_NEAR_WIN
        return values
    strength = [
        -(distances[i] + ((i - to_move) % p) / p) + QUORIDOR_WALL_WEIGHT * game.walls_left(state, i) for i in range(p)
    ]
    return lead_values(strength, QUORIDOR_SCALE)


def quoridor_priors(game: Game, state: Any) -> np.ndarray:
    """Move-ordering priors: a winning step first, then steps by the distance they gain, then the walls that
    lengthen the nearest opponent's path by more than the mover's own; other walls last.

    Weights before normalisation (:data:`QUORIDOR_PRIOR_WEIGHTS`): winning step 100, step closer 8, step that
    keeps the distance 2, step back 1; a wall that adds ``g > 0`` steps to the opponent and ``e`` to the mover
    ``1 + 3 max(0, g - max(e, 0))``; any other wall and PASS 0.05.
    """
    w = QUORIDOR_PRIOR_WEIGHTS
    player, cells = state.current_player, game.tables.cells
    priors = np.zeros(game.spec.num_actions)
    legal = game.legal_actions(state)
    priors[legal] = w["wall"]
    before = game.distance_to_goal(state, player)
    for action in legal[legal < cells].tolist():
        after = game.apply(state, action)
        if game.is_terminal(after):
            priors[action] = w["win"]
            continue
        change = game.distance_to_goal(after, player) - before
        priors[action] = w["closer"] if change < 0 else w["same"] if change == 0 else w["back"]
    if game.walls_left(state, player) > 0:
        _prior_blocking_walls(game, state, legal[legal >= cells].tolist(), priors)
    return priors / priors.sum()


def _prior_blocking_walls(game: Game, state: Any, walls: list[int], priors: np.ndarray) -> None:
    """Raise the priors of the walls next to the nearest opponent's pawn that lengthen its path.

    Only walls anchored within :data:`QUORIDOR_WALL_REACH` rows and columns of the opponent's pawn are tried
    (applying all ~128 walls at every node would cost ten times the rest of the search).
    """
    w = QUORIDOR_PRIOR_WEIGHTS
    player = state.current_player
    opponent = closest_opponent(game, state, player)
    row, col = game.pawn_square(state, opponent)
    opponent_before, own_before = game.distance_to_goal(state, opponent), game.distance_to_goal(state, player)
    rows, cols = _anchors(game, max(player, 0))
    reach = QUORIDOR_WALL_REACH
    for action in walls:
        if not (row - reach <= rows[action] <= row + reach - 1 and col - reach <= cols[action] <= col + reach - 1):
            continue
        after = game.apply(state, action)
        gain = game.distance_to_goal(after, opponent) - opponent_before
        if gain > 0:
            own_gain = max(game.distance_to_goal(after, player) - own_before, 0)
            priors[action] = w["blocking"] + w["per_step"] * max(0, gain - own_gain)


@functools.lru_cache(maxsize=64)
def _anchors(game: Quoridor, player: int) -> tuple[list[int], list[int]]:
    """Absolute row and column of every action's square or wall anchor in ``player``'s frame (what
    ``game.decode`` gives), computed once per game and seat instead of once per wall per node."""
    moves = [move_of_unified(game.tables, unified) for unified in game.tables.frame_to_unified[player]]
    return [move.row for move in moves], [move.col for move in moves]


def quoridor_playout(game: Game, state: Any, stream: UniformStream, plies: int) -> Any:
    """:func:`~baselines.search.playout.random_playout` for Quoridor: compiled with Numba where it is installed
    (:mod:`baselines.games.quoridor.compiled`, about 10x faster), else :func:`quoridor_python_playout`; both play the
    same moves from the same numbers."""
    final = compiled_playout(game, state, stream, plies)
    return final if final is not None else quoridor_python_playout(game, state, stream, plies)


def quoridor_python_playout(game: Game, state: Any, stream: UniformStream, plies: int) -> Any:
    """:func:`~baselines.search.playout.random_playout` for Quoridor on the engine's move bitmasks (same
    distribution, about 2x faster).

    The legal moves of the player to move are one int (``legality.legal_moves``, pawn squares then walls then
    PASS, see ``quoridor.tables``); each legal action is one set bit, so a uniformly random set bit is a
    uniformly random legal action: with only pawn moves the (at most 5) bits are listed, otherwise random
    bit positions below the highest set bit are drawn until one is set (about two draws while walls are
    left). ``transitions.successor`` then plays it, as ``game.apply`` does after its legality check; the ply that
    reaches ``spec.max_game_length`` goes through ``game.apply``, which ends the game at the cap.
    """
    tables, cap, liberal = game.tables, game.spec.max_game_length, game.liberal
    pawn_only = (1 << tables.cells) - 1
    values, index = stream.values, stream.index
    end = len(values)
    while plies != 0 and state.current_player != TERMINAL:
        legal = legal_moves(tables, state, liberal)
        if index == end:
            values, index, end = stream.refill(), 0, stream.block
        if legal <= pawn_only:
            bits = []
            while legal:
                low = legal & -legal
                bits.append(low.bit_length() - 1)
                legal ^= low
            move = bits[int(values[index] * len(bits))]
            index += 1
        else:
            top = legal.bit_length()
            move = int(values[index] * top)
            index += 1
            while not (legal >> move) & 1:
                if index == end:
                    values, index, end = stream.refill(), 0, stream.block
                move = int(values[index] * top)
                index += 1
        if state.ply + 1 < cap:
            state = successor(tables, state, move)
        else:
            state = game.apply(state, tables.unified_to_frame[state.current_player][move])
        plies -= 1
    stream.index = index
    return state
