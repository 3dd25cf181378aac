"""What a legal Quoridor move does, in absolute coordinates (the engine's hot path), and the start position.

Moves are *unified bits* (see :mod:`~boardenvs.games.quoridor.tables`); which of them are legal is
:mod:`~boardenvs.games.quoridor.legality`'s job, the wall graph's bookkeeping :mod:`~boardenvs.games.quoridor.walls`'.
"""

from __future__ import annotations

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor.state import NO_WINNER, QuoridorState
from boardenvs.games.quoridor.tables import Tables
from boardenvs.games.quoridor.walls import Walls


def start_position(tables: Tables, walls_per_player: int) -> QuoridorState:
    """Every pawn on its start square with a full stock, no walls placed, player 0 to move."""
    return QuoridorState(tables.starts, (walls_per_player,) * tables.num_players, Walls.empty(tables), 0)


def successor(tables: Tables, state: QuoridorState, move: int) -> QuoridorState:
    """The state after the (legal) unified move ``move``; ``state`` is left untouched.

    A pawn reaching its goal line ends the game; the move cap is not applied here (``Game.apply`` does it).
    """
    player = state.current_player
    pawns, walls_left, board = state.pawns, state.walls_left, state.board
    following = player + 1 if player + 1 < tables.num_players else 0
    winner = NO_WINNER
    if move < tables.cells:
        pawns = (*pawns[:player], move, *pawns[player + 1 :])
        if (tables.goals[player] >> move) & 1:
            winner, following = player, TERMINAL
    elif move != tables.pass_bit:
        board = board.add(move - tables.cells)
        walls_left = (*walls_left[:player], walls_left[player] - 1, *walls_left[player + 1 :])
    return QuoridorState(pawns, walls_left, board, following, state.ply + 1, False, winner)
