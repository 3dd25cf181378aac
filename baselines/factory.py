"""Agents by name: ``make_agent("heuristic", "quoridor", seed=0)``.

A spec is an agent name, optionally followed by ``:key=value`` settings passed to the agent's constructor:
``"mcts:simulations=400:evaluator=heuristic"``, ``"rhea:sequence_length=5"``. Values are read as ``true``/
``false``, ``none``, integers, floats, or else text. ``"sb3:<path/to/model.pt>"`` names a trained SB3 model in the safe
format (tensors and JSON, loaded without running code), ``"rllib:unsafe:<checkpoint or run folder>"`` a module trained
by ``scripts/train_rllib.py``. A file that is unpickled to load it (an SB3 zip, any RLlib checkpoint) can run any
code its author put in it, so it loads only with ``unsafe:`` written after the prefix (``"sb3:unsafe:<model.zip>"``):
say so only for files you trust.

The names come from a registry that each family of agents fills when it is imported (:func:`register_agent`,
:func:`register_prefix`; importing any ``baselines`` module imports them all, so the registry is always full):
``random`` (here), the search agents ``mcts``, ``rhea`` and ``alphabeta`` (two-player games only)
(:mod:`baselines.search`), each game's scripted agents (:mod:`baselines.games`), and the trained agents
``alphazero``, ``tabular_q``, ``qlnn``, ``sb3:`` and ``rllib:`` (:mod:`baselines.learners`); ``alphazero:pretrained``,
``ppo:pretrained`` and ``dqn:pretrained`` play the models shipped with the package for the game's config. This
module imports no family: it sits at the bottom of the ladder of ``docs/design.md`` §1.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from baselines.agent import Agent, BaseAgent, RandomAgent, SeedLike, check_seed
from baselines.extras import missing_extra
from boardenvs.registry import list_games

AgentSource = type[BaseAgent] | Callable[[], type[BaseAgent]]
"""An agent class, or a loader: a zero-argument function returning the class (it imports what the agent needs, such
as torch, only when the agent is asked for)."""
PrefixBuilder = Callable[[str, str, SeedLike], Agent]
"""``build(spec, game_name, seed) -> Agent`` for a spec that starts with a registered prefix (``"sb3:<path>"``)."""


@dataclass
class AgentEntry:
    """One registered agent name: where its class comes from, the games it plays and how it is offered."""

    source: AgentSource
    games: tuple[str, ...] | None
    listed: bool
    pretrained_setting: str | None

    def plays(self, game_name: str) -> bool:
        """Whether the agent plays ``game_name``."""
        return self.games is None or game_name in self.games

    def agent_class(self) -> type[BaseAgent]:
        """The agent's class (a loader runs once, then its class is kept)."""
        if not isinstance(self.source, type):
            self.source = self.source()
        return self.source


_AGENTS: dict[str, list[AgentEntry]] = {}
"""Agent name -> its registrations (one per set of games; a name may mean another class in another game)."""
_PREFIXES: dict[str, PrefixBuilder] = {}
"""Spec prefix (``"sb3:"``) -> the function that builds the agent such a spec names."""


def register_agent(
    name: str,
    agent: AgentSource,
    *,
    games: tuple[str, ...] | None = None,
    listed: bool = True,
    pretrained_setting: str | None = None,
) -> None:
    """Make ``make_agent(name, game)`` build ``agent`` for ``games`` (``None``: every game).

    Args:
        name: the agent's name in specs.
        agent: the agent class, or a zero-argument loader returning it (for agents that need an optional extra).
        games: the game names it plays, or ``None`` for every game.
        listed: whether :func:`agent_choices` offers it (``False`` for trained agents that need a file).
        pretrained_setting: the setting that ``<name>:pretrained`` stands for (``"checkpoint"`` for
            ``alphazero``), or ``None``.

    Raises:
        ValueError: ``name`` is already registered for one of ``games`` with another agent.
    """
    entries = _AGENTS.setdefault(name, [])
    for entry in entries:
        if entry.source is agent and entry.games == games:
            return
        if games is None or entry.games is None or set(games) & set(entry.games):
            raise ValueError(f"agent {name!r} is already registered for {entry.games or 'every game'}")
    entries.append(AgentEntry(agent, games, listed, pretrained_setting))


def register_prefix(prefix: str, build: PrefixBuilder) -> None:
    """Make every spec that starts with ``prefix`` (``"sb3:"``) an agent built by ``build(spec, game_name, seed)``."""
    _PREFIXES[prefix] = build


def _entry(name: str, game_name: str) -> AgentEntry | None:
    """The registration of agent ``name`` for ``game_name``, if any."""
    return next((entry for entry in _AGENTS.get(name, ()) if entry.plays(game_name)), None)


def is_registered(name: str, game_name: str) -> bool:
    """Whether ``name`` is an agent for ``game_name``, offered by :func:`agent_choices` or not (trained agents that
    play from a file: ``alphazero``, ``tabular_q``, ...); checks names without importing or building anything."""
    return _entry(name, game_name) is not None


