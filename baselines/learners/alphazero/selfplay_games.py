"""The self-play data of an AlphaZero iteration: the games of the best network, ``batch_games`` at a time in one
batched search (:mod:`.batched`), here or in worker processes / Ray actors (:mod:`baselines.distributed`). Each game
has its own seed and each batch is a fixed chunk of the iteration's games, so the examples are the same wherever and
on however many workers they run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import torch

from baselines.distributed import make_executor, runs_inline
from baselines.factory import make_agent
from baselines.learners.alphazero.batched import play_batch
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import PolicyValueNet
from baselines.learners.alphazero.selfplay import Example, SelfPlaySettings, play_demonstration_game, play_selfplay_game
from baselines.learners.alphazero.settings import AlphaZeroSettings
from baselines.progress import progress_bar
from baselines.search.evaluators import Evaluator
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
        size = self.settings.selfplay.batch_games
        chunks = [jobs[start : start + size] for start in range(0, len(jobs), size)]
        examples: list[Example] = []
        with progress_bar(self.progress, games, "self-play", "game") as bar:
            for chunk, chunk_examples in zip(chunks, self._chunks(best, chunks)):
                examples += chunk_examples
                bar.update(len(chunk))
        return examples

    def _chunks(self, best: PolicyValueNet, chunks: list[list[tuple[int, str]]]) -> Iterator[list[Example]]:
        """The examples of each chunk of ``(seed, sparring spec)`` games, in order (in worker processes or Ray
        actors with ``workers`` > 1 or ``backend="ray"``; each builds the best network once from its weights)."""
        settings = self.settings
        workers = min(settings.workers, len(chunks))
        if runs_inline(settings.backend, workers):
            evaluator = NetworkEvaluator(best)
            for chunk in chunks:
                yield play_chunk(self.game, evaluator, settings.selfplay, chunk)
            return
        network = (best.observation_shape, best.num_actions, best.num_players, best.config)
        weights = {key: value.cpu() for key, value in best.state_dict().items()}
        device = "cpu" if settings.backend == "ray" else str(self.device)  # an actor is given no GPU
        start = (self.game, network, weights, settings.selfplay, device)
        address = settings.ray_address or None
        with make_executor(settings.backend, workers, _start_worker, start, address) as pool:  # workers end with us
            yield from pool.map(_self_play_in_worker, chunks)


# -- memory -------------------------------------------------------------------------------------------------
def activation_bytes(net: PolicyValueNet) -> int:
    """Bytes one leaf's forward pass needs: the input and every module's output, in float32 (an upper bound, as if
    none were freed before the pass ends)."""
    sizes = [int(np.prod(net.observation_shape))]
    hooks = [module.register_forward_hook(lambda _m, _i, out: sizes.append(_numel(out))) for module in net.modules()]
    try:
        with torch.no_grad():
            net(torch.zeros((1, *net.observation_shape), device=net.device))
    finally:
        for hook in hooks:
            hook.remove()
    return 4 * sum(sizes)


def _numel(output: Any) -> int:
    if isinstance(output, torch.Tensor):
        return output.numel()
    return sum(_numel(item) for item in output) if isinstance(output, tuple | list) else 0


def free_memory_bytes(device: torch.device) -> int:
    """The memory free for a forward pass on ``device``: the GPU's free memory, or the machine's available RAM
    (``MemAvailable`` of ``/proc/meminfo``, else the free pages)."""
    if device.type == "cuda":
        return int(torch.cuda.mem_get_info(device)[0])
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))


def check_batch_memory(net: PolicyValueNet, selfplay: SelfPlaySettings, device: torch.device) -> None:
    """Refuse a batch whose forward pass (``batch_games`` x ``batch_size`` leaves) would need more than half the
    free memory of ``device``: a ``ValueError`` naming ``batch_games`` and the sizes."""
    leaves = selfplay.batch_games * selfplay.batch_size
    need, free = leaves * activation_bytes(net), free_memory_bytes(device)
    if need > free / 2:
        raise ValueError(
            f"batch_games: {selfplay.batch_games} games x batch_size {selfplay.batch_size} leaves = {leaves} leaves "
            f"per forward pass need about {need / 2**30:.1f} GiB on {device}, more than half of the "
            f"{free / 2**30:.1f} GiB free; lower batch_games or batch_size"
        )


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


def play_job(game: Game, evaluator: Evaluator, selfplay: SelfPlaySettings, seed: int, sparring: str) -> list[Example]:
    """The examples of one self-play game (against a fresh ``sparring`` agent when the spec is not empty)."""
    partner = make_agent(sparring, game.spec.name, seed) if sparring else None
    return play_selfplay_game(game, evaluator, selfplay, seed, partner)[0]


def play_chunk(
    game: Game, evaluator: NetworkEvaluator, selfplay: SelfPlaySettings, chunk: list[tuple[int, str]]
) -> list[Example]:
    """The examples of a chunk of ``(seed, sparring spec)`` games played together, their leaves valued in shared
    forward passes (:func:`~.batched.play_batch`), in the chunk's order."""
    jobs = [
        lambda client, seed=seed, sparring=sparring: play_job(game, client, selfplay, seed, sparring)
        for seed, sparring in chunk
    ]
    results, _ = play_batch(evaluator, jobs)
    return [example for game_examples in results for example in game_examples]


def _self_play_in_worker(chunk: list[tuple[int, str]]) -> list[Example]:
    return play_chunk(_WORKER["game"], _WORKER["evaluator"], _WORKER["selfplay"], chunk)


__all__ = ["SelfPlayGames", "activation_bytes", "check_batch_memory", "play_chunk", "play_job"]
