"""Baseline agents for boardenvs games, and the arena that plays them against each other (DESIGN.md §4)."""

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
