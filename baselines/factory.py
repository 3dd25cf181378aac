"""Agents by name: ``make_agent("heuristic", "quoridor", seed=0)``."""

from __future__ import annotations

from baselines.agent import Agent, BaseAgent, RandomAgent, SeedLike
from baselines.heuristics import heuristic_agents

GENERIC_AGENTS: dict[str, type[BaseAgent]] = {"random": RandomAgent}
"""Agents that play every game."""
SB3_PREFIX = "sb3:"
"""``"sb3:<path/to/model.zip>"`` names a trained SB3 model (``baselines.sb3.SB3Agent``; needs torch and SB3)."""


def agent_choices(game_name: str) -> dict[str, type[BaseAgent]]:
    """Every agent name ``make_agent`` accepts for ``game_name``, with its class."""
    return {**GENERIC_AGENTS, **heuristic_agents(game_name)}


def make_agent(spec: str, game_name: str, seed: SeedLike = None) -> Agent:
    """Build the agent called ``spec`` for game ``game_name``.

    Args:
        spec: an agent name: ``"random"`` for every game, plus the game's scripted agents
            (``"path"`` and ``"heuristic"`` for Quoridor), or ``"sb3:<path/to/model.zip>"`` for a trained model.
        game_name: the registered name of the game.
        seed: the agent's seed (int, generator or ``None``).

    Raises:
        ValueError: ``spec`` is not an agent for this game (the message lists the choices), or a model trained
            for another game.
        FileNotFoundError: an ``sb3:`` model file does not exist.
    """
    name = spec.strip()
    if name.startswith(SB3_PREFIX):
        from baselines.sb3.agent import SB3Agent

        return SB3Agent.load(name[len(SB3_PREFIX) :], seed=seed, name=name, game_name=game_name)
    choices = agent_choices(game_name)
    if name not in choices:
        raise ValueError(f"unknown agent {spec!r} for game {game_name!r}; choices: {sorted(choices)}")
    return choices[name](seed, name=name)
