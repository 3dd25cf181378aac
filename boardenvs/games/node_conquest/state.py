"""The Node Conquest state: owner and units of every node, who is still in, whose turn it is."""

from __future__ import annotations

import struct

import numpy as np

NEUTRAL = -1
"""``owner`` of a neutral node."""


class NodeConquestState:
    """One position. Treat it as immutable: ``NodeConquest.apply`` always builds a new state.

    Attributes:
        owner: ``int8[N]``, the owning player of each node or ``NEUTRAL`` (-1).
        units: ``int64[N]``, units on each node (no cap).
        alive: per player, whether it still owns a node (eliminated players are skipped).
        current_player: the player to move, or ``TERMINAL`` (-1) once the game is over.
        ply: moves played so far (PASS included).
        truncated: True when the game ended at the ply cap.
        winners: the players sharing the win once the game is over (empty for a draw or before the end).
    """

    __slots__ = ("owner", "units", "alive", "current_player", "ply", "truncated", "winners")

    def __init__(
        self,
        owner: np.ndarray,
        units: np.ndarray,
        alive: tuple[bool, ...],
        current_player: int,
        ply: int = 0,
        truncated: bool = False,
        winners: tuple[int, ...] = (),
    ) -> None:
        self.owner = owner
        self.units = units
        self.alive = alive
        self.current_player = current_player
        self.ply = ply
        self.truncated = truncated
        self.winners = winners

    def copy(self) -> NodeConquestState:
        """An equal, independent state."""
        return NodeConquestState(
            self.owner.copy(),
            self.units.copy(),
            self.alive,
            self.current_player,
            self.ply,
            self.truncated,
            self.winners,
        )

    def key(self) -> bytes:
        """Canonical bytes: equal keys mean equal positions (same player to move, same ply)."""
        numbers = (self.current_player, self.ply, int(self.truncated), *map(int, self.alive), -2, *self.winners)
        return struct.pack(f"<{len(numbers)}q", *numbers) + self.owner.tobytes() + self.units.tobytes()

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, data: dict[str, object]) -> None:
        for name, value in data.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        return (
            f"NodeConquestState(owner={self.owner.tolist()}, units={self.units.tolist()}, "
            f"current_player={self.current_player}, ply={self.ply})"
        )
