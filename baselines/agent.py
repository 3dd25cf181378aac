"""The agent interface and the simplest agents.

An agent picks an action for ``player`` from ``view = game.determinize(true_state, player, rng)``: it never
sees the true state of a hidden-information game. Every agent owns a seeded ``np.random.Generator``; there is
no global random state anywhere.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from boardenvs.core import Game

SeedLike = int | np.random.Generator | None
"""What agents accept as a seed: an int, a ready generator (used as is) or ``None`` (fresh OS entropy)."""


@runtime_checkable
class Agent(Protocol):
    """Anything that can choose a move."""

    name: str

    def act(self, game: Game, view: Any, player: int) -> int:
        """A legal action for ``player`` in ``view``, the player's determinized view of the game."""
        ...


def as_generator(seed: SeedLike) -> np.random.Generator:
    """``seed`` as a ``np.random.Generator`` (a generator passes through unchanged)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


class BaseAgent:
    """Common base of the baseline agents: a name and a private seeded random generator.

    Args:
        seed: an int, a generator or ``None``; see :data:`SeedLike`.
        name: display name; defaults to the class attribute ``name``.
    """

    name: str = "agent"

    def __init__(self, seed: SeedLike = None, name: str | None = None) -> None:
        self.rng = as_generator(seed)
        if name is not None:
            self.name = name

    def reseed(self, seed: int) -> None:
        """Restart the agent's random generator from ``seed`` (the arena does this before every game)."""
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game, view: Any, player: int) -> int:
        """A legal action for ``player``; subclasses implement it."""
        raise NotImplementedError

    def choose(self, candidates: list[int] | np.ndarray) -> int:
        """One of ``candidates`` drawn uniformly with the agent's generator."""
        if len(candidates) == 0:
            raise ValueError(f"{self.name}: nothing to choose from")
        return int(candidates[int(self.rng.integers(len(candidates)))])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class RandomAgent(BaseAgent):
    """Plays a uniformly random legal action."""

    name = "random"

    def act(self, game: Game, view: Any, player: int) -> int:
        """A uniformly random legal action in ``view``."""
        del player
        return self.choose(game.legal_actions(view))
