"""Each learner's training of a cell (:data:`TRAINERS`): SB3 runs, AlphaZero and tabular Q-learning, each
resuming the way its learner can."""

from __future__ import annotations

import dataclasses
import shutil
import time
from typing import Any

from baselines.benchmark.cell_settings import alphazero_settings, learner_settings, sb3_settings, with_settings
from baselines.benchmark.evaluation import curve_rows
from baselines.benchmark.jobs import CellJob, Trained
from baselines.benchmark.table import SELFPLAY
from baselines.inputs import parse_config
from baselines.learners.evaluation import EvalRow, read_eval_rows, write_eval_rows
from boardenvs.registry import make_game


def train_sb3(job: CellJob) -> Trained:
    """Train an SB3 cell: resume its run from the newest checkpoint if it has one, else start it."""
    from baselines.learners.sb3.model_card import read_model_card
    from baselines.learners.sb3.runs import find_checkpoint, train

    run = job.folder / "run"
    final = run / "model.zip"
    if not final.is_file():  # model.zip is written when the run has finished
        try:
            find_checkpoint(str(run))
            resume = True
        except ValueError:
            resume = False
        train(sb3_settings(job, resume))
    card = read_model_card(final)
    assert card is not None
    model = run / "best.zip" if (run / "best.zip").is_file() else final
    best = read_model_card(model)
    extra = {"model_steps": best.steps if best is not None else card.steps}
    illegal = sum(row.train_illegal for row in read_eval_rows(run / "eval.csv")[-1:])
    return Trained(model, card.steps, card.wall_seconds, illegal, extra)


def train_alphazero(job: CellJob) -> Trained:
    """Train an AlphaZero cell, resuming its run from its last completed iteration if it has one."""
    from baselines.learners.alphazero import AlphaZeroTrainer

    run = job.folder / "run"
    resume = (run / "state.pt").is_file()
    config = parse_config(list(job.cell.config))
    trainer = AlphaZeroTrainer(job.cell.game, config, alphazero_settings(job), run, job.progress,
                               resume=resume, force=not resume)  # fmt: skip
    history = trainer.run()
    seconds = history[-1]["elapsed_seconds"] + sum(row["eval_seconds"] for row in history) if history else 0.0
    games = sum(int(row["games"]) for row in history)
    return Trained(trainer.best_path, games, seconds, extra={"iterations": len(history)})


def train_tabular_q(job: CellJob) -> Trained:
    """Train a tabular Q cell from scratch in ``curve_points`` stretches, each followed by a learning-curve
    evaluation against both opponents (``run/eval.csv``; steps count episodes); the table is ``run/table.npz``."""
    from baselines.learners.tabular_q import TabularQAgent, TabularQSettings, train

    cell, budget, run = job.cell, job.cell.budget(job.budget), job.folder / "run"
    shutil.rmtree(run, ignore_errors=True)
    game = make_game(cell.game, **parse_config(list(cell.config)))
    settings = with_settings(TabularQSettings(), learner_settings(cell, budget))
    opponents = "self" if cell.opponents.strip() == SELFPLAY else cell.opponents
    agent: TabularQAgent | None = None
    rows: list[EvalRow] = []
    began, done = time.perf_counter(), 0
    for stretch, episodes in enumerate(stretches(budget.train, budget.curve_points)):
        chunk = stretch_settings(settings, done, episodes, budget.train)
        agent, _ = train(game, episodes, opponents, chunk, job.seed + stretch, job.progress, agent=agent)
        done += episodes
        rows += curve_rows(job, game, agent, done, time.perf_counter() - began)
        write_eval_rows(run / "eval.csv", rows)
    assert agent is not None
    model = agent.save(run / "table.npz")
    return Trained(model, done, time.perf_counter() - began, extra={"states": agent.table.num_states})


def stretches(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` near-equal positive stretches (fewer if ``total`` is smaller)."""
    parts = max(1, min(parts, total))
    return [total // parts + (index < total % parts) for index in range(parts)]


def stretch_settings(settings: Any, start: int, episodes: int, total: int) -> Any:
    """``settings`` for episodes ``start .. start + episodes`` of ``total``: a decaying epsilon goes on where the
    previous stretch left it."""
    if settings.epsilon_final is None or total <= 1:
        return settings
    schedule = settings.epsilon_schedule
    first, last = schedule.at(start, total), schedule.at(start + episodes - 1, total)
    return dataclasses.replace(settings, epsilon=first, epsilon_final=last)


TRAINERS = {"ppo": train_sb3, "dqn": train_sb3, "tabular_q": train_tabular_q, "alphazero": train_alphazero}
"""Each learner's training of a cell."""
