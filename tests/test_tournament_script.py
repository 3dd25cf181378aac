"""Tests of ``scripts/tournament.py``, called through ``main(Args)`` and ``cli(argv)``."""

from __future__ import annotations

import csv

import pytest

from scripts.tournament import Args, agent_names, cli, main


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
    with pytest.raises(ValueError, match=r"unknown agent 'alphabeta'.*choices"):
        main(Args(agents="random,alphabeta", games_per_pairing=2, progress=False, csv="", png=""))


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
        main(Args(agents="random", field=" , ", games_per_pairing=2, progress=False, csv="", png=""))
