"""The half-turn symmetry of two-player Node Conquest grids: the board turned 180 degrees, the colours swapped.

On a grid whose two starts and growth rates are symmetric under a half turn (the default game), node ``i``
(``row * cols + col``) maps to node ``N - 1 - i``, the grid slots U <-> D and L <-> R swap (slot ``s`` -> ``(s + 2)
% 4``), PASS maps to itself, and players 0 and 1 swap seats. Every rule is invariant under that map, so the
turned position is worth to each player what the original is worth to the other.
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL, Symmetry
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.state import NodeConquestState
from boardenvs.games.node_conquest.tables import Board

ROTATE_180 = "rotate_180_swap_players"
"""The symmetry's name in ``GameSpec.symmetries``."""


def half_turn_symmetric(config: NodeConquestConfig, board: Board) -> bool:
    """Whether ``config`` has the half-turn symmetry: 2 players on a grid, starts and growth symmetric."""
    if config.topology != "grid" or config.num_players != 2:
        return False
    last = board.num_nodes - 1
    return board.starts[1] == last - board.starts[0] and bool(np.array_equal(board.growth, board.growth[::-1]))


def half_turn_actions(board: Board, num_actions: int) -> np.ndarray:
    """``int64[num_actions]``: the id of every action on the half-turned board (PASS, the last id if any, stays)."""
    actions = np.arange(num_actions, dtype=np.int64)
    moves = board.num_nodes * 4
    origin, slot = np.divmod(actions[:moves], 4)
    actions[:moves] = (board.num_nodes - 1 - origin) * 4 + (slot + 2) % 4
    return actions


class HalfTurn(Symmetry[NodeConquestState]):
    """``rotate_180_swap_players``: the half-turned board with players 0 and 1 swapped (see the module docstring).

    ``actions[a]`` is action ``a`` on the turned board (``"a1>R"`` -> ``"e5>L"`` on 5x5), ``players == (1, 0)``.
    It is an involution: applying it twice gives the original position, observation and action.
    """

    def __init__(self, board: Board, num_actions: int) -> None:
        super().__init__(ROTATE_180, half_turn_actions(board, num_actions), (1, 0))

    def state(self, state: NodeConquestState) -> NodeConquestState:
        """The half-turned position with players 0 and 1 swapped (ply, truncation and winners carried over)."""
        owner = state.owner[::-1].copy()
        owned = owner >= 0
        owner[owned] = 1 - owner[owned]
        player = state.current_player if state.current_player == TERMINAL else 1 - state.current_player
        winners = tuple(sorted(1 - w for w in state.winners))
        return NodeConquestState(owner, state.units[::-1].copy(), state.alive[::-1], player, state.ply,
                                 state.truncated, winners)  # fmt: skip

    def observation(self, observation: np.ndarray) -> np.ndarray:
        """The other player's planes of the turned position: the same planes, turned (owners are observer-first)."""
        return observation[:, ::-1, ::-1].copy()
