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
``k``), ``eval.csv`` and ``learning_curve.png`` (the evaluations, the log and curve every learner writes:
:class:`~baselines.learners.runner.EvalLog`, steps counted in iterations), ``history.csv`` and ``history.png`` (the
family's own record: losses, gating, timings and each evaluation's score and interval as ``vs_<opponent>``
columns), ``state.pt`` (everything a resumed run needs: the training network, the optimizer, the best network and
the history) and ``replay/iteration_<k>.npz`` (the examples of the replay window). Every file is written to a
temporary file and renamed, so a kill leaves the previous version. ``resume=True`` continues from the last completed
iteration and gives the same networks and evaluations as a run that was never interrupted (every random stream
derives from ``(seed, iteration)``, the evaluation games from ``seed``); an existing run is never overwritten unless
``force=True``.

The trainer runs the loop on the shared run skeleton (:mod:`baselines.learners.runner`: a :class:`TrainPlan` whose
steps are iterations, the opponent check, the :class:`EvalLog`, a :class:`RunResult`); each part of an iteration has
its own room: :mod:`.selfplay_games` (the self-play data), :mod:`.optimise` (the optimisation step),
:mod:`.run_state` (the run's files, checkpoints and resume) and :mod:`.assessment` (the network's player and the
gating); the settings are :mod:`.settings`'.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import torch

from baselines.distributed import require_backend
from baselines.factory import make_agent
from baselines.learners.alphazero.assessment import Assessor, eval_columns, label_of, resolve_opponent
from baselines.learners.alphazero.network import PolicyValueNet, resolve_device, save_checkpoint
from baselines.learners.alphazero.optimise import losses_of, mean_log_legal, train_network
from baselines.learners.alphazero.run_state import (
    FIRST_ITERATION_FILES,
    RESUMABLE_CHANGES,
    STATE_VERSION,
    AlphaZeroRunResult,
    RunFiles,
    write_history,
)
from baselines.learners.alphazero.runfiles import load_examples, save_examples
from baselines.learners.alphazero.selfplay import Example
from baselines.learners.alphazero.selfplay_games import SelfPlayGames, check_batch_memory, play_job
from baselines.learners.alphazero.settings import SCRIPTED, AlphaZeroSettings
from baselines.learners.evaluation import EvalRow, cut_eval_history
from baselines.learners.runner import SELFPLAY, EvalLog, OpponentMix, Resumed, TrainPlan
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game
from boardenvs.registry import make_game

