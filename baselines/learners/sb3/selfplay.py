"""Self-play against a pool of saved snapshots of the learner, mixed with scripted opponents.

:class:`SnapshotCallback` saves the learner every ``every_steps`` steps as ``snapshot_<steps>.zip`` (its safe files
``.pt`` and ``.json`` first, each file written atomically) in a directory. :class:`SnapshotPool` is an opponent
agent for the single-agent env: at every episode (``start_episode(rng)``, called by the env at each reset with its
own generator) it draws who plays the opponent seats:

- with probability ``snapshot_share`` (when there is a snapshot; always, if no scripted agent is given) a
  snapshot: the latest with probability ``latest_share``, else one of the newest ``max_snapshots`` uniformly;
- otherwise one of the ``scripted`` agents (names for ``baselines.factory.make_agent``), uniformly.

With no snapshot yet and no scripted agent it plays randomly. The pool only *reads* the directory (listing
it at each episode, loading a snapshot's safe files the first time it is drawn and caching it; no zip is
unpickled), so each SubprocVecEnv worker can hold its own pool while the trainer writes snapshots. Seats: one pool
object serves every opponent seat of an episode (the env tells each distinct agent once per reset).

Example:
    >>> pool = SnapshotPool("quoridor", "runs/q/snapshots", scripted=("random", "heuristic"))  # doctest: +SKIP
    >>> env = SingleAgentEnv("quoridor", opponent=pool, board_size=5)  # doctest: +SKIP
    >>> model.learn(100_000, callback=SnapshotCallback("runs/q/snapshots", every_steps=10_000))  # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from baselines.agent import Agent, RandomAgent, SeedLike, as_generator
from baselines.factory import make_agent
from baselines.learners.sb3.agent import SB3Agent
from baselines.learners.sb3.saving import save_model
from boardenvs.core import Game

SNAPSHOT_PATTERN = re.compile(r"^snapshot_(\d+)\.zip$")
"""Names of snapshot files: ``snapshot_<steps>.zip``, zero-padded so names sort by steps."""


def snapshot_path(directory: str | Path, steps: int) -> Path:
    """Where the snapshot taken after ``steps`` steps lives."""
    return Path(directory) / f"snapshot_{steps:012d}.zip"


def list_snapshots(directory: str | Path | None) -> list[Path]:
    """The snapshot files in ``directory``, oldest first (empty if it does not exist)."""
    if directory is None or not Path(directory).is_dir():
        return []
    found = [path for path in Path(directory).iterdir() if SNAPSHOT_PATTERN.match(path.name)]
    return sorted(found, key=lambda path: int(SNAPSHOT_PATTERN.match(path.name).group(1)))  # type: ignore[union-attr]


class SnapshotPool:
    """An opponent that is, each episode, a scripted agent or a saved snapshot of the learner.

    Args:
        game_name: The registered game (scripted agents are built for it).
        directory: Where the snapshots are; ``None`` for scripted agents only.
        scripted: Names of scripted agents (``make_agent`` names, e.g. ``"random"``, ``"heuristic"``).
        snapshot_share: Probability of drawing a snapshot when there is one.
        latest_share: Probability that a drawn snapshot is the latest one.
        max_snapshots: Only the newest ``max_snapshots`` snapshots are drawn (and cached).
        seed: Seeds the agents (``reseed`` from the env replaces it on seeded resets).
        stochastic_snapshots: Snapshots sample their moves (see ``SB3Agent``) instead of playing the best one,
            which gives the learner more varied games.
        name: The agent's display name.

    Attributes:
        current: The agent playing this episode.
        current_label: Its name (a scripted agent's name or the snapshot's file name).
        draws: How often each label was drawn so far.
    """

    def __init__(
        self,
        game_name: str,
        directory: str | Path | None = None,
        scripted: Sequence[str] = ("random",),
        snapshot_share: float = 0.5,
        latest_share: float = 0.5,
        max_snapshots: int = 20,
        seed: SeedLike = None,
        stochastic_snapshots: bool = True,
        name: str = "pool",
    ) -> None:
        _check_probability("snapshot_share", snapshot_share)
        _check_probability("latest_share", latest_share)
        if max_snapshots < 1:
            raise ValueError(f"max_snapshots must be >= 1, got {max_snapshots}")
        self.name, self.game_name = name, game_name
        self.directory = None if directory is None else Path(directory)
        self.snapshot_share, self.latest_share, self.max_snapshots = snapshot_share, latest_share, max_snapshots
        self.stochastic_snapshots = stochastic_snapshots
        self.rng = as_generator(seed)
        self.scripted: dict[str, Agent] = {label: make_agent(label, game_name, self._new_seed()) for label in scripted}
        self.fallback = RandomAgent(self._new_seed(), name="random")
        self.snapshots: dict[Path, SB3Agent] = {}
        self.current: Agent = next(iter(self.scripted.values()), self.fallback)
        self.current_label = getattr(self.current, "name", "random")
        self.draws: dict[str, int] = {}

    # -- the env's hooks ------------------------------------------------------------------------
    def reseed(self, seed: int) -> None:
        """Restart the generator of the pool and of every agent in it from ``seed``."""
        self.rng = np.random.default_rng(seed)
        for agent in [*self.scripted.values(), self.fallback, *self.snapshots.values()]:
            agent.reseed(self._new_seed())  # type: ignore[attr-defined]

    def start_episode(self, rng: np.random.Generator) -> None:
        """Draw this episode's opponent with ``rng`` (the env's generator)."""
        self.current_label, self.current = self.draw(rng)
        self.draws[self.current_label] = self.draws.get(self.current_label, 0) + 1

    def act(self, game: Game, view: Any, player: int) -> int:
        """The move of this episode's opponent."""
        return int(self.current.act(game, view, player))

    # -- drawing --------------------------------------------------------------------------------
    def draw(self, rng: np.random.Generator) -> tuple[str, Agent]:
        """``(label, agent)`` of a freshly drawn opponent (see the class docstring for the mix)."""
        snapshots = self.available_snapshots()
        if snapshots and (not self.scripted or rng.random() < self.snapshot_share):
            latest = rng.random() < self.latest_share
            path = snapshots[-1] if latest else snapshots[int(rng.integers(len(snapshots)))]
            return path.name, self._snapshot_agent(path)
        if self.scripted:
            labels = list(self.scripted)
            label = labels[int(rng.integers(len(labels)))]
            return label, self.scripted[label]
        return "random", self.fallback

    def available_snapshots(self) -> list[Path]:
        """The newest ``max_snapshots`` snapshot files, oldest first; forgets cached agents of older ones."""
        snapshots = list_snapshots(self.directory)[-self.max_snapshots :]
        for stale in set(self.snapshots) - set(snapshots):
            del self.snapshots[stale]
        return snapshots

    def _snapshot_agent(self, path: Path) -> SB3Agent:
        if path not in self.snapshots:
            agent = SB3Agent.load(path, name=path.stem, seed=self._new_seed(), stochastic=self.stochastic_snapshots)
            self.snapshots[path] = agent
        return self.snapshots[path]

    def _new_seed(self) -> int:
        return int(self.rng.integers(2**31 - 1))


