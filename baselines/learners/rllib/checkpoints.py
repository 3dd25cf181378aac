"""RLlib checkpoints of a run folder, each with the card that says what it was trained on.

A run keeps its checkpoints in ``<out>/checkpoints/step_<steps>/`` (zero-padded, so names sort by steps). Each is an
RLlib ``Algorithm.save_to_path`` folder (algorithm, env runner and learner states; the trained module is
``learner_group/learner/rl_module/shared``) plus :data:`CARD_NAME`, a JSON :class:`RLlibCard`. A checkpoint is
written into a hidden temporary folder (``.step_<steps>.tmp-<pid>``) and renamed once complete, so a kill leaves
either the whole checkpoint or a temporary folder that :func:`remove_partial_checkpoints` deletes; a folder without
its card is not a checkpoint.

Example:
    >>> checkpoint_path("runs/q5", 25_000).name
    'step_000000025000'
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselines.learners.rllib.masked_ppo import SHARED_POLICY
from baselines.runs import atomic_write_text
from boardenvs.core import Game
from boardenvs.registry import make_game

CHECKPOINTS_DIR = "checkpoints"
"""The folder of a run that holds its checkpoints."""
CARD_NAME = "boardenvs_card.json"
"""The card inside each checkpoint folder."""
CHECKPOINT_PATTERN = re.compile(r"^step_(\d+)$")
"""Names of complete checkpoint folders."""
PARTIAL_PATTERN = re.compile(r"^\.step_\d+\.tmp-\d+$")
"""Names of checkpoint folders whose writer was killed."""
MODULE_PATH = ("learner_group", "learner", "rl_module")
"""Where an RLlib algorithm checkpoint keeps its modules (one folder per module id)."""


@dataclass
class RLlibCard:
    """What a checkpoint was trained on (``boardenvs_card.json`` in the checkpoint folder).

    Attributes:
        game: The registered game name.
        config: The game's config fields (``make_game(game, **config)`` rebuilds it).
        steps: Env steps trained.
        wall_seconds: Training wall time so far, evaluations and earlier (resumed) stretches included.
        observation_shape: The game's ``spec.observation_shape`` (the module reads board planes channels-last).
        num_actions: The game's number of actions.
        module_id: The trained module (``shared``).
        extra: Anything else the trainer records (its settings, start and target steps).
    """

    game: str
    config: dict[str, Any]
    steps: int
    wall_seconds: float
    observation_shape: list[int]
    num_actions: int
    module_id: str = SHARED_POLICY
    extra: dict[str, Any] = field(default_factory=dict)

    def make_game(self) -> Game:
        """The game the checkpoint was trained on."""
        return make_game(self.game, **self.config)


def checkpoint_path(out: str | Path, steps: int) -> Path:
    """The folder of the checkpoint taken after ``steps`` steps in run folder ``out``."""
    return Path(out) / CHECKPOINTS_DIR / f"step_{steps:012d}"


def checkpoint_steps(path: Path) -> int:
    """The steps in a checkpoint folder's name (-1 if it is not one)."""
    match = CHECKPOINT_PATTERN.match(path.name)
    return int(match.group(1)) if match else -1


def module_path(checkpoint: str | Path, module_id: str = SHARED_POLICY) -> Path:
    """The folder of module ``module_id`` inside an RLlib algorithm checkpoint."""
    return Path(checkpoint).joinpath(*MODULE_PATH, module_id)


# -- the card ---------------------------------------------------------------------------------------
def write_card(checkpoint: str | Path, card: RLlibCard) -> None:
    """Write ``card`` into the checkpoint folder, atomically."""
    atomic_write_text(Path(checkpoint) / CARD_NAME, json.dumps(dataclasses.asdict(card), indent=2))


def read_card(checkpoint: str | Path) -> RLlibCard:
    """The card of a checkpoint folder.

    Raises:
        FileNotFoundError: the folder has no card (not a checkpoint of this trainer, or its writer was killed).
        ValueError: the card is damaged (the message names the file).
    """
    path = Path(checkpoint) / CARD_NAME
    if not path.is_file():
        raise FileNotFoundError(f"{str(checkpoint)!r} is not a checkpoint of scripts.train_rllib (no {CARD_NAME})")
    known = {f.name for f in dataclasses.fields(RLlibCard)}
    try:
        data = json.loads(path.read_text())
        return RLlibCard(**{key: value for key, value in data.items() if key in known})
    except (ValueError, TypeError, AttributeError) as error:
        raise ValueError(f"the card {str(path)!r} is damaged ({error}); delete that checkpoint") from None


# -- the checkpoints of a run -----------------------------------------------------------------------
def list_checkpoints(out: str | Path) -> list[Path]:
    """The complete checkpoints of run folder ``out`` (those with a card), oldest first."""
    folder = Path(out) / CHECKPOINTS_DIR
    if not folder.is_dir():
        return []
    found = [path for path in folder.iterdir() if checkpoint_steps(path) >= 0 and (path / CARD_NAME).is_file()]
    return sorted(found, key=checkpoint_steps)


def latest_checkpoint(out: str | Path) -> Path | None:
    """The newest complete checkpoint of run folder ``out``, or ``None``."""
    found = list_checkpoints(out)
    return found[-1] if found else None


def remove_partial_checkpoints(out: str | Path) -> list[Path]:
    """Delete the temporary checkpoint folders that killed writers left in run folder ``out`` (call it only while
    no one writes there: under the run's lock)."""
    folder = Path(out) / CHECKPOINTS_DIR
    stale = [path for path in folder.iterdir() if PARTIAL_PATTERN.match(path.name)] if folder.is_dir() else []
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return stale


def save_checkpoint(algo: Any, out: str | Path, card: RLlibCard) -> Path:
    """Save ``algo`` (an RLlib ``Algorithm``) with ``card`` as the checkpoint of ``card.steps`` in run folder
    ``out``: written into a temporary folder, then renamed. Returns the checkpoint folder."""
    target = checkpoint_path(out, card.steps)
    temporary = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.parent.mkdir(parents=True, exist_ok=True)
    try:
        algo.save_to_path(str(temporary.resolve()))
        write_card(temporary, card)
        if target.exists():
            shutil.rmtree(target)
        os.replace(temporary, target)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    return target


def prune_checkpoints(out: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` checkpoints of run folder ``out`` (``keep=0`` keeps them all)."""
    found = list_checkpoints(out)
    removed = found[:-keep] if keep > 0 else []
    for path in removed:
        shutil.rmtree(path, ignore_errors=True)
    return removed


def resolve_checkpoint(path: str | Path) -> Path:
    """The checkpoint that ``path`` names: a checkpoint folder, or a run folder (its newest checkpoint).

    Raises:
        FileNotFoundError: ``path`` does not exist, or holds no checkpoint.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no RLlib checkpoint at {str(path)!r}")
    if (path / CARD_NAME).is_file():
        return path
    latest = latest_checkpoint(path)
    if latest is None:
        raise FileNotFoundError(
            f"{str(path)!r} is neither an RLlib checkpoint ({CARD_NAME} inside) nor a run folder with one in "
            f"{CHECKPOINTS_DIR}/"
        )
    return latest


__all__ = [
    "CARD_NAME",
    "CHECKPOINTS_DIR",
    "RLlibCard",
    "checkpoint_path",
    "checkpoint_steps",
    "latest_checkpoint",
    "list_checkpoints",
    "module_path",
    "prune_checkpoints",
    "read_card",
    "remove_partial_checkpoints",
    "resolve_checkpoint",
    "save_checkpoint",
    "write_card",
]
