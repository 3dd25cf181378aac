"""The evolution of the neuro-evolution agent's network (:func:`evolve`, the seed's final method): each
generation the parent and its mutated children play the same pre-seeded games against random no-ES agents, and
the best becomes the parent."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from baselines.arena import game_seeds, play_game
from baselines.games.gravwell.agents import RandomNoStopAgent
from baselines.learners.neuroevolution.agent import NeuroevolutionAgent
from baselines.learners.neuroevolution.mutation import mutate
from baselines.learners.neuroevolution.network import Network
from baselines.settings import Range, setting
from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.movement import WARP_GATE


@dataclass(frozen=True)
class EvolutionSettings:
    """How :func:`evolve` runs: the seed's final method, with its numbers where it gives them (the fields are
    ``scripts/evolve_gravwell.py``'s options; the ranges in their ``metadata`` bound the command line)."""

    generations: int = setting(300, Range(1, 10**6))
    """Generations to run (>= 1)."""
    children: int = setting(3, Range(1, 1000))
    """Mutated children per generation (>= 1; 3 is the seed's four-way selection)."""
    start_runs: int = setting(20, Range(1, 10**6))
    """Games per candidate in the first generation (>= 1; the seed's r = 20)."""
    runs_step: int = setting(2, Range(0, 10**6))
    """Games added after a generation whose best candidate won more than half (>= 0; the seed's 2)."""
    max_runs: int = setting(200, Range(1, 10**6))
    """The most games per candidate (>= start_runs)."""
    num_players: int = setting(4, Range(2, 4))
    """Players per game: 2, 3 or 4 (the seed: 4)."""
    inert_tractors: bool = False
    """Evolve on the paper engine's preset (tractors move nothing)."""
    seed: int = 0
    """Seeds the first network, the mutations and the pre-seeded games of every generation."""

    def __post_init__(self) -> None:
        for name, low in (("generations", 1), ("children", 1), ("start_runs", 1), ("runs_step", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
        if not isinstance(self.max_runs, int) or self.max_runs < self.start_runs:
            raise ValueError(f"max_runs must be an int >= start_runs ({self.start_runs}), got {self.max_runs!r}")
        if self.num_players not in (2, 3, 4):
            raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")


@dataclass(frozen=True)
class Generation:
    """What one generation did: its games per candidate, and the chosen candidate's score, wins and size."""

    generation: int
    runs: int
    score: float
    wins: float
    mean_tile: float
    nodes: int
    child_won: bool


def score_network(game: Gravwell, network: Network, seeds: Sequence[int]) -> tuple[float, float, float]:
    """``(s, wins, mean final tile)`` of ``network`` over the games ``seeds`` against random no-ES agents.

    Game ``i`` seats the network at ``i % n``; the seeds fix the deals and every agent's random choices.
    """
    n = game.n
    hero = NeuroevolutionAgent(0, network)
    opponents = [RandomNoStopAgent(0) for _ in range(n - 1)]
    wins, tiles = 0.0, 0.0
    for index, seed in enumerate(seeds):
        seat = index % n
        seats = [*opponents[:seat], hero, *opponents[seat:]]
        record = play_game(game, seats, int(seed))
        winners = [player for player, value in enumerate(record.returns) if value > 0]
        wins += (seat in winners) / max(len(winners), 1)
        tiles += float(record.scores[seat])
    mean_tile = tiles / len(seeds)
    return wins + mean_tile / WARP_GATE, wins, mean_tile


def evolve(
    settings: EvolutionSettings,
    parent: Network | None = None,
    start: int = 0,
    runs: int | None = None,
    on_generation: Callable[[Generation, Network], None] | None = None,
) -> tuple[Network, list[Generation]]:
    """Run generations ``start .. settings.generations - 1``; returns the final parent and the history.

    Generation ``g`` draws its mutations and game seeds from ``(settings.seed, g)``, so a run resumed from
    generation ``g`` with the parent and ``runs`` it had then continues exactly. ``on_generation`` is called
    after every generation (to save progress).
    """
    game = Gravwell(num_players=settings.num_players, inert_tractors=settings.inert_tractors)
    parent = parent or Network.initial(np.random.default_rng([settings.seed, 2**31]))
    runs = settings.start_runs if runs is None else runs
    history = []
    for generation in range(start, settings.generations):
        rng = np.random.default_rng([settings.seed, generation])
        seeds = game_seeds(int(rng.integers(2**31)), runs)
        candidates = [parent, *(mutate(parent, rng) for _ in range(settings.children))]
        results = [score_network(game, candidate, seeds) for candidate in candidates]
        best = max(range(len(candidates)), key=lambda index: (results[index][0], index))
        parent = candidates[best]
        score, wins, mean_tile = (float(value) for value in results[best])
        record = Generation(generation, runs, score, wins, mean_tile, parent.size(), best > 0)
        history.append(record)
        if wins > runs / 2:
            runs = min(runs + settings.runs_step, settings.max_runs)
        if on_generation is not None:
            on_generation(record, parent)
    return parent, history
