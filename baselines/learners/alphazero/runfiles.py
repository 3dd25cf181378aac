"""The files of an AlphaZero run that a resumed run reads back, checked before they are trusted.

A resumed run reads ``state.pt`` (the networks, the optimizer, the history and the replay window's iterations) and
the window's ``replay/iteration_<k>.npz`` files. Both are zip archives whose CRCs are checked first
(:func:`~baselines.runs.check_zip`), so a flipped bit is an error; then every field is checked for its type, its
shape (the game's observation, action and seat counts) and its range (finite numbers; a policy is a distribution
over the legal actions; values and score margins lie in [-1, 1]). The first problem found is a ``ValueError``
naming the file and the field; a missing replay file is a ``FileNotFoundError`` naming it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.alphazero.network import atomic_write
from baselines.learners.alphazero.selfplay import Example
from baselines.runs import zip_problem
from boardenvs.core import Game

EXAMPLE_FIELDS = ("observation", "mask", "policy", "value", "score")
"""The arrays of a replay file, one row per example."""
STATE_FIELDS: dict[str, type] = {
    "game": str,
    "config": dict,
    "settings": dict,
    "iteration": int,
    "net": dict,
    "best": dict,
    "optimizer": dict,
    "history": list,
    "replay": list,
}
"""Every field of ``state.pt`` (besides its ``version``) and its type."""
POLICY_TOLERANCE = 1e-3
"""How far a stored policy's sum may be from 1 (float32 sums of many small visit shares)."""


# -- replay files -------------------------------------------------------------------------------------------------
def save_examples(path: Path, examples: list[Example]) -> None:
    """``examples`` as a compressed ``.npz`` (one array per field), written atomically."""
    arrays = {name: np.stack([getattr(example, name) for example in examples]) for name in EXAMPLE_FIELDS}

    def write(temporary: Path) -> None:
        with open(temporary, "wb") as handle:
            np.savez_compressed(handle, **arrays)

    atomic_write(path, write)


def load_examples(path: Path, game: Game | None = None) -> list[Example]:
    """The examples :func:`save_examples` wrote to ``path``, checked (with ``game``: against its sizes too).

    Raises:
        FileNotFoundError: the file is missing (the run's replay window is incomplete).
        ValueError: the file is damaged or holds values no run writes (the message names the file and the array).
    """
    if not path.is_file():
        raise FileNotFoundError(f"resume: the replay file {str(path)!r} of the run is missing")
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"resume: the replay file {str(path)!r} is damaged: {problem}")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in EXAMPLE_FIELDS}
    except Exception as error:  # noqa: BLE001 - numpy raises several types for damaged archives
        raise ValueError(f"resume: the replay file {str(path)!r} is damaged: {error}") from None
    problem = examples_problem(arrays, game)
    if problem:
        raise ValueError(f"resume: the replay file {str(path)!r} is damaged: {problem}")
    return [Example(*fields) for fields in zip(*(arrays[name] for name in EXAMPLE_FIELDS))]


def examples_problem(arrays: dict[str, np.ndarray], game: Game | None = None) -> str | None:
    """What is wrong with the arrays of a replay file (``None`` if nothing): one row per example in every array,
    the game's shapes, a boolean mask with a legal action in every row, finite numbers, a policy that is a
    distribution over the legal actions, values and score margins in [-1, 1]."""
    counts = {len(array) if array.ndim else -1 for array in arrays.values()}
    if len(counts) != 1 or counts == {-1} or counts == {0}:
        return f"the arrays must hold one row per example, and at least one; their lengths are {_lengths(arrays)}"
    shape_problem = _shape_problem(arrays, game)
    if shape_problem:
        return shape_problem
    mask, policy = arrays["mask"], arrays["policy"]
    if mask.dtype != np.bool_ or not mask.any(axis=1).all():
        return f"'mask' must be booleans with a legal action in every row (dtype {mask.dtype})"
    for name in ("observation", "policy", "value", "score"):
        if arrays[name].dtype.kind != "f" or not np.isfinite(arrays[name]).all():
            return f"{name!r} must hold finite floating-point numbers"
    if (policy < 0).any() or (policy[~mask] != 0).any():
        return "'policy' must be >= 0 and zero on illegal actions"
    if not np.allclose(policy.sum(axis=1), 1.0, atol=POLICY_TOLERANCE):
        return "'policy' must sum to 1 in every row"
    for name in ("value", "score"):
        if (np.abs(arrays[name]) > 1.0 + 1e-6).any():
            return f"{name!r} must lie in [-1, 1]"
    return None


def _lengths(arrays: dict[str, np.ndarray]) -> dict[str, int]:
    return {name: len(array) if array.ndim else 0 for name, array in arrays.items()}


def _shape_problem(arrays: dict[str, np.ndarray], game: Game | None) -> str | None:
    rows = {name: array.shape[1:] for name, array in arrays.items()}
    if game is not None:
        spec = game.spec
        actions, seats = (spec.num_actions,), (spec.num_players,)
        expected = {"observation": tuple(spec.observation_shape), "mask": actions, "policy": actions,
                    "value": seats, "score": seats}  # fmt: skip
        wrong = [name for name in EXAMPLE_FIELDS if rows[name] != expected[name]]
        if wrong:
            return f"{wrong[0]!r} rows have shape {rows[wrong[0]]}, {spec.name}'s are {expected[wrong[0]]}"
    if rows["mask"] != rows["policy"] or rows["value"] != rows["score"] or len(rows["mask"]) != 1:
        return f"the rows' shapes do not agree: {rows}"
    return None


# -- state.pt -----------------------------------------------------------------------------------------------------
def state_problem(state: dict[str, Any]) -> str | None:
    """What is wrong with the fields of a ``state.pt`` (``None`` if nothing; the weights are checked when they are
    loaded): each field present with its type, ``iteration`` history rows numbered 1, 2, ... with finite numbers,
    and a replay window of distinct iterations no later than the last."""
    for name, kind in STATE_FIELDS.items():
        if name not in state:
            return f"it has no {name!r}"
        value = state[name]
        if isinstance(value, bool) or not isinstance(value, kind):
            return f"its {name!r} is of type {type(value).__name__}, not {kind.__name__}"
    iteration, history, replay = state["iteration"], state["history"], state["replay"]
    if iteration < 1 or len(history) != iteration:
        return f"its 'iteration' is {iteration} but its history holds {len(history)} iterations"
    for number, row in enumerate(history, start=1):
        problem = _history_row_problem(row, number)
        if problem:
            return f"history row {number}: {problem}"
    numbers_ok = all(isinstance(number, int) and not isinstance(number, bool) for number in replay)
    if not numbers_ok or len(set(replay)) != len(replay) or not all(0 <= number <= iteration for number in replay):
        return f"its 'replay' must list distinct iterations 0..{iteration}, got {replay!r}"
    return None


def _history_row_problem(row: Any, number: int) -> str | None:
    if not isinstance(row, dict) or row.get("iteration") != number:
        return f"not the row of iteration {number}"
    for key, value in row.items():
        if not isinstance(key, str) or not _is_number(value):
            return f"{key!r} is {value!r}, not a finite number"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, bool) or (isinstance(value, int | float) and math.isfinite(value))


__all__ = ["EXAMPLE_FIELDS", "examples_problem", "load_examples", "save_examples", "state_problem"]
