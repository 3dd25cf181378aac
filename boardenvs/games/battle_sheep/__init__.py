"""Battle Sheep (NYCU AI Capstone variant): the game, its config, state and move codec (see ``BattleSheep``)."""

from boardenvs.games.battle_sheep.config import BattleSheepConfig
from boardenvs.games.battle_sheep.game import BattleSheep, Move
from boardenvs.games.battle_sheep.settings import PRESETS
from boardenvs.games.battle_sheep.state import BattleSheepState

__all__ = ["PRESETS", "BattleSheep", "BattleSheepConfig", "BattleSheepState", "Move"]
