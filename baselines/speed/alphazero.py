"""AlphaZero self-play search speed: batched against one-leaf forward passes, one fresh network, alternating
rounds on one torch thread."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

import boardenvs
from boardenvs.registry import make_game

if TYPE_CHECKING:
    from baselines.learners.alphazero.evaluator import NetworkEvaluator


ALPHAZERO_ROUNDS = 3
"""Timed self-play rounds of each AlphaZero search setting (alternating; the median rate is reported)."""


@dataclass
class SelfPlaySpeed:
    """Timed AlphaZero self-play rounds of one search setting: per round, the simulations run, the network's
    forward passes and the seconds spent in ``MCTSAgent.act``."""

    name: str
    batch_size: int
    moves: int
    simulations: list[int] = field(default_factory=list)
    forward_passes: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Simulations per second: the median over the rounds."""
        return float(np.median([s / t for s, t in zip(self.simulations, self.seconds)]))

    @property
    def forward_passes_per_move(self) -> float:
        """The network's forward passes per move searched, over all rounds."""
        return sum(self.forward_passes) / max(1, self.moves * len(self.forward_passes))


def selfplay_round(
    game: boardenvs.Game,
    evaluator: NetworkEvaluator,
    passes: list[int],
    speed: SelfPlaySpeed,
    simulations: int,
    seed: int,
    search: str,
) -> None:
    """One timed round: an ``MCTSAgent`` with ``search`` plays every seat for ``speed.moves`` moves from the
    initial state (starting a new game when one ends); only its ``act`` calls are timed. ``passes[0]`` counts the
    network's forward passes. Appends the round to ``speed``."""
    from baselines.search.mcts import MCTSAgent

    batch = speed.batch_size
    agent = MCTSAgent(
        seed, simulations=simulations, evaluator=evaluator, selection=search, batch_size=batch, reuse_tree=False
    )
    rng = np.random.default_rng(seed)
    state, done, seconds, passes_before = game.initial_state(rng), 0, 0.0, passes[0]
    for _ in range(speed.moves):
        if game.is_terminal(state):
            state = game.initial_state(rng)
        mover = int(state.current_player)
        view = game.determinize(state, mover, rng)
        start = time.perf_counter()
        action = agent.act(game, view, mover)
        seconds += time.perf_counter() - start
        done += agent.last_search.simulations
        state = game.apply(state, action)
    speed.simulations.append(done)
    speed.forward_passes.append(passes[0] - passes_before)
    speed.seconds.append(seconds)


def bench_alphazero(
    name: str, config: dict[str, Any], *, search: str, simulations: int, moves: int, batch: int, seed: int
) -> list[SelfPlaySpeed]:
    """Batched (``batch`` leaves per forward pass) and one-leaf self-play search with ``search`` (gumbel or
    puct), ``simulations`` per move and ``moves`` per round, one fresh network (seeded by ``seed``) and evaluator,
    in alternating rounds (after an untimed one-move warm-up of each), with one torch thread."""
    import torch
    from tqdm import tqdm

    from baselines.learners.alphazero.evaluator import NetworkEvaluator
    from baselines.learners.alphazero.network import PolicyValueNet
    from baselines.params import choice_param

    search = choice_param("--alphazero-search", search, ("gumbel", "puct"))
    game = make_game(name, **config)
    net, passes = PolicyValueNet.for_game(game, seed=seed), [0]
    hook = net.register_forward_hook(lambda *_: passes.__setitem__(0, passes[0] + 1))
    evaluator = NetworkEvaluator(net)
    batched = SelfPlaySpeed(f"batched (batch_size={batch})", batch, moves)
    single = SelfPlaySpeed("one leaf (batch_size=1)", 1, moves)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        for speed in (batched, single):  # warm-up
            warm_up = dataclasses.replace(speed, moves=1, simulations=[], forward_passes=[], seconds=[])
            selfplay_round(game, evaluator, passes, warm_up, simulations, seed, search)
        for r in tqdm(range(ALPHAZERO_ROUNDS), desc="AlphaZero self-play", unit="round"):
            for speed in (batched, single) if r % 2 == 0 else (single, batched):
                selfplay_round(game, evaluator, passes, speed, simulations, seed + r, search)
    finally:
        torch.set_num_threads(threads)
        hook.remove()
    return [batched, single]


def report_alphazero(results: list[SelfPlaySpeed], search: str) -> str:
    """One line per search setting with its ratio to the one-leaf rate."""
    reference = next(r for r in results if r.batch_size == 1)
    lines = [
        f"{'AlphaZero self-play, ' + search:28s} {'simulations/s':>14s} {'forward passes/move':>20s} "
        f"{'vs one-leaf':>12s}"
    ]
    for r in results:
        ratio = r.per_second / reference.per_second
        lines.append(f"{r.name:28s} {r.per_second:14,.0f} {r.forward_passes_per_move:20.1f} {ratio:11.2f}x")
    return "\n".join(lines)
