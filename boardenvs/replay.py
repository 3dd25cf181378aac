"""Replays: one versioned JSON format for a whole game, checked move by move against the rules when loaded.

A replay names the game, its version and whole config, the game seed, the agent in each seat, every move (the
seat that chose it, its action id, its notation and the rewards it paid) and the result. The initial state is
``game.initial_state(setup_rng(seed))`` — the setup stream of ``baselines.arena.play_game`` and of the live
arena — so a replay needs no serialised state: the moves rebuild every position.

The JSON form (``format_version`` 1)::

    {"format": "boardenvs-replay", "format_version": 1,
     "game": "quoridor", "game_version": 0, "config": {"board_size": 5, ...},
     "seed": 7, "agents": ["heuristic", "random"],
     "moves": [{"player": 0, "action": 12, "notation": "c2", "rewards": [0.0, 0.0]}, ...],
     "result": {"returns": [1.0, -1.0], "scores": [...], "plies": 23, "truncated": false},
     "meta": {...}}

``rewards`` are what the PettingZoo environment pays every seat for that move (the game's returns on the move
that ends it, zeros before); ``meta`` is free-form (where the game came from). :func:`load_replay` refuses, with
a :class:`ReplayError` naming the field or the move, a file that is not a replay, a newer format, a replay whose
game version differs from the installed game's, and any move that is illegal, played by the wrong seat, written
in a different notation, or a result that the moves do not reach.

>>> from boardenvs import make_game
>>> game = make_game("quoridor", board_size=3)
>>> replay = record_replay(game, seed=1, actions=[4, 9], agents=["me", "you"])
>>> [move.notation for move in replay.moves], replay.result.plies
(['b2', 'b2h'], 2)
>>> states = replay_states(Replay.from_json(replay.to_json()), game)
>>> len(states)
3
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.core import Game
from boardenvs.registry import list_games, make_game

REPLAY_FORMAT = "boardenvs-replay"
REPLAY_FORMAT_VERSION = 1


class ReplayError(ValueError):
    """A replay that cannot be loaded or does not replay: the message names the field or the move."""


def setup_rng(seed: int) -> np.random.Generator:
    """The random stream a game's setup is drawn from for game seed ``seed`` (``play_game``'s first stream)."""
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])


@dataclass(frozen=True)
class ReplayMove:
    """One move: the seat that chose it, its action id, its notation and the rewards it paid each seat."""

    player: int
    action: int
    notation: str
    rewards: tuple[float, ...]


@dataclass(frozen=True)
class ReplayResult:
    """How the game ended: returns and scores per seat, the number of plies, and whether the move cap ended it."""

    returns: tuple[float, ...]
    scores: tuple[float, ...]
    plies: int
    truncated: bool


@dataclass(frozen=True)
class Replay:
    """A whole game as data (see the module docstring for the JSON form)."""

    game: str
    game_version: int
    config: dict[str, Any]
    seed: int
    agents: tuple[str, ...]
    moves: tuple[ReplayMove, ...]
    result: ReplayResult
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The replay as JSON-ready data."""
        return {
            "format": REPLAY_FORMAT,
            "format_version": REPLAY_FORMAT_VERSION,
            "game": self.game,
            "game_version": self.game_version,
            "config": self.config,
            "seed": self.seed,
            "agents": list(self.agents),
            "moves": [dataclasses.asdict(move) | {"rewards": list(move.rewards)} for move in self.moves],
            "result": dataclasses.asdict(self.result) | {
                "returns": list(self.result.returns), "scores": list(self.result.scores)},
            "meta": self.meta,
        }  # fmt: skip

    def dumps(self) -> str:
        """The replay as JSON text."""
        return json.dumps(self.to_json())

    def save(self, path: str | Path) -> Path:
        """Write the replay as JSON to ``path``; returns the path."""
        path = Path(path)
        path.write_text(self.dumps())
        return path

    @classmethod
    def from_json(cls, data: Any) -> Replay:
        """Check and read the JSON form (structure only; :func:`replay_states` checks the moves)."""
        return _parse_replay(data)

    def make_game(self) -> Game:
        """The game this replay was played in (its exact config); ``ReplayError`` if it cannot be built."""
        if self.game not in list_games():
            raise ReplayError(f"replay game {self.game!r} is not a boardenvs game; games: {list_games()}")
        try:
            game = make_game(self.game, **config_from_json(self.config))
        except (TypeError, ValueError) as error:
            raise ReplayError(f"replay config is not a valid {self.game} config: {error}") from None
        if game.spec.version != self.game_version:
            raise ReplayError(
                f"replay game_version is {self.game_version} but the installed {self.game} is version "
                f"{game.spec.version}: its moves may mean other things now, so it is not replayed"
            )
        return game


