"""Battle Sheep (NYCU AI Capstone variant): the game, its config, state and move codec (see ``BattleSheep``).

The modules, as in every game package: ``config`` (the frozen config and the course's presets, ``settings.csv``),
``tables`` (board geometry built once per board size and split variant; cell and direction names), ``state``,
``legality`` (which actions are legal and why one is not), ``transitions`` (the random field, what a legal action
does, who acts next), ``scoring`` (regions, scores and ranking points: the topic of the returns), ``notation``
(the ``Move`` codec and action text), ``text`` (the state as text), ``observation``, ``svg`` and ``game``.
"""

from boardenvs.games.battle_sheep.config import PRESETS, BattleSheepConfig
from boardenvs.games.battle_sheep.game import BattleSheep
from boardenvs.games.battle_sheep.notation import Move
from boardenvs.games.battle_sheep.state import BattleSheepState

__all__ = ["PRESETS", "BattleSheep", "BattleSheepConfig", "BattleSheepState", "Move"]
