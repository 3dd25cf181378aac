"""Node Conquest: the game, its config, state and move codec (see ``NodeConquest`` for the spec sheet)."""

from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.game import Move, NodeConquest
from boardenvs.games.node_conquest.state import NodeConquestState

__all__ = ["Move", "NodeConquest", "NodeConquestConfig", "NodeConquestState"]
