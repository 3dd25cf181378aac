"""Agents by name: ``make_agent("heuristic", "quoridor", seed=0)``."""

from __future__ import annotations

from baselines.agent import Agent, BaseAgent, RandomAgent, SeedLike
from baselines.heuristics import heuristic_agents

GENERIC_AGENTS: dict[str, type[BaseAgent]] = {"random": RandomAgent}
"""Agents that play every game."""


def agent_choices(game_name: str) -> dict[str, type[BaseAgent]]:
    """Every agent name ``make_agent`` accepts for ``game_name``, with its class."""
    return {**GENERIC_AGENTS, **heuristic_agents(game_name)}


def make_agent(spec: str, game_name: str, seed: SeedLike = None) -> Agent:
    """Build the agent called ``spec`` for game ``game_name``.

    Args:
        spec: an agent name: ``"random"`` for every game, plus the game's scripted agents
            (``"path"`` and ``"heuristic"`` for Quoridor).
        game_name: the registered name of the game.
        seed: the agent's seed (int, generator or ``None``).

    Raises:
        ValueError: ``spec`` is not an agent for this game; the message lists the choices.
    """
    choices = agent_choices(game_name)
    name = spec.strip()
    if name not in choices:
        raise ValueError(f"unknown agent {spec!r} for game {game_name!r}; choices: {sorted(choices)}")
    return choices[name](seed, name=name)
