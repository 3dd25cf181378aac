"""AlphaZero training: iterations of self-play, network training, optional gating and evaluation against
reference agents, with checkpoints, a replay window, a CSV history, a learning-curve plot and resumable runs.

One iteration: play ``games_per_iteration`` self-play games with the best network (Gumbel root search by
default, see :mod:`.selfplay`), train the network on the examples of the last ``buffer_iterations``
iterations (policy cross-entropy against the search's policy target, value mean squared error over the seats,
``score_weight`` times the score-margin error), then either keep it (``arena_games = 0``: AlphaZero's
continuous update) or pit it against the best network and keep it if it scores at least ``accept_threshold``
(seed 001's 60% gate). With ``sparring_fraction > 0`` that share of the games seats a fixed ``sparring`` agent
(the game's scripted agent, say) in one seat, so the network also learns from games against a style self-play
does not produce; only the network's decisions are trained on. With ``warm_start_games > 0`` the first
iteration begins with that many games of the ``warm_start`` agent against itself, trained on as examples (its
moves as one-hot policy targets, AlphaGo's supervised start) and kept in the replay window like an iteration 0,
before the first self-play. Every ``eval_every`` iterations the best
network plays ``eval_games`` against each of ``eval_opponents`` (seats rotated; ``"scripted"`` is the game's
default scripted agent).

**Files in ``out_dir``.** ``best.pt`` (the best network), ``iteration_<k>.pt`` (the best network after iteration
``k``), ``history.csv``, ``learning_curve.png``, ``state.pt`` (everything a resumed run needs: the training
network, the optimizer, the best network and the history) and ``replay/iteration_<k>.npz`` (the examples of the
replay window). Every file is written to a temporary file and renamed, so a kill leaves the previous version.
``resume=True`` continues from the last completed iteration and gives the same networks as a run that was
never interrupted (every random stream derives from ``(seed, iteration)``); an existing run is never
overwritten unless ``force=True``.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import re
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from baselines.agent import Agent
from baselines.arena import evaluate_against
from baselines.arena.ratings import wilson_interval
from baselines.distributed import check_backend, make_executor, require_backend, runs_inline
from baselines.factory import make_agent
from baselines.learners.alphazero.evaluator import NetworkEvaluator
from baselines.learners.alphazero.network import (
    NetworkConfig,
    PolicyValueNet,
    atomic_write,
    check_finite,
    load_weights,
    masked_log_softmax,
    read_torch_file,
    resolve_device,
    save_checkpoint,
)
from baselines.learners.alphazero.runfiles import EXAMPLE_FIELDS, load_examples, save_examples, state_problem
from baselines.learners.alphazero.selfplay import (
    Example,
    SelfPlaySettings,
    play_demonstration_game,
    play_selfplay_game,
)
from baselines.params import float_param, int_param
from baselines.progress import progress_bar
from baselines.runs import TEMPORARY_NAME, remove_temporaries
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game
from boardenvs.registry import make_game

HISTORY_FIELDS = (
    "iteration", "games", "examples", "log_legal", "policy_loss", "value_loss", "score_loss", "arena_score",
    "accepted", "selfplay_seconds", "train_seconds", "elapsed_seconds", "eval_seconds",
)  # fmt: skip
"""The history columns every run has; each evaluation opponent adds ``vs_<name>``, ``_low`` and ``_high``
(score in [0, 1] and its 95% Wilson interval; -1 in iterations without an evaluation)."""
SCRIPTED = "scripted"
"""The ``eval_opponents`` entry that stands for the game's default scripted agent."""
STATE_VERSION = 1
FIRST_ITERATION_FILES = frozenset(
    {"best.pt", "iteration_001.pt", "replay", "replay/iteration_000.npz", "replay/iteration_001.npz"}
)
"""The outputs a run writes before its first ``state.pt``: a run killed then is started again when resumed."""
RESUMABLE_CHANGES = frozenset({"iterations", "workers", "backend", "ray_address", "device", "time_budget_minutes"})
"""Settings a resumed run may change; any other difference from the stored run is refused."""