# -- building ------------------------------------------------------------------------------------
def config_to_json(game: Game) -> dict[str, Any]:
    """The whole config of ``game`` as JSON data (tuples become lists)."""
    return json.loads(json.dumps(dataclasses.asdict(game.config)))


def config_from_json(config: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON config as keyword arguments of ``make_game`` (lists back to the tuples configs hold)."""
    return {key: _tuples(value) for key, value in config.items()}


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def record_replay(
    game: Game, seed: int, actions: Sequence[int], agents: Sequence[str], meta: Mapping[str, Any] | None = None
) -> Replay:
    """Play ``actions`` from the setup of ``seed`` and record the replay (``ValueError`` on an illegal action).

    Args:
        game: The game.
        seed: The game seed (the initial state is ``game.initial_state(setup_rng(seed))``).
        actions: Every action of the game, in order (a finished game, or a game in progress).
        agents: The name of the agent (or person) in each seat.
        meta: Free-form facts to keep with the replay (where it came from).
    """
    if len(agents) != game.spec.num_players:
        raise ValueError(f"agents must name {game.spec.num_players} seats, got {len(agents)}")
    state = game.initial_state(setup_rng(seed))
    moves = []
    for action in actions:
        player, notation = state.current_player, game.action_to_str(state, int(action))
        state = game.apply(state, action)
        rewards = game.returns(state) if game.is_terminal(state) else np.zeros(game.spec.num_players)
        moves.append(ReplayMove(player, int(action), notation, tuple(float(r) for r in rewards)))
    result = ReplayResult(
        tuple(float(r) for r in game.returns(state)), tuple(float(s) for s in game.scores(state)), len(moves),
        game.is_truncated(state),
    )  # fmt: skip
    return Replay(game.spec.name, game.spec.version, config_to_json(game), int(seed), tuple(agents), tuple(moves),
                  result, dict(meta or {}))  # fmt: skip


# -- loading -------------------------------------------------------------------------------------
def load_replay(source: str | Path | Mapping[str, Any]) -> tuple[Replay, Game, list[Any]]:
    """Read a replay (a file path or its JSON data), rebuild its game and every state, checking each move.

    Returns:
        The replay, its game, and the states before the first move, after each move, in order.

    Raises:
        ReplayError: the file is not a replay, its game or version differs from the installed one, or a move or
            the result does not replay (the message names which).
    """
    if isinstance(source, Mapping):
        data = source
    else:
        path = Path(source)
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise ReplayError(f"cannot read replay {str(path)!r}: {error}") from None
    try:
        replay = Replay.from_json(data)
        game = replay.make_game()
        return replay, game, replay_states(replay, game)
    except ReplayError as error:
        if isinstance(source, Mapping):
            raise
        raise ReplayError(f"replay {str(source)!r}: {error}") from None


def replay_states(replay: Replay, game: Game) -> list[Any]:
    """The states of ``replay`` in ``game``: before the first move, then after each; checked move by move."""
    if len(replay.agents) != game.spec.num_players:
        seats = game.spec.num_players
        raise ReplayError(f"replay names {len(replay.agents)} agents, {game.spec.name} has {seats} seats")
    state = game.initial_state(setup_rng(replay.seed))
    states = [state]
    for index, move in enumerate(replay.moves):
        state = _replay_move(game, state, index, move)
        states.append(state)
    _check_result(game, state, replay.result)
    return states


def _replay_move(game: Game, state: Any, index: int, move: ReplayMove) -> Any:
    where = f"replay move {index} ({move.notation!r})"
    if game.is_terminal(state):
        raise ReplayError(f"{where}: the game was already over")
    if move.player != state.current_player:
        raise ReplayError(f"{where}: played by seat {move.player}, but seat {state.current_player} was to move")
    try:
        game.check_action(state, move.action)
    except (TypeError, ValueError) as error:
        raise ReplayError(f"{where}: action {move.action} is illegal: {error}") from None
    notation = game.action_to_str(state, move.action)
    if notation != move.notation:
        raise ReplayError(f"{where}: action {move.action} is written {notation!r} by the installed game")
    after = game.apply(state, move.action)
    expected = game.returns(after) if game.is_terminal(after) else np.zeros(game.spec.num_players)
    if len(move.rewards) != len(expected) or not np.allclose(expected, move.rewards, atol=1e-6):
        raise ReplayError(f"{where}: rewards {list(move.rewards)} differ from the rules' {expected.tolist()}")
    return after


def _check_result(game: Game, state: Any, result: ReplayResult) -> None:
    seats = game.spec.num_players
    if len(result.returns) != seats or len(result.scores) != seats:
        raise ReplayError(f"replay result must have {seats} returns and {seats} scores")
    if result.plies != state.ply:
        raise ReplayError(f"replay result says {result.plies} plies, the moves make {state.ply}")
    if not np.allclose(game.returns(state), result.returns, atol=1e-6):
        raise ReplayError(f"replay result returns {list(result.returns)} differ from {game.returns(state).tolist()}")
    if not np.allclose(game.scores(state), result.scores, atol=1e-6):
        raise ReplayError(f"replay result scores {list(result.scores)} differ from {game.scores(state).tolist()}")
    if result.truncated != game.is_truncated(state):
        raise ReplayError(f"replay result truncated={result.truncated}, the rules say {game.is_truncated(state)}")


# -- parsing -------------------------------------------------------------------------------------
def _parse_replay(data: Any) -> Replay:
    if not isinstance(data, Mapping) or data.get("format") != REPLAY_FORMAT:
        raise ReplayError(f'not a replay: the JSON must be an object with "format": {REPLAY_FORMAT!r}')
    version = _field(data, "format_version", int)
    if version != REPLAY_FORMAT_VERSION:
        raise ReplayError(f"replay format_version {version} is not supported (this boardenvs reads version "
                          f"{REPLAY_FORMAT_VERSION})")  # fmt: skip
    if _field(data, "seed", int) < 0:
        raise ReplayError(f"replay field 'seed' must be >= 0, got {data['seed']}")
    agents = _field(data, "agents", list)
    if not all(isinstance(name, str) for name in agents):
        raise ReplayError("replay field 'agents' must be a list of names (strings)")
    moves = [_parse_move(index, move) for index, move in enumerate(_field(data, "moves", list))]
    return Replay(
        _field(data, "game", str), _field(data, "game_version", int), dict(_field(data, "config", Mapping)),
        _field(data, "seed", int), tuple(agents), tuple(moves), _parse_result(_field(data, "result", Mapping)),
        dict(data.get("meta") or {}),
    )  # fmt: skip


def _field(data: Mapping[str, Any], name: str, kind: type, where: str = "replay") -> Any:
    if name not in data:
        raise ReplayError(f"{where} has no field {name!r}")
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ReplayError(f"{where} field {name!r} must be {_kind_name(kind)}, got {type(value).__name__}")
    return value


def _kind_name(kind: type) -> str:
    return {int: "an integer", str: "a string", list: "a list", Mapping: "an object"}.get(kind, kind.__name__)


def _numbers(values: Any, count: int | None, name: str, where: str) -> tuple[float, ...]:
    """A list of finite numbers (of ``count`` of them, when given)."""
    ok = isinstance(values, list) and (count is None or len(values) == count)
    if not ok or not all(_is_number(value) for value in values):
        size = "" if count is None else f"{count} "
        raise ReplayError(f"{where} field {name!r} must be a list of {size}finite numbers, got {values!r}")
    return tuple(float(value) for value in values)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _parse_move(index: int, move: Any) -> ReplayMove:
    where = f"replay move {index}"
    if not isinstance(move, Mapping):
        raise ReplayError(f"{where} must be an object, got {type(move).__name__}")
    return ReplayMove(
        _field(move, "player", int, where), _field(move, "action", int, where), _field(move, "notation", str, where),
        _numbers(move.get("rewards"), None, "rewards", where),
    )  # fmt: skip


def _parse_result(result: Mapping[str, Any]) -> ReplayResult:
    where = "replay result"
    returns = result.get("returns")
    count = len(returns) if isinstance(returns, list) else -1
    truncated = result.get("truncated")
    if not isinstance(truncated, bool):
        raise ReplayError(f"{where} field 'truncated' must be true or false, got {truncated!r}")
    return ReplayResult(
        _numbers(returns, count, "returns", where), _numbers(result.get("scores"), count, "scores", where),
        _field(result, "plies", int, where), truncated,
    )  # fmt: skip
