"""The Quoridor state: pawn squares, walls in stock, the placed walls and whose turn it is."""

from __future__ import annotations

import struct
from typing import Any

from boardenvs.games.quoridor.walls import Walls

NO_WINNER = -1


class QuoridorState:
    """One position. Treat it as immutable: ``Quoridor.apply`` always builds a new state.

    Attributes:
        pawns: absolute square index ``row * n + col`` of each player's pawn (row 0 is the top).
        walls_left: walls each player still has in stock.
        board: the placed walls (a ``Walls`` value shared with other states).
        current_player: the player to move, or ``TERMINAL`` (-1) once the game is over.
        ply: moves played so far.
        truncated: True when the game ended as a draw at the move cap.
        winner: the player whose pawn reached its goal, or -1.
    """

    __slots__ = ("pawns", "walls_left", "board", "current_player", "ply", "truncated", "winner", "_legal")

    def __init__(
        self,
        pawns: tuple[int, ...],
        walls_left: tuple[int, ...],
        board: Walls,
        current_player: int,
        ply: int = 0,
        truncated: bool = False,
        winner: int = NO_WINNER,
    ) -> None:
        self.pawns = pawns
        self.walls_left = walls_left
        self.board = board
        self.current_player = current_player
        self.ply = ply
        self.truncated = truncated
        self.winner = winner
        self._legal: int | None = None  # memo: the legal moves as a unified bit mask

    def copy(self) -> QuoridorState:
        """An equal state (the shared, immutable ``board`` is not duplicated)."""
        return QuoridorState(
            self.pawns, self.walls_left, self.board, self.current_player, self.ply, self.truncated, self.winner
        )

    def key(self) -> bytes:
        """Canonical bytes: equal keys mean equal positions (same player to move, same ply)."""
        numbers = (self.current_player, self.ply, int(self.truncated), self.winner, *self.pawns, *self.walls_left)
        placed = self.board.placed
        return struct.pack(f"<{len(numbers)}q", *numbers) + placed.to_bytes((placed.bit_length() + 7) // 8, "little")

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__ if name != "_legal"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)
        self._legal = None

    def __repr__(self) -> str:
        return (
            f"QuoridorState(pawns={self.pawns}, walls_left={self.walls_left}, walls={self.board.placed:#x}, "
            f"current_player={self.current_player}, ply={self.ply})"
        )
