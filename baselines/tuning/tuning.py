"""Tuning an agent's hyper-parameters with NTBEA against an opponent, as seed 002 tunes RHEA.

Each fitness evaluation is ``games_per_evaluation`` games of the candidate against the opponent (seats rotate
between evaluations; :class:`~baselines.tuning.game_fitness.GameFitness`); the fitness is the candidate's result (1 win,
1/2 shared first place, 0 loss). Search spaces (:func:`search_space`): ``rhea`` (BMRH's space from
``rinascimento_agents.csv``), the space of each plan value a game registered with RHEA (``ef``: Splendor's
event-value weights ``ef_w<i>`` over -1, -0.8, ..., 1, sized by the agent's ``ef_mapping``/``ef_degree``/
``ef_perspective``; :mod:`baselines.games.splendor.plan_values`), ``rhea+<value>`` (both, ``rhea+ef``), or a JSON file
``{"name": [values...]}``. Parameters fixed in the agent spec are removed from the space. :func:`tune` runs the
search and optionally plays the recommendation against the opponent again (validation).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.arena.ratings import wilson_interval
from baselines.distributed import check_backend
from baselines.factory import format_spec, make_agent, parse_spec
from baselines.search.rhea_params import PLAN_VALUES, RHEA_SEARCH_SPACE, parse_rhea_params
from baselines.settings import COUNT, COUNT_OR_ZERO, WORKERS, Range, setting
from baselines.tuning.game_fitness import GameFitness, head_to_head
from baselines.tuning.ntbea import NTBEA, NTBEAResult, check_space


def named_spaces() -> tuple[str, ...]:
    """Search spaces by name (or give a JSON file): ``rhea``, each registered plan value's own space (``ef``), and
    both together (``rhea+ef``)."""
    tuned = [name for name, kind in PLAN_VALUES.items() if kind.space is not None]
    return ("rhea", *tuned, *(f"rhea+{name}" for name in tuned))


@dataclass(frozen=True)
class TuneSettings:
    """One tuning run of :func:`tune` (the fields are ``scripts/tune_ntbea.py``'s options)."""

    agent: str = "rhea"
    """The tuned agent: rhea[:key=value:...]; the fixed parameters given here are not tuned."""
    space: str = "rhea"
    """Search space: rhea, ef, rhea+ef, or a JSON file name -> list of values."""
    opponent: str = "rhea:preset=bmrh_r1"
    """Opponent: rhea[:key=value:...] or an agent name of baselines.factory (random, osla, buyer, heuristic...)."""
    evaluations: int = setting(200, COUNT)
    """NTBEA budget: fitness evaluations (>= 1)."""
    games_per_evaluation: int = setting(1, COUNT)
    """Games per fitness evaluation (>= 1)."""
    k: float = setting(1.0, Range(0.0, 1e6))
    """UCB exploration weight (seed 002: 1)."""
    epsilon: float = setting(0.7, Range(0.0, 1e6))
    """Added to the arm counts of the exploration bonus (seed 002: 0.7)."""
    neighbours: int = setting(50, Range(1, 10**6))
    """Mutants drawn per NTBEA iteration (>= 1)."""
    batch_size: int = setting(2, Range(1, 10**4))
    """Mutants evaluated per iteration (the parallelism; results depend on it, not on --workers)."""
    workers: int = setting(1, WORKERS)
    """Processes (or Ray actors with --backend ray) evaluating in parallel (1 = inline)."""
    backend: str = "local"
    """Where the evaluations run: local (processes of this machine) or ray (Ray actors); results do not depend on
    it."""
    ray_address: str = ""
    """Ray cluster to join with --backend ray (host:port); empty: start a local Ray."""
    validate_games: int = setting(0, COUNT_OR_ZERO)
    """After tuning, games of the recommendation against the opponent (0 = skip)."""
    seed: int = 0
    """Seed of the search and of every game."""
    progress: bool = True
    """Show progress bars."""

    def __post_init__(self) -> None:
        """``ValueError`` for budgets below 1 (the other values are checked by NTBEA and the agents)."""
        for name in ("evaluations", "games_per_evaluation", "workers", "batch_size", "neighbours"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.validate_games < 0:
            raise ValueError(f"validate_games must be >= 0, got {self.validate_games}")
        check_backend(self.backend, self.ray_address)


@dataclass
class TuneOutcome:
    """What :func:`tune` returns: the NTBEA result, the tuned agent's spec and the validation games."""

    result: NTBEAResult
    tuned_spec: str
    validation: list[float]

    def validation_summary(self) -> tuple[float, float, float, int]:
        """Win rate (draws count 1/2), Wilson 95% interval and number of validation games."""
        games = len(self.validation)
        points = sum(self.validation)
        low, high = wilson_interval(points, games)
        return (points / games if games else 0.0), low, high, games


def search_space(name: str, agent: str) -> dict[str, list[Any]]:
    """The search space called ``name`` for ``agent`` (without the parameters the agent spec fixes)."""
    kind, fixed = parse_spec(agent)
    if name not in named_spaces():
        space = check_space(read_space_file(name))
        return {key: values for key, values in space.items() if key not in fixed}
    if kind != "rhea":
        raise ValueError(f"the named spaces {list(named_spaces())} tune the rhea agent, not {kind!r}")
    space: dict[str, list[Any]] = {}
    parts = name.split("+")
    if "rhea" in parts:
        space.update({key: list(values) for key, values in RHEA_SEARCH_SPACE.items()})
    for value in (part for part in parts if part != "rhea"):
        space.update(plan_value_space(name, value, fixed, agent))
    return {key: values for key, values in space.items() if key not in fixed}


def plan_value_space(name: str, value: str, fixed: dict[str, Any], agent: str) -> dict[str, list[Any]]:
    """The space of the registered plan value ``value``'s own settings, for the rhea agent ``agent`` (whose spec
    fixes ``fixed``); ``ValueError`` unless the agent plays that value."""
    params, _ = parse_rhea_params(**fixed)
    plan_value = PLAN_VALUES[value]
    if params.value != value or plan_value.space is None:
        raise ValueError(f"space {name!r} tunes {plan_value.description}: give the agent value={value}, got {agent!r}")
    return plan_value.space(dict(params.value_settings))


def read_space_file(name: str) -> Any:
    """The JSON object in the file ``name``; a ``ValueError`` starting ``space:`` saying what is wrong (no such
    file, a file that is not UTF-8 JSON, with the JSON error, or JSON that is not an object)."""
    path = Path(name)
    if not path.is_file():
        raise ValueError(f"space must be one of {list(named_spaces())} or a JSON file, got {name!r}")
    try:
        space = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"space: {name!r} is not a JSON file: {error}") from None
    if not isinstance(space, dict):
        raise ValueError(f"space: {name!r} must hold a JSON object name -> list of values, got {type(space).__name__}")
    return space


def tune(game_name: str, config: Mapping[str, Any], settings: TuneSettings) -> TuneOutcome:
    """Tune ``settings.agent`` on game ``game_name`` (with ``config``) against ``settings.opponent``."""
    s = settings
    items = tuple(config.items())
    fitness = GameFitness(game_name, s.agent, s.opponent, items, s.games_per_evaluation)
    space = search_space(s.space, s.agent)
    _check_agents(fitness, space)
    ntbea = NTBEA(space, s.k, s.epsilon, s.neighbours, s.batch_size, seed=s.seed)
    distributed = {"backend": s.backend, "ray_address": s.ray_address or None}
    result = ntbea.run(fitness, s.evaluations, workers=s.workers, progress=s.progress, **distributed)
    kind, fixed = parse_spec(s.agent)
    tuned_spec = format_spec(kind, {**fixed, **result.best})
    validation: list[float] = []
    if s.validate_games:
        check = GameFitness(game_name, tuned_spec, s.opponent, items)
        validation = head_to_head(check, s.validate_games, s.seed + 1, s.workers, s.progress, "validate", **distributed)
    return TuneOutcome(result, tuned_spec, validation)


def _check_agents(fitness: GameFitness, space: dict[str, list[Any]]) -> None:
    """Build the candidate with the first value of every parameter and the opponent, to fail fast."""
    make_agent(fitness.candidate, fitness.game, 0, {key: values[0] for key, values in space.items()})
    make_agent(fitness.opponent, fitness.game, 0)
