"""The trained QLNN agent (:class:`QLNNAgent`): it plays the legal action its network values most."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.qlnn.network import QNetwork, observation_vector, shipped_network
from baselines.learners.tabular_q.policy import greedy_action
from boardenvs.core import Game


class QLNNAgent(BaseAgent):
    """Plays the legal action the network values most: ``make_agent("qlnn", "quoridor")`` or ``qlnn:weights=...``.

    Args:
        seed: the agent's seed (ties).
        name: display name (default ``"qlnn"``).
        weights: a :class:`QNetwork` or the path of one; ``None``: the shipped network for the game's config,
            loaded at the first move.
    """

    name = "qlnn"

    def __init__(self, seed: SeedLike = None, name: str | None = None, *, weights: QNetwork | str | Path | None = None):
        super().__init__(seed, name)
        if weights is not None and not isinstance(weights, (QNetwork, str, Path)):
            raise TypeError(f"weights must be a QNetwork or a path, got {type(weights).__name__}")
        self.network: QNetwork | None = QNetwork.load(weights) if isinstance(weights, (str, Path)) else weights
        self._checked: Game | None = None
        self.illegal_predictions = 0
        """Illegal actions played (always 0: illegal actions are masked; the run skeleton counts them)."""

    def network_for(self, game: Game) -> QNetwork:
        """The network, loading the shipped one and checking it matches ``game`` on first use."""
        if self._checked is not game:
            if self.network is None:
                self.network = shipped_network(game)
            self.network.check_game(game)
            self._checked = game
        assert self.network is not None
        return self.network

    def act(self, game: Game, view: Any, player: int) -> int:
        """The legal action of largest value (ties broken by the agent's generator)."""
        network = self.network_for(game)
        values = network.values(observation_vector(game, view, player))
        return greedy_action(values, np.asarray(game.legal_actions(view)), self.rng)
