"""The network and learning settings of Seed 004's Q-learning network (:class:`QLNNSettings`)."""

from __future__ import annotations

from dataclasses import dataclass

from baselines.params import choice_param, float_param, int_param
from baselines.schedules import LinearDecay
from baselines.settings import COUNT_OR_ZERO, FRACTION, Range, setting

ACTIVATIONS = ("sigmoid", "tanh", "relu")
OPTIMIZERS = ("sgd", "adam")


@dataclass(frozen=True)
class QLNNSettings:
    """Network and learning settings; a bad field raises ``ValueError`` naming it. The fields are
    ``scripts/train_qlnn.py``'s network and learning options (the ranges in their ``metadata`` bound the command
    line)."""

    hidden: tuple[int, ...] = setting((160, 187), Range(1, 10**6))
    """Hidden layer widths (the thesis' fig. 5.1: 160, 187); on the command line comma-separated (128,128)."""
    activation: str = "sigmoid"
    """Hidden activation: sigmoid (thesis era), tanh or relu."""
    optimizer: str = "sgd"
    """sgd (plain, the thesis' "network learning rate") or adam."""
    learning_rate: float = setting(0.01, Range(0.0, 10.0, open_low=True))
    """The optimizer's step size."""
    discount: float = setting(0.9, FRACTION)
    """Discount γ per own decision (the thesis gives no value)."""
    epsilon: float = setting(1.0, FRACTION)
    """ε of the ε-greedy policy at the start."""
    epsilon_final: float = setting(0.05, FRACTION)
    """ε at the end of the decay."""
    epsilon_decay: float = setting(1.0, Range(0.0, 1.0, open_low=True))
    """Share of the episodes over which ε decays linearly from epsilon to epsilon_final."""
    shaping: float = setting(0.0, Range(0.0, 1e6))
    """Weight of the potential-based reward γΦ(s') - Φ(s), Φ = (d_opp - d_me) / cells, the path-length
    difference (0: terminal reward only)."""
    replay: int = setting(0, COUNT_OR_ZERO)
    """Replay buffer size (0: one online update per decision on that decision alone, as the thesis)."""
    batch_size: int = setting(64, Range(1, 10**6))
    """Mini-batch size with replay."""
    target_sync: int = setting(0, COUNT_OR_ZERO)
    """Copy the network into the target network every this many updates (0: no target network)."""

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
