"""RHEA's settings: the hyper-parameters of BMRH and SRH, their presets, their parsing, and the values of plans.

:func:`parse_rhea_params` turns keyword values (ints, floats, bools or strings, as written in ``"key=value"`` specs)
into a validated :class:`RHEAParams`; a bad value raises ``ValueError`` naming the parameter and what it allows.
See :mod:`baselines.search.rhea` for what each parameter does.

**Plan values.** RHEA values a played plan with the function it is given: one of its own
(:data:`BUILTIN_VALUES`), any callable ``value(game, root, end, player, events) -> float``, or a value a game
registered by name with :func:`register_plan_value`, together with the settings that value reads (Splendor's
``"ef"``, the event-value functions of seed 002, with ``ef_mapping``, ``ef_degree``, ... and single weights
``ef_w<i>``; :mod:`baselines.games.splendor.plan_values`). Search never imports a game: the game hands its value
over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

import numpy as np

from baselines.agent import MAX_SECONDS
from baselines.params import bool_param, choice_param, float_param, int_param
from boardenvs.core import Game

OPPONENT_MODELS = ("nothing", "random", "osla")
"""Opponent models, in Rinascimento's numbering 0, 1, 2."""
MUTATION_STYLES = (0, 1, 2, 3)
"""0 regenerate, 1 branching + uniform point, 2 branching + exponential-decay point, 3 branching + Gaussian."""
GENES = ("actions", "seeds")
"""What a gene is: an action id (BMRH) or a seed of the action sampler (SRH)."""
BUILTIN_VALUES = ("score_diff", "score")
"""The plan values RHEA has itself (games add theirs with :func:`register_plan_value`)."""
BUDGET_UNITS = ("actions", "seconds")
DETERMINIZE = ("evaluation", "act")
PAPER_BUDGET = 1000
"""Simulated actions per decision in seed 002 (Rinascimento's ``ActionsBudget(1000)``)."""

RHEA_SEARCH_SPACE: dict[str, list[Any]] = {
    "shift_buffer": [False, True],
    "sequence_length": [1, 2, 3, 5, 10, 20],
    "evaluations": [20, 50, 100, 200],
    "flip_at_least_one": [False, True],
    "mutation_style": [0, 1, 2],
    "opponent_model": ["nothing", "random", "osla"],
    "opponent_budget_share": [0.005, 0.01, 0.02, 0.05],
    "exponential_decay": [0.5, 0.7, 0.8, 0.9],
    "gaussian_mean": [0.0, 0.1, 0.3, 0.5, 0.75],
    "gaussian_std": [0.5, 1.0, 2.0],
}
"""BMRH's NTBEA search space (``rinascimento_agents.csv``; mutation style 3 exists in code, not in the space)."""
SRH_SEARCH_SPACE: dict[str, list[Any]] = {
    "flip_at_least_one": [False, True],
    "mutation_rate": [0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 1.0],
    "sequence_length": [1, 2, 3, 5, 10, 20],
    "evaluations": [0, 1, 5, 10, 20, 50, 100, 200],
    "shift_buffer": [False, True],
    "opponent_model": ["nothing", "random", "osla"],
    "opponent_budget_share": [0.001, 0.005, 0.01, 0.02, 0.05],
}
"""SRH's NTBEA search space (``agents/SeededRHEAParams.json`` of Rinascimento, ``rinascimento_agents.csv``)."""
SEED_BOUND = 2**63
"""Seeds of SRH's genes are drawn from ``[0, SEED_BOUND)``."""


@dataclass(frozen=True)
class RHEAParams:
    """BMRH and SRH hyper-parameters, validated (see the module docstring); defaults: BMRH with R1's tuned values
    and ``score_diff``. ``genes`` and ``mutation_rate`` (Java's default 0.2) are SRH's; ``mutation_style``,
    ``exponential_decay`` and the Gaussian parameters only BMRH's. ``value_settings`` holds the settings of the
    plan values games register (:func:`register_plan_value`), as ``(name, value)`` pairs."""

    shift_buffer: bool = True
    sequence_length: int = 2
    evaluations: int = 200
    flip_at_least_one: bool = True
    mutation_style: int = 1
    opponent_model: str = "nothing"
    opponent_budget_share: float = 0.02
    exponential_decay: float = 0.8
    gaussian_mean: float = 0.1
    gaussian_std: float = 0.5
    genes: str = "actions"
    mutation_rate: float = 0.2
    budget: float = PAPER_BUDGET
    budget_unit: str = "actions"
    determinize: str = "evaluation"
    value: Any = "score_diff"
    value_settings: tuple[tuple[str, Any], ...] = ()

    def setting(self, name: str) -> Any:
        """The value of the registered plan values' setting ``name`` (``ef_mapping`` for Splendor's ``"ef"``)."""
        return dict(self.value_settings)[name]

    @property
    def opponent_probes(self) -> int:
        """Legal actions the OSLA opponent model tries per decision (at least 1)."""
        nominal = self.budget if self.budget_unit == "actions" else PAPER_BUDGET
        return max(1, int(round(self.opponent_budget_share * nominal)))


PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "bmrh_r1": {"value": "score"},
    "bmrh_r2": {
        "value": "score",
        "shift_buffer": False,
        "sequence_length": 3,
        "evaluations": 200,
        "flip_at_least_one": True,
        "mutation_style": 1,
        "opponent_model": "random",
        "opponent_budget_share": 0.02,
        "exponential_decay": 0.5,
        "gaussian_mean": 0.1,
        "gaussian_std": 2.0,
    },
    "srh_r1": {
        "genes": "seeds",
        "value": "score",
        "flip_at_least_one": False,
        "mutation_rate": 0.9,
        "sequence_length": 2,
        "evaluations": 200,
        "shift_buffer": True,
        "opponent_model": "nothing",
        "opponent_budget_share": 0.05,
    },
}
"""Named configurations (seed 002): ``default`` (R1's values with ``value="score_diff"``), BMRH* (R1 tuned
against OSLA) and BMRH** (R2) with the paper's own-points value, and SRH* (R1's tuned Seeding RHEA: no flip,
mutation rate 0.9, length 2, 200 evaluations, shift buffer, DoNothing opponents, share 0.05) with the own-points
value. Games add theirs with :func:`register_rhea_preset` (Splendor: ``ef_linear_hc``, the paper's tuned EF agent)."""


def register_rhea_preset(name: str, settings: Mapping[str, Any]) -> None:
    """Add the named configuration ``name`` (a game's tuned agent) to :data:`PRESETS`."""
    PRESETS[name] = dict(settings)


# -- plan values ------------------------------------------------------------------------------------
class ValueFunction(Protocol):
    """The value of a played plan for ``player``: ``root`` is where the plan started, ``end`` where it
    stopped and ``events`` what the game logged in between (empty unless ``needs_events``)."""

    def __call__(self, game: Game, root: Any, end: Any, player: int, events: Sequence[Any]) -> float: ...


def score_diff_value(game: Game, state: Any, player: int) -> float:
    """At the end: the return plus its sign; otherwise ``d / (1 + |d|)``, ``d`` = own minus best other score."""
    if game.is_terminal(state):
        outcome = float(game.returns(state)[player])
        return outcome + float(np.sign(outcome))
    scores = game.scores(state)
    best_other = max(float(scores[p]) for p in range(len(scores)) if p != player)
    difference = float(scores[player]) - best_other
    return difference / (1.0 + abs(difference))


class ScoreDiffValue:
    """``value="score_diff"``: :func:`score_diff_value` of the state the plan reached."""

    needs_events = False

    def __call__(self, game: Game, root: Any, end: Any, player: int, events: Sequence[Any]) -> float:
        del root, events
        return score_diff_value(game, end, player)


class ScoreGainValue:
    """``value="score"``: own score gained by the plan (the paper's ``PointsHeuristic``)."""

    needs_events = False

    def __call__(self, game: Game, root: Any, end: Any, player: int, events: Sequence[Any]) -> float:
        del events
        return float(game.scores(end)[player]) - float(game.scores(root)[player])


SettingParser = Callable[[Any], Any]
"""Turns a written setting into its checked value; ``ValueError`` naming the setting otherwise."""


@dataclass(frozen=True)
class PlanValueKind:
    """A value of plans that a game adds to RHEA under a name, with the settings it reads.

    Attributes:
        build: ``build(settings, indexed) -> ValueFunction``: ``settings`` are this kind's checked settings by
            name, ``indexed`` the single indexed settings given (``{"ef_w2": 0.4}``).
        settings: setting name -> (parser, default).
        indexed: the prefix of single indexed settings (``"ef_w"`` for ``ef_w0``, ``ef_w1``, ...), or ``""``.
        description: what :attr:`space` tunes, for messages (``"event-value weights"``).
        space: ``space(settings) -> {setting: values}``: the NTBEA search space of this value's own settings.
    """

    build: Callable[[Mapping[str, Any], Mapping[str, float]], ValueFunction]
    settings: Mapping[str, tuple[SettingParser, Any]] = field(default_factory=dict)
    indexed: str = ""
    description: str = ""
    space: Callable[[Mapping[str, Any]], dict[str, list[Any]]] | None = None


PLAN_VALUES: dict[str, PlanValueKind] = {}
"""Plan values registered by games, by the name ``value=`` gives."""


def register_plan_value(name: str, kind: PlanValueKind) -> None:
    """Make ``value=<name>`` value plans with ``kind`` (its settings become RHEA parameters)."""
    PLAN_VALUES[name] = kind


def value_names() -> tuple[str, ...]:
    """Every name ``value=`` accepts: RHEA's own values, then those games registered."""
    return (*BUILTIN_VALUES, *PLAN_VALUES)


def make_value_function(params: RHEAParams, indexed: Mapping[str, float] | None = None) -> Any:
    """The value function of ``params`` (a registered value is built from its settings and ``indexed``)."""
    if callable(params.value):
        return params.value
    if params.value == "score_diff":
        return ScoreDiffValue()
    if params.value == "score":
        return ScoreGainValue()
    kind = PLAN_VALUES[params.value]
    own = {key: value for key, value in (indexed or {}).items() if kind.indexed and key.startswith(kind.indexed)}
    return kind.build(dict(params.value_settings), own)