def _check_probability(name: str, value: float) -> None:
    if not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {value!r}")


class SnapshotCallback(BaseCallback):
    """Saves the learner to ``directory/snapshot_<steps>.zip`` (with sidecar) every ``every_steps`` steps.

    Args:
        directory: Where to write (created if missing).
        every_steps: Environment steps between snapshots (counted over all envs).
        game: The game, recorded in each snapshot's sidecar.
        save_at_start: Also save the untrained (or resumed) model when training starts.
    """

    def __init__(self, directory: str | Path, every_steps: int, game: Game, save_at_start: bool = False) -> None:
        super().__init__()
        if every_steps < 1:
            raise ValueError(f"every_steps must be >= 1, got {every_steps}")
        self.directory, self.every_steps, self.game = Path(directory), every_steps, game
        self.save_at_start = save_at_start
        self.saved: list[Path] = []
        self._next_save = every_steps

    def _on_training_start(self) -> None:
        self._next_save = (self.num_timesteps // self.every_steps + 1) * self.every_steps
        if self.save_at_start:
            self._save()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next_save:
            self._save()
            self._next_save = (self.num_timesteps // self.every_steps + 1) * self.every_steps
        return True

    def _save(self) -> None:
        path = save_model(self.model, snapshot_path(self.directory, self.num_timesteps), self.game)
        self.saved.append(path)


__all__ = ["SNAPSHOT_PATTERN", "SnapshotCallback", "SnapshotPool", "list_snapshots", "snapshot_path"]
