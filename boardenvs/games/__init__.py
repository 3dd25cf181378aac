"""The games of boardenvs; importing this package registers them with ``boardenvs.registry``."""

from boardenvs.games.quoridor import Quoridor
from boardenvs.registry import register_game

register_game(
    "quoridor",
    Quoridor,
    presets={"2p": {}, "4p": {"num_players": 4}, "small": {"board_size": 5}},
    gym_name="Quoridor",
    heuristic_agent="baselines.heuristics.quoridor:HeuristicAgent",
)
