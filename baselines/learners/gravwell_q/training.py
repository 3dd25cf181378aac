"""Training Gravwell's tabular Q agent (:func:`learn`): seeded 4-player games against three scripted opponents
of one kind, the learner's seat rotating."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from baselines.agent import BaseAgent
from baselines.games.gravwell.agents import DecisionTreeAgent, RandomEmergencyStopAgent, RandomNoStopAgent
from baselines.learners.gravwell_q.agent import GravwellQAgent
from boardenvs.games.gravwell import Gravwell

OPPONENTS: dict[str, Callable[[int], BaseAgent]] = {
    "random": RandomEmergencyStopAgent, "random_no_es": RandomNoStopAgent, "tree": DecisionTreeAgent,
}  # fmt: skip
"""The opponent kinds of :func:`learn` by name (``random``: Emergency Stop with probability 0.5)."""


def _opponent_factory(name: str) -> Callable[[int], BaseAgent]:
    if name not in OPPONENTS:
        raise ValueError(f"opponents: unknown opponent {name!r}; choices: {sorted(OPPONENTS)}")
    return OPPONENTS[name]


def train_game(game: Gravwell, agent: GravwellQAgent, opponents: Sequence[BaseAgent], seed: int) -> bool:
    """Play one training game, the learner in seat ``seed % n``; True if the learner won (alone or tied)."""
    n = game.n
    seat = seed % n
    rng = np.random.default_rng(seed)
    seats: list[BaseAgent] = list(opponents[:seat]) + [agent] + list(opponents[seat:])
    for index, other in enumerate(seats):
        if other is not agent:
            other.reseed(seed * 7 + index)
    agent.start_game()
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        player = state.current_player
        view = game.determinize(state, player, rng) if seats[player] is agent else state
        state = game.apply(state, seats[player].act(game, view, player))
    agent.end_game(state.pos, seat)
    return bool(game.returns(state)[seat] > 0)


def learn(
    agent: GravwellQAgent,
    games: int,
    seed: int = 0,
    opponents: str = "random",
    game: Gravwell | None = None,
    progress: bool = False,
) -> np.ndarray:
    """Train ``agent`` for ``games`` seeded games against three opponents; returns the per-game win flags.

    Args:
        agent: the learner (switched to training mode for the run, then back to greedy).
        games: number of training games (>= 1).
        seed: the training seed (game ``i`` uses seed ``seed * 1_000_003 + i``).
        opponents: "random" (ES with probability 0.5), "random_no_es" or "tree"; the same kind in every seat.
        game: the game (default: a correct 4-player Gravwell).
        progress: show a tqdm progress bar.

    Opponents see the true state: they only use their own hand and public facts, and skipping their
    determinization makes training faster. The learner gets a determinized view.
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    game = game or Gravwell(num_players=4)
    factory = _opponent_factory(opponents)
    others = [factory(seed + index) for index in range(game.n - 1)]
    wins = np.zeros(games, dtype=bool)
    agent.training = True
    items: Any = range(games)
    if progress:
        from tqdm import tqdm

        items = tqdm(items, desc=f"Q-learning {agent.settings.representation}", unit="game")
    try:
        for index in items:
            wins[index] = train_game(game, agent, others, seed * 1_000_003 + index)
    finally:
        agent.training = False
    return wins
