"""The left-right mirror of the two-player game, as a ``boardenvs.core.Symmetry``.

Mirroring the board left-right (column ``c`` to ``n - 1 - c``) maps every two-player position to an
equivalent one: the seats are unchanged (player 0 still starts at the bottom, player 1 at the top), the legal
moves are mirrored and so is every observation plane. A wall anchored at ``(r, c)`` covers the columns ``c``
and ``c + 1`` (horizontal) or lies between them (vertical), so its mirror is anchored at ``(r, n - 2 - c)``
with the same orientation.

Action ids are egocentric. Player 1's frame is the board turned by 180 degrees, and a half turn commutes
with the mirror, so the mirror permutes the ids of both players in the same way: one ``actions`` array
serves whoever is to move (the constructor computes the permutation in every seat's frame and refuses to
build a symmetry if they differ).

There is no such symmetry with four players: the mirror swaps the left and right seats, which reverses the
clockwise turn order 0, 1, 2, 3, so the mirrored position is not the same game with relabelled seats (after
player 0, player 1 moves, yet the relabelling would need player 3 to move).
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import Symmetry
from boardenvs.games.quoridor.observation import observation_fields
from boardenvs.games.quoridor.state import QuoridorState
from boardenvs.games.quoridor.tables import Tables, bits_of
from boardenvs.games.quoridor.walls import Walls

MIRROR_LEFT_RIGHT = "mirror_left_right"


class MirrorLeftRight(Symmetry[QuoridorState]):
    """The two-player board mirrored left-right: squares ``(r, c) -> (r, n-1-c)``, wall anchors
    ``(r, c) -> (r, n-2-c)`` (both orientations), players unchanged, PASS fixed.

    Attributes (besides ``name``, ``actions``, ``players``):
        cells: ``cells[square] = mirrored square`` (absolute square indices).
        walls: ``walls[wall bit] = mirrored wall bit`` (the engine's internal wall bits).
    """

    def __init__(self, tables: Tables) -> None:
        if tables.num_players != 2:
            raise ValueError("the left-right mirror is a symmetry of the two-player game only")
        n = tables.n
        self.tables = tables
        self.cells = tuple(row * n + n - 1 - col for row, col in (divmod(cell, n) for cell in range(tables.cells)))
        self.walls = {bit: _mirrored_wall(tables, bit) for bit in bits_of(tables.valid_walls)}
        fields = {field.name: field for field in observation_fields(tables.num_players)}
        self._wall_planes = slice(fields["horizontal_walls"].start, fields["vertical_walls"].stop)
        self._wall_columns = np.array([*range(n - 2, -1, -1), n - 1])  # the unused last column stays put
        frames = {tuple(self.permutation_in_frame(player)) for player in range(tables.num_players)}
        if len(frames) != 1:
            raise ValueError("the mirror permutes the action ids of the two seats differently")
        super().__init__(MIRROR_LEFT_RIGHT, np.array(frames.pop()), (0, 1))

    def _mirrored_unified(self, move: int) -> int:
        """The mirror image of a unified move bit (square, wall or PASS)."""
        t = self.tables
        if move < t.cells:
            return self.cells[move]
        if move == t.pass_bit:
            return move
        return t.cells + self.walls[move - t.cells]

    def permutation_in_frame(self, player: int) -> list[int]:
        """``perm[id] = id of the mirrored move``, both ids in ``player``'s frame."""
        t = self.tables
        to_frame = t.unified_to_frame[player]
        return [to_frame[self._mirrored_unified(move)] for move in t.frame_to_unified[player]]

    def state(self, state: QuoridorState) -> QuoridorState:
        """The mirrored position: same seats, walls in stock, player to move, ply and outcome."""
        board = Walls.empty(self.tables)
        for bit in bits_of(state.board.placed):
            board = board.add(self.walls[bit])
        pawns = tuple(self.cells[cell] for cell in state.pawns)
        return QuoridorState(
            pawns, state.walls_left, board, state.current_player, state.ply, state.truncated, state.winner
        )

    def observation(self, observation: np.ndarray) -> np.ndarray:
        """Every plane flipped left-right; the wall planes (anchors in columns ``0..n-2``) shifted back by one."""
        mirrored = observation[..., ::-1].copy()
        walls = observation[..., self._wall_planes, :, :]
        mirrored[..., self._wall_planes, :, :] = walls[..., self._wall_columns]
        return mirrored


def _mirrored_wall(tables: Tables, bit: int) -> int:
    row, col, horizontal = tables.wall_of_bit(bit)
    return tables.wall_bit(row, tables.n - 2 - col, horizontal)
