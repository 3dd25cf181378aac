"""Learning baselines with stable-baselines3: MaskablePPO and a masked DQN on the single-agent env.

Importing this package imports torch and SB3 (``pip install boardenvs[train]``); ``baselines`` itself does not.

- :mod:`baselines.learners.sb3.policies`: feature extractors chosen from the game's spec, ``policy_kwargs_for``,
  ``make_model``;
- :mod:`baselines.learners.sb3.ppo`: ``MaskedPPO``, a ``MaskablePPO`` whose ``SelfMaskingMultiInputPolicy`` masks
  with ``obs["action_mask"]`` when given no ``action_masks`` (SB3's ``evaluate_policy``, rl-zoo3, SuperSuit);
- :mod:`baselines.learners.sb3.dqn`: ``MaskedDQN`` (masks in the greedy choice, the TD target, ε-exploration, warm-up;
  its Q-network reads ``obs["action_mask"]`` too);
- :mod:`baselines.learners.sb3.evaluate`: ``evaluate_model`` (a model on the single-agent env with its masks: wins,
  draws, losses, mean return with a 95% interval, mean length, illegal moves);
- :mod:`baselines.learners.sb3.rl_zoo`: rl-zoo3's ``ppo_mask`` and hyperparameters for every game
  (``scripts/rl_zoo.py``);
- :mod:`baselines.learners.sb3.agent`: ``SB3Agent`` (a trained model as an arena agent);
- :mod:`baselines.learners.sb3.model_files`: the paths of a saved model's files (``.pt``, ``.json``, ``.zip``);
- :mod:`baselines.learners.sb3.model_card`: ``ModelCard`` (what a model was trained on) and reading it back;
- :mod:`baselines.learners.sb3.saving`: ``save_model`` (the safe files, then SB3's zip with the card inside);
- :mod:`baselines.learners.sb3.loading`: ``load_model`` (the safe files; a zip only with ``trusted=True``: SB3
  unpickles it), checked against the game;
- :mod:`baselines.learners.sb3.safe`: the safe format, a policy's tensors (``.pt``, ``torch.load(weights_only=True)``)
  and its JSON description, from which the policy is rebuilt without unpickling anything; its writer
  (:mod:`~baselines.learners.sb3.safe_writer`), checks (:mod:`~baselines.learners.sb3.safe_validation`) and reader
  (:mod:`~baselines.learners.sb3.safe_reader`), and :mod:`~baselines.learners.sb3.policy_model`, the loaded policy
  as a model an agent plays;
- :mod:`baselines.learners.sb3.convert`: a trusted zip to safe files, checked to play as the zip;
- :mod:`baselines.learners.sb3.selfplay`: ``SnapshotPool`` (per-episode opponent mix of scripted agents and learner
  snapshots) and ``SnapshotCallback``;
- :mod:`baselines.learners.sb3.training`: env factories and callbacks (arena evaluation, ``eval.csv`` and the
  learning-curve plot are :mod:`baselines.learners.evaluation`, shared with the RLlib trainer);
- :mod:`baselines.learners.sb3.runs`: a whole training run (``SB3Settings`` -> ``train``), with periodic
  evaluation, best/latest models and resuming; ``scripts/train_sb3.py`` is its command line.
"""

from baselines.learners.sb3.agent import SB3Agent
from baselines.learners.sb3.dqn import MASKED_Q_VALUE, MaskedDQN, MaskedDQNPolicy
from baselines.learners.sb3.evaluate import ModelEvaluation, evaluate_model
from baselines.learners.sb3.loading import load_model
from baselines.learners.sb3.model_card import ModelCard, read_model_card
from baselines.learners.sb3.policies import ALGORITHMS, PlanesExtractor, VectorExtractor, make_model, policy_kwargs_for
from baselines.learners.sb3.ppo import MaskedPPO, SelfMaskingMultiInputPolicy
from baselines.learners.sb3.saving import save_model
from baselines.learners.sb3.selfplay import SnapshotCallback, SnapshotPool

__all__ = [
    "ALGORITHMS",
    "MASKED_Q_VALUE",
    "MaskedDQN",
    "MaskedDQNPolicy",
    "MaskedPPO",
    "ModelCard",
    "ModelEvaluation",
    "PlanesExtractor",
    "SB3Agent",
    "SelfMaskingMultiInputPolicy",
    "SnapshotCallback",
    "SnapshotPool",
    "VectorExtractor",
    "evaluate_model",
    "load_model",
    "make_model",
    "policy_kwargs_for",
    "read_model_card",
    "save_model",
]
