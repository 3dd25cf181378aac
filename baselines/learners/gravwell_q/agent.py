"""Gravwell's tabular Q-learning agent (:class:`GravwellQAgent`, seed 000 §3.4): it chooses its card and its
Emergency Stop from two tables, learns them while training (equation 6) and drafts at random."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.gravwell_q.files import (
    export_text,
    parse_export,
    read_run_meta,
    read_run_tables,
    write_run_files,
)
from baselines.learners.gravwell_q.settings import GravwellQSettings
from baselines.learners.gravwell_q.states import SIGHT, STOP_STATES, pending_movement, play_state, stop_state
from boardenvs.core import Game
from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.cards import NUM_CARDS, bits_to_cards
from boardenvs.games.gravwell.state import COMMIT, DRAFT
from boardenvs.games.gravwell.tables import TURNS


def boltzmann_choice(values: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """An index drawn with probability ``exp(v / T)`` normalised (equation 5)."""
    logits = (values - values.max()) / temperature
    weights = np.exp(logits)
    return int(rng.choice(len(values), p=weights / weights.sum()))


def greedy_choice(values: np.ndarray, rng: np.random.Generator) -> int:
    """The index of a largest value (ties broken by ``rng``)."""
    best = np.flatnonzero(values == values.max())
    return int(best[0] if len(best) == 1 else rng.choice(best))


@dataclass
class _Pending:
    """A decision waiting for its reward and next state."""

    state: int = -1
    action: int = -1
    round: int = -1
    turn: int = -1
    tile: int = 0
    round_start: int = 0


@dataclass
class _Memory:
    """What one training game remembers between decisions."""

    play: _Pending = field(default_factory=_Pending)
    stop: _Pending = field(default_factory=_Pending)


class GravwellQAgent(BaseAgent):
    """Tabular Q-learning for card play and the Emergency Stop; random drafting (:mod:`baselines.learners.gravwell_q`).

    Args:
        seed: seed of the agent's generator (exploration, drafting, tie-breaks).
        settings: the learning settings; default :class:`GravwellQSettings`.
        name: display name.
        training: explore with Boltzmann and update the tables; otherwise play greedily.
    """

    name = "qlearning"

    def __init__(
        self,
        seed: SeedLike = None,
        settings: GravwellQSettings | None = None,
        name: str | None = None,
        training: bool = False,
    ) -> None:
        super().__init__(seed, name)
        self.settings = settings or GravwellQSettings()
        self.training = training
        self.q_play = np.zeros((self.settings.representation, NUM_CARDS))
        self.q_stop = np.zeros((STOP_STATES, 2))
        self.visits = np.zeros_like(self.q_play, dtype=np.int64)
        self.memory = _Memory()

    # -- acting -----------------------------------------------------------------------------------
    def act(self, game: Game, view: Any, player: int) -> int:
        """Random draft; Q-chosen card; Q-chosen Emergency Stop decision."""
        if view.phase == DRAFT:
            return self.choose(game.legal_actions(view))
        if view.phase == COMMIT:
            return game.play_base + self._choose_card(game, view, player)
        return game.stop_action + (0 if self._choose_stop(game, view, player) else 1)

    def _pick(self, values: np.ndarray) -> int:
        if self.training:
            return boltzmann_choice(values, self.settings.temperature, self.rng)
        return greedy_choice(values, self.rng)

    def _choose_card(self, game: Gravwell, view: Any, player: int) -> int:
        state = play_state(view, player, game.n, self.settings.representation)
        hand = np.array(bits_to_cards(view.hands[player]))
        if self.training:
            self._learn_play(view, player, state, hand)
            self._close_stop_if_new_round(view)
        card = int(hand[self._pick(self.q_play[state, hand])])
        if self.training:
            self._remember_play(view, player, state, card)
        return card

    def _choose_stop(self, game: Gravwell, view: Any, player: int) -> bool:
        if not self.settings.use_stop:
            return False
        movement = pending_movement(game, view, player)
        state = stop_state(view.turn, movement)
        if self.training:
            self._learn_stop(view, state)
        use = bool(self._pick(self.q_stop[state]))
        if self.training:
            self._remember_stop(view, state, use, movement)
        return use

    # -- learning ---------------------------------------------------------------------------------
    def start_game(self) -> None:
        """Forget the pending decisions of the previous game."""
        self.memory = _Memory()

    def _update(self, table: np.ndarray, state: int, action: int, reward: float, future: float) -> None:
        alpha, discount = self.settings.learning_rate, self.settings.discount
        table[state, action] = (1 - alpha) * table[state, action] + alpha * (reward + discount * future)

    def _shaped(self, movement: float) -> float:
        """Equation (7): ``l × d × γ`` with ``γ`` applied to backward movement only."""
        return movement * (self.settings.negative_factor if movement < 0 else 1.0)

    def _play_reward(self, tile: int) -> float:
        pending = self.memory.play
        if self.settings.reward_timing == "turn":
            return self._shaped(tile - pending.tile)
        if pending.turn == TURNS - 1:
            return self._shaped(tile - pending.round_start)
        return 0.0

    def _learn_play(self, view: Any, player: int, state: int, hand: np.ndarray) -> None:
        pending = self.memory.play
        if pending.state < 0:
            return
        reward = self._play_reward(view.pos[player])
        self._update(self.q_play, pending.state, pending.action, reward, float(self.q_play[state, hand].max()))

    def _remember_play(self, view: Any, player: int, state: int, card: int) -> None:
        previous = self.memory.play
        tile = view.pos[player]
        start = tile if view.turn == 0 or previous.round != view.round else previous.round_start
        self.memory.play = _Pending(state, card, view.round, view.turn, tile, start)
        self.visits[state, card] += 1

    def _learn_stop(self, view: Any, state: int) -> None:
        pending = self.memory.stop
        if pending.state < 0:
            return
        future = float(self.q_stop[state].max()) if pending.round == view.round else 0.0
        self._update(self.q_stop, pending.state, pending.action, 0.0, future)
        self.memory.stop = _Pending()

    def _remember_stop(self, view: Any, state: int, use: bool, movement: int) -> None:
        if use:
            self._update(self.q_stop, state, 1, float(-np.sign(movement) * min(abs(movement), SIGHT)), 0.0)
            self.memory.stop = _Pending()
        else:
            self.memory.stop = _Pending(state, 0, view.round)

    def _close_stop_if_new_round(self, view: Any) -> None:
        pending = self.memory.stop
        if pending.state >= 0 and pending.round != view.round:
            self._update(self.q_stop, pending.state, pending.action, 0.0, 0.0)
            self.memory.stop = _Pending()

    def end_game(self, final_pos: Sequence[int], player: int) -> None:
        """Terminal updates after a game: the last card (value 0 beyond) and an open ES decision."""
        pending = self.memory.play
        if pending.state >= 0:
            tile = final_pos[player]
            last = tile - (pending.tile if self.settings.reward_timing == "turn" else pending.round_start)
            self._update(self.q_play, pending.state, pending.action, self._shaped(last), 0.0)
        if self.memory.stop.state >= 0:
            stop = self.memory.stop
            self._update(self.q_stop, stop.state, stop.action, 0.0, 0.0)
        self.memory = _Memory()

    # -- persistence (the file formats are in baselines.learners.gravwell_q.files) ------------------
    def save(self, path: str | Path) -> Path:
        """Write ``<path>.npz`` (tables) and ``<path>.json`` (settings); returns the npz path."""
        return write_run_files(path, self.settings, self.name, (self.q_play, self.q_stop, self.visits))

    @classmethod
    def load(cls, path: str | Path, seed: SeedLike = None, name: str | None = None) -> GravwellQAgent:
        """A greedy agent from files written by :meth:`save` (``path`` with or without suffix).

        Raises:
            FileNotFoundError: the ``.npz`` or ``.json`` file is missing.
            ValueError: either file is damaged, or the tables are not finite or do not fit the settings (the
                message names the file).
        """
        settings, saved_name, tables_path = read_run_meta(path)
        agent = cls(seed, settings, name=name or saved_name)
        agent.q_play, agent.q_stop, agent.visits = read_run_tables(tables_path, agent.settings)
        return agent

    def export_json(self, path: str | Path, training: dict[str, Any] | None = None) -> Path:
        """Write the greedy policy as one compact JSON file: settings, tables rounded to ``TABLE_DECIMALS``
        and ``training`` (how the tables were made), with the digest of that content
        (:func:`~baselines.runs.with_digest`); read back by :meth:`load_json`."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(export_text(self.settings, self.q_play, self.q_stop, training or {}))
        return path

    def load_json(self, text: str | bytes, source: str = "table", require_digest: bool = False) -> None:
        """Take the settings and tables of an :meth:`export_json` file's ``text`` (``source`` names it in errors).

        The content must match its digest when it has one (``require_digest``: it must have one, as the shipped
        tables do), the settings must be valid, and the tables finite and of the shapes the settings give.

        Raises:
            ValueError: naming ``source`` and what is wrong; the agent is left as it was.
        """
        self.settings, self.q_play, self.q_stop = parse_export(text, source, require_digest)
        self.visits = np.zeros_like(self.q_play, dtype=np.int64)
