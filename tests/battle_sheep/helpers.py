"""Builders of hand-made Battle Sheep positions in the course format (rows of ``mapStat``/``sheepStat``)."""

from __future__ import annotations

from typing import Any

from boardenvs.games.battle_sheep import BattleSheep, BattleSheepState


def board(game: BattleSheep, rows: list[str], to_move: int) -> BattleSheepState:
    """A state from rows of cells: ``#`` not field, ``.`` free, ``A16``-style ``<player letter><count>``
    tokens separated by spaces."""
    map_stat: list[list[int]] = []
    sheep_stat: list[list[int]] = []
    for row in rows:
        map_row, sheep_row = [], []
        for token in row.split():
            owner, count = _token(token)
            map_row.append(owner)
            sheep_row.append(count)
        map_stat.append(map_row)
        sheep_stat.append(sheep_row)
    return game.state_from_course(map_stat, sheep_stat, to_move)


def _token(token: str) -> tuple[int, int]:
    if token == "#":
        return -1, 0
    if token == ".":
        return 0, 0
    return "ABCD".index(token[0]) + 1, int(token[1:])


def small_game(**config: Any) -> BattleSheep:
    """A 5x5, 2-player game with 4 sheep each unless overridden."""
    settings = {"board_size": 5, "field_size": 10, "num_players": 2, "sheep_per_player": 4}
    settings.update(config)
    return BattleSheep(**settings)
