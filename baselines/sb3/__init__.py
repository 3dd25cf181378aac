"""Learning baselines with stable-baselines3: MaskablePPO and a masked DQN on the single-agent env.

Importing this package imports torch and SB3 (``pip install boardenvs[train]``); ``baselines`` itself does not.

- :mod:`baselines.sb3.policies`: feature extractors chosen from the game's spec, ``policy_kwargs_for``,
  ``make_model``;
- :mod:`baselines.sb3.dqn`: ``MaskedDQN`` (masks in the greedy choice, the TD target, ε-exploration, warm-up);
- :mod:`baselines.sb3.agent`: ``SB3Agent`` (a trained model as an arena agent), ``save_model``/``load_model``
  with a JSON sidecar;
- :mod:`baselines.sb3.selfplay`: ``SnapshotPool`` (per-episode opponent mix of scripted agents and learner
  snapshots) and ``SnapshotCallback``;
- :mod:`baselines.sb3.training` and :mod:`baselines.sb3.evaluation`: env factories, callbacks, arena
  evaluation, ``eval.csv`` and the learning-curve plot used by ``scripts/train_sb3.py``.
"""

from baselines.sb3.agent import ModelCard, SB3Agent, load_model, read_model_card, save_model
from baselines.sb3.dqn import MASKED_Q_VALUE, MaskedDQN, MaskedDQNPolicy
from baselines.sb3.policies import ALGORITHMS, PlanesExtractor, VectorExtractor, make_model, policy_kwargs_for
from baselines.sb3.selfplay import SnapshotCallback, SnapshotPool

__all__ = [
    "ALGORITHMS",
    "MASKED_Q_VALUE",
    "MaskedDQN",
    "MaskedDQNPolicy",
    "ModelCard",
    "PlanesExtractor",
    "SB3Agent",
    "SnapshotCallback",
    "SnapshotPool",
    "VectorExtractor",
    "load_model",
    "make_model",
    "policy_kwargs_for",
    "read_model_card",
    "save_model",
]
