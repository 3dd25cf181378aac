"""The safe format's checks: a policy description read from JSON, and the spaces it describes, rebuilt.

Every check names the file (``source``) and the first thing wrong in a ``ValueError``: a description of another
format or version, a missing or mistyped entry, a class the format does not know, a space that is not a Dict of
Boxes with numeric bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from baselines.learners.sb3.safe import DTYPES, FORMAT, FORMAT_VERSION


def check_description(description: Any, source: str) -> dict[str, Any]:
    """``description`` if it is a policy description this module reads; ``ValueError`` naming ``source`` and the
    first thing wrong otherwise."""
    if not isinstance(description, dict):
        raise ValueError(f"{source}: 'policy' must be a JSON object, got {type(description).__name__}")
    if description.get("format") != FORMAT or description.get("version") != FORMAT_VERSION:
        raise ValueError(
            f"{source}: not a policy description of format {FORMAT!r} version {FORMAT_VERSION} (found "
            f"{description.get('format')!r} version {description.get('version')!r})"
        )
    expected: dict[str, type | tuple[type, ...]] = {
        "policy_class": str, "observation_space": dict, "action_space": dict, "net_arch": (list, dict),
        "activation_fn": str, "features_extractor_class": str, "features_extractor_kwargs": dict,
        "normalize_images": bool, "weights_sha256": str,
    }  # fmt: skip
    for key, kind in expected.items():
        if not isinstance(description.get(key), kind):
            found = description.get(key)
            raise ValueError(f"{source}: policy entry {key!r} is missing or of the wrong type ({found!r})")
    return description


def known_entry(source: str, what: str, name: str, known: dict[str, Any]) -> Any:
    """What ``known`` maps the described ``name`` to; ``ValueError`` naming ``source``, ``what`` and the known names
    for a name the safe format does not know."""
    if name not in known:
        raise ValueError(f"{source}: unknown {what} {name!r}; the safe format knows {sorted(known)}")
    return known[name]


def positive_int(value: Any, source: str, what: str) -> int:
    """``value`` if it is a positive integer (not a bool); ``ValueError`` naming ``source`` and ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{source}: {what} must be a positive integer, got {value!r}")
    return value


def described_space(description: dict[str, Any], source: str) -> spaces.Dict:
    """The ``Dict`` of Boxes a description's ``observation_space`` describes; ``ValueError`` naming ``source`` and
    the first entry that is not a valid Box description."""
    if not description:
        raise ValueError(f"{source}: observation_space must name at least one entry")
    return spaces.Dict({key: _box(box, source, f"observation_space.{key}") for key, box in description.items()})


def _box(description: Any, source: str, what: str) -> spaces.Box:
    if not isinstance(description, dict) or description.get("dtype") not in DTYPES:
        raise ValueError(f"{source}: {what} must be a Box description with a dtype in {list(DTYPES)}")
    shape = description.get("shape")
    if not isinstance(shape, list) or not shape:
        raise ValueError(f"{source}: {what}.shape must be a list of positive integers, got {shape!r}")
    shape = tuple(positive_int(size, source, f"{what}.shape") for size in shape)
    dtype = np.dtype(description["dtype"])
    low, high = (_bounds(description.get(key), shape, dtype, source, f"{what}.{key}") for key in ("low", "high"))
    try:
        return spaces.Box(low, high, shape, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{source}: {what} is not a valid Box ({error})") from None


def _bounds(value: Any, shape: tuple[int, ...], dtype: np.dtype, source: str, what: str) -> np.ndarray:
    """The bounds array of a Box in ``dtype`` (an integer Box's infinities become its dtype's extremes)."""
    values = value if isinstance(value, list) else [value]
    numbers = []
    for item in values:
        infinite = isinstance(item, str) and item in ("inf", "-inf")
        if not infinite and (isinstance(item, bool) or not isinstance(item, (int, float))):
            raise ValueError(f"{source}: {what} must be numbers ('inf', '-inf' allowed), got {item!r}")
        numbers.append(float(item))
    size = int(np.prod(shape))
    if len(numbers) not in (1, size):
        raise ValueError(f"{source}: {what} has {len(numbers)} numbers for shape {list(shape)} (1 or {size})")
    bounds = np.broadcast_to(np.array(numbers), (size,)).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        bounds = np.clip(bounds, np.iinfo(dtype).min, np.iinfo(dtype).max)
    return bounds.astype(dtype)


__all__ = [
    "check_description",
    "described_space",
    "known_entry",
    "positive_int",
]
