"""Quoridor: the game, its config, state, move codec and symmetry (see ``Quoridor`` for the spec sheet)."""

from boardenvs.games.quoridor.config import QuoridorConfig
from boardenvs.games.quoridor.game import Quoridor
from boardenvs.games.quoridor.notation import Move
from boardenvs.games.quoridor.state import QuoridorState
from boardenvs.games.quoridor.symmetry import MirrorLeftRight

__all__ = ["MirrorLeftRight", "Move", "Quoridor", "QuoridorConfig", "QuoridorState"]
