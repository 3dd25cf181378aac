"""Evaluating an SB3 model on the single-agent env with its action masks: wins, draws, losses and illegal moves.

SB3's ``evaluate_policy`` reports a mean and a standard deviation of returns, passes no action masks and says
nothing of how episodes ended. :func:`evaluate_model` plays ``n_episodes`` on a boardenvs single-agent env with
``model.predict(obs, action_masks=env.action_masks(), deterministic=...)`` (models whose ``predict`` takes no
``action_masks``, such as SB3's plain PPO or DQN, are called without, and their illegal moves are counted) and
returns a :class:`ModelEvaluation`: wins, draws and losses (the learner's result in the game; an episode that an
illegal move ended, with ``illegal_action_penalty``, is a loss), the mean return with a 95% interval, the win rate with
its Wilson interval, the mean length and the number of illegal moves (those that ended an episode and, with the env's
``illegal_action="replace"``, those replaced by a random legal move while the game went on).

Episodes are those of SB3's ``evaluate_policy`` on ``make_vec_env(env_id, n_envs=1, seed=seed)`` (which is also
how rl-zoo3 builds its evaluation env): the first reset is seeded with ``seed``, each later episode goes on with the
env's generator. With a deterministic policy the returns are therefore exactly those SB3's ``evaluate_policy``,
sb3-contrib's masked one and rl-zoo3's ``EvalCallback`` report for the same seed.

Example:
    >>> from baselines.learners.sb3.pretrained import load_pretrained  # doctest: +SKIP
    >>> model, card = load_pretrained(make_game("quoridor", board_size=5))  # doctest: +SKIP
    >>> print(evaluate_model(model, "quoridor", 200, seed=0, board_size=5))  # doctest: +SKIP
    200 episodes: 199 wins, 0 draws, 1 losses (win rate 0.995 [0.972, 0.999]); mean return 0.990 [0.970, 1.000] ...
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np

from baselines.arena.ratings import Z_95, wilson_interval
from boardenvs.envs import gym_env_id
from boardenvs.registry import list_games


@dataclass(frozen=True)
class ModelEvaluation:
    """The results of :func:`evaluate_model`.

    Attributes:
        returns: Each episode's return (the sum of its rewards, as SB3's ``evaluate_policy`` reports it), in order.
        lengths: Each episode's number of learner steps.
        outcomes: Each episode's result for the learner: 1 a win (alone, or shared by fewer than all), 0 a draw, -1 a
            loss (an episode ended by an illegal move included).
        illegal_moves: Illegal moves played (steps whose info has ``illegal_action``).
    """

    returns: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    outcomes: list[int] = field(default_factory=list)
    illegal_moves: int = 0

    @property
    def episodes(self) -> int:
        return len(self.returns)

    @property
    def wins(self) -> int:
        return self.outcomes.count(1)

    @property
    def draws(self) -> int:
        return self.outcomes.count(0)

    @property
    def losses(self) -> int:
        """Lost episodes, those an illegal move ended included."""
        return self.outcomes.count(-1)

    @property
    def mean_return(self) -> float:
        return float(np.mean(self.returns)) if self.returns else math.nan

    @property
    def return_interval(self) -> tuple[float, float]:
        """The 95% interval of the mean return: the normal approximation (the sample standard deviation), clipped to
        the range of the returns seen (a mean of game outcomes in [-1, 1] stays in it). Zero width when every episode
        returned the same: :attr:`win_interval` is then the better guide."""
        if self.episodes < 2:
            return (self.mean_return, self.mean_return)
        half = Z_95 * float(np.std(self.returns, ddof=1)) / math.sqrt(self.episodes)
        low, high = min(self.returns), max(self.returns)
        return (max(self.mean_return - half, low), min(self.mean_return + half, high))

    @property
    def win_rate(self) -> float:
        return self.wins / self.episodes if self.episodes else math.nan

    @property
    def win_interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win rate."""
        return wilson_interval(self.wins, self.episodes)

    @property
    def mean_length(self) -> float:
        return float(np.mean(self.lengths)) if self.lengths else math.nan

    def __str__(self) -> str:
        low, high = self.return_interval
        win_low, win_high = self.win_interval
        return (
            f"{self.episodes} episodes: {self.wins} wins, {self.draws} draws, {self.losses} losses (win rate "
            f"{self.win_rate:.3f} [{win_low:.3f}, {win_high:.3f}]); mean return {self.mean_return:.3f} "
            f"[{low:.3f}, {high:.3f}]; mean length {self.mean_length:.1f}; illegal moves {self.illegal_moves}"
        )


