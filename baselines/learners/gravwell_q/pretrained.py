"""Gravwell's ``qlearning`` agent (:class:`PretrainedQAgent`): the greedy Q agent playing the shipped tables."""

from __future__ import annotations

from typing import Any

from baselines.agent import SeedLike
from baselines.learners.gravwell_q.agent import GravwellQAgent
from baselines.learners.gravwell_q.files import SHIPPED_TABLES, shipped_table
from boardenvs.core import Game


class PretrainedQAgent(GravwellQAgent):
    """The greedy Q-learning agent with the shipped tables (``make_agent("qlearning", "gravwell", seed)``).

    When it first acts in a game (and whenever the game's ``inert_tractors`` setting changes) it loads the
    package table trained for that setting: 4-player games against three random agents (the table's
    ``training`` entry records how). It plays greedily and never learns.
    """

    name = "qlearning"

    def __init__(self, seed: SeedLike = None, name: str | None = None) -> None:
        super().__init__(seed, None, name)
        self.loaded_for: bool | None = None
        """The ``inert_tractors`` setting of the loaded table (None before the first move)."""

    def act(self, game: Game, view: Any, player: int) -> int:
        """The greedy move of the table shipped for ``game``'s ``inert_tractors`` setting (loaded on change)."""
        inert = bool(getattr(game.config, "inert_tractors", False))
        if self.loaded_for is not inert:
            source = f"baselines/learners/gravwell_q/models/{SHIPPED_TABLES[inert]}"
            self.load_json(shipped_table(inert), source, require_digest=True)
            self.loaded_for = inert
        return super().act(game, view, player)
