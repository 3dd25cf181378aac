"""Evaluation game by game: a learner against one opponent with the game seeds and seat rotation of
:func:`~baselines.arena.evaluate_against`, keeping every game's seed, seat, outcome, scores and time, and a game
per seat (so a seat can be shown something the others are not; ``scripts/gravwell_ceiling.py``)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from baselines.agent import Agent
from baselines.arena.match import LEARNER_NAME, play_game
from baselines.arena.schedule import game_seeds
from boardenvs.core import Game

OPPONENT_LABEL = "opponent"
"""The opponent's name in the game records (the learner's is ``LEARNER_NAME``)."""


@dataclass
class GameResult:
    """One game of the evaluation: its index, game seed, the learner's seat and outcome (1, 0.5, 0), the scores
    per seat, the number of plies and the wall-clock seconds."""

    index: int
    seed: int
    seat: int
    outcome: float
    scores: list[float]
    plies: int
    seconds: float


def play_seated_game(game: Game, learner: Agent, opponent: Agent, seat: int, seed: int, index: int) -> GameResult:
    """Game ``index``: ``learner`` in ``seat``, ``opponent`` in every other seat, on game seed ``seed``."""
    seats = range(game.spec.num_players)
    agents = [learner if player == seat else opponent for player in seats]
    names = [LEARNER_NAME if player == seat else OPPONENT_LABEL for player in seats]
    started = time.perf_counter()
    record = play_game(game, agents, seed, names=names)
    seconds = time.perf_counter() - started
    return GameResult(index, seed, seat, record.outcome(LEARNER_NAME), record.scores.tolist(), record.plies, seconds)


def play_evaluation(
    games_for_seat: list[Game],
    learner: Agent,
    opponent: Agent,
    games: int,
    seed: int,
    on_game: Callable[[GameResult], None],
) -> list[GameResult]:
    """``games`` games with the game seeds and seat rotation of ``evaluate_against``; ``on_game`` sees each one."""
    num_players = len(games_for_seat)
    seeds = game_seeds(seed, math.ceil(games / num_players))
    results = []
    for index in range(games):
        seat = index % num_players
        game = games_for_seat[seat]
        results.append(play_seated_game(game, learner, opponent, seat, seeds[index // num_players], index))
        on_game(results[-1])
    return results
