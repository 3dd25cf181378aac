"""The self-play data of an AlphaZero iteration: the games of the best network, here or in worker processes / Ray
actors (:mod:`baselines.distributed`), each game with its own seed so the examples are the same wherever they run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import torch

from baselines.distributed import make_executor, runs_inline
from baselines.factory import make_agent
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import PolicyValueNet
from baselines.learners.alphazero.selfplay import Example, SelfPlaySettings, play_demonstration_game, play_selfplay_game
from baselines.learners.alphazero.settings import AlphaZeroSettings
from baselines.progress import progress_bar
from boardenvs.core import Game


class SelfPlayGames:
    """Plays an iteration's self-play games of the best network and returns their training examples.

    Args:
        game: The game.
        settings: The run's settings (self-play search, workers, backend, sparring share).
        device: Where the network values leaves in this process (workers of the ``ray`` backend use their CPU).
        sparring: The resolved agent spec of the sparring partner (``""``: none).
        progress: Show a progress bar.
    """

    def __init__(self, game: Game, settings: AlphaZeroSettings, device: Any, sparring: str, progress: bool) -> None:
        self.game, self.settings, self.device = game, settings, device
        self.sparring, self.progress = sparring, progress

    def demonstrations(self, teacher: Any, games: int, seed: int) -> list[Example]:
        """The examples of ``games`` games of ``teacher`` against itself (the warm start: its moves as one-hot policy
        targets), each game seeded from ``seed``."""
        examples: list[Example] = []
        with progress_bar(self.progress, games, "warm start", "game") as bar:
            for game_seed in np.random.SeedSequence(seed).generate_state(games):
                examples += play_demonstration_game(self.game, teacher, int(game_seed))
                bar.update(1)
        return examples

    def play(self, best: PolicyValueNet, games: int, seed: int) -> list[Example]:
        """The examples of ``games`` self-play games of ``best`` (the first ``sparring_fraction`` of them against
        the sparring agent)."""
        seeds = [int(value) for value in np.random.SeedSequence(seed).generate_state(games)]
        sparring_games = round(self.settings.sparring_fraction * games) if self.sparring else 0
        jobs = [(game_seed, self.sparring if index < sparring_games else "") for index, game_seed in enumerate(seeds)]
        examples: list[Example] = []
        with progress_bar(self.progress, games, "self-play", "game") as bar:
            for game_examples in self._games(best, jobs):
                examples += game_examples
                bar.update(1)
        return examples

    def _games(self, best: PolicyValueNet, jobs: list[tuple[int, str]]) -> Iterator[list[Example]]:
        """The examples of each ``(seed, sparring spec)`` game, in order (in worker processes or Ray actors with
        ``workers`` > 1 or ``backend="ray"``; each builds the best network once from its weights)."""
        settings = self.settings
        workers = min(settings.workers, len(jobs))
        if runs_inline(settings.backend, workers):
            evaluator = NetworkEvaluator(best)
            for job in jobs:
                yield play_job(self.game, evaluator, settings.selfplay, *job)
            return
        network = (best.observation_shape, best.num_actions, best.num_players, best.config)
        weights = {key: value.cpu() for key, value in best.state_dict().items()}
        device = "cpu" if settings.backend == "ray" else str(self.device)  # an actor is given no GPU
        start = (self.game, network, weights, settings.selfplay, device)
        address = settings.ray_address or None
        with make_executor(settings.backend, workers, _start_worker, start, address) as pool:  # workers end with us
            yield from pool.map(_self_play_in_worker, jobs)


# -- self-play workers ---------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}
"""A self-play worker's game, evaluator and settings, set once by :func:`_start_worker`."""


def _start_worker(
    game: Game, network: tuple[Any, ...], weights: dict[str, Any], selfplay: SelfPlaySettings, device: str
) -> None:
    torch.set_num_threads(1)
    net = PolicyValueNet(*network)
    net.load_state_dict(weights)
    _WORKER.update(game=game, evaluator=NetworkEvaluator(net.to(device)), selfplay=selfplay)


def play_job(
    game: Game, evaluator: NetworkEvaluator, selfplay: SelfPlaySettings, seed: int, sparring: str
) -> list[Example]:
    """The examples of one self-play game (against a fresh ``sparring`` agent when the spec is not empty)."""
    partner = make_agent(sparring, game.spec.name, seed) if sparring else None
    return play_selfplay_game(game, evaluator, selfplay, seed, partner)[0]


def _self_play_in_worker(job: tuple[int, str]) -> list[Example]:
    return play_job(_WORKER["game"], _WORKER["evaluator"], _WORKER["selfplay"], *job)


__all__ = ["SelfPlayGames", "play_job"]
