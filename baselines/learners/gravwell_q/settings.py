"""The learning settings of Gravwell's tabular Q-learning (:class:`GravwellQSettings`, paper Table 1)."""

from __future__ import annotations

from dataclasses import dataclass

from baselines.settings import FRACTION, POSITIVE, Range, setting

REPRESENTATIONS = (144, 864)
REWARD_TIMINGS = ("turn", "round")


@dataclass(frozen=True)
class GravwellQSettings:
    """Learning settings (paper Table 1 defaults; the temperature is not given in the paper). The fields are
    ``scripts/train_gravwell_q.py``'s learning options (the ranges in their ``metadata`` bound the command line).

    Attributes:
        representation: 144 (relative positions) or 864 (also the turn).
        temperature: Boltzmann temperature ``T`` (> 0).
        learning_rate: ``α`` in (0, 1].
        discount: ``λ`` in [0, 1].
        negative_factor: ``γ`` in [1, 10], multiplies backward movement.
        reward_timing: "turn" (each turn) or "round" (whole round on the last turn).
        use_stop: learn and use the Emergency Stop; False (``--no-use-stop``) declines it always.
    """

    representation: int = setting(144, Range(144, 864))
    temperature: float = setting(1.0, POSITIVE)
    learning_rate: float = setting(0.7, Range(0.0, 1.0, open_low=True))
    discount: float = setting(0.2, FRACTION)
    negative_factor: float = setting(10.0, Range(1.0, 10.0))
    reward_timing: str = "turn"
    use_stop: bool = True

    def __post_init__(self) -> None:
        if type(self.representation) is not int or self.representation not in REPRESENTATIONS:
            raise ValueError(f"representation must be 144 or 864, got {self.representation!r}")
        _check_range("temperature", self.temperature, 0.0, float("inf"), low_open=True)
        _check_range("learning_rate", self.learning_rate, 0.0, 1.0, low_open=True)
        _check_range("discount", self.discount, 0.0, 1.0)
        _check_range("negative_factor", self.negative_factor, 1.0, 10.0)
        if not isinstance(self.reward_timing, str) or self.reward_timing not in REWARD_TIMINGS:
            raise ValueError(f"reward_timing must be 'turn' or 'round', got {self.reward_timing!r}")
        if not isinstance(self.use_stop, bool):
            raise ValueError(f"use_stop must be a bool, got {self.use_stop!r}")


def _check_range(name: str, value: float, low: float, high: float, low_open: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and (low < value if low_open else low <= value)
    if not ok or not value <= high:
        bound = "(" if low_open else "["
        raise ValueError(f"{name} must be in {bound}{low}, {high}], got {value!r}")
