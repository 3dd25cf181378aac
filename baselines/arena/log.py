"""The JSON-lines log that makes long tournaments resumable, and reading one back.

The first line describes the tournament (game, agents, field, seed, games per pairing); every later line is
one finished game: its index in the schedule and its :class:`~baselines.arena.match.GameRecord`. Lines are written
and flushed as games finish, so a run that is stopped (Ctrl-C, a lost machine) loses at most the games in
flight. Opening the log again with the same description returns the games already played; opening it with a
different description is an error, so two tournaments never mix in one file.

Nothing in the file is trusted: every game line is read field by field (types, lengths) and then **replayed
through the rules** from its seed (:func:`record_mismatch`, the setup stream of ``play_game``): an illegal action,
a wrong player order, notation, returns, scores, plies or truncation that the moves do not give, a game that does
not finish, or a seat or seed that the schedule does not give is a ``ValueError`` naming the file and the line.

Two readers, two rules for a cut last line:

- :meth:`TournamentLog.open` (resuming a tournament) drops a partly written last line (the process died mid-write)
  and cuts the file back to its complete lines before anything is appended (a header that lost its newline gets it
  back): that game is played again. This is the kill-safety of ``scripts.tournament --log``.
- :func:`read_records` (reading a finished log, ``scripts.placement_points``) refuses one: a cut last line is a
  ``ValueError`` naming the file and the line, since the log it was asked to summarise is not finished (rerun the
  tournament with the same ``--log`` to finish it).

Any other damage (a garbled, blank or repeated line) is a ``ValueError`` naming the file and the line, never
silently skipped.
"""

from __future__ import annotations

import ast
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from baselines.arena.match import GameRecord
from baselines.arena.schedule import ScheduledGame, tournament_schedule
from baselines.runs import atomic_write_text, damaged_line, split_lines
from boardenvs.core import Game
from boardenvs.registry import list_games, make_game
from boardenvs.replay import setup_rng

LOG_FORMAT = "boardenvs-tournament-log"
LOG_VERSION = 1
NOT_A_LOG = "not a tournament log: line 1 is not the header scripts.tournament --log writes"
FIRST_GAME_LINE = 2
"""Game lines follow the header: the ``k``-th game of a log (0-based) is on line ``FIRST_GAME_LINE + k``."""


def record_to_json(index: int, record: GameRecord) -> dict[str, Any]:
    """One log line: the schedule index and every field of ``record``."""
    return {
        "index": index,
        "agent_names": list(record.agent_names),
        "seed": record.seed,
        "actions": record.actions,
        "action_strings": record.action_strings,
        "players": record.players,
        "returns": [float(value) for value in record.returns],
        "scores": [float(value) for value in record.scores],
        "plies": record.plies,
        "truncated": record.truncated,
    }


def record_from_json(data: Any) -> tuple[int, GameRecord]:
    """The inverse of :func:`record_to_json`, checking every field's type and the lengths that must agree.

    Raises:
        ValueError: a field is missing or of the wrong type, or the lists disagree in length (the message names
            the field).
    """
    if not isinstance(data, dict):
        raise ValueError(f"a game line must be a JSON object, got {type(data).__name__}")
    names = _field(data, "agent_names", lambda value: bool(value) and _is_list_of(str)(value), "a list of names")
    actions = _field(data, "actions", _is_list_of(_is_int), "a list of integers")
    record = GameRecord(
        tuple(names),
        _field(data, "seed", _is_count, "an integer >= 0"),
        list(actions),
        list(_field(data, "action_strings", _is_list_of(str, len(actions)), f"a list of {len(actions)} strings")),
        list(_field(data, "players", _is_list_of(_is_int, len(actions)), f"a list of {len(actions)} integers")),
        np.asarray(_field(data, "returns", _is_numbers(len(names)), f"{len(names)} finite numbers"), np.float32),
        np.asarray(_field(data, "scores", _is_numbers(len(names)), f"{len(names)} finite numbers"), np.float32),
        _field(data, "plies", _is_count, "an integer >= 0"),
        _field(data, "truncated", lambda value: isinstance(value, bool), "true or false"),
    )
    return _field(data, "index", _is_count, "an integer >= 0"), record


def _field(data: dict[str, Any], name: str, valid: Callable[[Any], bool], what: str) -> Any:
    if name not in data:
        raise ValueError(f"no field {name!r}")
    value = data[name]
    if not valid(value):
        raise ValueError(f"field {name!r} must be {what}, got {_short(value)}")
    return value


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return _is_int(value) and value >= 0


