"""Agents by name: ``make_agent("heuristic", "quoridor", seed=0)``.

A spec is an agent name, optionally followed by ``:key=value`` settings passed to the agent's constructor:
``"mcts:simulations=400:evaluator=heuristic"``, ``"rhea:sequence_length=5"``. Values are read as ``true``/
``false``, ``none``, integers, floats, or else text. ``"sb3:<path/to/model.pt>"`` names a trained SB3 model in the safe
format (tensors and JSON, loaded without running code), ``"rllib:unsafe:<checkpoint or run folder>"`` a module trained
by ``scripts/train_rllib.py``. A file that is unpickled to load it (an SB3 zip, any RLlib checkpoint) can run any
code its author put in it, so it loads only with ``unsafe:`` written after the prefix (``"sb3:unsafe:<model.zip>"``):
say so only for files you trust.

The names: ``random`` (:mod:`baselines.agent`), the search agents ``mcts``, ``rhea`` and ``alphabeta`` (two-player
games only) (:mod:`baselines.search`), each game's scripted agents (:mod:`baselines.games`), and the trained agents
``alphazero``, ``tabular_q``, ``sb3:`` and ``rllib:`` (:mod:`baselines.learners`); ``alphazero:pretrained``,
``ppo:pretrained`` and ``dqn:pretrained`` play the models shipped with the package for the game's config.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from baselines.agent import Agent, BaseAgent, RandomAgent, SeedLike, check_seed
from baselines.extras import missing_extra
from baselines.games import scripted_agents
from boardenvs.registry import list_games

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
"""``"sb3:<path/to/model.pt>"`` names a trained SB3 model's safe files, ``<model>.pt`` with ``<model>.json`` (the path
may also name the ``.json``, their stem or the run's ``.zip`` beside them, which is not opened); loading them runs
no code (``baselines.learners.sb3.SB3Agent``; needs torch, SB3). ``"sb3:unsafe:<model.zip>"`` loads an SB3 zip itself,
unpickling it (see :data:`UNSAFE`); ``python -m scripts.convert_sb3`` turns a trusted zip into safe files."""
RLLIB_PREFIX = "rllib:"
"""``"rllib:unsafe:<checkpoint or run folder>"`` names a module trained by ``scripts/train_rllib.py``
(``baselines.learners.rllib.agent.RLlibAgent``; needs ray[rllib]). Ray unpickles a checkpoint to load it, so
``"rllib:<path>"`` without ``unsafe:`` is refused (see :data:`UNSAFE`)."""
UNSAFE = "unsafe:"
"""Written after ``sb3:`` or ``rllib:``, it loads a file that is unpickled, which runs any code its author put in it:
only for files you trust (the spec stays an ``sb3:``/``rllib:`` spec, which the arena lets a browser choose only when
its server allowed that exact spec)."""


def model_path_of(spec: str, prefix: str) -> tuple[str, bool]:
    """The path ``spec`` (``"<prefix>[unsafe:]<path>"``) names and whether ``unsafe:`` trusts it; ``ValueError`` for
    a spec that names no path."""
    rest = spec[len(prefix) :]
    trusted = rest.startswith(UNSAFE)
    path = (rest[len(UNSAFE) :] if trusted else rest).strip()
    if not path:
        raise ValueError(f"agent spec {spec!r} names no model: write '{prefix}<path>' (or '{prefix}{UNSAFE}<path>')")
    return path, trusted


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


def check_spec(spec: Any) -> str:
    """``spec`` stripped; ``TypeError`` naming ``spec`` unless it is a str, ``ValueError`` if it is empty."""
    if not isinstance(spec, str):
        raise TypeError(f"spec must be an agent spec str such as 'mcts:simulations=400', got {type(spec).__name__}")
    if not spec.strip():
        raise ValueError("spec must name an agent (random, mcts, the game's scripted agents, ...), got ''")
    return spec.strip()


def check_game_name(game_name: Any) -> str:
    """``game_name`` if it names a registered game; ``TypeError``/``ValueError`` naming ``game_name`` (and listing
    the games) otherwise."""
    if not isinstance(game_name, str):
        raise TypeError(f"game_name must be a str, got {type(game_name).__name__}")
    if game_name not in list_games():
        raise ValueError(f"game_name: unknown game {game_name!r}; games: {list_games()}")
    return game_name


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
            shipped for the game's config; ``"sb3:<path/to/model.pt>"`` for a trained SB3 model in the safe format
            (``"sb3:unsafe:<model.zip>"`` for an SB3 zip you trust: it is unpickled); or
            ``"rllib:unsafe:<checkpoint or run folder>"`` for an RLlib module of ``scripts/train_rllib.py`` (ray
            unpickles it). The agent's name is the whole spec.
        game_name: the registered name of the game.
        seed: the agent's seed (int, generator or ``None``).
        settings: more settings, overriding those written in ``spec`` (the agent's name then lists them all).

    Raises:
        TypeError: ``spec`` or ``game_name`` is not a str.
        ImportError: the agent needs an optional dependency that is not installed (the message names the extra).
        ValueError: ``game_name`` is not a registered game (the message lists them), ``spec`` is not an agent for
            this game (the message lists the choices), a setting the agent does not take or does not allow (the
            agent's own check names the setting and its range), or a model trained for another game.
        FileNotFoundError: an ``sb3:`` model, an ``rllib:`` checkpoint or an AlphaZero checkpoint does not exist.
        UnsafeModelError, UnsafeCheckpointError (``ValueError``): an ``sb3:`` SB3 zip without safe files or an
            ``rllib:`` checkpoint, without ``unsafe:`` (the message says why and how to go on).
    """
    check_game_name(game_name)
    check_seed(seed)
    text = check_spec(spec)
    try:
        return _build_agent(text, game_name, seed, settings)
    except ModuleNotFoundError as error:
        hint = missing_extra(error, f"the agent {text!r}")
        if hint is None:
            raise
        raise hint from error


def _build_agent(text: str, game_name: str, seed: SeedLike, settings: Mapping[str, Any] | None) -> Agent:
    if text.startswith(SB3_PREFIX):
        from baselines.learners.sb3.agent import SB3Agent

        path, trusted = model_path_of(text, SB3_PREFIX)
        return SB3Agent.load(path, seed=seed, name=text, game_name=game_name, trusted=trusted)
    if text.startswith(RLLIB_PREFIX):
        from baselines.learners.rllib.agent import RLlibAgent, check_trusted

        path, trusted = model_path_of(text, RLLIB_PREFIX)
        check_trusted(path, trusted)
        return RLlibAgent.load(path, seed=seed, name=text, game_name=game_name)
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
