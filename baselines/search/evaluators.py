"""Leaf evaluators for :mod:`baselines.search.mcts`, for every game: rollouts, or the game's heuristic.

An evaluator values a position: ``evaluate(game, state) -> (values, priors)`` with ``values`` one entry per
player in [-1, 1], each from that player's point of view, like ``game.returns`` (a terminal state is always
valued by ``game.returns``), and ``priors`` a ``float[num_actions]`` or ``None`` (uniform).

* :class:`RolloutEvaluator` plays uniformly random games (optionally capped at a depth, then valued by the
  game's heuristic or by its scores), with the game's fast playout when it has one.
* :class:`HeuristicEvaluator` returns the game's heuristic value (:func:`heuristic_value`) at once, with its
  move priors if it has some.
* A network evaluator (AlphaZero) subclasses :class:`Evaluator` and returns priors for PUCT; it may also
  override ``evaluate_batch``.

Nothing here is specific to one game: each game's value function, priors and fast playout live with the game
in :mod:`baselines.games`, which registers them in :mod:`baselines.search.knowledge`, where they are looked up by
game name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from baselines.search.knowledge import games_with_values, playout_of, priors_of, value_of
from baselines.search.playout import UniformStream, random_playout
from baselines.search.values import score_value
from boardenvs.core import Game


def has_heuristic(game: Game) -> bool:
    """Whether a value function is registered for ``game`` (:mod:`baselines.search.knowledge`)."""
    return value_of(game.spec.name) is not None


def heuristic_value(game: Game, state: Any) -> np.ndarray:
    """``float64[num_players]`` in [-1, 1]: ``game.returns`` if terminal, else the game's heuristic.

    Raises:
        ValueError: the game has no heuristic (the message lists the games that have one).
    """
    fn = value_of(game.spec.name)
    if fn is None:
        known = games_with_values()
        raise ValueError(f"no heuristic value for game {game.spec.name!r}; games with heuristics: {known}")
    if game.is_terminal(state):
        return np.asarray(game.returns(state), dtype=np.float64)
    return np.clip(np.asarray(fn(game, state), dtype=np.float64), -1.0, 1.0)


# -- evaluators ---------------------------------------------------------------------------------
class Evaluator:
    """What MCTS calls on a leaf: ``evaluate(game, state) -> (values, priors)``.

    ``values`` is ``float[num_players]`` in [-1, 1] (each player's point of view); ``priors`` is
    ``float[num_actions]`` (non-negative; MCTS renormalises them over the legal actions) or ``None`` for
    uniform priors. Subclasses implement :meth:`evaluate`; :meth:`check` rejects games they cannot value,
    :meth:`reseed` restarts any random generator (the agent calls it before every search).
    """

    name = "evaluator"

    def check(self, game: Game) -> None:
        """Raise ``ValueError`` if this evaluator cannot value positions of ``game``."""
        del game

    def reseed(self, seed: int) -> None:
        """Restart the evaluator's random generator (a no-op for deterministic evaluators)."""
        del seed

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray | None]:
        """``(values, priors)`` of a non-terminal ``state``."""
        raise NotImplementedError

    def evaluate_batch(self, game: Game, states: Sequence[Any]) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """:meth:`evaluate` of every state (a network evaluator overrides this with one forward pass)."""
        return [self.evaluate(game, state) for state in states]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class HeuristicEvaluator(Evaluator):
    """The game's heuristic value (:func:`heuristic_value`) and its move priors if any
    (:mod:`baselines.search.knowledge`)."""

    name = "heuristic"

    def check(self, game: Game) -> None:
        if not has_heuristic(game):
            raise ValueError(
                f"evaluator 'heuristic' is not available for game {game.spec.name!r}; "
                f"games with heuristics: {games_with_values()}"
            )

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray | None]:
        values = heuristic_value(game, state)
        priors = priors_of(game.spec.name)
        return values, (priors(game, state) if priors is not None else None)


CUTOFFS = ("auto", "heuristic", "scores")


class RolloutEvaluator(Evaluator):
    """Uniformly random playouts to the end of the game (or to a depth cap).

    Args:
        depth: plies after which a playout stops and the position is valued by ``cutoff`` (``None``: play to
            the end; every game ends within ``spec.max_game_length`` plies).
        rollouts: playouts averaged per evaluation.
        cutoff: value at the depth cap: ``"heuristic"`` (:func:`heuristic_value`), ``"scores"``
            (:func:`score_value`, zeros for games without scores) or ``"auto"`` (the heuristic if the game
            has one, else the scores).
        fast: use the game's fast playout (:func:`baselines.search.knowledge.playout_of`) if it has one (same
            distribution, faster); ``False`` always plays ``game.legal_actions`` + ``game.apply``.
        seed: seed of the playout generator (the agent reseeds it before every search).
    """

    name = "rollout"

    def __init__(
        self,
        depth: int | None = None,
        rollouts: int = 1,
        cutoff: str = "auto",
        fast: bool = True,
        seed: int | None = None,
    ) -> None:
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1):
            raise ValueError(f"rollout depth must be None or an int >= 1, got {depth!r}")
        if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) or rollouts < 1:
            raise ValueError(f"rollouts must be an int >= 1, got {rollouts!r}")
        if cutoff not in CUTOFFS:
            raise ValueError(f"cutoff must be one of {list(CUTOFFS)}, got {cutoff!r}")
        self.depth = None if depth is None else int(depth)
        self.rollouts = int(rollouts)
        self.cutoff = cutoff
        self.fast = bool(fast)
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        self.stream = UniformStream(np.random.default_rng(seed))

    def check(self, game: Game) -> None:
        if self.cutoff == "heuristic" and self.depth is not None:
            HeuristicEvaluator().check(game)

    def _cutoff_value(self, game: Game, state: Any) -> np.ndarray:
        if self.cutoff == "heuristic" or (self.cutoff == "auto" and has_heuristic(game)):
            return heuristic_value(game, state)
        return score_value(game, state)

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, None]:
        if self.rollouts == 1:
            return self.playout(game, state), None
        total = sum(self.playout(game, state) for _ in range(self.rollouts))
        return total / self.rollouts, None

    def playout(self, game: Game, state: Any) -> np.ndarray:
        """The value at the end of one random playout from ``state`` (or at the depth cap)."""
        play = (playout_of(game.spec.name) or random_playout) if self.fast else random_playout
        state = play(game, state, self.stream, -1 if self.depth is None else self.depth)
        if game.is_terminal(state):
            return np.asarray(game.returns(state), dtype=np.float64)
        return self._cutoff_value(game, state)

    def __repr__(self) -> str:
        return (
            f"RolloutEvaluator(depth={self.depth}, rollouts={self.rollouts}, cutoff={self.cutoff!r}, fast={self.fast})"
        )


EVALUATORS: dict[str, type[Evaluator]] = {"rollout": RolloutEvaluator, "heuristic": HeuristicEvaluator}
"""Evaluator names accepted by ``MCTSAgent(evaluator=...)``."""


def make_evaluator(name: str, depth: int | None = None, rollouts: int = 1) -> Evaluator:
    """The evaluator called ``name``; ``depth``/``rollouts`` only apply to ``"rollout"``."""
    if name not in EVALUATORS:
        raise ValueError(f"evaluator must be one of {sorted(EVALUATORS)} or an Evaluator, got {name!r}")
    if name == "rollout":
        return RolloutEvaluator(depth, rollouts)
    return HeuristicEvaluator()
