"""Quoridor: the game, its config, state, move codec and symmetry (see ``Quoridor`` for the spec sheet).

The package follows the file convention of every game: ``config.py`` (the frozen config), ``tables.py`` (the
geometry and action frames of a board size), ``state.py``, ``legality.py`` (which moves are legal and why not),
``transitions.py`` (what a move does), ``notation.py`` (``Move``, OpenSpiel's move text), ``text.py``,
``observation.py``, ``svg.py``, ``symmetry.py`` and ``game.py`` (the ``Game`` subclass). One topic file of its
own: ``walls.py``, the placed walls as a shared value with the wall graph's cached paths and distances.
"""

from boardenvs.games.quoridor.config import QuoridorConfig
from boardenvs.games.quoridor.game import Quoridor
from boardenvs.games.quoridor.notation import Move
from boardenvs.games.quoridor.state import QuoridorState
from boardenvs.games.quoridor.symmetry import MirrorLeftRight

__all__ = ["MirrorLeftRight", "Move", "Quoridor", "QuoridorConfig", "QuoridorState"]
