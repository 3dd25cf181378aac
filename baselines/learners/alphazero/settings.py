"""The settings of an AlphaZero run (:class:`AlphaZeroSettings`), checked when they are made."""

from __future__ import annotations

from dataclasses import dataclass, field

from baselines.distributed import check_backend
from baselines.learners.alphazero.network import NetworkConfig, resolve_device
from baselines.learners.alphazero.selfplay import SelfPlaySettings
from baselines.params import float_param, int_param
from baselines.settings import COUNT, COUNT_OR_ZERO, FRACTION, WORKERS, Range, setting

SCRIPTED = "scripted"
"""The ``eval_opponents`` entry that stands for the game's default scripted agent."""


@dataclass(frozen=True)
class AlphaZeroSettings:
    """Everything :class:`AlphaZeroTrainer` does (``scripts/train_alphazero.py`` has a flag per field; the
    metadata of a field gives its flag's range, and its name when not the field's: ``--games``, ``--minutes``).

    Attributes:
        iterations: self-play / train rounds, >= 1.
        games_per_iteration: self-play games per iteration, >= 1 (seed 001: 100).
        selfplay: how the self-play search runs.
        network: network sizes.
        buffer_iterations: iterations whose examples are trained on (the replay window), >= 1.
        epochs: passes over the replay window per iteration, >= 1.
        batch_size: examples per gradient step, >= 1 (seed 001: 64).
        learning_rate: Adam's step size, > 0.
        weight_decay: L2 penalty, >= 0.
        score_weight: weight of the auxiliary score-margin loss, >= 0 (games without scores of their own
            have zero targets; 0 switches it off).
        arena_games: candidate-vs-best games per iteration, >= 0 (0: every trained network is kept).
        accept_threshold: candidate score needed to replace the best network, in [0, 1].
        eval_games: games against each of ``eval_opponents`` per evaluation, >= 0.
        eval_every: evaluate every this many iterations (and after the last), >= 1.
        eval_opponents: agent specs for ``make_agent``; ``"scripted"`` is the game's default scripted agent.
        sparring: agent spec of the sparring partner (``"scripted"`` allowed; ``""``: none).
        sparring_fraction: share of each iteration's games against ``sparring``, in [0, 1] (0: pure self-play).
        warm_start: agent spec of the teacher of the warm start (``"scripted"`` allowed; ``""``: none).
        warm_start_games: games of the teacher against itself before the first self-play, >= 0 (0: none).
        keep_warm_start: the warm start's examples stay in every replay window instead of ageing out like an
            iteration's (the imitation keeps anchoring the policy while self-play trains the values).
        eval_simulations: simulations per move of the network's player in gating and evaluation, >= 1
            (``None``: ``selfplay.simulations``; on the command line 0 means none).
        time_budget_minutes: stop after the first iteration whose cumulative self-play and training time
            reaches it, > 0 (``None``: run every iteration; ``--minutes``, where 0 means none).
        workers: processes (or Ray actors) that play the self-play games (1: this process, locally), >= 1; each
            runs torch on one thread and every game keeps its own seed.
        backend: where the self-play games run: ``"local"`` (processes of this machine) or ``"ray"`` (``workers``
            Ray actors, each building the network once per iteration from weights put once in the object store,
            and valuing leaves on its CPU; :mod:`baselines.distributed`); the examples are the same, in the same
            order.
        ray_address: the Ray cluster to join with ``backend="ray"`` (``host:port``); ``""``: start a local Ray.
        device: ``"auto"`` (a GPU when there is one), ``"cpu"`` or ``"cuda"``: where the networks train and
            value the search's leaves.
        seed: everything random derives from it.
    """

    iterations: int = setting(10, Range(1, 10**6))
    games_per_iteration: int = setting(100, COUNT, flag="games")
    selfplay: SelfPlaySettings = field(default_factory=SelfPlaySettings)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    buffer_iterations: int = setting(4, Range(1, 10**6))
    epochs: int = setting(4, Range(1, 10**6))
    batch_size: int = setting(64, Range(1, 10**6))
    learning_rate: float = setting(1e-3, Range(0.0, 10.0, open_low=True))
    weight_decay: float = setting(1e-4, Range(0.0, 1e6))
    score_weight: float = setting(0.25, Range(0.0, 1e6))
    arena_games: int = setting(0, COUNT_OR_ZERO)
    accept_threshold: float = setting(0.6, FRACTION)
    eval_games: int = setting(20, COUNT_OR_ZERO)
    eval_every: int = setting(1, COUNT)
    eval_opponents: tuple[str, ...] = ("random", SCRIPTED)
    sparring: str = ""
    sparring_fraction: float = setting(0.0, FRACTION)
    warm_start: str = ""
    warm_start_games: int = setting(0, COUNT_OR_ZERO)
    keep_warm_start: bool = False
    eval_simulations: int | None = setting(None, COUNT_OR_ZERO, none=0)
    time_budget_minutes: float | None = setting(None, Range(0.0, 1e7), flag="minutes", none=0.0)
    workers: int = setting(1, WORKERS)
    backend: str = "local"
    ray_address: str = ""
    device: str = "auto"
    seed: int = 0

    def __post_init__(self) -> None:
        minimums = {"iterations": 1, "games_per_iteration": 1, "buffer_iterations": 1, "epochs": 1, "batch_size": 1,
                    "arena_games": 0, "eval_games": 0, "eval_every": 1, "workers": 1, "seed": 0,
                    "warm_start_games": 0}  # fmt: skip
        for name, low in minimums.items():
            int_param(name, getattr(self, name), low)
        int_param("eval_simulations", self.eval_simulations, 1, optional=True)
        float_param("learning_rate", self.learning_rate, 0.0, positive=True)
        float_param("weight_decay", self.weight_decay, 0.0)
        float_param("score_weight", self.score_weight, 0.0)
        float_param("accept_threshold", self.accept_threshold, 0.0, 1.0)
        float_param("time_budget_minutes", self.time_budget_minutes, 0.0, positive=True, optional=True)
        float_param("sparring_fraction", self.sparring_fraction, 0.0, 1.0)
        if self.sparring_fraction > 0 and not self.sparring.strip():
            raise ValueError(f"sparring_fraction={self.sparring_fraction} needs a sparring agent spec (sparring)")
        if self.warm_start_games > 0 and not self.warm_start.strip():
            raise ValueError(f"warm_start_games={self.warm_start_games} needs a teacher agent spec (warm_start)")
        if self.keep_warm_start and self.warm_start_games == 0:
            raise ValueError("keep_warm_start=True needs a warm start (warm_start_games > 0)")
        object.__setattr__(self, "eval_opponents", tuple(self.eval_opponents))
        if not all(isinstance(name, str) and name.strip() for name in self.eval_opponents):
            raise ValueError(f"eval_opponents must be agent specs (non-empty strings), got {self.eval_opponents!r}")
        resolve_device(self.device)
        check_backend(self.backend, self.ray_address)


__all__ = ["SCRIPTED", "AlphaZeroSettings"]
