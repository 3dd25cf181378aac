"""Battle Sheep's Q table (:class:`SheepQTable`, seed 003's 12 x 12 x 8 matrix), its learning settings
(:class:`SheepQSettings`) and its JSON file, shipped in this package's ``models/`` folder.

Example:
    >>> table = SheepQTable.load()
    >>> table.values.shape, table.board_size
    ((12, 12, 8), 12)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baselines.params import float_param
from baselines.runs import check_digest, number_table, with_digest
from baselines.schedules import LinearDecay
from boardenvs.core import Game

TABLE_SIZE = 12
"""Rows and columns of the seed's table (its game 1 board)."""
DIRECTIONS = 8
SHIPPED_TABLE = "battle_sheep_q.json"
"""The package's trained table, in :data:`MODELS_DIR`."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped table lives."""
SHIPPED = "shipped"
"""``table`` value naming the shipped table."""
FORMAT = "battle_sheep_q"
FORMAT_VERSION = 1
TABLE_DECIMALS = 5
"""Decimals kept in a saved table."""


@dataclass(frozen=True)
class SheepQSettings:
    """Learning settings (the seed gives none); a bad value raises ``ValueError`` naming it.

    Attributes:
        learning_rate: ``alpha`` in (0, 1].
        discount: ``gamma`` in [0, 1] per decision of the learner.
        epsilon: exploration at the first training game, in [0, 1].
        epsilon_final: exploration at the last training game, in [0, 1] (linear in between).
    """

    learning_rate: float = 0.05
    discount: float = 0.9
    epsilon: float = 0.3
    epsilon_final: float = 0.02

    def __post_init__(self) -> None:
        float_param("learning_rate", self.learning_rate, 0.0, 1.0, positive=True)
        for name in ("discount", "epsilon", "epsilon_final"):
            float_param(name, getattr(self, name), 0.0, 1.0)

    @property
    def epsilon_schedule(self) -> LinearDecay:
        """Exploration over the training games: linear from ``epsilon`` (first) to ``epsilon_final`` (last)."""
        return LinearDecay(self.epsilon, self.epsilon_final)


@dataclass
class SheepQTable:
    """The ``board_size x board_size x 8`` Q values, the settings they were learned with, and how.

    Attributes:
        values: ``float64[board_size, board_size, 8]``: value of moving from cell ``(row, column)`` in direction
            ``d`` (``boardenvs.games.battle_sheep.tables.DIRECTION_NAMES`` order).
        settings: the learning settings.
        training: facts about the training (games, seed, opponents), saved with the table.
    """

    values: np.ndarray = field(default_factory=lambda: np.zeros((TABLE_SIZE, TABLE_SIZE, DIRECTIONS)))
    settings: SheepQSettings = field(default_factory=SheepQSettings)
    training: dict[str, Any] = field(default_factory=dict)

    @property
    def board_size(self) -> int:
        """Rows (= columns) of the table."""
        return int(self.values.shape[0])

    def entries(self, game: Game, cells: np.ndarray, directions: np.ndarray) -> np.ndarray:
        """The values of moving from ``cells`` of ``game``'s board in ``directions`` (scaled positions)."""
        n, size = game.config.board_size, self.board_size
        rows, columns = (cells // n) * size // n, (cells % n) * size // n
        return self.values[rows, columns, directions]

    def to_json(self) -> str:
        """The table as JSON text (values rounded to :data:`TABLE_DECIMALS` decimals), with the digest of its
        content (:func:`~baselines.runs.with_digest`)."""
        data = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "settings": asdict(self.settings),
            "training": self.training,
            "values": np.round(self.values, TABLE_DECIMALS).tolist(),
        }
        return json.dumps(with_digest(data), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "table", require_digest: bool = False) -> SheepQTable:
        """The table written by :meth:`to_json` (``source`` names it in errors).

        The content must match its digest when it has one (``require_digest``: it must have one, as the shipped
        table does), the settings must be valid and the values a finite ``n x n x 8`` table.

        Raises:
            ValueError: naming ``source`` and what is wrong.
        """
        try:
            data = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise ValueError(f"{source}: not a {FORMAT} table (not UTF-8 JSON: {error})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise ValueError(f"{source}: not a {FORMAT} table of version {FORMAT_VERSION}")
        data = check_digest(data, source, require_digest)
        if not isinstance(data.get("settings"), dict):
            raise ValueError(f"{source}: not a valid {FORMAT} table: its 'settings' must be an object")
        try:
            values = number_table(data.get("values"), "'values'")
            settings = SheepQSettings(**data["settings"])
        except (TypeError, ValueError) as error:
            raise ValueError(f"{source}: not a valid {FORMAT} table: {error}") from None
        _check_values(values, source)
        training = data.get("training", {})
        if not isinstance(training, dict):
            raise ValueError(f"{source}: 'training' must be an object, got {type(training).__name__}")
        return cls(values, settings, dict(training))

    @classmethod
    def load(cls, table: str = SHIPPED) -> SheepQTable:
        """The shipped table (``"shipped"``) or the one saved at path ``table``."""
        if table == SHIPPED:
            text = (MODELS_DIR / SHIPPED_TABLE).read_bytes()
            return cls.from_json(text, f"baselines/learners/sheep_q/models/{SHIPPED_TABLE}", require_digest=True)
        path = Path(table)
        if not path.is_file():
            raise FileNotFoundError(f"qlearning table {table!r} does not exist")
        return cls.from_json(path.read_bytes(), repr(str(path)))

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path``."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(self.to_json() + "\n")


def _check_values(values: np.ndarray, source: str) -> None:
    """``ValueError`` naming ``source`` unless ``values`` is a finite ``n x n x 8`` table with ``n >= 1``."""
    if values.ndim != 3 or values.shape[0] != values.shape[1] or values.shape[2] != DIRECTIONS:
        raise ValueError(f"{source}: values of shape {values.shape}, expected (n, n, {DIRECTIONS})")
    if values.shape[0] < 1 or not np.isfinite(values).all():
        raise ValueError(f"{source}: the values must be finite numbers, at least one cell of them")
