"""Training plumbing: picklable env factories, vectorised envs and the callbacks the trainer uses.

Env factories are module-level functions bound with ``functools.partial`` (picklable, so they work with
``SubprocVecEnv``, whose workers start fresh processes). The opponents of a training env are described by the
run skeleton's frozen :class:`~baselines.learners.runner.OpponentMix` and built inside the worker as a
:class:`~baselines.learners.sb3.selfplay.SnapshotPool` (:func:`snapshot_pool`). The learner's seat is random each
episode; the reward is always the learner's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium
import torch
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from baselines.learners.runner.opponents import OpponentMix
from baselines.learners.sb3.selfplay import SnapshotPool
from baselines.learners.shaping import PotentialShaping
from boardenvs.single_agent import SingleAgentEnv

VEC_ENV_KINDS: tuple[str, ...] = ("dummy", "subproc")
"""``"dummy"``: every env in this process; ``"subproc"``: one worker process per env."""


def snapshot_pool(opponents: OpponentMix, game_name: str) -> SnapshotPool:
    """The opponent agent object of one env: ``opponents``' scripted agents and its snapshot files."""
    return SnapshotPool(
        game_name,
        opponents.snapshot_dir,
        scripted=opponents.scripted,
        snapshot_share=opponents.snapshot_share,
        latest_share=opponents.latest_share,
        max_snapshots=opponents.max_snapshots,
    )


def make_training_env(
    game_name: str, config: dict[str, Any], opponents: OpponentMix, shaping: float = 0.0, gamma: float = 0.99
) -> gymnasium.Env:
    """One single-agent env (random learner seat) against ``opponents``, wrapped in SB3's ``Monitor``.

    ``shaping`` > 0 adds potential-based shaping from the game's heuristic with that weight and discount ``gamma``
    (:class:`~baselines.learners.shaping.PotentialShaping`, outside the ``Monitor``: the episode returns it logs
    stay the game's). Sets ``torch.set_num_threads(1)`` in the calling process: snapshot opponents run small
    networks, and a worker process should not compete for cores.
    """
    torch.set_num_threads(1)
    env: gymnasium.Env = Monitor(
        SingleAgentEnv(game_name, opponent=snapshot_pool(opponents, game_name), learner_seat=None, **config)
    )
    return PotentialShaping(env, shaping, gamma) if shaping else env


def make_vec_env(
    game_name: str,
    config: dict[str, Any],
    opponents: OpponentMix,
    n_envs: int = 1,
    vec: str = "dummy",
    shaping: float = 0.0,
    gamma: float = 0.99,
) -> VecEnv:
    """``n_envs`` training envs in a ``DummyVecEnv`` or ``SubprocVecEnv`` (seeded by the model's seed); ``shaping``
    and ``gamma`` as in :func:`make_training_env`.

    With ``vec="subproc"`` the calling script must guard its entry point with ``if __name__ == "__main__":``.
    """
    if vec not in VEC_ENV_KINDS:
        raise ValueError(f"vec must be one of {list(VEC_ENV_KINDS)}, got {vec!r}")
    factories: list[Callable[[], gymnasium.Env]] = [
        partial(make_training_env, game_name, dict(config), opponents, shaping, gamma) for _ in range(n_envs)
    ]
    return SubprocVecEnv(factories) if vec == "subproc" else DummyVecEnv(factories)


# -- callbacks ------------------------------------------------------------------------------------
class IllegalActionCounter(BaseCallback):
    """Counts the training steps whose info reports an illegal action, and the finished episodes."""

    def __init__(self) -> None:
        super().__init__()
        self.illegal = 0
        self.episodes = 0

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"]):
            self.illegal += int(bool(info.get("illegal_action", False)))
            self.episodes += int(bool(done))
        return True


class PeriodicCallback(BaseCallback):
    """Calls ``action(model)`` each time the step counter passes a multiple of ``every_steps``.

    Args:
        every_steps: Steps between calls (over all envs).
        action: Called with the model.
    """

    def __init__(self, every_steps: int, action: Callable[[BaseAlgorithm], None]) -> None:
        super().__init__()
        if every_steps < 1:
            raise ValueError(f"every_steps must be >= 1, got {every_steps}")
        self.every_steps, self.action = every_steps, action
        self._next_call = every_steps

    def _on_training_start(self) -> None:
        self._next_call = (self.num_timesteps // self.every_steps + 1) * self.every_steps

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next_call:
            self.action(self.model)
            self._next_call = (self.num_timesteps // self.every_steps + 1) * self.every_steps
        return True


class TqdmCallback(BaseCallback):
    """A tqdm progress bar over the steps of one ``learn`` call (SB3's own bar needs ``rich``).

    Args:
        total_steps: Steps this ``learn`` call will take.
        description: The bar's label.
        status: Called at each update for the bar's postfix text (e.g. the latest evaluation).
        update_every: Refresh the bar every this many steps at most.
    """

    def __init__(
        self,
        total_steps: int,
        description: str = "training",
        status: Callable[[], str] | None = None,
        update_every: int = 256,
    ) -> None:
        super().__init__()
        self.total_steps, self.description, self.status = total_steps, description, status
        self.update_every = update_every
        self.bar: Any = None
        self._start = 0
        self._shown = 0

    def _on_training_start(self) -> None:
        from tqdm import tqdm

        self._start, self._shown = self.num_timesteps, 0
        self.bar = tqdm(total=self.total_steps, desc=self.description, unit="step", dynamic_ncols=True)

    def _on_step(self) -> bool:
        done = min(self.num_timesteps - self._start, self.total_steps)
        if done - self._shown >= self.update_every or done == self.total_steps:
            self.bar.update(done - self._shown)
            self._shown = done
            if self.status is not None:
                self.bar.set_postfix_str(self.status(), refresh=False)
        return True

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.update(min(self.num_timesteps - self._start, self.total_steps) - self._shown)
            self.bar.close()
            self.bar = None


__all__ = [
    "IllegalActionCounter",
    "OpponentMix",
    "PeriodicCallback",
    "TqdmCallback",
    "VEC_ENV_KINDS",
    "make_training_env",
    "make_vec_env",
    "snapshot_pool",
]
