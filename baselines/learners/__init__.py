"""Agents that learn: their training, and the trained agents that play from a file.

* :mod:`.tabular_q`: generic tabular Q-learning for every game (``make_agent("tabular_q:table=<path.npz>")``).
* :mod:`.sb3`: MaskablePPO and a masked DQN on the single-agent environment, with self-play and training runs
  (needs torch and stable-baselines3; ``make_agent("sb3:<model.zip>")``).
* :mod:`.rllib`: RLlib masked PPO with self-play, snapshots or scripted opponents (needs ray[rllib];
  ``make_agent("rllib:<run folder>")``).
* :mod:`.evaluation`: what the SB3 and RLlib trainers share: arena evaluation of the learner, ``eval.csv`` and the
  learning-curve plot.
* :mod:`.alphazero`: AlphaZero, a policy-value network searched by MCTS (needs torch;
  ``make_agent("alphazero:checkpoint=<path.pt>")``).

* :mod:`.qlnn`: seed 004's Q-learning neural network (``make_agent("qlnn", "quoridor")``; needs torch).
* :mod:`.gravwell_q`, :mod:`.neuroevolution`: seed 000's tabular Q-learning and evolved network for Gravwell
  (``qlearning``, ``neuroevolution``); :mod:`.sheep_q`: seed 003's tabular Q for Battle Sheep (``qlearning``).

Importing this package registers the trained agents with :mod:`baselines.factory`, as loaders: torch, SB3 and Ray
are imported only when such an agent is asked for (a missing one is an ``ImportError`` naming the extra).
"""

from __future__ import annotations

from baselines.agent import Agent, BaseAgent, SeedLike
from baselines.factory import RLLIB_PREFIX, SB3_PREFIX, model_path_of, register_agent, register_prefix
from baselines.learners import gravwell_q, neuroevolution, sheep_q  # noqa: F401  (register their agents)


def _alphazero() -> type[BaseAgent]:
    from baselines.learners.alphazero.agent import AlphaZeroAgent

    return AlphaZeroAgent


def _tabular_q() -> type[BaseAgent]:
    from baselines.learners.tabular_q import TabularQAgent

    return TabularQAgent


def _qlnn() -> type[BaseAgent]:
    from baselines.learners.qlnn import QLNNAgent

    return QLNNAgent


def _ppo() -> type[BaseAgent]:
    from baselines.learners.sb3.pretrained import PretrainedPPOAgent

    return PretrainedPPOAgent


def _dqn() -> type[BaseAgent]:
    from baselines.learners.sb3.pretrained import PretrainedDQNAgent

    return PretrainedDQNAgent


def build_sb3_agent(spec: str, game_name: str, seed: SeedLike) -> Agent:
    """The SB3 model an ``"sb3:[unsafe:]<path>"`` spec names (needs torch and SB3)."""
    from baselines.learners.sb3.agent import SB3Agent

    path, trusted = model_path_of(spec, SB3_PREFIX)
    return SB3Agent.load(path, seed=seed, name=spec, game_name=game_name, trusted=trusted)


def build_rllib_agent(spec: str, game_name: str, seed: SeedLike) -> Agent:
    """The RLlib module an ``"rllib:unsafe:<checkpoint or run folder>"`` spec names (needs ray[rllib])."""
    from baselines.learners.rllib.agent import RLlibAgent, check_trusted

    path, trusted = model_path_of(spec, RLLIB_PREFIX)
    check_trusted(path, trusted)
    return RLlibAgent.load(path, seed=seed, name=spec, game_name=game_name)


register_agent("alphazero", _alphazero, listed=False, pretrained_setting="checkpoint")
register_agent("tabular_q", _tabular_q, listed=False)
register_agent("qlnn", _qlnn, listed=False)
register_agent("ppo", _ppo, listed=False, pretrained_setting="model")
register_agent("dqn", _dqn, listed=False, pretrained_setting="model")
register_prefix(SB3_PREFIX, build_sb3_agent)
register_prefix(RLLIB_PREFIX, build_rllib_agent)
