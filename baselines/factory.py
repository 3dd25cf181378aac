"""Agents by name: ``make_agent("heuristic", "quoridor", seed=0)``.

A spec is an agent name, optionally followed by ``:key=value`` settings passed to the agent's constructor:
``"mcts:simulations=400:evaluator=heuristic"``, ``"rhea:sequence_length=5"``. Values are read as ``true``/
``false``, ``none``, integers, floats, or else text. ``"sb3:<path/to/model.zip>"`` names a trained model,
``"rllib:<checkpoint or run folder>"`` a module trained by ``scripts/train_rllib.py``.

The names: ``random`` (:mod:`baselines.agent`), the search agents ``mcts``, ``rhea`` and ``alphabeta`` (two-player
games only) (:mod:`baselines.search`), each game's scripted agents (:mod:`baselines.games`), and the trained agents
``alphazero``, ``tabular_q``, ``sb3:`` and ``rllib:`` (:mod:`baselines.learners`); ``alphazero:pretrained``,
``ppo:pretrained`` and ``dqn:pretrained`` play the models shipped with the package for the game's config.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from baselines.agent import Agent, BaseAgent, RandomAgent, SeedLike
from baselines.games import scripted_agents

GENERIC_AGENTS: dict[str, type[BaseAgent]] = {"random": RandomAgent}
"""Agents that play every game."""
PLANNERS: dict[str, str] = {
    "mcts": "baselines.search.mcts:MCTSAgent",
    "rhea": "baselines.search.rhea:RHEAAgent",
    "alphabeta": "baselines.search.alphabeta_agent:AlphaBetaAgent",
}
"""Search agents that play through the forward model (``alphabeta``: two-player games with a heuristic value),
imported when first asked for."""
TRAINED: dict[str, str] = {
    "alphazero": "baselines.learners.alphazero.agent:AlphaZeroAgent",
    "tabular_q": "baselines.learners.tabular_q:TabularQAgent",
    "qlnn": "baselines.learners.qlnn:QLNNAgent",
    "ppo": "baselines.learners.sb3.pretrained:PretrainedPPOAgent",
    "dqn": "baselines.learners.sb3.pretrained:PretrainedDQNAgent",
}
"""Agents that play every game from a file they were trained into (``alphazero:checkpoint=<path.pt>``, needs
torch; ``tabular_q:table=<path.npz>``; ``ppo:pretrained`` and ``dqn:pretrained``, the SB3 models shipped with the
package, need SB3); imported only when asked for and not listed by :func:`agent_choices`."""
PRETRAINED_SETTING: dict[str, str] = {"alphazero": "checkpoint", "ppo": "model", "dqn": "model"}
"""Trained agents that play a model shipped with the package when written ``<name>:pretrained``: the setting
that ``pretrained`` stands for."""
SB3_PREFIX = "sb3:"
"""``"sb3:<path/to/model.zip>"`` names a trained SB3 model (``baselines.learners.sb3.SB3Agent``; needs torch, SB3)."""
RLLIB_PREFIX = "rllib:"
"""``"rllib:<checkpoint or run folder>"`` names a module trained by ``scripts/train_rllib.py``
(``baselines.learners.rllib.agent.RLlibAgent``; needs ray[rllib])."""


def agent_choices(game_name: str) -> dict[str, type[BaseAgent]]:
    """Every agent name ``make_agent`` accepts for ``game_name``, with its class."""
    planners = {name: _import_class(path) for name, path in PLANNERS.items()}
    return {**GENERIC_AGENTS, **planners, **scripted_agents(game_name)}


def _import_class(path: str) -> type[BaseAgent]:
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def parse_value(text: str) -> Any:
    """A setting's value: ``true``/``false``, ``none``, an int, a float, or the text itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name:key=value:..."`` as ``(name, settings)``; ``ValueError`` for a malformed or repeated setting."""
    name, *parts = spec.strip().split(":")
    settings: dict[str, Any] = {}
    for part in parts:
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise ValueError(f"agent spec {spec!r}: settings are written ':key=value', got {part!r}")
        if key in settings:
            raise ValueError(f"agent spec {spec!r}: setting {key!r} is given twice")
        settings[key] = parse_value(value)
    return name.strip(), settings


def format_spec(name: str, settings: Mapping[str, Any]) -> str:
    """The spec of agent ``name`` with ``settings`` (the inverse of :func:`parse_spec`)."""
    parts = [f"{key}={str(value).lower() if isinstance(value, bool) else value}" for key, value in settings.items()]
    return ":".join([name, *parts])


def expand_pretrained(spec: str) -> str:
    """``alphazero:pretrained[:...]`` written out as ``alphazero:checkpoint=pretrained[:...]`` (``ppo:pretrained``
    and ``dqn:pretrained`` as ``...:model=pretrained``; see :data:`PRETRAINED_SETTING`)."""
    name, *parts = spec.split(":")
    setting = PRETRAINED_SETTING.get(name.strip())
    if setting is not None and parts and parts[0].strip() == "pretrained":
        return ":".join([name, f"{setting}=pretrained", *parts[1:]])
    return spec


def make_agent(spec: str, game_name: str, seed: SeedLike = None, settings: Mapping[str, Any] | None = None) -> Agent:
    """Build the agent ``spec`` names for game ``game_name``.

    Args:
        spec: an agent name: ``"random"``, ``"mcts"`` and ``"rhea"`` for every game, plus the game's scripted
            agents (``"path"`` and ``"heuristic"`` for Quoridor), optionally with ``:key=value`` settings;
            ``"alphazero:checkpoint=<path.pt>"`` for an AlphaZero checkpoint, ``"alphazero:pretrained"`` for the
            network shipped for the game's config; ``"ppo:pretrained"`` (``"dqn:pretrained"``) for the SB3 model
            shipped for the game's config; ``"sb3:<path/to/model.zip>"`` for a trained SB3 model; or
            ``"rllib:<checkpoint or run folder>"`` for an RLlib module of ``scripts/train_rllib.py``. The agent's
            name is the whole spec.
        game_name: the registered name of the game.
        seed: the agent's seed (int, generator or ``None``).
        settings: more settings, overriding those written in ``spec`` (the agent's name then lists them all).

    Raises:
        ValueError: ``spec`` is not an agent for this game (the message lists the choices), a setting the agent
            does not take or does not allow, or a model trained for another game.
        FileNotFoundError: an ``sb3:`` model, an ``rllib:`` checkpoint or an AlphaZero checkpoint does not exist.
    """
    text = spec.strip()
    if text.startswith(SB3_PREFIX):
        from baselines.learners.sb3.agent import SB3Agent

        return SB3Agent.load(text[len(SB3_PREFIX) :], seed=seed, name=text, game_name=game_name)
    if text.startswith(RLLIB_PREFIX):
        from baselines.learners.rllib.agent import RLlibAgent

        return RLlibAgent.load(text[len(RLLIB_PREFIX) :], seed=seed, name=text, game_name=game_name)
    name, written = parse_spec(expand_pretrained(text))
    merged = {**written, **(settings or {})}
    choices = {name: _import_class(TRAINED[name])} if name in TRAINED else agent_choices(game_name)
    if name not in choices:
        raise ValueError(f"unknown agent {name!r} for game {game_name!r}; choices: {sorted([*choices, *TRAINED])}")
    label = format_spec(name, merged) if settings else text
    try:
        return choices[name](seed, name=label, **merged)
    except TypeError as error:
        if not merged:
            raise
        raise ValueError(f"agent {name!r} does not take the settings {sorted(merged)}: {error}") from error
