"""Node Conquest: the game, its config, state, move codec and symmetry (see ``NodeConquest`` for the spec sheet)."""

from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.game import PASS_MOVE, Move, NodeConquest
from boardenvs.games.node_conquest.state import NodeConquestState
from boardenvs.games.node_conquest.symmetry import ROTATE_180, HalfTurn

__all__ = ["PASS_MOVE", "ROTATE_180", "HalfTurn", "Move", "NodeConquest", "NodeConquestConfig", "NodeConquestState"]