HISTORY_FIELDS = (
    "iteration", "games", "examples", "log_legal", "policy_loss", "value_loss", "score_loss", "arena_score",
    "accepted", "selfplay_seconds", "train_seconds", "elapsed_seconds", "eval_seconds",
)  # fmt: skip
"""The history columns every run has; each evaluation opponent adds ``vs_<name>``, ``_low`` and ``_high``
(score in [0, 1] and its 95% Wilson interval; -1 in iterations without an evaluation)."""


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
        self._resolve_agents()
        self.files = RunFiles(self.out_dir, game_name, self.config, self.settings)
        self.assessor = Assessor(self.game, game_name, self.settings, self.opponents)
        self.games = SelfPlayGames(self.game, self.settings, self.device, self.sparring, progress)
        self._build_networks()
        check_batch_memory(self.net, self.settings.selfplay, self.device)
        self.restarted = False
        """True when ``resume`` found a run killed before its first iteration finished, and starts it again."""
        if resume and force:
            raise ValueError("resume and force exclude each other: resume continues a run, force replaces it")
        if resume:
            self._load_state()
        else:
            self.files.claim(force)
        self.plan = self._plan()
        self.log = self._eval_log()

    def _plan(self) -> TrainPlan:
        """The run on the skeleton's terms: self-play (and the sparring partner) as the mix, the evaluation
        opponents' specs, the folder, the checkpoint it resumes (its completed iterations and wall time)."""
        mix = OpponentMix((SELFPLAY, *([self.sparring] if self.sparring else [])))
        resumed = Resumed(self.state_path, self.completed, self._wall_seconds()) if self.history else None
        plan = TrainPlan(self.game, self.config, mix, list(self.opponents.values()), self.out_dir, resumed)
        plan.target_steps = self.settings.iterations
        return plan

    def _eval_log(self) -> EvalLog:
        """The shared evaluation log, a resumed run's ``eval.csv`` cut back to its completed iterations."""
        rows: list[EvalRow] = cut_eval_history(self.out_dir / "eval.csv", self.completed)[0] if self.history else []
        return EvalLog(self.plan, self.game_name, self.settings.seed, self.settings.eval_games, self._title(), rows,
                       steps="iterations")  # fmt: skip

    def _title(self) -> str:
        config = " ".join(f"{key}={value}" for key, value in self.config.items())
        return f"AlphaZero ({self.settings.selfplay.search}) on {self.game_name} {config}".rstrip()

    def _resolve_agents(self) -> None:
        """The evaluation opponents (label -> spec), the sparring partner and the warm start's teacher."""
        specs = [resolve_opponent(spec, self.game_name) for spec in self._opponents()]
        self.opponents = {label_of(spec): spec for spec in specs}
        if len(self.opponents) < len(specs):
            raise ValueError(f"eval_opponents: {list(self._opponents())} names the same opponent twice")
        sparring, teacher = self.settings.sparring.strip(), self.settings.warm_start.strip()
        self.sparring = resolve_opponent(sparring, self.game_name, "sparring") if sparring else ""
        self.teacher = resolve_opponent(teacher, self.game_name, "warm_start") if teacher else ""

    def _build_networks(self) -> None:
        """The training network, its optimizer, the best network, the replay window and the history."""
        settings = self.settings
        self.net = PolicyValueNet.for_game(self.game, settings.network, seed=settings.seed).to(self.device)
        self.optimizer = torch.optim.Adam(
            self.net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
        )
        self.best = copy.deepcopy(self.net).eval()
        self.buffer: deque[tuple[int, list[Example]]] = deque(maxlen=settings.buffer_iterations)
        self.demonstrations: list[tuple[int, list[Example]]] = []  # the warm start's, with keep_warm_start
        self.history: list[dict[str, Any]] = []

    def _opponents(self) -> tuple[str, ...]:
        return self.settings.eval_opponents if self.settings.eval_games else ()

    # -- files ----------------------------------------------------------------------------------------
    @property
    def best_path(self) -> Path:
        """The best network (``best.pt``)."""
        return self.files.best_path

    @property
    def state_path(self) -> Path:
        """The run state (``state.pt``)."""
        return self.files.state_path

    def _window(self) -> list[int]:
        return [number for number, _ in (*self.demonstrations, *self.buffer)]

    def _save_state(self, iteration: int) -> None:
        state = {
            "net": {key: value.cpu() for key, value in self.net.state_dict().items()},
            "best": {key: value.cpu() for key, value in self.best.state_dict().items()},
            "optimizer": self.optimizer.state_dict(),
            "history": self.history,
            "replay": self._window(),
        }
        self.files.save_state(iteration, state)

    def _load_state(self) -> None:
        state = self.files.read_state()
        if state is None:
            self.files.restart_unfinished()
            self.restarted = True
            return
        self.files.load_weights(state, self.net, self.best, self.optimizer)
        self.history = list(state["history"])
        for number in state["replay"]:
            kept = number == 0 and self.settings.keep_warm_start
            examples = load_examples(self.files.replay_path(number), self.game)
            (self.demonstrations if kept else self.buffer).append((number, examples))

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

    def result(self) -> AlphaZeroRunResult:
        """What the run has produced so far (its files, iterations, wall time and last evaluation)."""
        fields = {**self.log.result_fields(self.completed), "wall_seconds": self._wall_seconds()}
        history_csv = self.out_dir / "history.csv"
        return AlphaZeroRunResult(**fields, best_path=self.best_path, history=self.history, history_csv=history_csv)

    def run_iter(self) -> Iterator[dict[str, Any]]:
        """The iterations still to run, yielding each history row once its files are written."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        for iteration in range(self.completed + 1, self.settings.iterations + 1):
            if self._budget_spent():
                return
            self.history.append(self.iterate(iteration))
            self._save_state(iteration)
            self.files.forget_replay(self._window())
            self._write_history()
            self._plot()
            yield self.history[-1]

    def _wall_seconds(self) -> float:
        """The completed iterations' self-play, training and evaluation time."""
        if not self.history:
            return 0.0
        return float(self.history[-1]["elapsed_seconds"]) + sum(float(row["eval_seconds"]) for row in self.history)

    def _budget_spent(self) -> bool:
        return bool(self.history) and self._would_spend_budget(self.history[-1]["elapsed_seconds"])

    def _would_spend_budget(self, elapsed: float) -> bool:
        budget = self.settings.time_budget_minutes
        return budget is not None and elapsed >= 60 * budget

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
        save_examples(self.files.replay_path(iteration), examples)
        self.buffer.append((iteration, examples))
        selfplay_seconds = time.perf_counter() - start
        row = self._train_and_gate(iteration, seed_of)
        train_seconds = time.perf_counter() - start - selfplay_seconds
        self._save_networks(iteration)
        elapsed = (self.history[-1]["elapsed_seconds"] if self.history else 0.0) + selfplay_seconds + train_seconds
        row = {"iteration": iteration, "games": settings.games_per_iteration, "examples": row.pop("examples"),
               "log_legal": mean_log_legal(examples), **row, "selfplay_seconds": selfplay_seconds,
               "train_seconds": train_seconds, "elapsed_seconds": elapsed}  # fmt: skip
        eval_start = time.perf_counter()
        row.update(self._evaluation_row(iteration, elapsed))
        row["eval_seconds"] = time.perf_counter() - eval_start
        return row

    def _train_and_gate(self, iteration: int, seed_of: dict[str, int]) -> dict[str, Any]:
        """Train on the window, then gate the candidate (keep it when the arena is off); the losses, the arena
        score, whether the candidate was kept and the window's size."""
        self._stage("train", iteration)
        window = [example for _, chunk in (*self.demonstrations, *self.buffer) for example in chunk]
        losses = train_network(self.net, self.optimizer, window, self.settings, seed_of["train"])
        self._stage("arena", iteration)
        arena = self.arena(seed_of["arena"]) if self.settings.arena_games else -1.0
        accepted = arena < 0 or arena >= self.settings.accept_threshold
        if accepted:
            self.best = copy.deepcopy(self.net).eval()
        return {"examples": len(window), **losses, "arena_score": arena, "accepted": accepted}

    def _save_networks(self, iteration: int) -> None:
        """The best network as ``best.pt`` and ``iteration_<k>.pt``."""
        self._stage("save", iteration)
        extra = {"iteration": iteration, "settings": dataclasses.asdict(self.settings), "config": self.config}
        save_checkpoint(self.best_path, self.best, self.game, extra)
        save_checkpoint(self.files.iteration_path(iteration), self.best, self.game, extra)

    def _evaluation_row(self, iteration: int, elapsed: float) -> dict[str, float]:
        """The evaluation columns of the iteration: every ``eval_every`` iterations and after the last, the best
        network's score and 95% Wilson interval against each opponent (the rows the :class:`EvalLog` records)."""
        last = iteration == self.settings.iterations or self._would_spend_budget(elapsed)
        if self.opponents and (iteration % self.settings.eval_every == 0 or last):
            self._stage("eval", iteration)
            return self.evaluate(iteration)
        return self.assessor.skipped()

    def _warm_start(self, seed: int) -> None:
        """Games of the teacher against itself: saved and kept as iteration 0 of the replay window, trained on,
        and the trained network becomes the best one (it plays the first self-play)."""
        teacher = make_agent(self.teacher, self.game_name, seed)
        examples = self.games.demonstrations(teacher, self.settings.warm_start_games, seed)
        save_examples(self.files.replay_path(0), examples)
        (self.demonstrations if self.settings.keep_warm_start else self.buffer).append((0, examples))
        train_network(self.net, self.optimizer, examples, self.settings, seed + 1)
        self.best = copy.deepcopy(self.net).eval()

    def _iteration_seeds(self, iteration: int) -> dict[str, int]:
        parts = ("selfplay", "train", "arena", "eval", "warm_start")  # "eval" unused: the EvalLog seeds its games
        states = np.random.SeedSequence((self.settings.seed, iteration)).generate_state(len(parts))
        return {part: int(value) for part, value in zip(parts, states)}

    # -- the parts of an iteration (their rooms) ------------------------------------------------------
    def self_play(self, games: int, seed: int) -> list[Example]:
        """The examples of ``games`` self-play games of the best network (:class:`SelfPlayGames`)."""
        return self.games.play(self.best, games, seed)

    def player(self, net: PolicyValueNet, seed: int, name: str) -> MCTSAgent:
        """The network's competitive player (:meth:`Assessor.player`)."""
        return self.assessor.player(net, seed, name)

    def arena(self, seed: int) -> float:
        """The trained network's score against the best network (:meth:`Assessor.arena`)."""
        return self.assessor.arena(self.net, self.best, seed)

    def evaluate(self, iteration: int) -> dict[str, float]:
        """Evaluate the best network after ``iteration`` through the run's :class:`EvalLog` (``eval.csv`` and the
        learning curve); its score and 95% Wilson interval against each opponent as history columns."""
        hero = self.assessor.player(self.best, self.settings.seed, "alphazero")
        rows = self.log.record(hero, iteration)
        return {
            column: value
            for row in rows
            for column, value in zip(eval_columns(label_of(row.opponent)), (row.win_rate, row.ci_low, row.ci_high))
        }

    # -- outputs --------------------------------------------------------------------------------------
    def _write_history(self) -> None:
        write_history(self.out_dir / "history.csv", self.history)

    def _plot(self) -> Path:
        from baselines.plots import plot_alphazero_run

        return plot_alphazero_run(self.out_dir / "history.png", self.history, list(self.opponents), self._title())


__all__ = [
    "AlphaZeroRunResult",
    "FIRST_ITERATION_FILES",
    "HISTORY_FIELDS",
    "RESUMABLE_CHANGES",
    "SCRIPTED",
    "STATE_VERSION",
    "AlphaZeroSettings",
    "AlphaZeroTrainer",
    "eval_columns",
    "label_of",
    "losses_of",
    "mean_log_legal",
    "play_job",
    "resolve_opponent",
    "train_network",
    "write_history",
]
