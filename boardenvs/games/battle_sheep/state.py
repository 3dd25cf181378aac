"""The Battle Sheep state: who owns each cell, the stack sizes, the placement progress and whose turn it is."""

from __future__ import annotations

import struct

import numpy as np

from boardenvs.games.battle_sheep.config import MAX_PLAYERS

NONFIELD = -1
"""``owner`` value of a cell outside the playing field (and of the sentinel cell)."""
FREE = 0
"""``owner`` value of a free playing-field cell; player ``k`` owns the cells with value ``k + 1``."""


class BattleSheepState:
    """One position. Treat it as immutable: ``BattleSheep.apply`` always builds a new state.

    Attributes:
        owner: ``int8[n*n + 1]``: -1 not field, 0 free, ``k + 1`` owned by player ``k`` (the course's ids);
            the last entry is a sentinel (-1) that the neighbour tables point to off the board.
        counts: ``int16[n*n + 1]``: the stack size on each cell (0 where nobody stands).
        placed: placement turns done (or skipped); the move phase starts when it reaches ``num_players``.
        current_player: the player to move, or ``TERMINAL`` (-1).
        ply: actions played so far.
        truncated: True only when the base's move cap ended the game, which play from ``initial_state``
            never reaches (every game ends by its rules within ``spec.max_game_length``).
        stacks: ``stacks[k]``: the cells player ``k`` occupies, ascending (4 entries, whatever the number of
            players). It is ``owner`` indexed by player, kept by ``BattleSheep.apply`` so that finding a
            player's stacks does not scan the board; derived from ``owner`` when not given. Stack sizes are
            not in it, so changing ``counts`` (as ``determinize`` does on a copy) keeps it right.
    """

    __slots__ = ("owner", "counts", "placed", "current_player", "ply", "truncated", "stacks")

    def __init__(
        self,
        owner: np.ndarray,
        counts: np.ndarray,
        placed: int,
        current_player: int,
        ply: int = 0,
        stacks: tuple[tuple[int, ...], ...] | None = None,
    ) -> None:
        self.owner = owner
        self.counts = counts
        self.placed = placed
        self.current_player = current_player
        self.ply = ply
        self.truncated = False
        if stacks is None:
            stacks = tuple(tuple(np.flatnonzero(owner == k + 1).tolist()) for k in range(MAX_PLAYERS))
        self.stacks = stacks

    def copy(self) -> BattleSheepState:
        """An equal, independent state (``stacks`` is an immutable tuple, so it is shared)."""
        owner, counts = self.owner.copy(), self.counts.copy()
        new = BattleSheepState(owner, counts, self.placed, self.current_player, self.ply, self.stacks)
        new.truncated = self.truncated
        return new

    def key(self) -> bytes:
        """Canonical bytes: equal keys mean equal positions."""
        header = struct.pack("<3q", self.current_player, self.ply, self.placed)
        return header + self.owner.tobytes() + self.counts.tobytes()

    def __repr__(self) -> str:
        return f"BattleSheepState(placed={self.placed}, current_player={self.current_player}, ply={self.ply})"
