"""The JSON-lines log that makes long tournaments resumable, and reading one back.

The first line describes the tournament (game, agents, field, seed, games per pairing); every later line is
one finished game: its index in the schedule and its :class:`~baselines.arena.match.GameRecord`. Lines are written
and flushed as games finish, so a run that is stopped (Ctrl-C, a lost machine) loses at most the games in
flight. Opening the log again with the same description returns the games already played; opening it with a
different description is an error, so two tournaments never mix in one file. A partly written last line
(the process died mid-write) is ignored and overwritten. :func:`read_records` reads the games of a finished log.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from baselines.arena.match import GameRecord
from baselines.arena.schedule import ScheduledGame

LOG_FORMAT = "boardenvs-tournament-log"
LOG_VERSION = 1


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
    """The games of the log at ``path``, in the order they were written.

    Raises:
        ValueError: the file is not a tournament log.
    """
    lines = Path(path).read_text().splitlines()
    if not lines or json.loads(lines[0]).get("format") != LOG_FORMAT:
        raise ValueError(f"log {str(path)!r} is not a tournament log written by scripts.tournament --log")
    return [record_from_json(json.loads(line))[1] for line in lines[1:]]


@dataclass
class TournamentLog:
    """An open log: the games already played (by schedule index) and the handle new games are appended to."""

    path: Path
    records: dict[int, GameRecord] = field(default_factory=dict)
    handle: IO[str] | None = None

    @classmethod
    def open(cls, path: str | Path, header: dict[str, Any], schedule: list[ScheduledGame]) -> TournamentLog:
        """Open (or start) the log at ``path`` for the tournament ``header`` describes.

        Raises:
            ValueError: the file was written by a different tournament, or a game in it does not match the
                schedule (the message names the file and what differs).
        """
        path = Path(path)
        header = {"format": LOG_FORMAT, "version": LOG_VERSION, **header}
        log = cls(path)
        if path.exists() and path.stat().st_size > 0:
            valid_bytes = log._load(header, schedule)
            with open(path, "r+") as handle:
                handle.truncate(valid_bytes)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(header) + "\n")
        log.handle = open(path, "a")  # noqa: SIM115 -- kept open for appends, closed by close()
        return log

    def _load(self, header: dict[str, Any], schedule: list[ScheduledGame]) -> int:
        """Read the finished games; return the length in bytes of the complete lines."""
        lines = self.path.read_bytes().splitlines(keepends=True)
        written = json.loads(lines[0])
        for key, value in header.items():
            if written.get(key) != value:
                raise ValueError(
                    f"log_path {str(self.path)!r} belongs to another tournament: its {key!r} is "
                    f"{written.get(key)!r}, this run's is {value!r}; pass a new log_path to start over"
                )
        valid = len(lines[0])
        for line in lines[1:]:
            if not line.endswith(b"\n"):
                break
            index, record = record_from_json(json.loads(line))
            self._check_matches(index, record, schedule)
            self.records[index] = record
            valid += len(line)
        return valid

    def _check_matches(self, index: int, record: GameRecord, schedule: list[ScheduledGame]) -> None:
        item = schedule[index] if 0 <= index < len(schedule) else None
        if item is None or item.seat_names != record.agent_names or item.seed != record.seed:
            raise ValueError(f"log_path {str(self.path)!r}: game {index} does not match this tournament's schedule")

    def append(self, index: int, record: GameRecord) -> None:
        """Write one finished game and flush it to disk."""
        assert self.handle is not None, "the log is closed"
        self.handle.write(json.dumps(record_to_json(index, record)) + "\n")
        self.handle.flush()
        self.records[index] = record

    def close(self) -> None:
        """Close the file (the records stay readable)."""
        if self.handle is not None:
            self.handle.close()
            self.handle = None
