"""The JSON-lines log that makes long tournaments resumable, and reading one back.

The first line describes the tournament (game, agents, field, seed, games per pairing); every later line is
one finished game: its index in the schedule and its :class:`~baselines.arena.match.GameRecord`. Lines are written
and flushed as games finish, so a run that is stopped (Ctrl-C, a lost machine) loses at most the games in
flight. Opening the log again with the same description returns the games already played; opening it with a
different description is an error, so two tournaments never mix in one file. A partly written last line
(the process died mid-write) is dropped and the file cut back to its complete lines before anything is appended
(a header that lost its newline gets it back); any other damage (a garbled, blank or repeated line) is a
``ValueError`` naming the file and the line, never silently skipped. :func:`read_records` reads the games of a
finished log.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from baselines.arena.match import GameRecord
from baselines.arena.schedule import ScheduledGame
from baselines.runs import atomic_write_text, damaged_line, split_lines

LOG_FORMAT = "boardenvs-tournament-log"
LOG_VERSION = 1
NOT_A_LOG = "not a tournament log: line 1 is not the header scripts.tournament --log writes"


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


def record_from_json(data: dict[str, Any]) -> tuple[int, GameRecord]:
    """The inverse of :func:`record_to_json`."""
    record = GameRecord(
        tuple(data["agent_names"]),
        int(data["seed"]),
        list(data["actions"]),
        list(data["action_strings"]),
        list(data["players"]),
        np.asarray(data["returns"], dtype=np.float32),
        np.asarray(data["scores"], dtype=np.float32),
        int(data["plies"]),
        bool(data["truncated"]),
    )
    return int(data["index"]), record


def read_records(path: str | Path) -> list[GameRecord]:
    """The games of the log at ``path``, in the order they were written (a half-written last line is left out).

    Raises:
        ValueError: the file is not a tournament log, or a line of it is damaged (the message names the line).
    """
    contents = read_log(path)
    if contents.header is None:
        raise ValueError(f"log {str(path)!r} is not a tournament log written by scripts.tournament --log")
    return [record for _, record in contents.games]


@dataclass
class LogContents:
    """What a log file holds.

    Attributes:
        header: The tournament description (line 1), or ``None`` if the file holds no complete header.
        games: ``(schedule index, record)`` of every complete game line, in file order.
        valid_bytes: Length of the complete lines (a half-written last line comes after them).
        tail: The half-written last line (``b""`` if none).
    """

    header: dict[str, Any] | None
    games: list[tuple[int, GameRecord]]
    valid_bytes: int
    tail: bytes


def read_log(path: str | Path) -> LogContents:
    """Read a log, checking every complete line; a half-written last line is returned as ``tail``.

    A header whose newline is missing (the writer died just before it) counts as complete.

    Raises:
        ValueError: line 1 is not a tournament log header, or a game line is blank, garbled or repeats a game.
    """
    path = Path(path)
    lines, tail = split_lines(path.read_bytes())
    if not lines:
        header = _header_or_none(tail)
        return LogContents(header, [], len(tail) if header else 0, b"" if header else tail)
    header = _header_or_none(lines[0])
    if header is None:
        raise damaged_line(path, 1, NOT_A_LOG)
    games: list[tuple[int, GameRecord]] = []
    first_line: dict[int, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        index, record = _game_line(path, number, line)
        if index in first_line:
            raise damaged_line(path, number, f"game {index} was already logged on line {first_line[index]}")
        first_line[index] = number
        games.append((index, record))
    return LogContents(header, games, sum(map(len, lines)), tail)


def _header_or_none(line: bytes) -> dict[str, Any] | None:
    try:
        header = json.loads(line)
    except ValueError:
        return None
    return header if isinstance(header, dict) and header.get("format") == LOG_FORMAT else None


def _game_line(path: Path, number: int, line: bytes) -> tuple[int, GameRecord]:
    if not line.strip():
        raise damaged_line(path, number, "a blank line where a game should be")
    try:
        data = json.loads(line)
    except ValueError as error:
        raise damaged_line(path, number, f"not JSON: {error}") from None
    try:
        return record_from_json(data)
    except (KeyError, TypeError, ValueError) as error:
        raise damaged_line(path, number, f"not a game record: {type(error).__name__} {error}") from None


@dataclass
class TournamentLog:
    """An open log: the games already played (by schedule index) and the handle new games are appended to."""

    path: Path
    records: dict[int, GameRecord] = field(default_factory=dict)
    handle: IO[str] | None = None

    @classmethod
    def open(cls, path: str | Path, header: dict[str, Any], schedule: list[ScheduledGame]) -> TournamentLog:
        """Open (or start) the log at ``path`` for the tournament ``header`` describes; a half-written last line
        is cut off (and a header's missing newline restored) before anything is appended.

        Raises:
            ValueError: the file was written by a different tournament, a line of it is damaged, or a game in it
                does not match the schedule (the message names the file and what differs).
        """
        path = Path(path)
        header = {"format": LOG_FORMAT, "version": LOG_VERSION, **header}
        log = cls(path)
        if path.exists() and path.stat().st_size > 0:
            log._load(header, schedule)
        else:
            atomic_write_text(path, json.dumps(header) + "\n")
        log.handle = open(path, "a")  # noqa: SIM115 -- kept open for appends, closed by close()
        return log

    def _load(self, header: dict[str, Any], schedule: list[ScheduledGame]) -> None:
        """Read the finished games and cut the file back to its complete lines."""
        contents = read_log(self.path)
        if contents.header is None:
            if not json.dumps(header).encode().startswith(contents.tail):
                raise damaged_line(self.path, 1, NOT_A_LOG)
            atomic_write_text(self.path, json.dumps(header) + "\n")  # the writer died while writing the header
            return
        self._check_header(contents.header, header)
        for index, record in contents.games:
            self._check_matches(index, record, schedule)
            self.records[index] = record
        with open(self.path, "r+b") as handle:
            handle.truncate(contents.valid_bytes)
            if contents.valid_bytes and _last_byte(handle, contents.valid_bytes) != b"\n":
                handle.seek(0, os.SEEK_END)
                handle.write(b"\n")  # a header that lost its newline: restore it before games are appended

    def _check_header(self, written: dict[str, Any], header: dict[str, Any]) -> None:
        for key, value in header.items():
            if written.get(key) != value:
                raise ValueError(
                    f"log_path {str(self.path)!r} belongs to another tournament: its {key!r} is "
                    f"{written.get(key)!r}, this run's is {value!r}; pass a new log_path to start over"
                )

    def _check_matches(self, index: int, record: GameRecord, schedule: list[ScheduledGame]) -> None:
        item = schedule[index] if 0 <= index < len(schedule) else None
        if item is None or item.seat_names != record.agent_names or item.seed != record.seed:
            raise ValueError(f"log_path {str(self.path)!r}: game {index} does not match this tournament's schedule")

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