@dataclass(frozen=True)
class AlphaZeroSettings:
    """Everything :class:`AlphaZeroTrainer` does.

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
            (``None``: ``selfplay.simulations``).
        time_budget_minutes: stop after the first iteration whose cumulative self-play and training time
            reaches it, > 0 (``None``: run every iteration).
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

    iterations: int = 10
    games_per_iteration: int = 100
    selfplay: SelfPlaySettings = field(default_factory=SelfPlaySettings)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    buffer_iterations: int = 4
    epochs: int = 4
    batch_size: int = 64
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    score_weight: float = 0.25
    arena_games: int = 0
    accept_threshold: float = 0.6
    eval_games: int = 20
    eval_every: int = 1
    eval_opponents: tuple[str, ...] = ("random", SCRIPTED)
    sparring: str = ""
    sparring_fraction: float = 0.0
    warm_start: str = ""
    warm_start_games: int = 0
    keep_warm_start: bool = False
    eval_simulations: int | None = None
    time_budget_minutes: float | None = None
    workers: int = 1
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


class AlphaZeroTrainer:
    """Trains a :class:`PolicyValueNet` for one game by self-play (see the module docstring).

    Args:
        game_name: a registered game.
        config: its config (``make_game(game_name, **config)``).
        settings: the training settings.
        out_dir: the run's folder (created).
        progress: show progress bars.
        resume: continue the run in ``out_dir`` from its last completed iteration (``state.pt``).
        force: start afresh even if ``out_dir`` holds a run (its files are deleted).
        on_stage: called with ``(stage, iteration)`` as each part of an iteration starts (``"selfplay"``,
            ``"train"``, ``"arena"``, ``"eval"``, ``"save"``): progress reports, tests that interrupt a run.

    Raises:
        FileExistsError: ``out_dir`` holds a run and neither ``resume`` nor ``force`` is given.
        FileNotFoundError: ``resume`` without a run in ``out_dir``.
        ValueError: bad settings, an evaluation opponent that does not exist, ``resume`` and ``force`` together,
            or a resumed run whose stored game, config or settings differ from the ones given.
    """

    def __init__(
        self,
        game_name: str,
        config: dict[str, Any] | None = None,
        settings: AlphaZeroSettings | None = None,
        out_dir: str | Path = "runs/alphazero",
        progress: bool = True,
        *,
        resume: bool = False,
        force: bool = False,
        on_stage: Callable[[str, int], None] | None = None,
    ) -> None:
        self.game_name, self.config = game_name, dict(config or {})
        self.game: Game = make_game(game_name, **self.config)
        self.settings = settings or AlphaZeroSettings()
        self.out_dir, self.progress, self.on_stage = Path(out_dir), progress, on_stage
        self.device = resolve_device(self.settings.device)
        require_backend(self.settings.backend, self.settings.ray_address)
        specs = [resolve_opponent(spec, game_name) for spec in self._opponents()]
        self.opponents = {label_of(spec): spec for spec in specs}
        if len(self.opponents) < len(specs):
            raise ValueError(f"eval_opponents: {list(self._opponents())} names the same opponent twice")
        sparring = self.settings.sparring.strip()
        self.sparring = resolve_opponent(sparring, game_name, "sparring") if sparring else ""
        teacher = self.settings.warm_start.strip()
        self.teacher = resolve_opponent(teacher, game_name, "warm_start") if teacher else ""
        self.net = PolicyValueNet.for_game(self.game, self.settings.network, seed=self.settings.seed).to(self.device)
        self.optimizer = torch.optim.Adam(
            self.net.parameters(), lr=self.settings.learning_rate, weight_decay=self.settings.weight_decay
        )
        self.best = copy.deepcopy(self.net).eval()
        self.buffer: deque[tuple[int, list[Example]]] = deque(maxlen=self.settings.buffer_iterations)
        self.demonstrations: list[tuple[int, list[Example]]] = []  # the warm start's, with keep_warm_start
        self.history: list[dict[str, Any]] = []
        self.restarted = False
        """True when ``resume`` found a run killed before its first iteration finished, and starts it again."""
        if resume and force:
            raise ValueError("resume and force exclude each other: resume continues a run, force replaces it")
        if resume:
            self._load_state()
        else:
            self._claim_out_dir(force)

    def _opponents(self) -> tuple[str, ...]:
        return self.settings.eval_opponents if self.settings.eval_games else ()

    # -- files ----------------------------------------------------------------------------------------
    @property
    def best_path(self) -> Path:
        return self.out_dir / "best.pt"

    @property
    def state_path(self) -> Path:
        return self.out_dir / "state.pt"

    def _replay_path(self, iteration: int) -> Path:
        return self.out_dir / "replay" / f"iteration_{iteration:03d}.npz"

    def _claim_out_dir(self, force: bool) -> None:
        """Refuse an ``out_dir`` holding a run unless ``force`` (then delete the run's files)."""
        outputs = [self.state_path, self.best_path, self.out_dir / "history.csv", self.out_dir / "replay"]
        outputs += sorted(self.out_dir.glob("iteration_*.pt"))
        existing = [path for path in outputs if path.exists()]
        if existing and not force:
            raise FileExistsError(
                f"{str(self.out_dir)!r} already holds a run ({existing[0].name}): pass resume=True (--resume) to "
                "continue it or force=True (--force) to replace it"
            )
        for path in existing:
            shutil.rmtree(path) if path.is_dir() else path.unlink()

    def _save_state(self, iteration: int) -> None:
        state = {
            "version": STATE_VERSION,
            "game": self.game_name,
            "config": self.config,
            "settings": dataclasses.asdict(self.settings),
            "iteration": iteration,
            "net": {key: value.cpu() for key, value in self.net.state_dict().items()},
            "best": {key: value.cpu() for key, value in self.best.state_dict().items()},
            "optimizer": self.optimizer.state_dict(),
            "history": self.history,
            "replay": [number for number, _ in (*self.demonstrations, *self.buffer)],
        }
        atomic_write(self.state_path, lambda temporary: torch.save(state, temporary))

    def _load_state(self) -> None:
        if not self.state_path.is_file():
            self._restart_unfinished_run()
            return
        state = read_torch_file(self.state_path, "AlphaZero run state")
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise ValueError(f"{str(self.state_path)!r} is not an AlphaZero run state of version {STATE_VERSION}")
        problem = state_problem(state)
        if problem:
            raise ValueError(f"{str(self.state_path)!r} is not a valid AlphaZero run state: {problem}")
        if (state["game"], state["config"]) != (self.game_name, self.config):
            raise ValueError(
                f"resume: {str(self.out_dir)!r} trained {state['game']} {state['config']}, "
                f"not {self.game_name} {self.config}"
            )
        changed = _changed_settings(state["settings"], dataclasses.asdict(self.settings)) - RESUMABLE_CHANGES
        if changed:
            raise ValueError(
                f"resume: settings {sorted(changed)} differ from the stored run's ({str(self.state_path)!r}); only "
                f"{sorted(RESUMABLE_CHANGES)} may change when a run is resumed"
            )
        self._load_weights(state)
        self.history = list(state["history"])
        for number in state["replay"]:
            kept = number == 0 and self.settings.keep_warm_start
            examples = load_examples(self._replay_path(number), self.game)
            (self.demonstrations if kept else self.buffer).append((number, examples))

    def _load_weights(self, state: dict[str, Any]) -> None:
        label = repr(str(self.state_path))
        load_weights(self.net, state["net"], label, "training network's weights")
        load_weights(self.best, state["best"], label, "best network's weights")
        check_finite(state["optimizer"], label, "optimizer state")
        try:
            self.optimizer.load_state_dict(state["optimizer"])
        except (KeyError, TypeError, ValueError, RuntimeError, IndexError) as error:
            raise ValueError(f"{label}: its optimizer state does not fit the network: {error}") from None

    def _restart_unfinished_run(self) -> None:
        """Resume a folder without ``state.pt``: a run killed during its first iteration (its files are that
        iteration's, which is played again from the start), or no run at all (an error saying how to start one)."""
        files = self._run_files()
        if not files:
            raise FileNotFoundError(
                f"resume: no run to resume in {str(self.out_dir)!r} (no state.pt, no run files): start the run "
                "without resume (--resume)"
            )
        later = [path for path in files if path.relative_to(self.out_dir).as_posix() not in FIRST_ITERATION_FILES]
        if later:
            names = ", ".join(sorted(path.relative_to(self.out_dir).as_posix() for path in later))
            raise ValueError(
                f"resume: {str(self.state_path)!r} is missing but the run has files of later iterations ({names}): "
                "its state is lost; pass force=True (--force) to start the run again (its files are deleted)"
            )
        remove_temporaries(self.out_dir)
        self._claim_out_dir(force=True)
        self.restarted = True

    def _run_files(self) -> list[Path]:
        """The outputs of a run in ``out_dir``: its files, the ``replay`` folder and the files in it (not the
        temporary files of a writer that was killed, which :func:`remove_temporaries` deletes)."""
        outputs = [self.state_path, self.best_path, self.out_dir / "history.csv", self.out_dir / "learning_curve.png"]
        outputs += [*sorted(self.out_dir.glob("iteration_*.pt")), self.out_dir / "replay"]
        outputs += [path for path in sorted((self.out_dir / "replay").glob("*")) if not TEMPORARY_NAME.match(path.name)]
        return [path for path in outputs if path.exists()]

    # -- the loop -------------------------------------------------------------------------------------
    @property
    def completed(self) -> int:
        """Iterations completed so far."""
        return len(self.history)

    def run(self) -> list[dict[str, Any]]:
        """All iterations still to run; returns the history."""
        for _ in self.run_iter():
            pass
        return self.history

    def run_iter(self) -> Iterator[dict[str, Any]]:
        """The iterations still to run, yielding each history row once its files are written."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for iteration in range(self.completed + 1, self.settings.iterations + 1):
            if self._budget_spent():
                return
            self.history.append(self.iterate(iteration))
            self._save_state(iteration)
            self._forget_replay()
            self._write_history()
            self._plot()
            yield self.history[-1]

    def _budget_spent(self) -> bool:
        return bool(self.history) and self._would_spend_budget(self.history[-1]["elapsed_seconds"])

    def _stage(self, stage: str, iteration: int) -> None:
        if self.on_stage is not None:
            self.on_stage(stage, iteration)

    def iterate(self, iteration: int) -> dict[str, Any]:
        """One iteration: self-play, training, gating, checkpoints, evaluation; returns its history row."""
        settings, seed_of = self.settings, self._iteration_seeds(iteration)
        start = time.perf_counter()
        if iteration == 1 and settings.warm_start_games and self.teacher:
            self._stage("warm_start", iteration)
            self._warm_start(seed_of["warm_start"])
        self._stage("selfplay", iteration)
        examples = self.self_play(settings.games_per_iteration, seed_of["selfplay"])
        save_examples(self._replay_path(iteration), examples)
        self.buffer.append((iteration, examples))
        selfplay_seconds = time.perf_counter() - start
        self._stage("train", iteration)
        window = [example for _, chunk in (*self.demonstrations, *self.buffer) for example in chunk]
        losses = train_network(self.net, self.optimizer, window, settings, seed_of["train"])
        self._stage("arena", iteration)
        arena = self.arena(seed_of["arena"]) if settings.arena_games else -1.0
        accepted = arena < 0 or arena >= settings.accept_threshold
        if accepted:
            self.best = copy.deepcopy(self.net).eval()
        train_seconds = time.perf_counter() - start - selfplay_seconds
        self._stage("save", iteration)
        extra = {"iteration": iteration, "settings": dataclasses.asdict(settings), "config": self.config}
        save_checkpoint(self.best_path, self.best, self.game, extra)
        save_checkpoint(self.out_dir / f"iteration_{iteration:03d}.pt", self.best, self.game, extra)
        elapsed = (self.history[-1]["elapsed_seconds"] if self.history else 0.0) + selfplay_seconds + train_seconds
        row = {"iteration": iteration, "games": settings.games_per_iteration, "examples": len(window),
               "log_legal": mean_log_legal(examples), **losses, "arena_score": arena, "accepted": accepted,
               "selfplay_seconds": selfplay_seconds, "train_seconds": train_seconds,
               "elapsed_seconds": elapsed}  # fmt: skip
        eval_start = time.perf_counter()
        last = iteration == settings.iterations or self._would_spend_budget(elapsed)
        if self.opponents and (iteration % settings.eval_every == 0 or last):
            self._stage("eval", iteration)
            row.update(self.evaluate(seed_of["eval"]))
        else:
            row.update({column: -1.0 for label in self.opponents for column in eval_columns(label)})
        row["eval_seconds"] = time.perf_counter() - eval_start
        return row

    def _would_spend_budget(self, elapsed: float) -> bool:
        budget = self.settings.time_budget_minutes
        return budget is not None and elapsed >= 60 * budget

    def _warm_start(self, seed: int) -> None:
        """Games of the teacher against itself: saved and kept as iteration 0 of the replay window, trained on,
        and the trained network becomes the best one (it plays the first self-play)."""
        teacher = make_agent(self.teacher, self.game_name, seed)
        seeds = np.random.SeedSequence(seed).generate_state(self.settings.warm_start_games)
        examples: list[Example] = []
        with progress_bar(self.progress, len(seeds), "warm start", "game") as bar:
            for game_seed in seeds:
                examples += play_demonstration_game(self.game, teacher, int(game_seed))
                bar.update(1)
        save_examples(self._replay_path(0), examples)
        (self.demonstrations if self.settings.keep_warm_start else self.buffer).append((0, examples))
        train_network(self.net, self.optimizer, examples, self.settings, seed + 1)
        self.best = copy.deepcopy(self.net).eval()

    def _forget_replay(self) -> None:
        """Delete the replay files outside the window. Called only once the state that no longer lists them is
        saved, so a kill at any point leaves every file the saved state names."""
        window = {self._replay_path(number) for number, _ in (*self.demonstrations, *self.buffer)}
        for path in (self.out_dir / "replay").glob("iteration_*.npz"):
            if path not in window:
                path.unlink(missing_ok=True)

    def _iteration_seeds(self, iteration: int) -> dict[str, int]:
        parts = ("selfplay", "train", "arena", "eval", "warm_start")
        states = np.random.SeedSequence((self.settings.seed, iteration)).generate_state(len(parts))
        return {part: int(value) for part, value in zip(parts, states)}

    # -- the parts of an iteration --------------------------------------------------------------------
    def self_play(self, games: int, seed: int) -> list[Example]:
        """The examples of ``games`` self-play games of the best network (the first ``sparring_fraction`` of
        them against the sparring agent)."""
        seeds = [int(value) for value in np.random.SeedSequence(seed).generate_state(games)]
        sparring_games = round(self.settings.sparring_fraction * games) if self.sparring else 0
        jobs = [(game_seed, self.sparring if index < sparring_games else "") for index, game_seed in enumerate(seeds)]
        examples: list[Example] = []
        with progress_bar(self.progress, games, "self-play", "game") as bar:
            for game_examples in self._self_play_games(jobs):
                examples += game_examples
                bar.update(1)
        return examples

    def _self_play_games(self, jobs: list[tuple[int, str]]) -> Iterator[list[Example]]:
        """The examples of each ``(seed, sparring spec)`` game, in order (in worker processes or Ray actors with
        ``workers`` > 1 or ``backend="ray"``; each builds the best network once from its weights)."""
        settings = self.settings
        workers = min(settings.workers, len(jobs))
        if runs_inline(settings.backend, workers):
            evaluator = NetworkEvaluator(self.best)
            for job in jobs:
                yield play_job(self.game, evaluator, settings.selfplay, *job)
            return
        network = (self.best.observation_shape, self.best.num_actions, self.best.num_players, self.best.config)
        weights = {key: value.cpu() for key, value in self.best.state_dict().items()}
        device = "cpu" if settings.backend == "ray" else str(self.device)  # an actor is given no GPU
        start = (self.game, network, weights, settings.selfplay, device)
        address = settings.ray_address or None
        with make_executor(settings.backend, workers, _start_worker, start, address) as pool:  # workers end with us
            yield from pool.map(_self_play_in_worker, jobs)

    def player(self, net: PolicyValueNet, seed: int, name: str) -> MCTSAgent:
        """The network's competitive player: the self-play search without root noise, ``eval_simulations``."""
        selfplay = self.settings.selfplay
        simulations = self.settings.eval_simulations or selfplay.simulations
        budget = dataclasses.replace(
            selfplay, simulations=simulations, fast_simulations=min(selfplay.fast_simulations, simulations)
        )
        return budget.searcher(NetworkEvaluator(net), seed, noise=False, name=name)

    def arena(self, seed: int) -> float:
        """The trained network's score against the best network (one seat each game, rotated)."""
        hero, best = self.player(self.net, seed, "candidate"), self.player(self.best, seed + 1, "best")
        return self._score(hero, best, self.settings.arena_games, seed)[0]

    def evaluate(self, seed: int) -> dict[str, float]:
        """The best network's score and 95% Wilson interval against each evaluation opponent."""
        row: dict[str, float] = {}
        for index, (label, spec) in enumerate(self.opponents.items()):
            hero = self.player(self.best, seed + 2 * index, "alphazero")
            opponent = make_agent(spec, self.game_name, seed + 2 * index + 1)
            score, low, high = self._score(hero, opponent, self.settings.eval_games, seed + 2 * index)
            row.update(zip(eval_columns(label), (score, low, high)))
        return row

    def _score(self, hero: Agent, other: Agent, games: int, seed: int) -> tuple[float, float, float]:
        """``hero``'s score (a win 1, a draw 1/2) in seat-rotated games against ``other`` in every other seat."""
        wins, draws, _ = evaluate_against(self.game, hero, other, games, seed)
        points = wins + 0.5 * draws
        return (points / games, *wilson_interval(points, games))

    # -- outputs --------------------------------------------------------------------------------------
    def _write_history(self) -> None:
        write_history(self.out_dir / "history.csv", self.history)

    def _plot(self) -> Path:
        from baselines.learners.alphazero.plots import plot_run

        title = f"AlphaZero ({self.settings.selfplay.search}) on {self.game_name} {self.config or ''}"
        return plot_run(self.out_dir / "learning_curve.png", self.history, list(self.opponents), title)


# -- evaluation opponents ----------------------------------------------------------------------------------
def resolve_opponent(spec: str, game_name: str, setting: str = "eval_opponents") -> str:
    """``spec`` with ``"scripted"`` replaced by the game's default scripted agent; checked by building it.

    Raises:
        ValueError: ``"scripted"`` for a game without scripted agents, or a spec ``make_agent`` rejects (the
            message names ``setting``).
    """
    from baselines.games import GAMES

    if spec.strip().lower() == SCRIPTED:
        if game_name not in GAMES:
            raise ValueError(f"{setting}: {game_name!r} has no scripted agent to stand for {SCRIPTED!r}")
        spec = GAMES[game_name].default_opponent
    try:
        make_agent(spec, game_name, 0)
    except (ValueError, KeyError, FileNotFoundError) as error:
        raise ValueError(f"{setting}: {spec!r} is not an agent of {game_name!r}: {error}") from None
    return spec


def label_of(spec: str) -> str:
    """The history's name of a (resolved) evaluation opponent: its spec in lower case with every run of other
    characters than letters and digits made one ``_`` (``mcts:simulations=50`` -> ``mcts_simulations_50``)."""
    return re.sub(r"[^a-z0-9]+", "_", spec.lower()).strip("_")


def eval_columns(label: str) -> tuple[str, str, str]:
    return f"vs_{label}", f"vs_{label}_low", f"vs_{label}_high"


def write_history(path: Path, rows: list[dict[str, Any]]) -> None:
    """``rows`` as CSV at ``path`` (atomically), the columns in their first row's order."""
    if not rows:
        return
    columns = list(rows[0])

    def write(temporary: Path) -> None:
        with open(temporary, "w", newline="") as handle:
            writer = csv.DictWriter(handle, columns)
            writer.writeheader()
            writer.writerows(rows)

    atomic_write(path, write)


def _changed_settings(stored: dict[str, Any], given: dict[str, Any], prefix: str = "") -> set[str]:
    """Dotted paths of the settings that differ (nested settings compared field by field)."""
    changed = set()
    for key in stored.keys() | given.keys():
        old, new = stored.get(key), given.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            changed |= _changed_settings(old, new, f"{prefix}{key}.")
        elif (list(old) if isinstance(old, tuple | list) else old) != (
            list(new) if isinstance(new, tuple | list) else new
        ):
            changed.add(prefix + key)
    return changed


# -- training ----------------------------------------------------------------------------------------------
def mean_log_legal(examples: list[Example]) -> float:
    """Mean ``ln(legal moves)`` of the examples: the policy loss of a uniform policy, the bar to get under."""
    if not examples:
        return 0.0
    return float(np.mean([np.log(max(1, int(example.mask.sum()))) for example in examples]))


def train_network(
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    examples: list[Example],
    settings: AlphaZeroSettings,
    seed: int,
) -> dict[str, float]:
    """``settings.epochs`` passes of ``optimizer`` over ``examples`` in shuffled batches; the mean losses of the
    last pass (``policy_loss``, ``value_loss``, ``score_loss``)."""
    generator = torch.Generator().manual_seed(seed)
    device = net.device
    tensors = [
        torch.as_tensor(np.stack([getattr(example, name) for example in examples])).to(device)
        for name in EXAMPLE_FIELDS
    ]
    tensors = [t.float() if t.dtype != torch.bool else t for t in tensors]
    batch_norm = any(isinstance(module, torch.nn.BatchNorm2d) for module in net.modules())
    net.train()
    means = {"policy_loss": 0.0, "value_loss": 0.0, "score_loss": 0.0}
    for _ in range(settings.epochs):
        order = torch.randperm(len(examples), generator=generator).to(device)
        sums, batches = np.zeros(3), 0
        for start in range(0, len(examples), settings.batch_size):
            batch = order[start : start + settings.batch_size]
            if len(batch) < 2 and batch_norm:
                continue  # batch norm cannot train on a single example
            losses = losses_of(net, *(tensor[batch] for tensor in tensors))
            optimizer.zero_grad()
            (losses[0] + losses[1] + settings.score_weight * losses[2]).backward()
            optimizer.step()
            sums += [loss.item() for loss in losses]
            batches += 1
        means = dict(zip(means, (sums / max(1, batches)).tolist()))
    net.eval()
    return means


def losses_of(
    net: PolicyValueNet,
    observations: torch.Tensor,
    masks: torch.Tensor,
    policies: torch.Tensor,
    values: torch.Tensor,
    scores: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(policy cross-entropy against the policy targets, value mean squared error over the seats, score-margin
    mean squared error over the seats; 0 without ``scores``)."""
    logits, predicted, predicted_scores = net.heads(observations)
    log_policy = torch.where(masks, masked_log_softmax(logits, masks), torch.zeros_like(logits))
    policy_loss = -(policies * log_policy).sum(dim=1).mean()
    value_loss = ((predicted - values) ** 2).mean()
    score_loss = ((predicted_scores - scores) ** 2).mean() if scores is not None else torch.zeros(())
    return policy_loss, value_loss, score_loss


# -- self-play workers ---------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}
"""A self-play worker's game, evaluator and settings, set once by :func:`_start_worker`."""


def _start_worker(
    game: Game, network: tuple[Any, ...], weights: dict[str, Any], selfplay: SelfPlaySettings, device: str
) -> None:
    torch.set_num_threads(1)
    net = PolicyValueNet(*network)
    net.load_state_dict(weights)
    _WORKER.update(game=game, evaluator=NetworkEvaluator(net.to(device)), selfplay=selfplay)


def play_job(
    game: Game, evaluator: NetworkEvaluator, selfplay: SelfPlaySettings, seed: int, sparring: str
) -> list[Example]:
    """The examples of one self-play game (against a fresh ``sparring`` agent when the spec is not empty)."""
    partner = make_agent(sparring, game.spec.name, seed) if sparring else None
    return play_selfplay_game(game, evaluator, selfplay, seed, partner)[0]


def _self_play_in_worker(job: tuple[int, str]) -> list[Example]:
    return play_job(_WORKER["game"], _WORKER["evaluator"], _WORKER["selfplay"], *job)
