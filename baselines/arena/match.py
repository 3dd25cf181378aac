"""One game between agents: :func:`play_game` and its :class:`GameRecord`, and one agent's record against another.

``play_game`` plays one seeded game and returns everything about it. The seed drives the game setup, the
determinizations the agents see and the agents themselves (each is reseeded from the seed and its seat), so a
record depends only on the agents and the seed.

An agent's result in a game is the best return among its seats: it wins if that beats the best return of every
other agent in the game, draws on a tie for first, and loses otherwise (:meth:`GameRecord.outcome`: 1, 1/2, 0).
:func:`evaluate_against` plays one agent against another in seat-rotated games on common seeds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.arena.schedule import game_seeds
from boardenvs.core import Game


class IllegalActionError(ValueError):
    """An agent chose an action that is not legal in the position it was given."""


@dataclass
class GameRecord:
    """Everything about one finished game.

    Attributes:
        agent_names: the name of the agent in each seat.
        seed: the game seed; ``play_game(game, agents, seed)`` replays the game.
        actions: every action, in order.
        action_strings: the actions in the game's notation.
        players: the seat that chose each action.
        returns: final returns per seat.
        scores: final game scores per seat.
        plies: number of actions played.
        truncated: whether the game ended at the length cap rather than by its rules.
    """

    agent_names: tuple[str, ...]
    seed: int
    actions: list[int] = field(default_factory=list)
    action_strings: list[str] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    returns: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    scores: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    plies: int = 0
    truncated: bool = False

    def best_returns(self) -> dict[str, float]:
        """Each agent's best return over the seats it held in this game."""
        best: dict[str, float] = {}
        for seat, name in enumerate(self.agent_names):
            best[name] = max(best.get(name, -math.inf), float(self.returns[seat]))
        return best

    def outcome(self, name: str) -> float:
        """1 if agent ``name`` won, 0.5 for a shared first place, 0 for a loss."""
        best = self.best_returns()
        others = [value for other, value in best.items() if other != name]
        if not others:
            return 0.5
        return outcome_points(best[name], max(others))


def outcome_points(mine: float, theirs: float) -> float:
    """1, 0.5 or 0 as ``mine`` is greater than, equal to or less than ``theirs``."""
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


# -- one game -------------------------------------------------------------------------------------
def play_game(game: Game, agents: Sequence[Agent], seed: int, names: Sequence[str] | None = None) -> GameRecord:
    """Play one game; ``agents[i]`` sits in seat ``i``.

    The seed drives the game setup, the determinizations the agents see, and the agents themselves: every
    agent with a ``reseed(int)`` method is reseeded from ``(seed, seat)`` first, so the record depends only
    on the agents and the seed.

    Args:
        game: the game to play.
        agents: one agent per seat.
        seed: the game seed.
        names: names recorded per seat; defaults to each agent's ``name``.

    Raises:
        IllegalActionError: an agent chose an illegal action (the message names the agent and seat).
    """
    if len(agents) != game.spec.num_players:
        raise ValueError(f"{game.spec.name} needs {game.spec.num_players} agents, got {len(agents)}")
    setup_rng, view_rng, agent_seeds = _game_streams(seed, len(agents))
    _reseed_agents(agents, agent_seeds)
    record = GameRecord(tuple(names or [agent.name for agent in agents]), seed)
    state = game.initial_state(setup_rng)
    while not game.is_terminal(state):
        player = state.current_player
        action = _checked_action(game, state, agents[player], player, view_rng, record.agent_names[player])
        record.actions.append(action)
        record.action_strings.append(game.action_to_str(state, action))
        record.players.append(player)
        state = game.apply(state, action)
    record.returns, record.scores = game.returns(state), game.scores(state)
    record.plies, record.truncated = len(record.actions), game.is_truncated(state)
    return record


def _game_streams(seed: int, num_seats: int) -> tuple[np.random.Generator, np.random.Generator, list[int]]:
    """Independent streams of one game seed: setup, determinization, and one agent seed per seat."""
    setup, views, agents = np.random.SeedSequence(seed).spawn(3)
    agent_seeds = [int(value) for value in agents.generate_state(num_seats)]
    return np.random.default_rng(setup), np.random.default_rng(views), agent_seeds


def _reseed_agents(agents: Sequence[Agent], seeds: Sequence[int]) -> None:
    for agent, seed in zip(agents, seeds):
        reseed = getattr(agent, "reseed", None)
        if callable(reseed):
            reseed(seed)


def _checked_action(game: Game, state: Any, agent: Agent, player: int, rng: np.random.Generator, name: str) -> int:
    """The action ``agent`` chooses from its determinized view, checked against the true state."""
    action = agent.act(game, game.determinize(state, player, rng), player)
    try:
        return game.check_action(state, action)
    except (TypeError, ValueError) as error:
        raise IllegalActionError(
            f"agent {name!r} (seat {player}) chose an illegal action at ply {state.ply}: {error}"
        ) from error


# -- one agent against one opponent ---------------------------------------------------------------
LEARNER_NAME = "learner"
"""The evaluated agent's name in the game records of :func:`evaluate_against`."""


def evaluate_against(
    game: Game,
    learner: Agent,
    opponent: Agent,
    games: int,
    seed: int,
    opponent_name: str | None = None,
    on_game: Callable[[], None] | None = None,
) -> tuple[int, int, int]:
    """``(wins, draws, losses)`` of ``learner`` in ``games`` seat-rotated seeded games against ``opponent``.

    Args:
        game: The game.
        learner: The evaluated agent; one seat per game, rotating.
        opponent: The agent in every other seat.
        games: Number of games.
        seed: Evaluation seed; the game seeds derive from it.
        opponent_name: The opponent's name in the records (default: its ``name``).
        on_game: Called after each game (a progress bar's update).
    """
    num_players = game.spec.num_players
    seeds = game_seeds(seed, math.ceil(games / num_players))
    label = _distinct_label(opponent_name or getattr(opponent, "name", "opponent"))
    outcomes = []
    for index in range(games):
        seat = index % num_players
        agents = [learner if player == seat else opponent for player in range(num_players)]
        names = [LEARNER_NAME if player == seat else label for player in range(num_players)]
        outcomes.append(play_game(game, agents, seeds[index // num_players], names=names).outcome(LEARNER_NAME))
        if on_game is not None:
            on_game()
    wins, draws = outcomes.count(1.0), outcomes.count(0.5)
    return wins, draws, games - wins - draws


def _distinct_label(name: str) -> str:
    return name if name != LEARNER_NAME else f"{name} (opponent)"