def _is_list_of(kind: type | Callable[[Any], bool], length: int | None = None) -> Callable[[Any], bool]:
    test = kind if not isinstance(kind, type) else lambda item: isinstance(item, kind)

    def valid(value: Any) -> bool:
        return isinstance(value, list) and (length is None or len(value) == length) and all(map(test, value))

    return valid


def _is_numbers(length: int) -> Callable[[Any], bool]:
    def number(value: Any) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

    return _is_list_of(number, length)


# -- replaying a record through the rules ----------------------------------------------------------------------
def record_mismatch(game: Game, record: GameRecord) -> str | None:
    """What in ``record`` the rules of ``game`` do not give when its actions are replayed from its seed (the setup
    stream of ``play_game``), or ``None`` if the record is exactly the game its seed and actions make.

    Checked: the number of seats, each action's legality, the seat that chose it and its notation, that the game is
    over after the last action, and the returns, scores, plies and truncation of the final position.
    """
    if len(record.agent_names) != game.spec.num_players:
        return f"it names {len(record.agent_names)} agents, {game.spec.name} has {game.spec.num_players} seats"
    state = game.initial_state(setup_rng(record.seed))
    for ply, action in enumerate(record.actions):
        problem = _move_mismatch(game, state, ply, record)
        if problem:
            return f"ply {ply} (action {action}): {problem}"
        state = game.apply(state, action)
    if not game.is_terminal(state):
        return f"its {len(record.actions)} actions do not finish the game"
    return _result_mismatch(game, state, record)


def _move_mismatch(game: Game, state: Any, ply: int, record: GameRecord) -> str | None:
    try:
        action = game.check_action(state, record.actions[ply])
    except (TypeError, ValueError) as error:
        return f"illegal: {error}"
    if record.players[ply] != state.current_player:
        return f"logged as seat {record.players[ply]}'s, but seat {state.current_player} was to move"
    notation = game.action_to_str(state, action)
    if record.action_strings[ply] != notation:
        return f"logged as {record.action_strings[ply]!r}, the rules write it {notation!r}"
    return None


def _result_mismatch(game: Game, state: Any, record: GameRecord) -> str | None:
    returns, scores = game.returns(state), game.scores(state)
    if not np.allclose(record.returns, returns, rtol=0.0, atol=1e-6):
        return f"returns {record.returns.tolist()} differ from the rules' {returns.tolist()}"
    if len(record.scores) != len(scores) or not np.allclose(record.scores, scores, rtol=1e-6, atol=1e-6):
        return f"scores {record.scores.tolist()} differ from the rules' {np.asarray(scores).tolist()}"
    if record.plies != len(record.actions):
        return f"plies is {record.plies}, but it lists {len(record.actions)} actions"
    if record.truncated != game.is_truncated(state):
        return f"truncated is {record.truncated}, the rules say {game.is_truncated(state)}"
    return None


# -- reading a finished log ------------------------------------------------------------------------------------
def read_records(path: str | Path) -> list[GameRecord]:
    """The games of the finished log at ``path``, in the order they were written, each checked against the rules
    and the tournament's schedule.

    A cut last line is an error here (unlike :meth:`TournamentLog.open`, which drops it and plays that game
    again): this reader is for finished logs, and a log whose writer died mid-line is not finished.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: the file is not a tournament log, its header names no game or schedule that can be rebuilt, its
            last line is cut short, or a line is damaged or does not replay (the message names the file and line).
    """
    path = Path(path)
    contents = read_log(path)
    if contents.header is None:
        raise damaged_line(path, 1, NOT_A_LOG)
    if contents.tail:
        line = FIRST_GAME_LINE + len(contents.games)
        raise damaged_line(
            path, line, "cut short: the tournament was stopped while writing it; run the tournament again with the "
            "same --log to play that game and finish the log"
        )  # fmt: skip
    if contents.header.get("version") != LOG_VERSION:
        raise damaged_line(path, 1, f"log version {contents.header.get('version')!r}, this reader reads {LOG_VERSION}")
    game = _header_game(path, contents.header)
    schedule = _header_schedule(path, contents.header, game)
    for position, (index, record) in enumerate(contents.games):
        check_logged_game(path, FIRST_GAME_LINE + position, index, record, game, schedule)
    return [record for _, record in contents.games]


