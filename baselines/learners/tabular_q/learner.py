"""The Q-learning updates of the learner's seats (:class:`SeatLearner`) and one training game with them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.learners.tabular_q.policy import exploring_action
from baselines.learners.tabular_q.table import QTable, observation_key
from boardenvs.core import Game


class SeatLearner:
    """Q-learning updates for the learner's seats, one game at a time.

    Call :meth:`step` at each of the learner's decisions (it updates the seat's previous decision and picks
    the exploring action) and :meth:`finish` with the final returns.
    """

    def __init__(self, table: QTable, rng: np.random.Generator) -> None:
        self.table = table
        self.rng = rng
        self.pending: dict[int, tuple[np.ndarray, int]] = {}
        """Seat → (values row, action) of its last decision, waiting for its target."""

    def update(self, row: np.ndarray, action: int, target: float) -> None:
        """``Q(s, a) += α (target - Q(s, a))`` on the ``row`` of ``s``."""
        row[action] += self.table.settings.learning_rate * (target - row[action])

    def step(self, game: Game, view: Any, player: int, epsilon: float) -> int:
        """The learner's action for ``player`` in ``view``, after updating the seat's previous decision."""
        legal = game.legal_actions(view)
        row = self.table.row(observation_key(game, view, player))
        previous = self.pending.get(player)
        if previous is not None:
            self.update(previous[0], previous[1], self.table.settings.discount * float(row[legal].max()))
        action = exploring_action(row, legal, self.table.settings, epsilon, self.rng)
        self.pending[player] = (row, action)
        return action

    def finish(self, returns: np.ndarray) -> None:
        """Update every seat's last decision toward its return, and forget the game."""
        for player, (row, action) in self.pending.items():
            self.update(row, action, float(returns[player]))
        self.pending = {}


def seat_outcome(returns: np.ndarray, seat: int) -> float:
    """1 if ``seat``'s return beats every other seat's, 0.5 on a tie for first, else 0 (as the arena counts)."""
    others = float(np.delete(returns, seat).max())
    mine = float(returns[seat])
    return 1.0 if mine > others else 0.5 if mine == others else 0.0


def play_training_episode(
    game: Game,
    learner: SeatLearner,
    seats: Sequence[Agent | None],
    epsilon: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Play one game with the learner in the seats marked ``None``; returns the final returns.

    Every seat decides from its determinized view, as in :func:`baselines.arena.play_game`; ``rng`` drives the
    setup and the determinizations.
    """
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        player = state.current_player
        view = game.determinize(state, player, rng)
        opponent = seats[player]
        action = learner.step(game, view, player, epsilon) if opponent is None else opponent.act(game, view, player)
        state = game.apply(state, action)
    returns = game.returns(state)
    learner.finish(returns)
    return returns
