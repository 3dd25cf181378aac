"""The evaluation of a cell: its trained agent against ``random`` and the game's scripted agent, illegal
moves counted (:class:`CountingAgent`), for the final result and a tabular cell's learning curve."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.arena import evaluate_against
from baselines.benchmark.cell_settings import SAMPLED_LEARNERS, alphazero_settings
from baselines.benchmark.jobs import CellJob
from baselines.benchmark.table import SB3_LEARNERS, SCRIPTED
from baselines.factory import make_agent
from baselines.inputs import parse_config
from baselines.learners.evaluation import EvalRow, eval_row
from boardenvs.core import Game
from boardenvs.registry import make_game


class CountingAgent:
    """An agent that counts (and replaces) illegal actions of the agent it wraps.

    Every action is checked against the mask of the view the agent was given; an illegal one is counted in
    ``illegal`` and replaced by a uniformly random legal action, so the game goes on and the count is reported
    instead of stopping the evaluation. An agent's own count of replaced predictions (``illegal_predictions``,
    :class:`~baselines.learners.sb3.SB3Agent`) is added.
    """

    def __init__(self, agent: Agent) -> None:
        self.agent, self.name, self.replaced = agent, agent.name, 0
        self.rng = np.random.default_rng(0)

    @property
    def illegal(self) -> int:
        """Illegal actions so far: replaced here, or by the agent itself."""
        return self.replaced + int(getattr(self.agent, "illegal_predictions", 0))

    def reseed(self, seed: int) -> None:
        """Reseed the wrapped agent and the replacement draws (the arena does this before each game)."""
        self.rng = np.random.default_rng(seed)
        reseed = getattr(self.agent, "reseed", None)
        if callable(reseed):
            reseed(seed)

    def act(self, game: Game, view: Any, player: int) -> int:
        """The wrapped agent's action, or a random legal one in place of an illegal one (counted)."""
        action = self.agent.act(game, view, player)
        mask = game.legal_action_mask(view)
        if isinstance(action, (int, np.integer)) and 0 <= action < mask.size and mask[action]:
            return int(action)
        self.replaced += 1
        return int(self.rng.choice(np.flatnonzero(mask)))


def final_seed(seed: int) -> int:
    """The seed of the final evaluation's games: derived from the benchmark seed, apart from every training and
    learning-curve seed."""
    return int(np.random.SeedSequence([seed, 19]).generate_state(1)[0])


def final_evaluation(job: CellJob, model: Path) -> list[EvalRow]:
    """The trained agent against ``random`` and the game's scripted agent, ``eval_games`` each on fresh seeds."""
    cell, games, seed = job.cell, job.cell.budget(job.budget).eval_games, final_seed(job.seed)
    game = make_game(cell.game, **parse_config(list(cell.config)))
    learner, rows = CountingAgent(trained_agent(job, model, game)), []
    for index, opponent_name in enumerate(("random", SCRIPTED[cell.game])):
        before = learner.illegal
        opponent = make_agent(opponent_name, cell.game, seed=seed + 1 + index)
        results = evaluate_against(game, learner, opponent, games, seed, opponent_name)
        rows.append(eval_row(0, 0.0, opponent_name, results, illegal=learner.illegal - before))
    return rows


def trained_agent(job: CellJob, model: Path, game: Game) -> Agent:
    """The agent that plays a cell's trained model."""
    learner, seed = job.cell.learner, final_seed(job.seed)
    if learner in SB3_LEARNERS:
        from baselines.learners.sb3.agent import SB3Agent

        return SB3Agent.load(model, game, name=learner, seed=seed, stochastic=learner in SAMPLED_LEARNERS)
    if learner == "tabular_q":
        from baselines.learners.tabular_q import TabularQAgent

        return TabularQAgent.load(model, seed, learner, game)
    from baselines.learners.alphazero.agent import AlphaZeroAgent

    settings = alphazero_settings(job)
    simulations = settings.eval_simulations or settings.selfplay.simulations
    return AlphaZeroAgent(seed, learner, checkpoint=model, simulations=simulations)


def curve_rows(job: CellJob, game: Game, agent: Agent, steps: int, seconds: float) -> list[EvalRow]:
    """A learning-curve point of a tabular cell: ``curve_games`` against each opponent, the same seeds each time."""
    games, rows = job.cell.budget(job.budget).curve_games, []
    for index, name in enumerate(("random", SCRIPTED[job.cell.game])):
        opponent = make_agent(name, job.cell.game, seed=job.seed + 1 + index)
        results = evaluate_against(game, agent, opponent, games, job.seed, name)
        rows.append(eval_row(steps, seconds, name, results))
    return rows
