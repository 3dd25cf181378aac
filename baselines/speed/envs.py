"""Random-play speed of the environments: the PettingZoo AEC loop (raw and wrapped), ``gymnasium.make`` and
``gymnasium.make_vec`` against random opponents."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from baselines.speed.timing import Measurement, Uniforms, legal_ids, timed


def gymnasium_env(name: str, config: dict[str, Any], seconds: float, seed: int) -> Measurement:
    """``gymnasium.make`` (standard wrappers) against random opponents; every ply counts, the opponents' too."""
    import gymnasium

    from boardenvs.envs import gym_env_id

    env = gymnasium.make(gym_env_id(name), opponent="random", **config)
    uniforms = Uniforms(seed)
    episode = [seed]

    def play() -> int:
        observation, info = env.reset(seed=episode[0])
        episode[0] += 1
        done = False
        while not done:
            action = int(uniforms.pick(legal_ids(observation["action_mask"])))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        return int(env.unwrapped.game_state.ply)

    return timed(f"{name} gymnasium.make", seconds, play)


def vector_env(name: str, config: dict[str, Any], seconds: float, seed: int, workers: int = 2) -> Measurement:
    """``gymnasium.make_vec`` with ``workers`` subprocesses (``vectorization_mode="async"``), random opponents and
    random legal actions; counts learner steps (the opponents' plies run inside the workers)."""
    import gymnasium

    from boardenvs.envs import gym_env_id

    envs = gymnasium.make_vec(
        gym_env_id(name), num_envs=workers, vectorization_mode="async", opponent="random", **config
    )
    rng = np.random.default_rng(seed)
    observations, _ = envs.reset(seed=seed)
    try:
        start = time.perf_counter()
        steps = episodes = 0
        while time.perf_counter() - start < seconds:
            legal = [legal_ids(mask) for mask in observations["action_mask"]]
            # an ended episode shows an empty mask; its next step is the automatic reset and ignores the action
            actions = np.array([rng.choice(ids) if len(ids) else 0 for ids in legal])
            observations, _, terminated, truncated, _ = envs.step(actions)
            steps += sum(len(ids) > 0 for ids in legal)
            episodes += int(np.sum(terminated | truncated))
        seconds_taken = time.perf_counter() - start
        return Measurement(f"{name} make_vec async x{workers} (learner steps)", steps, episodes, seconds_taken)
    finally:
        envs.close()


def aec_env(name: str, config: dict[str, Any], seconds: float, seed: int, wrapped: bool) -> Measurement:
    """The PettingZoo AEC loop (``last`` + ``step``), with or without the standard wrappers."""
    from boardenvs.aec import env as wrapped_env
    from boardenvs.aec import raw_env

    env = wrapped_env(name, **config) if wrapped else raw_env(name, **config)
    uniforms = Uniforms(seed)
    episode = [seed]

    def play() -> int:
        env.reset(seed=episode[0])
        episode[0] += 1
        plies = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(uniforms.pick(legal_ids(obs["action_mask"])))
            env.step(action)
            plies += action is not None
        return plies

    label = "AEC env()" if wrapped else "AEC raw_env"
    return timed(f"{name} {label}", seconds, play)