def make_eval_env(env_or_id: gymnasium.Env | str, opponent: Any = None, **env_kwargs: Any) -> gymnasium.Env:
    """``env_or_id`` itself if it is an env, else ``gymnasium.make`` of that id (a Gymnasium id such as
    ``"boardenvs/Quoridor-v0"`` or a game name such as ``"quoridor"``) with ``opponent`` (unless ``None``) and
    ``env_kwargs`` (the game's config, e.g. ``board_size=5``).

    Raises:
        ValueError: an env is given together with ``opponent`` or ``env_kwargs`` (they configure a new env).
    """
    if isinstance(env_or_id, gymnasium.Env):
        if opponent is not None or env_kwargs:
            raise ValueError("opponent and env kwargs configure a new env: give an env id or game name with them")
        return env_or_id
    env_id = gym_env_id(env_or_id) if env_or_id in list_games() else env_or_id
    kwargs = dict(env_kwargs) if opponent is None else {"opponent": opponent, **env_kwargs}
    return gymnasium.make(env_id, **kwargs)


def evaluate_model(
    model: Any,
    env_or_id: gymnasium.Env | str,
    n_episodes: int = 100,
    seed: int | None = 0,
    deterministic: bool = True,
    opponent: Any = None,
    **env_kwargs: Any,
) -> ModelEvaluation:
    """Play ``n_episodes`` of ``model`` on a single-agent env with its action masks (see the module).

    Args:
        model: Anything with SB3's ``predict(obs, state, episode_start, deterministic)``: ``MaskablePPO`` (ours or
            sb3-contrib's), ``MaskedDQN``, a model from :func:`~baselines.learners.sb3.loading.load_model`; given
            ``action_masks`` when its ``predict`` takes them.
        env_or_id: A single-agent env (any Gymnasium wrappers), or a Gymnasium id or game name to make one.
        n_episodes: Episodes to play.
        seed: The first reset's seed (later episodes go on with the env's generator); ``None``: unseeded.
        deterministic: Passed to ``predict``.
        opponent: With an id or game name: the env's ``opponent`` (``"random"``, ``"heuristic"``, an agent...);
            ``None``: the env's default.
        **env_kwargs: With an id or game name: the game's config and other env arguments.

    Raises:
        ValueError: ``n_episodes`` < 1, or an env given with ``opponent``/``env_kwargs``.
    """
    if isinstance(n_episodes, bool) or not isinstance(n_episodes, int) or n_episodes < 1:
        raise ValueError(f"n_episodes must be an int >= 1, got {n_episodes!r}")
    env = make_eval_env(env_or_id, opponent, **env_kwargs)
    takes_masks = "action_masks" in inspect.signature(model.predict).parameters
    returns: list[float] = []
    lengths: list[int] = []
    outcomes: list[int] = []
    illegal = 0
    observation, _ = env.reset(seed=seed)
    while len(returns) < n_episodes:
        total, length, done, info = 0.0, 0, False, {}
        while not done:
            extra = {"action_masks": _action_masks(env, observation)} if takes_masks else {}
            action, _ = model.predict(observation, deterministic=deterministic, **extra)
            observation, reward, terminated, truncated, info = env.step(int(np.asarray(action).reshape(-1)[0]))
            total, length, done = total + float(reward), length + 1, terminated or truncated
            illegal += int(bool(info.get("illegal_action", False)))
        returns.append(total)
        lengths.append(length)
        outcomes.append(_outcome(env, info, total))
        if len(returns) < n_episodes:
            observation, _ = env.reset()
    return ModelEvaluation(returns, lengths, outcomes, illegal)


def _outcome(env: gymnasium.Env, info: dict[str, Any], total: float) -> int:
    """The learner's result in the episode just ended: the sign of its return in the game (a boardenvs env), -1 if an
    illegal move ended it, else the sign of the episode's return (another env)."""
    unwrapped = env.unwrapped
    game, state = getattr(unwrapped, "game", None), getattr(unwrapped, "game_state", None)
    seat = getattr(unwrapped, "learner_seat", None)
    if game is not None and state is not None and seat is not None and game.is_terminal(state):
        return int(np.sign(float(game.returns(state)[seat])))
    if info.get("illegal_action", False):
        return -1
    return int(np.sign(total))


def _action_masks(env: gymnasium.Env, observation: Any) -> np.ndarray:
    """The env's ``action_masks()`` (through any wrappers), else the observation's ``action_mask``."""
    try:
        return np.asarray(env.get_wrapper_attr("action_masks")(), dtype=bool)
    except AttributeError:
        return np.asarray(observation["action_mask"]) > 0


__all__ = ["ModelEvaluation", "Z_95", "evaluate_model", "make_eval_env"]
