"""The network and learning settings of Seed 004's Q-learning network (:class:`QLNNSettings`)."""

from __future__ import annotations

from dataclasses import dataclass

from baselines.params import choice_param, float_param, int_param
from baselines.schedules import LinearDecay

ACTIVATIONS = ("sigmoid", "tanh", "relu")
OPTIMIZERS = ("sgd", "adam")


@dataclass(frozen=True)
class QLNNSettings:
    """Network and learning settings; a bad field raises ``ValueError`` naming it.

    Attributes:
        hidden: hidden layer widths (the thesis' fig. 5.1: 160, 187).
        activation: hidden activation, ``sigmoid`` (thesis era), ``tanh`` or ``relu``.
        optimizer: ``sgd`` (plain, the thesis' "network learning rate") or ``adam``.
        learning_rate: the optimizer's step size.
        discount: ``γ`` per own decision (the thesis gives no value).
        epsilon, epsilon_final, epsilon_decay: ε-greedy from ``epsilon`` to ``epsilon_final``, linearly over the
            first ``epsilon_decay`` share of the episodes.
        shaping: weight of the potential-based reward ``γΦ(s') - Φ(s)``, ``Φ = (d_opp - d_me) / cells`` (0: none).
        replay: replay buffer size (0: one update per decision on that decision alone, as the thesis).
        batch_size: mini-batch size with replay.
        target_sync: copy the network into the target network every this many updates (0: no target network).
    """

    hidden: tuple[int, ...] = (160, 187)
    activation: str = "sigmoid"
    optimizer: str = "sgd"
    learning_rate: float = 0.01
    discount: float = 0.9
    epsilon: float = 1.0
    epsilon_final: float = 0.05
    epsilon_decay: float = 1.0
    shaping: float = 0.0
    replay: int = 0
    batch_size: int = 64
    target_sync: int = 0

    def __post_init__(self) -> None:
        hidden = tuple(int_param("hidden", width, 1) for width in self.hidden)
        checked = {
            "hidden": hidden,
            "activation": choice_param("activation", self.activation, ACTIVATIONS),
            "optimizer": choice_param("optimizer", self.optimizer, OPTIMIZERS),
            "learning_rate": float_param("learning_rate", self.learning_rate, 0.0, positive=True),
            "discount": float_param("discount", self.discount, 0.0, 1.0),
            "epsilon": float_param("epsilon", self.epsilon, 0.0, 1.0),
            "epsilon_final": float_param("epsilon_final", self.epsilon_final, 0.0, 1.0),
            "epsilon_decay": float_param("epsilon_decay", self.epsilon_decay, 0.0, 1.0, positive=True),
            "shaping": float_param("shaping", self.shaping, 0.0),
            "replay": int_param("replay", self.replay, 0),
            "batch_size": int_param("batch_size", self.batch_size, 1),
            "target_sync": int_param("target_sync", self.target_sync, 0),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @property
    def epsilon_schedule(self) -> LinearDecay:
        """ε over the training episodes: from ``epsilon`` to ``epsilon_final`` over the first ``epsilon_decay``."""
        return LinearDecay(self.epsilon, self.epsilon_final, self.epsilon_decay)
