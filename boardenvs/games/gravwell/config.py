"""The frozen, validated configuration of a Gravwell game."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardenvs.core import check_int

MAX_PLIES = 1_000_000
"""Cap of ``max_plies`` (a full game is far shorter: the spec uses the smaller of the two)."""


@dataclass(frozen=True)
class GravwellConfig:
    """Settings of one Gravwell game (defaults: a correct 4-player game, official rules as in docs/rules/rules.md §1).

    Attributes:
        num_players: 2..4.
        inert_tractors: the Gravitas engine bug (docs/rules/rules.md §1.5): tractor cards move nothing. Use it only to
            reproduce the paper's numbers.
        no_secrets: official variant: both cards of every draft stack are face up.
        hardcore: official variant: one Emergency Stop for the whole game instead of one per round.
        max_plies: cap on the game length, 1..10**6; a capped game is ranked by position like a finished one.
    """

    num_players: int = 4
    inert_tractors: bool = False
    no_secrets: bool = False
    hardcore: bool = False
    max_plies: int = 1000

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        check_int("max_plies", self.max_plies, 1, MAX_PLIES)
        for name in ("inert_tractors", "no_secrets", "hardcore"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
            object.__setattr__(self, name, bool(getattr(self, name)))
        object.__setattr__(self, "num_players", int(self.num_players))
        object.__setattr__(self, "max_plies", int(self.max_plies))
