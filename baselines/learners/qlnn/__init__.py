"""Seed 004's Q-learning neural network (§2.2, §4.7, §4.8): :class:`QLNNAgent` and :func:`train`.

A training run (its folder, arena evaluation and curves) is :func:`.runs.run`, on the shared run skeleton
(:mod:`baselines.learners.runner`).

* **Network.** An MLP from the acting seat's flattened observation (``game.observe(view, player)``) to one
  value per action of the game. The agent plays the legal action of largest value (illegal actions masked;
  the thesis tries the best action and then the next best until one is legal, which is the same move).
* **Target (thesis eq. 2.2).** At each decision of the learner, the desired output vector is a copy of the
  network's output in which only the played action's value is replaced: by the final return when the game
  ended before the learner's next turn, else by ``r + γ max_{a' legal} Q(s', a')`` in the position where the
  learner is on the move again. The loss is the squared error on that one output, so only the played
  action's output row of the last layer receives a gradient.
* **Thesis mode** (the defaults): one SGD step per decision, on that decision alone, no target network, no
  replay, terminal rewards only. **Learning mode** adds what it takes: a replay buffer (``replay`` > 0) with
  mini-batches, a target network (``target_sync`` > 0), Adam, and potential-based shaping by the
  path-length difference (``shaping`` > 0; games with ``distance_to_goal``, i.e. Quoridor).
* **Exploration** is ε-greedy over the legal actions, ε decaying linearly from ``epsilon`` to
  ``epsilon_final`` over the first ``epsilon_decay`` share of the episodes (:class:`baselines.schedules.LinearDecay`).

A network is saved as one ``.pt`` file (weights plus the game identity and the settings); ``make_agent(
"qlnn:weights=<path.pt>", game)`` plays any such file, and ``make_agent("qlnn", "quoridor")`` the network
shipped in this package's ``models/`` folder for the game's config (see :data:`SHIPPED`).

The modules: :mod:`.settings` (:class:`QLNNSettings`), :mod:`.network` (:class:`QNetwork`, its file, the shipped
networks), :mod:`.agent` (:class:`QLNNAgent`), :mod:`.learner` (:class:`QLNNLearner`, one training game),
:mod:`.training` (:func:`train`, :class:`QLNNPoint`).
"""

from baselines.learners.qlnn.agent import QLNNAgent
from baselines.learners.qlnn.learner import QLNNLearner, Transition, play_training_episode, potential
from baselines.learners.qlnn.network import (
    FORMAT,
    FORMAT_VERSION,
    MODELS_DIR,
    SHIPPED,
    QNetwork,
    build_network,
    observation_vector,
    shipped_network,
)
from baselines.learners.qlnn.settings import ACTIVATIONS, OPTIMIZERS, QLNNSettings
from baselines.learners.qlnn.training import QLNNPoint, QLNNRun, evaluation_point, train

__all__ = [
    "ACTIVATIONS",
    "FORMAT",
    "FORMAT_VERSION",
    "MODELS_DIR",
    "OPTIMIZERS",
    "SHIPPED",
    "QLNNAgent",
    "QLNNLearner",
    "QLNNPoint",
    "QLNNRun",
    "QLNNSettings",
    "QNetwork",
    "Transition",
    "build_network",
    "evaluation_point",
    "observation_vector",
    "play_training_episode",
    "potential",
    "shipped_network",
    "train",
]
