"""The frozen, validated configuration of a Quoridor game."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardenvs.core import check_int

MIN_BOARD_SIZE = 3
MAX_BOARD_SIZE = 25
MAX_MOVES = 1_000_000
"""Cap of ``max_moves``."""


@dataclass(frozen=True)
class QuoridorConfig:
    """Settings of one Quoridor variant.

    Attributes:
        board_size: side of the square board, 3..25 (official: 9).
        num_players: 2 or 4.
        walls_per_player: walls each player starts with, 0 up to the number of wall slots
            ``2 * (board_size - 1)**2`` (128 on 9x9); ``None`` means ``board_size**2 // 8``
            with 2 players (10 on 9x9, OpenSpiel's default) and half of that with 4 players (5 on 9x9).
        max_moves: plies after which the game ends as a draw, 1..10**6; ``None`` means ``4 * board_size**2``
            (OpenSpiel's cap, 324 on 9x9). As in OpenSpiel, the cap wins over a goal reached on
            the last ply.
        liberal_jumps: the source paper's jump rule: next to a pawn you may move to every square
            that pawn could step to (diagonals even when the straight jump is open).
    """

    board_size: int = 9
    num_players: int = 2
    walls_per_player: int | None = None
    max_moves: int | None = None
    liberal_jumps: bool = False

    def __post_init__(self) -> None:
        check_int("board_size", self.board_size, MIN_BOARD_SIZE, MAX_BOARD_SIZE)
        players = self.num_players
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in (2, 4):
            raise ValueError(f"num_players must be 2 or 4, got {players!r}")
        if self.walls_per_player is not None:
            check_int("walls_per_player", self.walls_per_player, 0, 2 * (int(self.board_size) - 1) ** 2)
        if self.max_moves is not None:
            check_int("max_moves", self.max_moves, 1, MAX_MOVES)
        if not isinstance(self.liberal_jumps, bool):
            raise ValueError(f"liberal_jumps must be a bool, got {self.liberal_jumps!r}")
        for name in ("board_size", "num_players", "walls_per_player", "max_moves"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, int(value))  # numpy ints become plain ints

    @property
    def walls(self) -> int:
        """Walls each player starts with (the default resolved)."""
        if self.walls_per_player is not None:
            return int(self.walls_per_player)
        default = self.board_size**2 // 8
        return default if self.num_players == 2 else default // 2

    @property
    def move_cap(self) -> int:
        """Plies after which the game is a draw (the default resolved)."""
        return int(self.max_moves) if self.max_moves is not None else 4 * self.board_size**2
