"""Learning baselines with RLlib (new API stack): masked PPO with self-play, snapshots and scripted opponents.

Importing this package imports torch, not ray; what needs ray (``pip install "boardenvs[pipelines]"``) imports it
when called, and says so if it is missing. The evaluation log and plot are the learners' shared ones
(:mod:`baselines.learners.evaluation`, also the SB3 trainer's).

- :mod:`baselines.learners.rllib.env`: ``TableEnv``, the game as an RLlib ``MultiAgentEnv`` whose episodes are played
  at tables drawn from an ``OpponentMix`` (self-play, frozen snapshots, scripted agents inside the env);
- :mod:`baselines.learners.rllib.masked_ppo`: ``masked_ppo_config``, a ready masked self-play PPO config for any game
  (one shared module, a small CNN or MLP), and the module id ``SHARED_POLICY``;
- :mod:`baselines.learners.rllib.algorithm`: the ``PPOConfig`` (one trained module ``shared``, frozen
  ``snapshot_<k>`` modules), snapshot copies, the illegal-move metric, a local Ray;
- :mod:`baselines.learners.rllib.checkpoints`: run checkpoints with their ``RLlibCard``, written atomically;
- :mod:`baselines.learners.rllib.agent`: ``RLlibAgent``, a trained module as an arena agent (``rllib:`` in
  ``baselines.factory.make_agent``);
- :mod:`baselines.learners.rllib.runs`: a whole run (``RLlibSettings`` -> ``train``) with periodic checkpoints,
  evaluations and resuming; ``scripts/train_rllib.py`` is its command line.
"""

from baselines.learners.rllib.agent import RLlibAgent
from baselines.learners.rllib.checkpoints import RLlibCard
from baselines.learners.rllib.env import TableEnv, module_for_agent
from baselines.learners.rllib.masked_ppo import SHARED_POLICY, masked_ppo_config
from baselines.learners.rllib.settings import RLlibSettings
from baselines.learners.runner.opponents import OpponentMix

__all__ = [
    "SHARED_POLICY",
    "OpponentMix",
    "RLlibAgent",
    "RLlibCard",
    "RLlibSettings",
    "TableEnv",
    "masked_ppo_config",
    "module_for_agent",
]
