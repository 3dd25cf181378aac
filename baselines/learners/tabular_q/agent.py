"""The trained tabular Q agent (:class:`TabularQAgent`): it plays greedily from a :class:`QTable`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.tabular_q.policy import greedy_action
from baselines.learners.tabular_q.table import QTable, observation_key
from boardenvs.core import Game


class TabularQAgent(BaseAgent):
    """Plays greedily from a Q table: ``make_agent("tabular_q:table=runs/tabular_q/ttt/table.npz", game_name)``.

    Args:
        seed: the agent's seed (tie-breaks, moves in states the table never met).
        name: display name (default ``"tabular_q"``).
        table: a :class:`QTable` or the path of one saved by :meth:`QTable.save` (required).

    Raises:
        ValueError: no table, or a file that is not a table; playing a game the table was not trained for.
        FileNotFoundError: the table file does not exist.
    """

    name = "tabular_q"

    def __init__(
        self, seed: SeedLike = None, name: str | None = None, *, table: QTable | str | Path | None = None
    ) -> None:
        super().__init__(seed, name)
        if table is None:
            raise ValueError("agent 'tabular_q' needs table=<path to a .npz written by scripts/train_tabular_q.py>")
        if not isinstance(table, (QTable, str, Path)):
            raise TypeError(f"table must be a QTable or a path, got {type(table).__name__}")
        self.table = table if isinstance(table, QTable) else QTable.load(table)
        self._checked: Game | None = None
        self.moves = 0
        """Moves chosen by :meth:`act` (reset it to measure a stretch of play)."""
        self.informed_moves = 0
        """Of those, the moves the table decided: a known state whose legal actions' values are not all equal."""
        self.illegal_predictions = 0
        """Illegal actions played (always 0: the agent picks among the legal ones; the run skeleton counts them)."""

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the table was trained for ``game`` (remembered after the first check)."""
        if self._checked is not game:
            self.table.check_game(game)
            self._checked = game

    def act(self, game: Game, view: Any, player: int) -> int:
        """The best legal action by the table; a uniformly random legal action in an unknown state."""
        self.check_game(game)
        legal = game.legal_actions(view)
        values = self.table.values.get(observation_key(game, view, player))
        self.moves += 1
        if values is None:
            return self.choose(legal)
        legal_values = values[legal]
        self.informed_moves += bool(legal_values.min() < legal_values.max())
        return greedy_action(values, legal, self.rng)

    def save(self, path: str | Path) -> Path:
        """Save the table (see :meth:`QTable.save`)."""
        return self.table.save(path)

    @classmethod
    def load(
        cls, path: str | Path, seed: SeedLike = None, name: str | None = None, game: Game | None = None
    ) -> TabularQAgent:
        """An agent playing the table at ``path``; with ``game``, ``ValueError`` at once if trained for another."""
        agent = cls(seed, name, table=path)
        if game is not None:
            agent.check_game(game)
        return agent
