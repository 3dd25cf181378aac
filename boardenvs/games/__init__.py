"""The games of boardenvs; importing this package registers them with ``boardenvs.registry``."""

from boardenvs.games.battle_sheep import PRESETS as BATTLE_SHEEP_PRESETS
from boardenvs.games.battle_sheep import BattleSheep
from boardenvs.games.gravwell import Gravwell
from boardenvs.games.node_conquest import NodeConquest
from boardenvs.games.quoridor import Quoridor
from boardenvs.games.splendor import PRESETS as SPLENDOR_PRESETS
from boardenvs.games.splendor import Splendor
from boardenvs.registry import register_game

register_game(
    "quoridor",
    Quoridor,
    presets={"2p": {}, "4p": {"num_players": 4}, "small": {"board_size": 5}},
    gym_name="Quoridor",
)

register_game(
    "node_conquest",
    NodeConquest,
    presets={
        "paper": {},
        "small": {"rows": 3, "cols": 3},
        "hex": {"topology": "hex"},
        "4p": {"num_players": 4},
    },
    gym_name="NodeConquest",
)

register_game(
    "battle_sheep",
    BattleSheep,
    presets={name: dict(config) for name, config in BATTLE_SHEEP_PRESETS.items()},
    gym_name="BattleSheep",
)

register_game(
    "gravwell",
    Gravwell,
    presets={
        "2p": {"num_players": 2},
        "3p": {"num_players": 3},
        "4p": {"num_players": 4},
        "paper_engine": {"inert_tractors": True, "num_players": 4},
        "no_secrets": {"no_secrets": True},
        "hardcore": {"hardcore": True},
    },
    gym_name="Gravwell",
)

register_game(
    "splendor",
    Splendor,
    presets={name: dict(config) for name, config in SPLENDOR_PRESETS.items()},
    gym_name="Splendor",
)