def _header_game(path: Path, header: dict[str, Any]) -> Game:
    try:
        return game_of_header(str(header.get("game", "")))
    except (TypeError, ValueError) as error:
        raise damaged_line(path, 1, f"its game cannot be rebuilt: {error}") from None


def game_of_header(text: str) -> Game:
    """The game a log header names as ``repr(game)`` (``Quoridor(QuoridorConfig(board_size=5, ...))``), read with
    :mod:`ast` as data (the config's literal keyword values), never evaluated, so a tampered log cannot run code.

    Raises:
        ValueError: ``text`` is not ``GameClass(ConfigClass(field=literal, ...))`` of a registered game.
        TypeError: a config field the game does not have.
    """
    try:
        call = ast.parse(text, mode="eval").body
        inner = call.args[0] if isinstance(call, ast.Call) and len(call.args) == 1 else None
        if not isinstance(inner, ast.Call) or call.keywords or inner.args or not isinstance(call.func, ast.Name):
            raise ValueError("not GameClass(ConfigClass(...))")
        config = {keyword.arg: ast.literal_eval(keyword.value) for keyword in inner.keywords}
    except (SyntaxError, ValueError, RecursionError) as error:
        raise ValueError(f"cannot read the game {text[:80]!r}: {error}") from None
    for name in list_games():
        if type(make_game(name)).__name__ == call.func.id:
            return make_game(name, **config)
    raise ValueError(f"the game class {call.func.id!r} is not a registered game")


def _header_schedule(path: Path, header: dict[str, Any], game: Game) -> list[ScheduledGame]:
    agents, field_names = header.get("agents"), header.get("field", [])
    seed, games = header.get("seed"), header.get("games_per_pairing")
    names_ok = _is_list_of(str)(agents) and _is_list_of(str)(field_names)
    if not (names_ok and _is_count(seed) and _is_count(games)):
        raise damaged_line(path, 1, "its 'agents', 'field', 'seed' or 'games_per_pairing' are not what --log writes")
    try:
        return tournament_schedule(agents, game.spec.num_players, games, seed, field_names or None)
    except ValueError as error:
        raise damaged_line(path, 1, f"its schedule cannot be rebuilt: {error}") from None


def check_logged_game(
    path: Path, line: int, index: int, record: GameRecord, game: Game, schedule: list[ScheduledGame]
) -> None:
    """Refuse the game on ``line`` of the log unless its schedule index, seats and seed are the schedule's and its
    moves replay to exactly its record (:func:`record_mismatch`).

    Raises:
        ValueError: naming the file, the line and what differs.
    """
    item = schedule[index] if index < len(schedule) else None
    if item is None:
        raise damaged_line(path, line, f"game {index} is not in this tournament's schedule of {len(schedule)} games")
    if item.seat_names != record.agent_names or item.seed != record.seed:
        raise damaged_line(
            path, line, f"game {index} does not match this tournament's schedule: it is logged as "
            f"{list(record.agent_names)} on seed {record.seed}, the schedule gives {list(item.seat_names)} on seed "
            f"{item.seed}"
        )  # fmt: skip
    mismatch = record_mismatch(game, record)
    if mismatch:
        raise damaged_line(path, line, f"game {index} does not replay: {mismatch}")


# -- the raw reader --------------------------------------------------------------------------------------------
@dataclass
class LogContents:
    """What a log file holds.

    Attributes:
        header: The tournament description (line 1), or ``None`` if the file holds no complete header.
        games: ``(schedule index, record)`` of every complete game line, in file order (the ``k``-th is on line
            ``FIRST_GAME_LINE + k``).
        valid_bytes: Length of the complete lines (a half-written last line comes after them).
        tail: The half-written last line (``b""`` if none).
    """

    header: dict[str, Any] | None
    games: list[tuple[int, GameRecord]]
    valid_bytes: int
    tail: bytes


