"""Replays of the arena's games: from a :class:`GameRecord` or from any game of a tournament's JSON-lines log.

A tournament log names its game by ``repr(game)`` (``Quoridor(QuoridorConfig(board_size=5, ...))``); that text is
read with :mod:`ast` as data (the config's literal keyword values), never evaluated, and the game rebuilt with
:func:`boardenvs.make_game`, so a tampered log cannot run code. Every replay is checked move by move when loaded
(:func:`boardenvs.replay.load_replay`), so a log whose moves were tampered with is refused there.

Example:
    >>> from baselines.agent import RandomAgent
    >>> from baselines.arena.match import play_game
    >>> from boardenvs import make_game
    >>> game = make_game("quoridor", board_size=3)
    >>> record = play_game(game, [RandomAgent(), RandomAgent()], seed=4)
    >>> replay = replay_from_record(game, record)
    >>> replay.result.plies == record.plies, replay.agents
    (True, ('random', 'random'))
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from baselines.arena.log import game_of_header, read_log
from baselines.arena.match import GameRecord
from boardenvs.core import Game
from boardenvs.replay import Replay, record_replay


def replay_from_record(game: Game, record: GameRecord, meta: dict[str, Any] | None = None) -> Replay:
    """The replay of a game ``play_game`` played (``ValueError`` if the record does not replay in ``game``)."""
    replay = record_replay(game, record.seed, record.actions, record.agent_names, meta)
    if not np.allclose(replay.result.returns, record.returns, atol=1e-6):
        raise ValueError(f"record of seed {record.seed} claims returns {record.returns.tolist()}, "
                         f"its moves give {list(replay.result.returns)}")  # fmt: skip
    return replay


def game_from_repr(text: str) -> Game:
    """The game a tournament log's header names as ``repr(game)``, read as data (no code runs); see
    :func:`baselines.arena.log.game_of_header`.

    Raises:
        ValueError: ``text`` is not ``GameClass(ConfigClass(field=literal, ...))`` of a boardenvs game.
    """
    try:
        return game_of_header(text)
    except TypeError as error:
        raise ValueError(f"cannot read the game {text[:80]!r} of a tournament log: {error}") from None


def log_replay(path: str | Path, index: int | None = None) -> Replay:
    """The replay of one game of the tournament log at ``path``: the game of schedule index ``index``, or the first
    game in the file when ``index`` is ``None``.

    Raises:
        ValueError: the file is not a tournament log, holds no such game, or the game's moves do not replay.
    """
    contents = read_log(path)
    if contents.header is None or not contents.games:
        raise ValueError(f"log {str(path)!r} holds no finished game")
    game = game_from_repr(str(contents.header.get("game", "")))
    games = dict(contents.games)
    if index is None:
        index = contents.games[0][0]
    if index not in games:
        raise ValueError(f"log {str(path)!r} has no game {index}; its games: {_ranges(sorted(games))}")
    meta = {"source": f"tournament log {Path(path).name}, game {index}"}
    return replay_from_record(game, games[index], meta)


def _ranges(numbers: list[int]) -> str:
    """``0-3, 7, 9-10`` for ``[0, 1, 2, 3, 7, 9, 10]``."""
    parts: list[str] = []
    start = previous = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == previous + 1:
            previous = number
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if number is not None:
            start = previous = number
    return ", ".join(parts)
