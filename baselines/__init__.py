"""Baseline agents for boardenvs games, and the arena that plays them against each other.

* :mod:`baselines.agent`: the :class:`Agent` protocol, :class:`BaseAgent` and :class:`RandomAgent`.
* :mod:`baselines.factory`: agents by name (:func:`make_agent`, ``"mcts:simulations=400"``).
* :mod:`baselines.games`: each game's scripted agents from its source paper, value function, priors and
  playouts.
* :mod:`baselines.search`: MCTS, RHEA, alpha-beta and Rinascimento's MCTS for every game, and their evaluators.
* :mod:`baselines.learners`: tabular Q-learning, SB3 (PPO, DQN) and AlphaZero.
* :mod:`baselines.arena`: matches, tournaments, their results and logs.
* :mod:`baselines.tuning`: NTBEA and the tuning of agents' settings.
* :mod:`baselines.params`, :mod:`baselines.progress`, :mod:`baselines.settings`: agent settings from text,
  progress bars, and script arguments turned into settings.

The packages form a ladder (``docs/design.md`` §1): kernel (agent, factory, params, ...) → search → games → arena →
learners → tuning → apps; each imports only its own rung and those below. The factory is a registry that each family
fills when it is imported, so this package imports every family (search, games, learners): importing any
``baselines`` module runs this file first, and ``make_agent`` always knows every agent. Importing ``baselines`` also
registers the scripted agents as opponents of the single-agent environments
(:func:`baselines.games.register_opponents`).
"""

from baselines import learners, search  # noqa: F401  (importing a family registers its agents)
from baselines.agent import Agent, BaseAgent, RandomAgent, SeedLike
from baselines.arena import (
    AgentStats,
    GameRecord,
    IllegalActionError,
    TournamentResult,
    play_game,
    tournament,
    tournament_schedule,
)
from baselines.factory import agent_choices, make_agent
from baselines.games import register_opponents

register_opponents()

__all__ = [
    "Agent",
    "AgentStats",
    "BaseAgent",
    "GameRecord",
    "IllegalActionError",
    "RandomAgent",
    "SeedLike",
    "TournamentResult",
    "agent_choices",
    "make_agent",
    "play_game",
    "tournament",
    "tournament_schedule",
]
