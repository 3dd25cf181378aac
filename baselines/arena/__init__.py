"""Matches and tournaments between agents, one module per job.

* :mod:`.match`: one seeded game (:func:`play_game` -> :class:`GameRecord`), and :func:`evaluate_against`
  (one agent against another in seat-rotated games).
* :mod:`.schedule`: the lineups, seat rotations and common game seeds of a tournament.
* :mod:`.tournament`: :func:`tournament`, which plays a schedule (in worker processes if asked) and summarises it.
* :mod:`.results`: :class:`TournamentResult` and :class:`AgentStats` (win rates with Wilson intervals, mean
  returns, places, Elo, pairwise win rates), text tables and CSV; placement points.
* :mod:`.log`: the JSON-lines log that makes a tournament resumable.
* :mod:`.ratings`: Wilson intervals and Elo ratings; :mod:`.plot`: the tournament picture.

Example:
    >>> from baselines.agent import RandomAgent
    >>> from boardenvs import make_game
    >>> result = tournament(make_game("quoridor", board_size=3), {"a": RandomAgent, "b": RandomAgent}, 2)
    >>> [stats.games for stats in result.stats]
    [2, 2]
"""

from baselines.arena.log import TournamentLog, read_records
from baselines.arena.match import LEARNER_NAME, GameRecord, IllegalActionError, evaluate_against, play_game
from baselines.arena.ratings import fit_elo, wilson_interval
from baselines.arena.results import AgentStats, TournamentResult, place_points, placement_summary, summarize
from baselines.arena.schedule import (
    ScheduledGame,
    field_lineups,
    game_seeds,
    tournament_lineups,
    tournament_schedule,
)
from baselines.arena.tournament import AgentOrFactory, tournament

__all__ = [
    "LEARNER_NAME",
    "AgentOrFactory",
    "AgentStats",
    "GameRecord",
    "IllegalActionError",
    "ScheduledGame",
    "TournamentLog",
    "TournamentResult",
    "evaluate_against",
    "field_lineups",
    "fit_elo",
    "game_seeds",
    "place_points",
    "placement_summary",
    "play_game",
    "read_records",
    "summarize",
    "tournament",
    "tournament_lineups",
    "tournament_schedule",
    "wilson_interval",
]
