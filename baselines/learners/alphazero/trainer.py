"""AlphaZero training: iterations of self-play, network training, gating against the best network so far,
and evaluation against a reference agent, with checkpoints, a CSV history and a learning-curve plot.

Seed 001's loop, generalised to 2-4 players: play ``games_per_iteration`` self-play games with the best
network, train a copy on the examples of the last ``buffer_iterations`` iterations (value: mean squared
error over the seats; policy: cross-entropy of the masked policy against the visit shares), pit the copy
against the best network (``arena_games`` games, seats rotated) and keep it if it scores at least
``accept_threshold`` (0.6 in the seed; a win is 1, a draw 1/2, as the arena counts them). Every iteration the best
network plays ``eval_games`` against ``eval_opponent`` (seats rotated).
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from baselines.agent import Agent
from baselines.arena import evaluate_against
from baselines.arena.ratings import wilson_interval
from baselines.factory import make_agent
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import NetworkConfig, PolicyValueNet, masked_log_softmax, save_checkpoint
from baselines.learners.alphazero.selfplay import Example, SelfPlaySettings, play_selfplay_game
from baselines.params import float_param, int_param
from baselines.progress import progress_bar
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game
from boardenvs.registry import make_game

HISTORY_FIELDS = (
    "iteration", "games", "examples", "policy_loss", "value_loss", "arena_score", "accepted", "eval_score",
    "eval_low", "eval_high", "seconds",
)  # fmt: skip


@dataclass(frozen=True)
class AlphaZeroSettings:
    """Everything :class:`AlphaZeroTrainer` does; the defaults follow seed 001 where it says (100 games per
    iteration, 50 simulations, batch 64, Adam, 60% gate) at a smaller network.

    Attributes:
        iterations: self-play / train / gate rounds, >= 1.
        games_per_iteration: self-play games per iteration, >= 1.
        selfplay: how the self-play search runs.
        network: network sizes.
        buffer_iterations: iterations whose examples are trained on, >= 1.
        epochs: passes over the buffer per iteration, >= 1.
        batch_size: examples per gradient step, >= 1.
        learning_rate: Adam's step size, > 0.
        weight_decay: L2 penalty, >= 0.
        arena_games: candidate-vs-best games per iteration, >= 0 (0: every candidate is kept).
        accept_threshold: candidate score needed to replace the best network, in [0, 1].
        eval_games: games against ``eval_opponent`` per iteration, >= 0.
        eval_opponent: an agent spec for ``make_agent`` (``"random"``, ``"mcts:simulations=50"``, ...).
        workers: processes that play the self-play games (1: this process), >= 1; each runs torch on one
            thread and every game keeps its own seed.
        seed: everything random derives from it.
    """

    iterations: int = 10
    games_per_iteration: int = 100
    selfplay: SelfPlaySettings = field(default_factory=SelfPlaySettings)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    buffer_iterations: int = 4
    epochs: int = 4
    batch_size: int = 64
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    arena_games: int = 20
    accept_threshold: float = 0.6
    eval_games: int = 20
    eval_opponent: str = "random"
    workers: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        minimums = {"iterations": 1, "games_per_iteration": 1, "buffer_iterations": 1, "epochs": 1, "batch_size": 1,
                    "arena_games": 0, "eval_games": 0, "workers": 1, "seed": 0}  # fmt: skip
        for name, low in minimums.items():
            int_param(name, getattr(self, name), low)
        float_param("learning_rate", self.learning_rate, 0.0, positive=True)
        float_param("weight_decay", self.weight_decay, 0.0)
        float_param("accept_threshold", self.accept_threshold, 0.0, 1.0)


@dataclass
class IterationResult:
    """One row of the history (see :data:`HISTORY_FIELDS`); scores are in [0, 1], -1 when not measured."""

    iteration: int
    games: int
    examples: int
    policy_loss: float
    value_loss: float
    arena_score: float
    accepted: bool
    eval_score: float
    eval_low: float
    eval_high: float
    seconds: float


class AlphaZeroTrainer:
    """Trains a :class:`PolicyValueNet` for one game by self-play (see the module docstring).

    Args:
        game_name: a registered game.
        config: its config (``make_game(game_name, **config)``).
        settings: the training settings.
        out_dir: where ``best.pt`` (the best network so far), ``iteration_<k>.pt`` (the best network after
            iteration ``k``, for tournaments between iterations), ``history.csv`` and ``learning_curve.png``
            go (created).
        progress: show progress bars.
    """

    def __init__(
        self,
        game_name: str,
        config: dict[str, Any] | None = None,
        settings: AlphaZeroSettings | None = None,
        out_dir: str | Path = "runs/alphazero",
        progress: bool = True,
    ) -> None:
        self.game_name, self.config = game_name, dict(config or {})
        self.game: Game = make_game(game_name, **self.config)
        self.settings = settings or AlphaZeroSettings()
        self.out_dir, self.progress = Path(out_dir), progress
        torch.manual_seed(self.settings.seed)
        self.best = PolicyValueNet.for_game(self.game, self.settings.network).eval()
        self.buffer: deque[list[Example]] = deque(maxlen=self.settings.buffer_iterations)
        self.history: list[IterationResult] = []
        self._seeds = np.random.SeedSequence(self.settings.seed)

    @property
    def best_path(self) -> Path:
        return self.out_dir / "best.pt"

    def run(self) -> list[IterationResult]:
        """All iterations; returns the history."""
        for _ in self.run_iter():
            pass
        return self.history

    def run_iter(self) -> Iterator[IterationResult]:
        """All iterations, yielding each result once ``best.pt``, ``history.csv`` and the plot are written."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for iteration in range(len(self.history) + 1, self.settings.iterations + 1):
            self.history.append(self.iterate(iteration))
            self._write_history()
            self._plot()
            yield self.history[-1]

    def iterate(self, iteration: int) -> IterationResult:
        """One iteration: self-play, training, gating, evaluation, checkpoint."""
        start, settings = time.perf_counter(), self.settings
        seed_of = self._iteration_seeds(iteration)
        self.buffer.append(self.self_play(settings.games_per_iteration, seed_of["selfplay"]))
        examples = [example for games in self.buffer for example in games]
        candidate = copy.deepcopy(self.best)
        policy_loss, value_loss = train_network(candidate, examples, settings, seed_of["train"])
        arena = self.arena(candidate, seed_of["arena"]) if settings.arena_games else 1.0
        accepted = arena >= settings.accept_threshold
        if accepted:
            self.best = candidate.eval()
        extra = {"iteration": iteration, "settings": dataclasses.asdict(settings)}
        save_checkpoint(self.best_path, self.best, self.game, extra)
        save_checkpoint(self.out_dir / f"iteration_{iteration:03d}.pt", self.best, self.game, extra)
        score, low, high = self.evaluate(seed_of["eval"]) if settings.eval_games else (-1.0, -1.0, -1.0)
        return IterationResult(iteration, settings.games_per_iteration, len(examples), policy_loss, value_loss,
                               arena if settings.arena_games else -1.0, accepted, score, low, high,
                               time.perf_counter() - start)  # fmt: skip

    def _iteration_seeds(self, iteration: int) -> dict[str, int]:
        parts = ("selfplay", "train", "arena", "eval")
        states = np.random.SeedSequence((self.settings.seed, iteration)).generate_state(len(parts))
        return {part: int(value) for part, value in zip(parts, states)}

    # -- the parts of an iteration --------------------------------------------------------------------
    def self_play(self, games: int, seed: int) -> list[Example]:
        """The examples of ``games`` self-play games of the best network."""
        seeds = [int(value) for value in np.random.SeedSequence(seed).generate_state(games)]
        examples: list[Example] = []
        with progress_bar(self.progress, games, "self-play", "game") as bar:
            for game_examples in self._self_play_games(seeds):
                examples += game_examples
                bar.update(1)
        return examples

    def _self_play_games(self, seeds: list[int]) -> Iterator[list[Example]]:
        """The examples of each game, in the order of ``seeds`` (in worker processes with ``workers`` > 1)."""
        workers = min(self.settings.workers, len(seeds))
        if workers == 1:
            evaluator = NetworkEvaluator(self.best)
            for game_seed in seeds:
                yield play_selfplay_game(self.game, evaluator, self.settings.selfplay, game_seed)[0]
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        network = (self.best.observation_shape, self.best.num_actions, self.best.num_players, self.best.config)
        start = (self.game, network, self.best.state_dict(), self.settings.selfplay)
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=start) as pool:
            yield from pool.map(_self_play_in_worker, seeds)

    def player(self, net: PolicyValueNet, seed: int, name: str) -> MCTSAgent:
        """The network's competitive player: greedy PUCT without root noise, the self-play budget."""
        return self.settings.selfplay.searcher(NetworkEvaluator(net), seed, temperature=0.0, noise=False, name=name)

    def arena(self, candidate: PolicyValueNet, seed: int) -> float:
        """The candidate's score against the best network (one seat each game, rotated)."""
        hero, best = self.player(candidate, seed, "candidate"), self.player(self.best, seed + 1, "best")
        return self._score(hero, best, self.settings.arena_games, seed)[0]

    def evaluate(self, seed: int) -> tuple[float, float, float]:
        """The best network's score against ``eval_opponent`` and its 95% Wilson interval."""
        hero = self.player(self.best, seed, "alphazero")
        return self._score(
            hero, make_agent(self.settings.eval_opponent, self.game_name, seed + 1), self.settings.eval_games, seed
        )

    def _score(self, hero: Agent, other: Agent, games: int, seed: int) -> tuple[float, float, float]:
        """``hero``'s score (a win 1, a draw 1/2) in seat-rotated games against ``other`` in every other seat."""
        wins, draws, _ = evaluate_against(self.game, hero, other, games, seed)
        points = wins + 0.5 * draws
        return (points / games, *wilson_interval(points, games))

    # -- outputs --------------------------------------------------------------------------------------
    def _write_history(self) -> None:
        with open(self.out_dir / "history.csv", "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(HISTORY_FIELDS)
            for row in self.history:
                writer.writerow([getattr(row, name) for name in HISTORY_FIELDS])

    def _plot(self) -> Path:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        rows = self.history
        x = [row.iteration for row in rows]
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
        left.plot(x, [row.policy_loss for row in rows], marker="o", label="policy loss")
        left.plot(x, [row.value_loss for row in rows], marker="o", label="value loss")
        left.set_xlabel("iteration")
        left.legend()
        measured = [row for row in rows if row.eval_score >= 0]
        if measured:
            scores = np.array([row.eval_score for row in measured])
            errors = [scores - [row.eval_low for row in measured], [row.eval_high for row in measured] - scores]
            right.errorbar([row.iteration for row in measured], scores, yerr=errors, marker="o", capsize=3)
        right.set_ylim(0, 1)
        right.set_xlabel("iteration")
        right.set_ylabel(f"score vs {self.settings.eval_opponent} (95% CI)")
        figure.suptitle(f"AlphaZero on {self.game_name} {self.config or ''}")
        figure.tight_layout()
        path = self.out_dir / "learning_curve.png"
        figure.savefig(path, dpi=100)
        plt.close(figure)
        return path


def train_network(
    net: PolicyValueNet, examples: list[Example], settings: AlphaZeroSettings, seed: int
) -> tuple[float, float]:
    """``settings.epochs`` passes of Adam over ``examples`` in shuffled batches; the mean policy and value
    losses of the last pass."""
    generator = torch.Generator().manual_seed(seed)
    observations = torch.as_tensor(np.stack([e.observation for e in examples]), dtype=torch.float32)
    masks = torch.as_tensor(np.stack([e.mask for e in examples]))
    policies = torch.as_tensor(np.stack([e.policy for e in examples]), dtype=torch.float32)
    values = torch.as_tensor(np.stack([e.value for e in examples]), dtype=torch.float32)
    optimiser = torch.optim.Adam(net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay)
    net.train()
    losses = (0.0, 0.0)
    for _ in range(settings.epochs):
        order = torch.randperm(len(examples), generator=generator)
        sums, batches = [0.0, 0.0], 0
        for start in range(0, len(examples), settings.batch_size):
            batch = order[start : start + settings.batch_size]
            if len(batch) < 2 and any(isinstance(m, torch.nn.BatchNorm2d) for m in net.modules()):
                continue  # batch norm cannot train on a single example
            policy_loss, value_loss = losses_of(net, observations[batch], masks[batch], policies[batch], values[batch])
            optimiser.zero_grad()
            (policy_loss + value_loss).backward()
            optimiser.step()
            sums[0] += policy_loss.item()
            sums[1] += value_loss.item()
            batches += 1
        losses = (sums[0] / max(1, batches), sums[1] / max(1, batches))
    net.eval()
    return losses


def losses_of(
    net: PolicyValueNet, observations: torch.Tensor, masks: torch.Tensor, policies: torch.Tensor, values: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """(policy cross-entropy against the visit shares, value mean squared error over the seats)."""
    logits, predicted = net(observations)
    log_policy = torch.where(masks, masked_log_softmax(logits, masks), torch.zeros_like(logits))
    policy_loss = -(policies * log_policy).sum(dim=1).mean()
    value_loss = ((predicted - values) ** 2).mean()
    return policy_loss, value_loss


_WORKER: dict[str, Any] = {}
"""A self-play worker's game, evaluator and settings, set once by :func:`_start_worker`."""


def _start_worker(game: Game, network: tuple[Any, ...], weights: dict[str, Any], selfplay: SelfPlaySettings) -> None:
    torch.set_num_threads(1)
    net = PolicyValueNet(*network)
    net.load_state_dict(weights)
    _WORKER.update(game=game, evaluator=NetworkEvaluator(net), selfplay=selfplay)


def _self_play_in_worker(seed: int) -> list[Example]:
    return play_selfplay_game(_WORKER["game"], _WORKER["evaluator"], _WORKER["selfplay"], seed)[0]
