"""Move generation and move application in absolute coordinates (the engine's hot path).

Moves here are *unified bits* (see ``tables``): a square index for a pawn move, ``n*n + wall bit``
for a wall, ``tables.pass_bit`` for PASS. The game class converts them to and from the acting
player's egocentric action ids.
"""

from __future__ import annotations

from boardenvs.core import TERMINAL
from boardenvs.games.quoridor.board import Walls
from boardenvs.games.quoridor.state import NO_WINNER, QuoridorState
from boardenvs.games.quoridor.tables import DIRECTIONS, SIDES, Tables


def occupied_by_others(pawns: tuple[int, ...], player: int) -> int:
    """Cell mask of every pawn except ``player``'s."""
    mask = 0
    for other, cell in enumerate(pawns):
        if other != player:
            mask |= 1 << cell
    return mask


def pawn_targets(tables: Tables, board: Walls, pawns: tuple[int, ...], player: int, liberal: bool) -> int:
    """Cell mask of the squares ``player``'s pawn may move to (official rules or the liberal variant)."""
    cell = pawns[player]
    others = occupied_by_others(pawns, player)
    opened, step = board.open, tables.step
    targets = 0
    for direction in DIRECTIONS:
        if not (opened[direction] >> cell) & 1:
            continue
        neighbour = cell + step[direction]
        if not (others >> neighbour) & 1:
            targets |= 1 << neighbour
        elif liberal:
            targets |= _steps_from(opened, step, neighbour) & ~(1 << cell)
        elif (opened[direction] >> neighbour) & 1:
            beyond = neighbour + step[direction]
            if not (others >> beyond) & 1:  # a third pawn behind: no move this way at all
                targets |= 1 << beyond
        else:  # wall or board edge behind the pawn: side-steps
            for side in SIDES[direction]:
                if (opened[side] >> neighbour) & 1:
                    targets |= 1 << (neighbour + step[side])
    return targets & ~others


def _steps_from(opened: tuple[int, ...], step: tuple[int, ...], cell: int) -> int:
    """Cell mask of the squares one open step away from ``cell``."""
    mask = 0
    for direction in DIRECTIONS:
        if (opened[direction] >> cell) & 1:
            mask |= 1 << (cell + step[direction])
    return mask


def legal_moves(tables: Tables, state: QuoridorState, liberal: bool) -> int:
    """The legal moves of the player to move as a unified bit mask (memoised on the state)."""
    legal = state._legal
    if legal is None:
        player = state.current_player
        if player == TERMINAL:
            legal = 0
        else:
            legal = pawn_targets(tables, state.board, state.pawns, player, liberal)
            if state.walls_left[player] > 0:
                legal |= state.board.legal(state.pawns) << tables.cells
            if not legal:
                legal = 1 << tables.pass_bit
        state._legal = legal
    return legal


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
