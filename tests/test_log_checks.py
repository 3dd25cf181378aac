"""A tournament log is trusted only once every game in it replays through the rules: a resumed tournament and
``read_records`` refuse a game line whose moves, seats or results are not what its seed and actions give, naming
the file and the line; ``read_records`` (finished logs) refuses a cut last line, which a resumed tournament
drops and plays again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from baselines.agent import RandomAgent
from baselines.arena import read_records, tournament
from baselines.arena.log import record_from_json, record_mismatch
from boardenvs.registry import make_game

AGENTS = {"a": RandomAgent, "b": RandomAgent}
GAMES = 6


@pytest.fixture
def toy():
    return make_game("toy_tictactoe")


def logged(toy, tmp_path: Path) -> tuple[Path, list[str]]:
    """A finished logged tic-tac-toe tournament: the log's path and its lines."""
    log = tmp_path / "run.jsonl"
    tournament(toy, AGENTS, GAMES, seed=5, log_path=log)
    return log, log.read_text().splitlines(keepends=True)


def illegal_action(record: dict[str, Any]) -> None:
    record["actions"][1] = record["actions"][0]  # the cell the first move took
    record["action_strings"][1] = record["action_strings"][0]


def other_legal_action(record: dict[str, Any]) -> None:
    """The first move replaced by another legal one, its notation kept: the moves are written differently."""
    record["actions"][0] = next(cell for cell in range(9) if cell not in record["actions"])


TAMPERINGS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "returns-flipped": (lambda r: r.update(returns=[-value for value in r["returns"]]), r"returns \[.*\] differ"),
    "scores-changed": (lambda r: r.update(scores=[value + 1 for value in r["scores"]]), r"scores \[.*\] differ"),
    "plies-changed": (lambda r: r.update(plies=r["plies"] + 1), r"plies is \d+, but it lists \d+ actions"),
    "truncated-flipped": (lambda r: r.update(truncated=not r["truncated"]), "truncated is True, the rules say False"),
    "illegal-action": (illegal_action, r"ply 1 \(action \d\): illegal: action \d is illegal here"),
    "notation-differs": (other_legal_action, r"ply 0 \(action \d\): logged as '.*', the rules write it"),
    "players-swapped": (lambda r: r.update(players=[1 - p for p in r["players"]]), "logged as seat 1's, but seat 0"),
    "moves-cut": (lambda r: r.update(actions=r["actions"][:-1], action_strings=r["action_strings"][:-1],
                                     players=r["players"][:-1], plies=r["plies"] - 1), "do not finish the game"),
    "seed-changed": (lambda r: r.update(seed=r["seed"] + 1), "does not match this tournament's schedule"),
    "seats-swapped": (lambda r: r.update(agent_names=r["agent_names"][::-1]), "does not match this tournament's"),
    "index-beyond": (lambda r: r.update(index=99), "game 99 is not in this tournament's schedule of 6 games"),
    "seed-as-float": (lambda r: r.update(seed=float(r["seed"])), "field 'seed' must be an integer >= 0"),
    "returns-nan": (lambda r: r.update(returns=[float("nan")] * 2), "field 'returns' must be 2 finite numbers"),
    "strings-short": (lambda r: r.update(action_strings=r["action_strings"][1:]), "'action_strings' must be a list"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_a_tampered_game_line_is_refused_on_resume_and_by_read_records_naming_file_and_line(toy, tmp_path, name):
    change, reason = TAMPERINGS[name]
    log, lines = logged(toy, tmp_path)
    record = json.loads(lines[3])
    change(record)
    log.write_text("".join([*lines[:3], json.dumps(record) + "\n", *lines[4:]]))
    before = log.read_bytes()
    with pytest.raises(ValueError, match=rf"run.jsonl' line 4: damaged line \(.*{reason}"):
        tournament(toy, AGENTS, GAMES, seed=5, log_path=log)
    assert log.read_bytes() == before  # refused before anything was cut or appended
    with pytest.raises(ValueError, match=rf"run.jsonl' line 4: damaged line \(.*{reason}"):
        read_records(log)


def test_an_untouched_log_replays_and_reads_back_every_game(toy, tmp_path) -> None:
    log, lines = logged(toy, tmp_path)
    records = read_records(log)
    assert [record.actions for record in records] == [json.loads(line)["actions"] for line in lines[1:]]
    assert all(record_mismatch(toy, record) is None for record in records)


def test_read_records_refuses_a_cut_last_line_that_a_resumed_tournament_drops_and_replays(toy, tmp_path) -> None:
    log, lines = logged(toy, tmp_path)
    log.write_text("".join(lines[:4]) + lines[4][:30])
    with pytest.raises(ValueError, match=r"run.jsonl' line 5: damaged line \(cut short: .* same --log"):
        read_records(log)
    result = tournament(toy, AGENTS, GAMES, seed=5, log_path=log)  # the resumable path keeps its kill-safety
    assert len(result.records) == GAMES and log.read_text().splitlines(keepends=True) == lines
    assert len(read_records(log)) == GAMES


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 2}, "log version 2, this reader reads 1"),
        ({"game": "TicTacToe(TicTacToeConfig(first_player=1))"}, "game 0 does not replay"),
        ({"game": "Chess(ChessConfig())"}, "its game cannot be rebuilt"),
        ({"games_per_pairing": 5}, "its schedule cannot be rebuilt: games_per_pairing must be a positive multiple"),
        ({"agents": ["b", "a"]}, "game 0 does not match this tournament's schedule"),
        ({"seed": "5"}, "its 'agents', 'field', 'seed' or 'games_per_pairing' are not what --log writes"),
    ],
)
def test_read_records_checks_the_header_the_games_are_replayed_against(toy, tmp_path, change, reason) -> None:
    log, lines = logged(toy, tmp_path)
    header = {**json.loads(lines[0]), **change}
    log.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))
    with pytest.raises(ValueError, match=rf"run.jsonl' line \d: damaged line \({reason}"):
        read_records(log)


def test_a_missing_log_is_a_file_not_found_error_naming_it(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="tournament log .*nowhere.jsonl' does not exist or is not a file"):
        read_records(tmp_path / "nowhere.jsonl")


def test_record_from_json_reads_back_what_record_to_json_wrote(toy, tmp_path) -> None:
    _, lines = logged(toy, tmp_path)
    data = json.loads(lines[1])
    index, record = record_from_json(data)
    assert index == data["index"] and record.actions == data["actions"] and record.returns.dtype == np.float32
    with pytest.raises(ValueError, match="a game line must be a JSON object, got list"):
        record_from_json([data])
