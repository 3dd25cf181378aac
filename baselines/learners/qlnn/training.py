"""Training a QLNN network (:func:`train`) against scripted opponents, with a learning curve of
:class:`QLNNPoint` rows (the greedy agent against an evaluation opponent)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from baselines.agent import Agent
from baselines.learners.qlnn.agent import QLNNAgent
from baselines.learners.qlnn.learner import QLNNLearner, play_training_episode
from baselines.learners.qlnn.network import QNetwork, torch_module
from baselines.learners.qlnn.settings import QLNNSettings
from baselines.learners.tabular_q.identity import game_identity
from baselines.learners.tabular_q.learner import seat_outcome
from baselines.learners.tabular_q.training import opponent_seats
from baselines.progress import progress_bar
from boardenvs.core import Game, check_int


@dataclass(frozen=True)
class QLNNPoint:
    """One row of the QLNN learning curve: after ``episode`` episodes, the greedy agent vs the evaluation opponent."""

    episode: int
    epsilon: float
    seconds: float
    train_score: float
    eval_games: int
    eval_wins: int
    eval_draws: int
    eval_losses: int
    eval_score: float
    eval_low: float
    eval_high: float


def evaluation_point(
    game: Game, agent: QLNNAgent, opponent: Agent, games: int, seed: int, head: tuple[int, float, float, float]
) -> QLNNPoint:
    """Evaluate ``agent`` over ``games`` seat-rotated games; ``head`` is (episode, ε, seconds, train score)."""
    from baselines.arena import evaluate_against

    results = evaluate_against(game, agent, opponent, games, seed) if games else (0, 0, 0)
    return scored_point(head, results)


def scored_point(head: tuple[int, float, float, float], results: tuple[int, int, int]) -> QLNNPoint:
    """The row of ``head`` (episode, ε, seconds, train score) with the evaluation's ``(wins, draws, losses)``:
    its score (draws half) and 95% Wilson interval (NaN without games)."""
    from baselines.arena.ratings import wilson_interval

    wins, draws, losses = results
    games, points = wins + draws + losses, wins + 0.5 * draws
    score = points / games if games else math.nan
    low, high = wilson_interval(points, games) if games else (math.nan, math.nan)
    return QLNNPoint(*head, games, wins, draws, losses, score, low, high)


class QLNNRun:
    """One training run's network, learner, opponents and curve (see :func:`train`, which documents the
    arguments); the seeds are drawn in a fixed order, so the same arguments give the same network."""

    def __init__(self, game: Game, opponents: str, settings: QLNNSettings, seed: int, eval_opponent: str) -> None:
        from baselines.factory import make_agent

        init, play, explore, opponent, evaluation = np.random.SeedSequence(seed).spawn(5)
        torch_module().manual_seed(int(init.generate_state(1)[0]))
        self.game, self.settings = game, settings
        self.network = QNetwork(game_identity(game), settings)
        self.learner = QLNNLearner(self.network, np.random.default_rng(explore))
        self.agent = QLNNAgent(seed, weights=self.network)
        self.play_rng = np.random.default_rng(play)
        self.seats = opponent_seats(game, opponents, int(opponent.generate_state(1)[0])) or []
        if not self.seats:
            raise ValueError("qlnn: opponents must be an agent spec, not self-play")
        self.eval_seed, evaluator_seed = (int(v) for v in evaluation.generate_state(2))
        self.evaluator = make_agent(eval_opponent, game.spec.name, seed=evaluator_seed)
        self.history: list[QLNNPoint] = []
        self.outcomes: list[float] = []
        self.start = time.perf_counter()

    def add_point(self, episode: int, epsilon: float, eval_games: int, callback: Callable | None) -> None:
        """Evaluate now, add the row (with the mean training outcome since the last row) and pass it to ``callback``."""
        train_score = float(np.mean(self.outcomes)) if self.outcomes else math.nan
        self.outcomes.clear()
        head = (episode, epsilon, time.perf_counter() - self.start, train_score)
        self.history.append(evaluation_point(self.game, self.agent, self.evaluator, eval_games, self.eval_seed, head))
        if callback is not None:
            callback(self.history[-1])

    def run(self, episodes: int, eval_every: int, eval_games: int, progress: bool, callback: Callable | None) -> None:
        """Play ``episodes`` training games, the learner's seat rotating, adding rows as :func:`train` says."""
        schedule = self.settings.epsilon_schedule
        if eval_every:
            self.add_point(0, schedule.at(0, episodes), eval_games, callback)
        with progress_bar(progress, episodes, f"{self.game.spec.name} qlnn", "episode") as bar:
            for episode in range(episodes):
                epsilon = schedule.at(episode, episodes)
                seat = episode % self.game.spec.num_players
                returns = play_training_episode(self.game, self.learner, seat, self.seats, epsilon, self.play_rng)
                self.outcomes.append(seat_outcome(returns, seat))
                bar.update()
                if episode + 1 == episodes or (eval_every and (episode + 1) % eval_every == 0):
                    self.add_point(episode + 1, epsilon, eval_games, callback)


def train(
    game: Game,
    episodes: int,
    opponents: str = "path",
    settings: QLNNSettings | None = None,
    seed: int = 0,
    progress: bool = False,
    *,
    eval_every: int = 0,
    eval_games: int = 0,
    eval_opponent: str = "random",
    callback: Callable[[QLNNPoint], None] | None = None,
) -> tuple[QLNNAgent, list[QLNNPoint], QLNNLearner]:
    """Train a network against ``opponents`` (an agent spec; the learner's seat rotates, episode ``i`` in seat
    ``i % num_players``); return the greedy agent, the learning curve and the learner.

    With ``eval_every`` > 0 the curve gets a row every that many episodes (and at 0 and after the last), each
    from ``eval_games`` greedy games against ``eval_opponent`` (the same seeds each time). ``callback(point)``
    is called with every row. Seeded: the same arguments give the same network.
    """
    check_int("episodes", episodes, 1)
    check_int("eval_every", eval_every, 0)
    check_int("eval_games", eval_games, 0)
    run = QLNNRun(game, opponents, settings or QLNNSettings(), seed, eval_opponent)
    run.run(episodes, eval_every, eval_games, progress, callback)
    run.network.training = {"episodes": episodes, "opponents": opponents, "seed": seed,
                            "seconds": round(time.perf_counter() - run.start, 1)}  # fmt: skip
    return run.agent, run.history, run.learner