def read_log(path: str | Path) -> LogContents:
    """Read a log, checking the form of every complete line; a half-written last line is returned as ``tail``.

    A header whose newline is missing (the writer died just before it) counts as complete. The games are not
    replayed here (:func:`read_records` and :meth:`TournamentLog.open` do that).

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: line 1 is not a tournament log header, or a game line is blank, garbled or repeats a game.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"tournament log {str(path)!r} does not exist or is not a file")
    lines, tail = split_lines(path.read_bytes())
    if not lines:
        header = _header_or_none(tail)
        return LogContents(header, [], len(tail) if header else 0, b"" if header else tail)
    header = _header_or_none(lines[0])
    if header is None:
        raise damaged_line(path, 1, NOT_A_LOG)
    games: list[tuple[int, GameRecord]] = []
    first_line: dict[int, int] = {}
    for number, line in enumerate(lines[1:], start=FIRST_GAME_LINE):
        index, record = _game_line(path, number, line)
        if index in first_line:
            raise damaged_line(path, number, f"game {index} was already logged on line {first_line[index]}")
        first_line[index] = number
        games.append((index, record))
    return LogContents(header, games, sum(map(len, lines)), tail)


def _header_or_none(line: bytes) -> dict[str, Any] | None:
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return header if isinstance(header, dict) and header.get("format") == LOG_FORMAT else None


def _game_line(path: Path, number: int, line: bytes) -> tuple[int, GameRecord]:
    if not line.strip():
        raise damaged_line(path, number, "a blank line where a game should be")
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as error:
        raise damaged_line(path, number, f"not JSON: {error}") from None
    try:
        return record_from_json(data)
    except ValueError as error:
        raise damaged_line(path, number, f"not a game record: {error}") from None


# -- the resumable log -----------------------------------------------------------------------------------------
@dataclass
class TournamentLog:
    """An open log: the games already played (by schedule index) and the handle new games are appended to."""

    path: Path
    records: dict[int, GameRecord] = field(default_factory=dict)
    handle: IO[str] | None = None

    @classmethod
    def open(cls, path: str | Path, header: dict[str, Any], schedule: list[ScheduledGame], game: Game) -> TournamentLog:
        """Open (or start) the log at ``path`` for the tournament ``header`` describes; a half-written last line
        is cut off (and a header's missing newline restored) before anything is appended.

        Every game already in the file is checked against ``schedule`` and replayed through the rules of ``game``
        (:func:`check_logged_game`) before it is trusted.

        Raises:
            ValueError: the file was written by a different tournament, a line of it is damaged, or a game in it
                does not match the schedule or does not replay (the message names the file, the line and what
                differs); the file is left as it was.
        """
        path = Path(path)
        header = {"format": LOG_FORMAT, "version": LOG_VERSION, **header}
        log = cls(path)
        if path.exists() and path.stat().st_size > 0:
            log._load(header, schedule, game)
        else:
            atomic_write_text(path, json.dumps(header) + "\n")
        log.handle = open(path, "a")  # noqa: SIM115 -- kept open for appends, closed by close()
        return log

    def _load(self, header: dict[str, Any], schedule: list[ScheduledGame], game: Game) -> None:
        """Read and check the finished games, then cut the file back to its complete lines."""
        contents = read_log(self.path)
        if contents.header is None:
            if not json.dumps(header).encode().startswith(contents.tail):
                raise damaged_line(self.path, 1, NOT_A_LOG)
            atomic_write_text(self.path, json.dumps(header) + "\n")  # the writer died while writing the header
            return
        self._check_header(contents.header, header)
        for position, (index, record) in enumerate(contents.games):
            check_logged_game(self.path, FIRST_GAME_LINE + position, index, record, game, schedule)
        self.records.update(contents.games)
        with open(self.path, "r+b") as handle:
            handle.truncate(contents.valid_bytes)
            if contents.valid_bytes and _last_byte(handle, contents.valid_bytes) != b"\n":
                handle.seek(0, os.SEEK_END)
                handle.write(b"\n")  # a header that lost its newline: restore it before games are appended

    def _check_header(self, written: dict[str, Any], header: dict[str, Any]) -> None:
        for key, value in header.items():
            if written.get(key) != value:
                raise ValueError(
                    f"log_path {str(self.path)!r} (line 1) belongs to another tournament: its {key!r} is "
                    f"{written.get(key)!r}, this run's is {value!r}; pass a new log_path to start over"
                )

    def append(self, index: int, record: GameRecord) -> None:
        """Write one finished game and flush it to disk (one ``write`` of one whole line)."""
        assert self.handle is not None, "the log is closed"
        self.handle.write(json.dumps(record_to_json(index, record)) + "\n")
        self.handle.flush()
        self.records[index] = record

    def close(self) -> None:
        """Close the file (the records stay readable)."""
        if self.handle is not None:
            self.handle.close()
            self.handle = None


def _last_byte(handle: IO[bytes], size: int) -> bytes:
    handle.seek(size - 1)
    return handle.read(1)
