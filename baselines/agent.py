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

# -- the limits of agent settings: every agent checks its settings against these (``baselines.params``) ----
MAX_COUNT = 10**9
"""The most simulations, evaluations, nodes or playouts per move a setting may ask for."""
MAX_SAMPLES = 10_000
"""The most states sampled per move (determinizations: each tree node holds one slot per sample)."""
MAX_DEPTH = 100
"""The deepest a depth-limited tree search may look, in plies (the search recurses once per ply)."""
MAX_SECONDS = 86_400.0
"""The longest thinking time per move a setting may give (a day)."""
MAX_COEFFICIENT = 1e6
"""The largest exploration constant, temperature or noise scale a setting may give."""


@runtime_checkable
class Agent(Protocol):
    """Anything that can choose a move."""

    name: str

    def act(self, game: Game, view: Any, player: int) -> int:
        """A legal action for ``player`` in ``view``, the player's determinized view of the game."""
        ...


def as_generator(seed: SeedLike) -> np.random.Generator:
    """``seed`` as a ``np.random.Generator`` (a generator passes through unchanged); ``TypeError`` for a bool, a
    float or a str, ``ValueError`` for a negative int (both naming ``seed``)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(check_seed(seed))


def check_seed(seed: Any) -> Any:
    """``seed`` unchanged if numpy can seed a generator with it; ``TypeError`` for a bool, a float or a str,
    ``ValueError`` for a negative int (both naming ``seed``)."""
    if isinstance(seed, (bool, np.bool_, float, np.floating, str, bytes)):
        raise TypeError(f"seed must be an int >= 0, a np.random.Generator or None, got {seed!r}")
    if isinstance(seed, (int, np.integer)) and seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed}")
    return seed


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
