"""The files of an AlphaZero run and its resume: what a run produced (:class:`AlphaZeroRunResult`), claiming the folder,
the run state (``state.pt``), the replay files of the window, the history CSV, and the restart of a run killed before
its first state.

A resumed run gives the same networks as a run that was never interrupted: ``state.pt`` holds the training network,
the optimizer, the best network, the history and the window's iterations, and every random stream derives from
``(seed, iteration)``. Only :data:`RESUMABLE_CHANGES` may differ from the stored run's settings.
"""

from __future__ import annotations

import csv
import dataclasses
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from baselines.learners.alphazero.network import atomic_write, check_finite, load_weights, read_torch_file
from baselines.learners.alphazero.runfiles import state_problem
from baselines.learners.alphazero.settings import AlphaZeroSettings
from baselines.learners.runner import RunResult
from baselines.runs import TEMPORARY_NAME, remove_temporaries

STATE_VERSION = 1
FIRST_ITERATION_FILES = frozenset(
    {
        "best.pt",
        "iteration_001.pt",
        "eval.csv",
        "learning_curve.png",
        "replay",
        "replay/iteration_000.npz",
        "replay/iteration_001.npz",
    }
)
"""The outputs a run writes before its first ``state.pt``: a run killed then is started again when resumed."""
RECORDS = ("history.csv", "history.png", "eval.csv", "learning_curve.png")
"""The run's records: its own history and plot, and the shared evaluation log and learning curve."""
RESUMABLE_CHANGES = frozenset({"iterations", "workers", "backend", "ray_address", "device", "time_budget_minutes"})
"""Settings a resumed run may change; any other difference from the stored run is refused."""


@dataclass
class AlphaZeroRunResult(RunResult):
    """What an AlphaZero run produced (besides :class:`~baselines.learners.runner.RunResult`'s fields, whose
    ``steps`` are iterations and ``final_eval`` the last evaluation's rows).

    Attributes:
        best_path: The best network (``best.pt``).
        history: The run's history rows (``trainer.HISTORY_FIELDS`` and the ``vs_`` columns).
        history_csv: The rows as CSV.
    """

    best_path: Path
    history: list[dict[str, Any]]
    history_csv: Path