# -- parsing and validation -------------------------------------------------------------------------
def parse_opponent_model(value: Any) -> str:
    """An opponent model by name or by Rinascimento's number (0 nothing, 1 random, 2 osla)."""
    text = str(value).strip().lower() if isinstance(value, str) else value
    if isinstance(text, str) and text in {"0", "1", "2"}:
        return OPPONENT_MODELS[int(text)]
    if isinstance(text, (int, np.integer)) and not isinstance(text, (bool, np.bool_)) and 0 <= text <= 2:
        return OPPONENT_MODELS[int(text)]
    if text in OPPONENT_MODELS:
        return str(text)
    allowed = [f"{i}/{name}" for i, name in enumerate(OPPONENT_MODELS)]
    raise ValueError(f"opponent_model must be one of {allowed}, got {value!r}")


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "shift_buffer": lambda v: bool_param("shift_buffer", v),
    "sequence_length": lambda v: int_param("sequence_length", v, 1, 1000),
    "evaluations": lambda v: int_param("evaluations", v, 0, 10**7),
    "flip_at_least_one": lambda v: bool_param("flip_at_least_one", v),
    "mutation_style": lambda v: int_param("mutation_style", v, 0, 3),
    "opponent_model": parse_opponent_model,
    "opponent_budget_share": lambda v: float_param("opponent_budget_share", v, 0.0, 1.0),
    "exponential_decay": lambda v: float_param("exponential_decay", v, 0.0, 1.0, positive=True),
    "gaussian_mean": lambda v: float_param("gaussian_mean", v, 0.0, 1.0),
    "gaussian_std": lambda v: float_param("gaussian_std", v, 0.0, 100.0, positive=True),
    "genes": lambda v: choice_param("genes", v, GENES),
    "mutation_rate": lambda v: float_param("mutation_rate", v, 0.0, 1.0),
    "budget": lambda v: float_param("budget", v, 0.0, 1e9, positive=True),
    "budget_unit": lambda v: choice_param("budget_unit", v, BUDGET_UNITS),
    "determinize": lambda v: choice_param("determinize", v, DETERMINIZE),
}


def _parse_value(value: Any) -> Any:
    if callable(value):
        return value
    return choice_param("value", value, value_names())


def _value_settings() -> dict[str, tuple[SettingParser, Any]]:
    """The settings of every registered plan value by name."""
    return {name: setting for kind in PLAN_VALUES.values() for name, setting in kind.settings.items()}


def _is_indexed(key: str) -> bool:
    """Whether ``key`` is a single indexed setting of a registered plan value (``ef_w3``)."""
    return any(kind.indexed and re.fullmatch(rf"{re.escape(kind.indexed)}\d+", key) for kind in PLAN_VALUES.values())


def _allowed_parameters() -> list[str]:
    names = {f.name for f in fields(RHEAParams)} - {"value_settings"}
    indexed = {f"{kind.indexed}<i>" for kind in PLAN_VALUES.values() if kind.indexed}
    return sorted(names | set(_value_settings()) | indexed | {"preset"})


def _split_parameters(hyperparams: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, float]]:
    """The preset's parameters overridden by ``hyperparams``, and the single indexed settings apart."""
    base = dict(PRESETS[choice_param("preset", hyperparams.get("preset", "default"), tuple(PRESETS))])
    known = ({f.name for f in fields(RHEAParams)} - {"value_settings"}) | set(_value_settings())
    indexed: dict[str, float] = {}
    for key, value in hyperparams.items():
        if key == "preset":
            continue
        if _is_indexed(key):
            indexed[key] = float_param(key, value, -1e6, 1e6)
        elif key not in known:
            raise ValueError(f"unknown RHEA parameter {key!r}; allowed: {_allowed_parameters()}")
        else:
            base[key] = value
    return base, indexed


def parse_rhea_params(**hyperparams: Any) -> tuple[RHEAParams, dict[str, float]]:
    """Validated :class:`RHEAParams` from keyword values (ints, floats, bools or strings), plus the single indexed
    settings of plan values (``{"ef_w2": 0.4}``). ``preset`` picks the base configuration."""
    base, indexed = _split_parameters(hyperparams)
    value_settings = {name: parser(base.pop(name, default)) for name, (parser, default) in _value_settings().items()}
    parsed = {key: _PARSERS[key](value) if key in _PARSERS else value for key, value in base.items()}
    if "value" in parsed:
        parsed["value"] = _parse_value(parsed["value"])
    params = replace(RHEAParams(), **parsed, value_settings=tuple(value_settings.items()))
    if params.budget_unit == "actions" and params.budget < 1:
        raise ValueError(f"budget must be >= 1 simulated action, got {params.budget!r}")
    if params.budget_unit == "seconds" and params.budget > MAX_SECONDS:
        raise ValueError(f"budget must be in (0, {MAX_SECONDS:g}] seconds, got {params.budget!r}")
    return params, indexed
