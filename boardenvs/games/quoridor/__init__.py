"""Quoridor: the game, its config, state and move codec (see ``Quoridor`` for the spec sheet)."""

from boardenvs.games.quoridor.config import QuoridorConfig
from boardenvs.games.quoridor.game import Quoridor
from boardenvs.games.quoridor.notation import Move
from boardenvs.games.quoridor.state import QuoridorState

__all__ = ["Move", "Quoridor", "QuoridorConfig", "QuoridorState"]
