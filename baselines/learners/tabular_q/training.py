"""Training a Q table (:func:`train`): the learner in rotating seats against opponents or in self-play, with a
history row (:class:`TabularQPoint`) after every ``eval_every`` episodes."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.learners.runner.record import crossed
from baselines.learners.tabular_q.agent import TabularQAgent
from baselines.learners.tabular_q.learner import SeatLearner, play_training_episode, seat_outcome
from baselines.learners.tabular_q.settings import TabularQSettings, as_settings
from baselines.learners.tabular_q.table import QTable
from baselines.progress import progress_bar
from baselines.schedules import LinearDecay
from boardenvs.core import Game, check_int

SELF_PLAY = "self"
"""``opponents`` value that puts the learner in every seat."""


@dataclass(frozen=True)
class TabularQPoint:
    """One row of the tabular Q training history, written after ``episode`` training episodes.

    ``train_score`` is the learner's mean outcome (1 win, 0.5 shared first place, 0 loss) over the training
    episodes since the previous row (NaN in self-play or before any episode); the ``eval_*`` fields are the
    greedy agent's results against the evaluation opponent (NaN score and interval without evaluation games),
    and ``eval_informed`` the share of its evaluation moves that the table decided (see
    :attr:`TabularQAgent.informed_moves`; the others are uniformly random; NaN without games).
    """

    episode: int
    epsilon: float
    states: int
    train_score: float
    eval_games: int
    eval_wins: int
    eval_draws: int
    eval_losses: int
    eval_score: float
    eval_low: float
    eval_high: float
    eval_informed: float


def opponent_seats(game: Game, opponents: str | Agent, seed: int) -> list[Agent] | None:
    """One opponent per seat (``None`` for self-play), built from an agent spec or shared when an agent."""
    if isinstance(opponents, str):
        if opponents.strip().lower() == SELF_PLAY:
            return None
        from baselines.factory import make_agent

        seeds = np.random.SeedSequence(seed).generate_state(game.spec.num_players)
        return [make_agent(opponents, game.spec.name, seed=int(s)) for s in seeds]
    if callable(getattr(opponents, "act", None)):
        return [opponents] * game.spec.num_players
    raise TypeError(f"opponents must be 'self', an agent spec or an agent, got {type(opponents).__name__}")


def _opponents_label(opponents: str | Agent) -> str:
    return opponents if isinstance(opponents, str) else str(getattr(opponents, "name", type(opponents).__name__))


class QTrainer:
    """The state of one training run (see :func:`train`, which documents the arguments)."""

    def __init__(
        self,
        game: Game,
        agent: TabularQAgent,
        opponents: str | Agent,
        seed: int,
        eval_games: int,
        eval_opponent: str,
    ) -> None:
        from baselines.factory import make_agent

        self.game, self.agent, self.eval_games = game, agent, eval_games
        play, explore, opponent, evaluation = np.random.SeedSequence(seed).spawn(4)
        self.play_rng = np.random.default_rng(play)
        self.learner = SeatLearner(agent.table, np.random.default_rng(explore))
        self.opponents = opponent_seats(game, opponents, int(opponent.generate_state(1)[0]))
        opponent_seed, self.eval_seed = (int(value) for value in evaluation.generate_state(2))
        self.evaluator = make_agent(eval_opponent, game.spec.name, seed=opponent_seed)
        self.outcomes: list[float] = []

    def episode(self, index: int, epsilon: float) -> None:
        """Play training episode ``index`` (the learner in seat ``index % n``, or in every seat in self-play)."""
        num_players = self.game.spec.num_players
        if self.opponents is None:
            play_training_episode(self.game, self.learner, [None] * num_players, epsilon, self.play_rng)
            return
        seat = index % num_players
        seats = [None if player == seat else self.opponents[player] for player in range(num_players)]
        returns = play_training_episode(self.game, self.learner, seats, epsilon, self.play_rng)
        self.outcomes.append(seat_outcome(returns, seat))

    def evaluate(self) -> tuple[int, int, int]:
        """``(wins, draws, losses)`` of the greedy agent against the evaluation opponent (the same seeds each time)."""
        from baselines.arena import evaluate_against

        if self.eval_games == 0:
            return 0, 0, 0
        self.agent.moves = self.agent.informed_moves = 0
        return evaluate_against(self.game, self.agent, self.evaluator, self.eval_games, self.eval_seed)

    def point(self, episode: int, epsilon: float) -> TabularQPoint:
        """Evaluate now and summarise the training outcomes since the last point (which it then forgets)."""
        from baselines.arena.ratings import wilson_interval

        wins, draws, losses = self.evaluate()
        games, points = wins + draws + losses, wins + 0.5 * draws
        score = points / games if games else math.nan
        low, high = wilson_interval(points, games) if games else (math.nan, math.nan)
        train_score = float(np.mean(self.outcomes)) if self.outcomes else math.nan
        self.outcomes = []
        informed = self.agent.informed_moves / self.agent.moves if games and self.agent.moves else math.nan
        states = self.agent.table.num_states
        return TabularQPoint(episode, epsilon, states, train_score, games, wins, draws, losses, score, low, high,
                             informed)  # fmt: skip

    def run(
        self,
        episodes: int,
        schedule: LinearDecay,
        eval_every: int,
        progress: bool,
        *,
        done: int = 0,
        offset: int = 0,
        first_point: bool = True,
        on_point: Callable[[TabularQPoint], None] | None = None,
    ) -> list[TabularQPoint]:
        """Play episodes ``done .. episodes - 1`` of a stretch of ``episodes`` with ε from ``schedule``; the history
        rows (see :func:`train`), each also passed to ``on_point``.

        ``offset`` counts the episodes before the stretch (a run's history numbers them on, and its evaluations fall
        on multiples of ``eval_every`` of that count); without ``first_point`` (a resumed run has that row already)
        there is no row before the first episode.
        """
        history: list[TabularQPoint] = []

        def add(episode: int, epsilon: float) -> None:
            history.append(self.point(offset + episode, epsilon))
            if on_point is not None:
                on_point(history[-1])

        if eval_every and first_point:
            add(0, schedule.at(0, episodes))
        with progress_bar(progress, episodes, f"{self.game.spec.name} tabular Q", "episode", done) as bar:
            for episode in range(done, episodes):
                epsilon = schedule.at(episode, episodes)
                self.episode(offset + episode, epsilon)
                bar.update()
                played = offset + episode + 1
                if episode + 1 == episodes or (eval_every and crossed(played - 1, played, eval_every)):
                    add(episode + 1, epsilon)
        return history


def _learning_agent(
    game: Game, settings: TabularQSettings | dict[str, Any] | None, seed: int, agent: TabularQAgent | None
) -> TabularQAgent:
    """A new agent with an empty table, or ``agent`` checked for ``game`` and given ``settings`` if any."""
    if agent is None:
        return TabularQAgent(seed, table=QTable.empty(game, settings))
    agent.check_game(game)
    if settings is not None:
        agent.table.settings = as_settings(settings)
    return agent


def train(
    game: Game,
    episodes: int,
    opponents: str | Agent = "random",
    settings: TabularQSettings | dict[str, Any] | None = None,
    seed: int = 0,
    progress: bool = False,
    *,
    eval_every: int = 0,
    eval_games: int = 0,
    eval_opponent: str = "random",
    agent: TabularQAgent | None = None,
) -> tuple[TabularQAgent, list[TabularQPoint]]:
    """Train a table by Q-learning; return the greedy agent and the history.

    Args:
        game: the game.
        episodes: training games, >= 1.
        opponents: ``"self"`` (the learner in every seat, all seats updating one table), an agent spec for
            :func:`baselines.factory.make_agent` (``"random"``, ``"mcts:simulations=20"``, ...; one agent per seat),
            or an agent object (shared by the other seats). Against opponents the learner's seat rotates:
            episode ``i`` puts it in seat ``i % num_players``.
        settings: learning settings (default: ``agent``'s table's settings, else :class:`TabularQSettings`).
        seed: seed of the setups, determinizations, exploration, opponents and evaluation games.
        progress: show a tqdm bar.
        eval_every: add a history row every this many episodes (and after the last); 0: only after the last.
            With ``eval_every`` > 0 the untrained table gets a row too (episode 0).
        eval_games: games per evaluation against ``eval_opponent`` (learner seat rotating; 0: no evaluation).
        eval_opponent: agent spec of the evaluation opponent.
        agent: continue training this agent's table (it must be for ``game``); default a new empty table.

    Returns:
        The agent (its table trained; it plays greedily) and the :class:`TabularQPoint` rows.
    """
    check_int("episodes", episodes, 1)
    check_int("eval_every", eval_every, 0)
    check_int("eval_games", eval_games, 0)
    agent = _learning_agent(game, settings, seed, agent)
    trainer = QTrainer(game, agent, opponents, seed, eval_games, eval_opponent)
    history = trainer.run(episodes, agent.table.settings.epsilon_schedule, eval_every, progress)
    agent.table.training = {
        "episodes": int(agent.table.training.get("episodes", 0)) + episodes,
        "opponents": _opponents_label(opponents),
        "seed": seed,
    }
    return agent, history
