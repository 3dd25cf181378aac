"""AlphaZero (seed 001 §4.2): a policy-value network, PUCT search through
:class:`baselines.search.mcts.MCTSAgent`, self-play, training with checkpoints and evaluation against other agents.

* :mod:`.network`: :class:`PolicyValueNet` (residual convolutions for plane observations, an MLP for vectors),
  a masked policy head and a value head with one output per seat, in the observer's seat order.
* :mod:`.evaluator`: :class:`NetworkEvaluator`, the MCTS leaf evaluator (priors and per-player values).
* :mod:`.selfplay`: games of the search against itself, recorded as training examples (with the game's
  symmetries as augmentation).
* :mod:`.trainer`: :class:`AlphaZeroTrainer`, iterations of self-play, training, gating and evaluation.
* :mod:`.agent`: :class:`AlphaZeroAgent`, a checkpoint as an agent (``make_agent("alphazero:checkpoint=...")``).

Needs torch (the ``[sb3]`` or ``[dev]`` extra).
"""

from baselines.learners.alphazero.agent import AlphaZeroAgent
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import NetworkConfig, PolicyValueNet, load_checkpoint, save_checkpoint
from baselines.learners.alphazero.selfplay import Example, SelfPlaySettings, play_selfplay_game
from baselines.learners.alphazero.trainer import AlphaZeroSettings, AlphaZeroTrainer

__all__ = [
    "AlphaZeroAgent",
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
