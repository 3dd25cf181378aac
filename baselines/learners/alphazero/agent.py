"""A trained AlphaZero checkpoint as an agent: PUCT search on the network's priors and values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import load_checkpoint
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game


class AlphaZeroAgent(BaseAgent):
    """Plays the most visited move of a PUCT search guided by a checkpoint of :mod:`baselines.learners.alphazero`.

    ``make_agent("alphazero:checkpoint=runs/az/best.pt:simulations=100", game_name)`` builds one. The
    checkpoint is loaded at construction; the first ``act`` checks that it was trained for the game played.

    Args:
        seed: the agent's seed.
        name: display name (default ``"alphazero"``).
        checkpoint: path of a ``.pt`` file written by :class:`AlphaZeroTrainer` (required).
        simulations: PUCT simulations per move, >= 1.
        exploration: the PUCT constant, >= 0.
        batch_size: leaves valued per forward pass, >= 1.
        determinizations: hidden-information games: views sampled per move, >= 1.
        temperature: 0 plays the most visited move; > 0 samples from the visit counts.
    """

    name = "alphazero"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        checkpoint: str | Path | None = None,
        simulations: int = 100,
        exploration: float = 1.0,
        batch_size: int = 8,
        determinizations: int = 4,
        temperature: float = 0.0,
    ) -> None:
        super().__init__(seed, name)
        if checkpoint is None:
            raise ValueError("agent 'alphazero' needs checkpoint=<path to a .pt file written by the trainer>")
        self.net, self.metadata = load_checkpoint(checkpoint)
        self.search = MCTSAgent(self.rng, self.name, simulations=simulations, evaluator=NetworkEvaluator(self.net),
                                selection="puct", exploration=exploration, batch_size=batch_size,
                                determinizations=determinizations, temperature=temperature)  # fmt: skip

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self.search.reseed(seed)

    def act(self, game: Game, view: Any, player: int) -> int:
        if game.spec.name != self.metadata["game"]:
            raise ValueError(f"{self.name}: checkpoint trained for {self.metadata['game']!r}, not {game.spec.name!r}")
        return self.search.act(game, view, player)
