"""AlphaZero self-play search speed: today's per-game search against batched self-play (the leaves of many games
valued in one forward pass, :mod:`baselines.learners.alphazero.batched`), one fresh network, alternating rounds on
one torch thread; with the share of the time spent in the network."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import boardenvs
from baselines.search.evaluators import Evaluator
from boardenvs.registry import make_game

ALPHAZERO_ROUNDS = 3
"""Timed self-play rounds of each AlphaZero search setting (alternating; the median rate is reported)."""
PER_GAME = 0
"""The ``games_per_batch`` of today's per-game search (each game searches alone, its own forward passes)."""


@dataclass
class SelfPlaySpeed:
    """Timed AlphaZero self-play rounds of one setting: per round, the simulations run, the network's forward
    passes, the seconds of the round and the seconds spent in the network's evaluator (observations included)."""

    name: str
    games_per_batch: int
    device: str = "cpu"
    simulations: list[int] = field(default_factory=list)
    forward_passes: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    network_seconds: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Simulations per second: the median over the rounds."""
        return float(np.median([s / t for s, t in zip(self.simulations, self.seconds)]))

    @property
    def network_share(self) -> float:
        """The share of the time spent valuing leaves (observations, masks and the forward pass), all rounds."""
        return sum(self.network_seconds) / max(sum(self.seconds), 1e-12)

    @property
    def leaves_per_pass(self) -> float:
        """Simulations per forward pass (terminal leaves need none), all rounds."""
        return sum(self.simulations) / max(1, sum(self.forward_passes))


class TimedEvaluator(Evaluator):
    """``inner`` behind a wrapper that adds the seconds each ``evaluate_batch`` takes to ``seconds``."""

    def __init__(self, inner: Evaluator) -> None:
        self.inner, self.name, self.seconds = inner, inner.name, 0.0

    def check(self, game: boardenvs.Game) -> None:
        self.inner.check(game)

    def evaluate(self, game: boardenvs.Game, state: Any) -> Any:
        return self.evaluate_batch(game, [state])[0]

    def evaluate_batch(self, game: boardenvs.Game, states: Sequence[Any]) -> Any:
        start = time.perf_counter()
        try:
            return self.inner.evaluate_batch(game, states)
        finally:
            self.seconds += time.perf_counter() - start


def search_moves(
    game: boardenvs.Game, evaluator: Any, seed: int, moves: int, simulations: int, search: str, batch: int
) -> int:
    """Self-play search of one game from its initial state (seeded): every seat searches ``moves`` moves in all
    (fewer if the game ends); returns the simulations run."""
    from baselines.search.mcts import MCTSAgent

    agent = MCTSAgent(
        seed, simulations=simulations, evaluator=evaluator, selection=search, batch_size=batch, reuse_tree=False
    )
    rng = np.random.default_rng(seed)
    state, done = game.initial_state(rng), 0
    for _ in range(moves):
        if game.is_terminal(state):
            break
        mover = int(state.current_player)
        state = game.apply(state, agent.act(game, game.determinize(state, mover, rng), mover))
        done += agent.last_search.simulations
    return done


@dataclass(frozen=True)
class SelfPlayRound:
    """What one timed round plays: ``games`` games (from seeds ``seed .. seed + games - 1``), each searching
    ``moves`` moves of ``simulations`` simulations with ``search``, ``batch`` leaves per request."""

    games: int
    moves: int
    simulations: int
    search: str
    batch: int
    seed: int

    def jobs(self, game: boardenvs.Game) -> list[Any]:
        """One job per game: ``job(evaluator) -> simulations run``."""
        plan = (self.moves, self.simulations, self.search, self.batch)
        return [
            lambda ev, s=seed: search_moves(game, ev, s, *plan) for seed in range(self.seed, self.seed + self.games)
        ]


def selfplay_round(
    game: boardenvs.Game, net: Any, passes: list[int], speed: SelfPlaySpeed, plan: SelfPlayRound
) -> None:
    """Play ``plan``'s games, one after another (today's search) or ``speed.games_per_batch`` at a time in batched
    self-play; append the round's simulations, forward passes (``passes[0]`` counts them) and seconds to ``speed``."""
    from baselines.learners.alphazero.batched import play_batch
    from baselines.learners.alphazero.evaluator import NetworkEvaluator

    evaluator, jobs, before = TimedEvaluator(NetworkEvaluator(net)), plan.jobs(game), passes[0]
    start = time.perf_counter()
    if speed.games_per_batch == PER_GAME:
        done = sum(job(evaluator) for job in jobs)
    else:
        size = speed.games_per_batch
        done = sum(sum(play_batch(evaluator, jobs[i : i + size])[0]) for i in range(0, len(jobs), size))
    speed.seconds.append(time.perf_counter() - start)
    speed.simulations.append(done)
    speed.forward_passes.append(passes[0] - before)
    speed.network_seconds.append(evaluator.seconds)


def bench_alphazero(
    name: str,
    config: dict[str, Any],
    *,
    search: str,
    simulations: int,
    moves: int,
    batch: int,
    games_per_batch: Sequence[int],
    seed: int,
    device: str = "cpu",
) -> list[SelfPlaySpeed]:
    """Today's per-game self-play search and batched self-play at each of ``games_per_batch``, on the same games
    (``max(games_per_batch)`` of them per round, each searching ``moves`` moves of ``simulations`` simulations with
    ``search``, ``batch`` leaves per request), one fresh network (seeded by ``seed``), in alternating rounds after
    an untimed warm-up, with one torch thread; the network on ``device`` (``"cuda"``: a GPU values the leaves)."""
    import torch
    from tqdm import tqdm

    from baselines.learners.alphazero.network import PolicyValueNet, resolve_device
    from baselines.params import choice_param

    search = choice_param("--alphazero-search", search, ("gumbel", "puct"))
    where = resolve_device(device)
    game = make_game(name, **config)
    net, passes = PolicyValueNet.for_game(game, seed=seed).to(where), [0]
    hook = net.register_forward_hook(lambda *_: passes.__setitem__(0, passes[0] + 1))
    speeds = [SelfPlaySpeed("per game (today)", PER_GAME, str(where))]
    speeds += [SelfPlaySpeed(f"batched, {size} games/pass", size, str(where)) for size in games_per_batch]
    games = max(games_per_batch)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        selfplay_round(
            game, net, passes, SelfPlaySpeed("warm-up", 1), SelfPlayRound(1, 1, simulations, search, batch, seed)
        )
        for r in tqdm(range(ALPHAZERO_ROUNDS), desc="AlphaZero self-play", unit="round"):
            plan = SelfPlayRound(games, moves, simulations, search, batch, seed + 1000 * r)
            for speed in speeds if r % 2 == 0 else speeds[::-1]:
                selfplay_round(game, net, passes, speed, plan)
    finally:
        torch.set_num_threads(threads)
        hook.remove()
    return speeds


def report_alphazero(results: list[SelfPlaySpeed], search: str) -> str:
    """One line per setting: simulations/s, leaves per forward pass, the network's share of the time and the ratio to
    today's per-game search."""
    reference = next(r for r in results if r.games_per_batch == PER_GAME)
    lines = [
        f"{'AlphaZero self-play, ' + search:28s} {'simulations/s':>14s} {'leaves/pass':>12s} {'network share':>14s} "
        f"{'vs per game':>12s}"
    ]
    for r in results:
        ratio = r.per_second / reference.per_second
        lines.append(
            f"{r.name:28s} {r.per_second:14,.0f} {r.leaves_per_pass:12.1f} {r.network_share:14.0%} {ratio:11.2f}x"
        )
    return "\n".join(lines)
