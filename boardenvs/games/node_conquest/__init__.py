"""Node Conquest: the game, its config, state, move codec and symmetry (see ``NodeConquest`` for the spec sheet).

The package follows the file convention of every game: ``config.py`` (the frozen config), ``tables.py`` (the map
of a config: nodes, neighbour slots, names, layout), ``state.py``, ``legality.py`` (which moves are legal and why
not), ``transitions.py`` (what a move does, the start and the ranking at the cap), ``notation.py`` (``Move``, the
codec and the move text), ``text.py``, ``observation.py``, ``svg.py``, ``symmetry.py`` and ``game.py`` (the
``Game`` subclass).
"""

from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.game import NodeConquest
from boardenvs.games.node_conquest.notation import PASS_MOVE, Move
from boardenvs.games.node_conquest.state import NodeConquestState
from boardenvs.games.node_conquest.symmetry import ROTATE_180, HalfTurn

__all__ = ["PASS_MOVE", "ROTATE_180", "HalfTurn", "Move", "NodeConquest", "NodeConquestConfig", "NodeConquestState"]
