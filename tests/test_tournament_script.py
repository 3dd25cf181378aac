"""Tests of ``scripts/tournament.py``, called through ``main(Args)`` and ``cli(argv)``."""

from __future__ import annotations

import csv
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from scripts.tournament import Args, agent_names, cli, main

ROOT = Path(__file__).resolve().parents[1]


def test_small_run_writes_csv_and_png(tmp_path) -> None:
    csv_path, png_path = tmp_path / "ranking.csv", tmp_path / "ranking.png"
    args = Args(config=["board_size=5"], games_per_pairing=4, csv=str(csv_path), png=str(png_path), progress=False)
    result = main(args)
    assert len(result.records) == 3 * 4
    assert {stats.name for stats in result.stats} == {"random", "path", "heuristic"}
    rows = list(csv.DictReader(csv_path.open()))
    assert len(rows) == 3 and rows[0]["name"] == result.ranking()[0].name
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_four_player_run() -> None:
    args = Args(
        config=["board_size=5", "num_players=4"],
        agents="random,heuristic",
        games_per_pairing=4,
        progress=False,
        csv="",
        png="",
    )
    result = main(args)
    assert result.seat_counts() == {"random": [6, 6, 6, 6], "heuristic": [6, 6, 6, 6]}


def test_unknown_agent_is_reported_with_the_choices() -> None:
    with pytest.raises(ValueError, match=r"unknown agent 'no_such_agent'.*choices"):
        main(Args(agents="random,no_such_agent", games_per_pairing=2, progress=False, csv="", png="", html=""))


def test_agent_list_must_name_two_distinct_agents() -> None:
    assert agent_names(" random, path ,") == ["random", "path"]
    with pytest.raises(ValueError, match="at least 2"):
        agent_names("random")
    with pytest.raises(ValueError, match="distinct"):
        agent_names("path,path")


def test_cli_prints_the_table_and_writes_the_plot_by_default(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    cli(["--config", "board_size=5", "--agents", "random,path", "--games-per-pairing", "2", "--no-progress"])
    printed = capsys.readouterr().out
    assert (tmp_path / "runs" / "tournament.png").exists() and "wrote runs/tournament.png" in printed
    assert "quoridor (board_size=5): 2 games" in printed
    assert "rank" in printed and "path" in printed and "pairwise win rate" in printed
    page = (tmp_path / "runs" / "tournament.html").read_text()
    assert "wrote runs/tournament.html" in printed and page.startswith("<!DOCTYPE html>")
    assert "quoridor: random vs path" in page or "quoridor: path vs random" in page


def test_field_mode_with_settings_and_a_resumable_log(tmp_path) -> None:
    log = tmp_path / "games.jsonl"
    args = Args(
        config=["board_size=5", "num_players=4"],
        agents="heuristic",
        field="random",
        games_per_pairing=4,
        log=str(log),
        progress=False,
        csv="",
        png="",
    )
    result = main(args)
    assert [sorted(record.agent_names) for record in result.records] == [["heuristic"] + ["random"] * 3] * 4
    assert len(log.read_text().splitlines()) == 1 + 4
    again = main(args)  # everything is in the log: nothing is replayed, the numbers are the same
    assert [stats.win_rate for stats in again.stats] == [stats.win_rate for stats in result.stats]


def test_a_field_needs_an_agent() -> None:
    with pytest.raises(ValueError, match="--field needs at least 1 agent"):
        main(Args(agents="random", field=" , ", games_per_pairing=2, progress=False, csv="", png="", html=""))


# -- kill -9 and damaged logs ------------------------------------------------------------------------------
def child_pids(parent: int) -> set[int]:
    """The processes whose parent is ``parent`` (read from ``/proc``; psutil is not a dependency)."""
    children = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                children.add(int(entry.name))
    return children


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting for its new parent to reap it counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_until_gone(pids: set[int], seconds: float = 10.0) -> set[int]:
    """The processes of ``pids`` still running after waiting up to ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return {pid for pid in pids if running(pid)}


def kill_when(process: subprocess.Popen, ready: Callable[[], bool], timeout: float = 60.0) -> set[int]:
    """SIGKILL ``process`` as soon as ``ready()``; return its children as they were just before the kill."""
    deadline = time.monotonic() + timeout
    while not ready():
        assert process.poll() is None, f"the run ended before it could be killed: {process.communicate()}"
        assert time.monotonic() < deadline, "the run never reached the point to kill it at"
        time.sleep(0.005)
    children = child_pids(process.pid)
    process.kill()
    process.wait(timeout=10)
    return children


def game_lines(log: Path) -> int:
    """Complete game lines in a tournament log so far."""
    return max(log.read_bytes().count(b"\n") - 1, 0) if log.exists() else 0


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="lists processes through /proc")
def test_a_tournament_killed_with_workers_leaves_no_process_and_a_rerun_plays_every_game_once(tmp_path) -> None:
    log, games = tmp_path / "games.jsonl", 120
    argv = ["--config", "board_size=5", "--agents", "random,path", "--games-per-pairing", str(games), "--workers", "2",
            "--log", str(log), "--csv", "", "--png", "", "--no-progress"]  # fmt: skip
    kill_after = random.Random().randint(1, 40)  # a random point of the run (the assertions hold at any)
    process = subprocess.Popen([sys.executable, "-m", "scripts.tournament", *argv], cwd=ROOT)
    children = kill_when(process, lambda: game_lines(log) >= kill_after)
    assert process.returncode == -signal.SIGKILL and len(children) >= 2, (kill_after, children)  # workers, tracker
    assert wait_until_gone(children) == set(), f"killed after {kill_after} games; left running: {children}"
    played = game_lines(log)
    assert played < games, "the kill came too late to test anything"
    result = main(Args(config=["board_size=5"], agents="random,path", games_per_pairing=games, workers=2,
                       log=str(log), csv="", png="", html="", progress=False))  # fmt: skip
    indices = [json.loads(line)["index"] for line in log.read_text().splitlines()[1:]]
    assert sorted(indices) == list(range(games)) and len(result.records) == games, f"killed after {kill_after}"
