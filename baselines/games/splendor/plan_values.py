"""Splendor's event-value functions as a plan value of RHEA: ``rhea:value=ef`` and the ``ef_linear_hc`` preset.

RHEA values a plan with whatever it is given; this module gives it seed 002's event-value functions
(:mod:`.event_values`) under the name ``"ef"`` (:func:`register`, called when :mod:`baselines.games` is imported),
with the settings they read: ``ef_mapping`` (``hc``/``id``), ``ef_degree`` (1..3), ``ef_perspective``
(``own``/``difference``/``both``), ``ef_count`` (``events``/``amounts``), ``ef_weights`` (comma-separated numbers,
``"paper"`` or ``"zeros"``) and single weights ``ef_w<i>``; NTBEA tunes the weights over the paper's discretised
space (:data:`~.event_values.WEIGHT_VALUES`).

Example:
    >>> from baselines.search.rhea import RHEAAgent
    >>> RHEAAgent(value="ef", ef_weights="1, 0, 0, 0, -1", ef_w2=0.4).value_function.weights.tolist()
    [1.0, 0.0, 0.4, 0.0, -1.0]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from baselines.games.splendor.event_values import WEIGHT_VALUES, EventValueFunction, default_weights, num_weights
from baselines.params import choice_param, float_param, int_param
from baselines.search.rhea_params import PlanValueKind, register_plan_value, register_rhea_preset

EF_PREFIX = "ef_w"
"""Single weights are the settings ``ef_w0``, ``ef_w1``, ..."""
EF_LINEAR_HC: dict[str, Any] = {
    "shift_buffer": False,
    "sequence_length": 2,
    "evaluations": 200,
    "flip_at_least_one": False,
    "mutation_style": 1,
    "opponent_model": "nothing",
    "opponent_budget_share": 0.01,
    "exponential_decay": 0.8,
    "gaussian_mean": 0.75,
    "gaussian_std": 2.0,
    "value": "ef",
    "ef_mapping": "hc",
    "ef_degree": 1,
    "ef_weights": "paper",
}
"""The paper's tuned ``lin^hc`` EF agent (RHEA preset ``ef_linear_hc``)."""


def parse_weights(value: Any) -> Any:
    """``ef_weights``: ``"paper"``, ``"default"``, ``"zeros"`` or a tuple of numbers (from text or a sequence)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("paper", "default", "zeros"):
            return text
        parts = [part for part in re.split(r"[,\s]+", value.strip().strip("()[]")) if part]
        return tuple(float_param("ef_weights", part, -1e6, 1e6) for part in parts)
    if isinstance(value, (Sequence, np.ndarray)):
        return tuple(float_param("ef_weights", part, -1e6, 1e6) for part in value)
    raise ValueError(f"ef_weights must be 'paper', 'zeros' or a list of numbers, got {value!r}")


EF_SETTINGS: dict[str, tuple[Any, Any]] = {
    "ef_mapping": (lambda v: choice_param("ef_mapping", v, ("hc", "id")), "hc"),
    "ef_degree": (lambda v: int_param("ef_degree", v, 1, 3), 1),
    "ef_perspective": (lambda v: choice_param("ef_perspective", v, ("own", "difference", "both")), "own"),
    "ef_count": (lambda v: choice_param("ef_count", v, ("events", "amounts")), "events"),
    "ef_weights": (parse_weights, "paper"),
}
"""The settings of ``value="ef"``: name -> (parser, default)."""


def event_weights(settings: Mapping[str, Any], single: Mapping[str, float]) -> np.ndarray:
    """The mixer weights ``settings`` give (``ef_weights``), with the single weights ``ef_w<i>`` written over them."""
    weights = default_weights(settings["ef_mapping"], settings["ef_degree"], settings["ef_perspective"])
    given = settings["ef_weights"]
    if given == "zeros":
        weights[:] = 0.0
    elif isinstance(given, tuple):
        if len(given) != len(weights):
            raise ValueError(f"ef_weights must have {len(weights)} values here, got {len(given)}")
        weights = np.array(given, dtype=np.float64)
    for key, weight in single.items():
        index = int(key[len(EF_PREFIX) :])
        if not 0 <= index < len(weights):
            raise ValueError(f"ef_w{index} is out of range: this event-value function has weights ef_w0..ef_w"
                             f"{len(weights) - 1}")  # fmt: skip
        weights[index] = weight
    return weights


def build_event_value(settings: Mapping[str, Any], single: Mapping[str, float]) -> EventValueFunction:
    """The event-value function ``settings`` and the single weights ``ef_w<i>`` describe."""
    weights = event_weights(settings, single)
    mapping, degree, perspective = settings["ef_mapping"], settings["ef_degree"], settings["ef_perspective"]
    return EventValueFunction(mapping, degree, weights, perspective, settings["ef_count"])


def weight_space(settings: Mapping[str, Any]) -> dict[str, list[Any]]:
    """NTBEA's space of the weights: every ``ef_w<i>`` over the paper's values, sized by mapping, degree and
    perspective."""
    count = num_weights(settings["ef_mapping"], settings["ef_degree"], settings["ef_perspective"])
    return {f"{EF_PREFIX}{i}": list(WEIGHT_VALUES) for i in range(count)}


EVENT_VALUE = PlanValueKind(build_event_value, EF_SETTINGS, EF_PREFIX, "event-value weights", weight_space)
"""``value="ef"``: seed 002's event-value functions as a plan value of RHEA."""


def register() -> None:
    """Give RHEA ``value="ef"`` and the preset ``ef_linear_hc``."""
    register_plan_value("ef", EVENT_VALUE)
    register_rhea_preset("ef_linear_hc", EF_LINEAR_HC)
