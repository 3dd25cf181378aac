"""Agent settings read from Python values or from the text of an agent spec (``mcts:simulations=400``).

Every search agent checks its constructor arguments with these, so one agent spec reads the same way in every
agent, and a bad value raises ``ValueError`` naming the setting and what it allows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

TRUE_WORDS = frozenset({"true", "t", "yes", "y", "1", "on"})
FALSE_WORDS = frozenset({"false", "f", "no", "n", "0", "off"})


def is_none(value: Any) -> bool:
    """``None`` or the text ``"none"`` (any case)."""
    return value is None or (isinstance(value, str) and value.strip().lower() == "none")


def _number(name: str, value: Any, allowed: str) -> float:
    """``value`` as a finite number (numeric text accepted, bools refused)."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise ValueError(f"{name} must be {allowed}, got {value!r}") from None
    numeric = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))
    if not numeric or not math.isfinite(value):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return value


def int_param(name: str, value: Any, low: int, high: int | None = None, *, optional: bool = False) -> int | None:
    """An int in ``low..high`` (``>= low`` without ``high``; ``None`` too when ``optional``); an integral float or
    numeric text is accepted."""
    allowed = (f"an int in {low}..{high}" if high is not None else f"an int >= {low}") + (" or None" * optional)
    if is_none(value):
        if optional:
            return None
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    number = _number(name, value, allowed)
    if not float(number).is_integer() or number < low or (high is not None and number > high):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(number)


def float_param(
    name: str, value: Any, low: float, high: float = math.inf, *, positive: bool = False, optional: bool = False
) -> float | None:
    """A finite float in ``[low, high]`` (``(low, high]`` when ``positive``; ``None`` too when ``optional``)."""
    allowed = f"a number in {'(' if positive else '['}{low}, {high}]" + (" or None" * optional)
    if is_none(value):
        if optional:
            return None
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    number = float(_number(name, value, allowed))
    if number < low or number > high or (positive and number == low):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return number


def bool_param(name: str, value: Any) -> bool:
    """A bool from a bool, 0/1, or true/false, yes/no, on/off, t/f, y/n, 1/0 (any case)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and int(value) in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return value.strip().lower() in TRUE_WORDS
    raise ValueError(f"{name} must be a bool (true/false, 1/0), got {value!r}")


def choice_param(name: str, value: Any, allowed: Sequence[Any]) -> Any:
    """The option of ``allowed`` that ``value`` names: text compared case-insensitively, ints as themselves."""
    for option in allowed:
        if isinstance(value, str) and str(option).lower() == value.strip().lower():
            return option
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and value == option:
            return option
    raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
