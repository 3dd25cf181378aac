"""AlphaZero (seed 001 §4.2, with Gumbel AlphaZero's root search): a policy-value network, Gumbel or PUCT search
through :class:`baselines.search.mcts.MCTSAgent`, self-play, resumable training with checkpoints and evaluation
against other agents, and networks shipped with the package.

* :mod:`.network`: :class:`PolicyValueNet` (residual convolutions for plane observations, an MLP for vectors),
  a masked policy head, a value head and an auxiliary score head with one output per seat, in the observer's
  seat order; checkpoints written atomically.
* :mod:`.evaluator`: :class:`NetworkEvaluator`, the MCTS leaf evaluator (priors and per-player values).
* :mod:`.selfplay`: games of the search against itself, recorded as training examples (with the game's
  symmetries as augmentation).
* :mod:`.trainer`: :class:`AlphaZeroTrainer`, iterations of self-play, training, gating and evaluation on the
  shared run skeleton (:mod:`baselines.learners.runner`); ``resume`` continues a killed run; ``result()`` is its
  :class:`AlphaZeroRunResult`.
* :mod:`.agent`: :class:`AlphaZeroAgent`, a checkpoint as an agent (``make_agent("alphazero:checkpoint=...")``,
  ``make_agent("alphazero:pretrained", game)``).
* :mod:`.pretrained`: the shipped networks.

Needs torch (the ``[sb3]`` or ``[dev]`` extra).
"""

from baselines.learners.alphazero.agent import AlphaZeroAgent
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import NetworkConfig, PolicyValueNet, load_checkpoint, save_checkpoint
from baselines.learners.alphazero.selfplay import Example, SelfPlaySettings, play_selfplay_game
from baselines.learners.alphazero.trainer import AlphaZeroRunResult, AlphaZeroSettings, AlphaZeroTrainer

__all__ = [
    "AlphaZeroAgent",
    "AlphaZeroRunResult",
    "AlphaZeroSettings",
    "AlphaZeroTrainer",
    "Example",
    "NetworkConfig",
    "NetworkEvaluator",
    "PolicyValueNet",
    "SelfPlaySettings",
    "load_checkpoint",
    "play_selfplay_game",
    "save_checkpoint",
]
