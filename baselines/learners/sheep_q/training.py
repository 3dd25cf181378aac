"""Learning Battle Sheep's Q table by playing (:class:`SheepQLearner`, :func:`learn`): one-step Q-learning between
the learner's decisions, rewarded by its region score, against random players in the 4-player basic game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.agent import RandomAgent
from baselines.learners.sheep_q.agent import SheepQAgent, half_split_action, move_pairs
from baselines.learners.sheep_q.table import TABLE_SIZE, SheepQSettings, SheepQTable
from baselines.progress import progress_bar
from boardenvs.games.battle_sheep import BattleSheep


@dataclass
class _Pending:
    """The learner's last decision, waiting for its target: the table entry and the score then."""

    index: tuple[int, int, int]
    score: float


class SheepQLearner:
    """Learns a :class:`SheepQTable` by playing (see "Learning" in :mod:`baselines.learners.sheep_q`)."""

    def __init__(self, game: BattleSheep, settings: SheepQSettings, seed: int) -> None:
        if game.config.board_size != TABLE_SIZE:
            raise ValueError(f"board_size: the table is learned on the {TABLE_SIZE}x{TABLE_SIZE} board")
        self.game, self.settings = game, settings
        self.table = SheepQTable(settings=settings)
        self.agent = SheepQAgent(seed, "learner", table=self.table)
        self.scale = float(game.config.sheep_per_player) ** 1.25

    def play(self, seed: int, epsilon: float) -> np.ndarray:
        """One training game with the learner in seat ``seed % num_players`` against random players; returns
        the game's returns."""
        game = self.game
        seat = seed % game.spec.num_players
        opponent = RandomAgent(seed)
        state, pending = game.initial_state(np.random.default_rng(seed)), None
        while not game.is_terminal(state):
            player = state.current_player
            if player != seat or game.in_placement(state):
                agent = self.agent if player == seat else opponent
                state = game.apply(state, agent.act(game, state, player))
                continue
            pending, action = self._decide(state, seat, pending, epsilon)
            state = game.apply(state, action)
        if pending is not None:
            final = self._score(state, seat) - pending.score + float(game.returns(state)[seat])
            self._update(pending.index, final)
        return game.returns(state)

    def _decide(self, state: Any, seat: int, pending: _Pending | None, epsilon: float) -> tuple[_Pending, int]:
        """Update the last decision toward this one, then choose (epsilon-greedy)."""
        game = self.game
        cells, directions = move_pairs(game, state, seat)
        score = self._score(state, seat)
        if pending is not None:
            best_next = float(self.table.entries(game, cells, directions).max())
            self._update(pending.index, score - pending.score + self.settings.discount * best_next)
        if self.agent.rng.random() < epsilon:
            pick = int(self.agent.rng.integers(cells.size))
            action = half_split_action(game, state, int(cells[pick]), int(directions[pick]))
        else:
            action = self.agent.greedy(game, state, cells, directions)
        cell, direction = game.decode(state, action)[1:3]
        return _Pending((cell // TABLE_SIZE, cell % TABLE_SIZE, direction), score), action

    def _score(self, state: Any, seat: int) -> float:
        return float(self.game.scores(state)[seat]) / self.scale

    def _update(self, index: tuple[int, int, int], target: float) -> None:
        values = self.table.values
        values[index] += self.settings.learning_rate * (target - values[index])


def learn(
    games: int,
    seed: int = 0,
    settings: SheepQSettings | None = None,
    game: BattleSheep | None = None,
    progress: bool = False,
) -> tuple[SheepQTable, np.ndarray]:
    """Train a table for ``games`` games (the basic 4-player game unless ``game`` is given); returns it and the
    learner's return in every game."""
    settings = settings or SheepQSettings()
    game = game or BattleSheep()
    learner = SheepQLearner(game, settings, seed)
    schedule = settings.epsilon_schedule
    returns = np.zeros(games)
    bar = progress_bar(progress, games, "battle_sheep qlearning", "game")
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        returns[index] = learner.play(game_seed, schedule.at(index, games))[game_seed % game.spec.num_players]
        bar.update()
    bar.close()
    learner.table.training = {"games": games, "seed": seed, "opponents": "random", "game": "basic (course game 1)"}
    return learner.table, returns