def registered_agents() -> list[tuple[str, tuple[str, ...] | None, type[BaseAgent]]]:
    """``(name, games or None for every game, class)`` of every registration, in registration order (a loader runs:
    it may import torch)."""
    return [(name, entry.games, entry.agent_class()) for name, entries in _AGENTS.items() for entry in entries]


def _unlisted(game_name: str) -> list[str]:
    """The names of the agents for ``game_name`` that :func:`agent_choices` does not offer."""
    return [name for name in _AGENTS if (entry := _entry(name, game_name)) is not None and not entry.listed]


register_agent("random", RandomAgent)


def build_class_agent(spec: str, game_name: str, seed: SeedLike) -> Agent:
    """The agent of a :data:`CLASS_PREFIX` spec; ``ValueError`` naming the spec for a malformed one, a module that
    cannot be imported, or a name that is not an agent class."""
    del game_name  # the class decides which games it plays
    path, _, written = spec[len(CLASS_PREFIX) :].partition(":")
    module_name, dot, class_name = path.strip().rpartition(".")
    if not dot or not module_name or not class_name.isidentifier():
        raise ValueError(
            f"agent spec {spec!r}: write class:<module>.<Class>[:key=value...], e.g. class:my_agents.Greedy"
        )
    settings = parse_spec(f"{class_name}:{written}")[1] if written else {}
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is None or not (module_name + ".").startswith(error.name + "."):
            raise
        raise ValueError(f"agent spec {spec!r}: no module {module_name!r} on the Python path") from None
    agent_class = getattr(module, class_name, None)
    if not isinstance(agent_class, type) or not callable(getattr(agent_class, "act", None)):
        raise ValueError(f"agent spec {spec!r}: {module_name}.{class_name} is not an agent class (one with act())")
    try:
        return agent_class(seed, name=spec.strip(), **settings)
    except TypeError as error:
        raise ValueError(f"agent spec {spec!r}: {module_name}.{class_name}(seed, name=..., **{settings}) failed: "
                         f"{error}") from error  # fmt: skip


SB3_PREFIX = "sb3:"
"""``"sb3:<path/to/model.pt>"`` names a trained SB3 model's safe files, ``<model>.pt`` with ``<model>.json`` (the path
may also name the ``.json``, their stem or the run's ``.zip`` beside them, which is not opened); loading them runs
no code (``baselines.learners.sb3.SB3Agent``; needs torch, SB3). ``"sb3:unsafe:<model.zip>"`` loads an SB3 zip itself,
unpickling it (see :data:`UNSAFE`); ``python -m scripts.convert_sb3`` turns a trusted zip into safe files."""
RLLIB_PREFIX = "rllib:"
"""``"rllib:unsafe:<checkpoint or run folder>"`` names a module trained by ``scripts/train_rllib.py``
(``baselines.learners.rllib.agent.RLlibAgent``; needs ray[rllib]). Ray unpickles a checkpoint to load it, so
``"rllib:<path>"`` without ``unsafe:`` is refused (see :data:`UNSAFE`)."""
CLASS_PREFIX = "class:"
"""``"class:<module>.<Class>"`` (optionally ``:key=value`` settings) names your own agent class: the module is
imported (it must be importable where the agent is built, a worker process included: on the Python path or
installed) and the agent is ``Class(seed, name=spec, **settings)``, as every registered agent is built (subclass
:class:`~baselines.agent.BaseAgent`). It runs the module's code, so the arena refuses it from a browser."""
UNSAFE = "unsafe:"
"""Written after ``sb3:`` or ``rllib:``, it loads a file that is unpickled, which runs any code its author put in it:
only for files you trust (the spec stays an ``sb3:``/``rllib:`` spec, which the arena lets a browser choose only when
its server allowed that exact spec)."""
register_prefix(CLASS_PREFIX, build_class_agent)


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
    """Every agent name ``make_agent`` accepts for ``game_name``, with its class (trained agents that need a file
    are accepted but not listed)."""
    entries = ((name, _entry(name, game_name)) for name in _AGENTS)
    return {name: entry.agent_class() for name, entry in entries if entry is not None and entry.listed}


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
    and ``dqn:pretrained`` as ``...:model=pretrained``: the ``pretrained_setting`` each registered)."""
    name, *parts = spec.split(":")
    setting = next((e.pretrained_setting for e in _AGENTS.get(name.strip(), ()) if e.pretrained_setting), None)
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
            unpickles it); ``"class:<module>.<Class>"`` for your own agent class (:data:`CLASS_PREFIX`). The
            agent's name is the whole spec.
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
    for prefix, build in _PREFIXES.items():
        if text.startswith(prefix):
            return build(text, game_name, seed)
    name, written = parse_spec(expand_pretrained(text))
    merged = {**written, **(settings or {})}
    entry = _entry(name, game_name)
    if entry is None:
        choices = sorted([*agent_choices(game_name), *_unlisted(game_name)])
        raise ValueError(f"unknown agent {name!r} for game {game_name!r}; choices: {choices}")
    label = format_spec(name, merged) if settings else text
    try:
        return entry.agent_class()(seed, name=label, **merged)
    except TypeError as error:
        if not merged:
            raise
        raise ValueError(f"agent {name!r} does not take the settings {sorted(merged)}: {error}") from error