class RunFiles:
    """The folder of one AlphaZero run: where each file lives, claiming it, and the run state.

    Args:
        out_dir: The run's folder.
        game_name: The game (recorded in, and checked against, the state).
        config: Its config.
        settings: The run's settings.
    """

    def __init__(self, out_dir: Path, game_name: str, config: dict[str, Any], settings: AlphaZeroSettings) -> None:
        self.out_dir, self.game_name, self.config, self.settings = out_dir, game_name, config, settings

    @property
    def best_path(self) -> Path:
        """The best network (``best.pt``)."""
        return self.out_dir / "best.pt"

    @property
    def state_path(self) -> Path:
        """Everything a resumed run needs (``state.pt``)."""
        return self.out_dir / "state.pt"

    def replay_path(self, iteration: int) -> Path:
        """The examples of ``iteration`` (``replay/iteration_<k>.npz``; 0 is the warm start)."""
        return self.out_dir / "replay" / f"iteration_{iteration:03d}.npz"

    def iteration_path(self, iteration: int) -> Path:
        """The best network after ``iteration`` (``iteration_<k>.pt``)."""
        return self.out_dir / f"iteration_{iteration:03d}.pt"

    def claim(self, force: bool) -> None:
        """Refuse an ``out_dir`` holding a run unless ``force`` (then delete the run's files)."""
        outputs = [self.state_path, self.best_path, *(self.out_dir / name for name in RECORDS), self.out_dir / "replay"]
        outputs += sorted(self.out_dir.glob("iteration_*.pt"))
        existing = [path for path in outputs if path.exists()]
        if existing and not force:
            raise FileExistsError(
                f"{str(self.out_dir)!r} already holds a run ({existing[0].name}): pass resume=True (--resume) to "
                "continue it or force=True (--force) to replace it"
            )
        for path in existing:
            shutil.rmtree(path) if path.is_dir() else path.unlink()

    def save_state(self, iteration: int, state: dict[str, Any]) -> None:
        """Write ``state.pt`` atomically: ``state`` (networks, optimizer, history, replay) with the run's identity."""
        identity = {"version": STATE_VERSION, "game": self.game_name, "config": self.config}
        full = {**identity, "settings": dataclasses.asdict(self.settings), "iteration": iteration, **state}
        atomic_write(self.state_path, lambda temporary: torch.save(full, temporary))

    def read_state(self) -> dict[str, Any] | None:
        """The checked state of the run to resume, or ``None`` when it has no ``state.pt`` (see
        :meth:`restart_unfinished`).

        Raises:
            ValueError: a damaged state, or one of another game, config or settings.
        """
        if not self.state_path.is_file():
            return None
        state = read_torch_file(self.state_path, "AlphaZero run state")
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise ValueError(f"{str(self.state_path)!r} is not an AlphaZero run state of version {STATE_VERSION}")
        problem = state_problem(state)
        if problem:
            raise ValueError(f"{str(self.state_path)!r} is not a valid AlphaZero run state: {problem}")
        if (state["game"], state["config"]) != (self.game_name, self.config):
            raise ValueError(
                f"resume: {str(self.out_dir)!r} trained {state['game']} {state['config']}, "
                f"not {self.game_name} {self.config}"
            )
        changed = _changed_settings(state["settings"], dataclasses.asdict(self.settings)) - RESUMABLE_CHANGES
        if changed:
            raise ValueError(
                f"resume: settings {sorted(changed)} differ from the stored run's ({str(self.state_path)!r}); only "
                f"{sorted(RESUMABLE_CHANGES)} may change when a run is resumed"
            )
        return state

    def load_weights(self, state: dict[str, Any], net: Any, best: Any, optimizer: Any) -> None:
        """Put the state's training network, best network and optimizer state into ``net``, ``best``, ``optimizer``."""
        label = repr(str(self.state_path))
        load_weights(net, state["net"], label, "training network's weights")
        load_weights(best, state["best"], label, "best network's weights")
        check_finite(state["optimizer"], label, "optimizer state")
        try:
            optimizer.load_state_dict(state["optimizer"])
        except (KeyError, TypeError, ValueError, RuntimeError, IndexError) as error:
            raise ValueError(f"{label}: its optimizer state does not fit the network: {error}") from None

    def restart_unfinished(self) -> None:
        """Resume a folder without ``state.pt``: a run killed during its first iteration (its files are that
        iteration's, which is played again from the start), or no run at all (an error saying how to start one)."""
        files = self.run_files()
        if not files:
            raise FileNotFoundError(
                f"resume: no run to resume in {str(self.out_dir)!r} (no state.pt, no run files): start the run "
                "without resume (--resume)"
            )
        later = [path for path in files if path.relative_to(self.out_dir).as_posix() not in FIRST_ITERATION_FILES]
        if later:
            names = ", ".join(sorted(path.relative_to(self.out_dir).as_posix() for path in later))
            raise ValueError(
                f"resume: {str(self.state_path)!r} is missing but the run has files of later iterations ({names}): "
                "its state is lost; pass force=True (--force) to start the run again (its files are deleted)"
            )
        remove_temporaries(self.out_dir)
        self.claim(force=True)

    def run_files(self) -> list[Path]:
        """The outputs of a run in ``out_dir``: its files, the ``replay`` folder and the files in it (not the
        temporary files of a writer that was killed, which :func:`remove_temporaries` deletes)."""
        outputs = [self.state_path, self.best_path, *(self.out_dir / name for name in RECORDS)]
        outputs += [*sorted(self.out_dir.glob("iteration_*.pt")), self.out_dir / "replay"]
        outputs += [path for path in sorted((self.out_dir / "replay").glob("*")) if not TEMPORARY_NAME.match(path.name)]
        return [path for path in outputs if path.exists()]

    def forget_replay(self, window: list[int]) -> None:
        """Delete the replay files of iterations outside ``window``. Called only once the state that no longer lists
        them is saved, so a kill at any point leaves every file the saved state names."""
        kept = {self.replay_path(number) for number in window}
        for path in (self.out_dir / "replay").glob("iteration_*.npz"):
            if path not in kept:
                path.unlink(missing_ok=True)


def write_history(path: Path, rows: list[dict[str, Any]]) -> None:
    """``rows`` as CSV at ``path`` (atomically), the columns in their first row's order."""
    if not rows:
        return
    columns = list(rows[0])

    def write(temporary: Path) -> None:
        with open(temporary, "w", newline="") as handle:
            writer = csv.DictWriter(handle, columns)
            writer.writeheader()
            writer.writerows(rows)

    atomic_write(path, write)


def _changed_settings(stored: dict[str, Any], given: dict[str, Any], prefix: str = "") -> set[str]:
    """Dotted paths of the settings that differ (nested settings compared field by field)."""
    changed = set()
    for key in stored.keys() | given.keys():
        old, new = stored.get(key), given.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            changed |= _changed_settings(old, new, f"{prefix}{key}.")
        elif (list(old) if isinstance(old, tuple | list) else old) != (
            list(new) if isinstance(new, tuple | list) else new
        ):
            changed.add(prefix + key)
    return changed


__all__ = [
    "AlphaZeroRunResult",
    "FIRST_ITERATION_FILES",
    "RECORDS",
    "RESUMABLE_CHANGES",
    "STATE_VERSION",
    "RunFiles",
    "write_history",
]
