"""Tests of the arena: play_game records, the tournament schedule, statistics and reports."""

from __future__ import annotations

import csv
import json
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from baselines import IllegalActionError, RandomAgent, play_game, tournament, tournament_schedule
from baselines.arena import field_lineups, game_seeds, read_records, tournament_lineups
from baselines.arena.ratings import ELO_MEAN, fit_elo, wilson_interval
from baselines.factory import make_agent
from boardenvs import make_game
from tests.toy_games import LINES, TicTacToe


class FirstLegalAgent:
    """Always plays the lowest legal action id (an agent without ``reseed``)."""

    name = "first"

    def act(self, game, view, player: int) -> int:
        return int(game.legal_actions(view)[0])


class IllegalAgent:
    """Tic-tac-toe: plays on an occupied cell."""

    name = "cheater"

    def act(self, game, view, player: int) -> int:
        return int(np.flatnonzero(view.board >= 0)[0])


class TacticalAgent(RandomAgent):
    """Tic-tac-toe: completes its own line, else blocks the opponent's, else the centre, else random."""

    name = "tactical"

    def act(self, game, view, player: int) -> int:
        board = view.board
        for owner in (player, 1 - player):
            for line in LINES:
                marks = [board[cell] for cell in line]
                if marks.count(owner) == 2 and marks.count(-1) == 1:
                    return line[marks.index(-1)]
        return 4 if board[4] < 0 else super().act(game, view, player)


@pytest.fixture(scope="module")
def toy() -> TicTacToe:
    return TicTacToe()


# -- play_game ------------------------------------------------------------------------------------
def test_play_game_is_reproducible(toy) -> None:
    first = play_game(toy, [RandomAgent(0), RandomAgent(1)], seed=11)
    again = play_game(toy, [RandomAgent(5), RandomAgent(6)], seed=11)
    other = [play_game(toy, [RandomAgent(), RandomAgent()], seed=s).actions for s in range(12, 20)]
    assert first.actions == again.actions and first.action_strings == again.action_strings
    assert np.array_equal(first.returns, again.returns)
    assert any(actions != first.actions for actions in other)


def test_play_game_record_is_consistent(toy) -> None:
    record = play_game(toy, [RandomAgent(name="a"), FirstLegalAgent()], seed=3)
    assert record.agent_names == ("a", "first") and record.seed == 3
    assert record.plies == len(record.actions) == len(record.action_strings) == len(record.players)
    state = toy.initial_state(np.random.default_rng(0))
    for action, text, player in zip(record.actions, record.action_strings, record.players):
        assert state.current_player == player and toy.action_to_str(state, action) == text
        state = toy.apply(state, action)
    assert toy.is_terminal(state) and np.array_equal(toy.returns(state), record.returns)
    assert np.array_equal(toy.scores(state), record.scores) and record.truncated is False


def test_play_game_records_quoridor_notation() -> None:
    game = make_game("quoridor", board_size=5)
    record = play_game(game, [RandomAgent(), RandomAgent()], seed=0)
    assert record.returns.sum() == pytest.approx(0.0)
    assert all(text[0] in "abcde" or text == "pass" for text in record.action_strings)


def test_an_illegal_action_names_the_agent(toy) -> None:
    with pytest.raises(IllegalActionError, match=r"agent 'cheater' \(seat 1\).*ply 1: action 0 is illegal"):
        play_game(toy, [FirstLegalAgent(), IllegalAgent()], seed=0)


def test_play_game_needs_one_agent_per_seat(toy) -> None:
    with pytest.raises(ValueError, match="needs 2 agents, got 1"):
        play_game(toy, [RandomAgent()], seed=0)


# -- the schedule ---------------------------------------------------------------------------------
def test_two_player_lineups_are_the_round_robin() -> None:
    assert tournament_lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]


def test_four_player_lineups_with_fewer_agents_seat_everyone() -> None:
    assert tournament_lineups(["a", "b"], 4) == [("a", "a", "a", "b"), ("a", "a", "b", "b"), ("a", "b", "b", "b")]
    assert len(tournament_lineups(["a", "b", "c"], 4)) == 3
    assert len(tournament_lineups(list("abcde"), 4)) == 5


@pytest.mark.parametrize("num_players, names", [(2, "abc"), (4, "ab"), (4, "abc"), (4, "abcde")])
def test_every_agent_plays_every_seat_equally(num_players: int, names: str) -> None:
    schedule = tournament_schedule(list(names), num_players, 2 * num_players, seed=0)
    for name in names:
        per_seat = Counter(seat for item in schedule for seat, who in enumerate(item.seat_names) if who == name)
        assert len(per_seat) == num_players and len(set(per_seat.values())) == 1


def test_every_lineup_uses_the_same_game_seeds_in_every_rotation() -> None:
    schedule = tournament_schedule(["a", "b", "c"], 2, 6, seed=4)
    seeds = game_seeds(4, 3)
    for lineup in {item.lineup for item in schedule}:
        games = [item for item in schedule if item.lineup == lineup]
        assert sorted(item.seed for item in games) == sorted(seeds * 2)
        assert {item.seat_names for item in games if item.seed == seeds[0]} == {
            games[0].seat_names,
            games[0].seat_names[::-1],
        }


def test_games_per_pairing_must_fill_the_rotations() -> None:
    with pytest.raises(ValueError, match="multiple of 2"):
        tournament_schedule(["a", "b"], 2, 3, seed=0)


# -- tournament results -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def lopsided(toy):
    agents = {"tactical": TacticalAgent, "random": RandomAgent, "first": FirstLegalAgent()}
    return tournament(toy, agents, games_per_pairing=40, seed=1)


def test_tournament_counts_and_seat_rotation(lopsided) -> None:
    assert len(lopsided.records) == 3 * 40
    assert lopsided.seat_counts() == {name: [40, 40] for name in ("tactical", "random", "first")}
    for stats in lopsided.stats:
        assert stats.games == 80 and stats.wins + stats.draws + stats.losses == 80


def test_tournament_uses_common_random_numbers(lopsided) -> None:
    seeds_by_pair = {}
    for record in lopsided.records:
        seeds_by_pair.setdefault(frozenset(record.agent_names), []).append(record.seed)
    assert len({tuple(sorted(seeds)) for seeds in seeds_by_pair.values()}) == 1


def test_confidence_intervals_contain_the_estimate(lopsided) -> None:
    for stats in lopsided.stats:
        assert 0.0 <= stats.ci_low <= stats.win_rate <= stats.ci_high <= 1.0
        assert stats.ci_high - stats.ci_low < 0.5


def test_elo_orders_a_lopsided_pairing(lopsided) -> None:
    ranking = [stats.name for stats in lopsided.ranking()]
    elo = {stats.name: stats.elo for stats in lopsided.stats}
    assert ranking[0] == "tactical" and elo["tactical"] > elo["random"] + 100
    assert np.mean(list(elo.values())) == pytest.approx(ELO_MEAN)
    rates = lopsided.pairwise_win_rate
    assert np.isnan(np.diag(rates)).all()
    assert rates + rates.T == pytest.approx(np.where(np.eye(3, dtype=bool), np.nan, 1.0), nan_ok=True)


def test_table_and_csv(lopsided, tmp_path) -> None:
    table = lopsided.table()
    ranking_lines = table.split("\n\n")[0].splitlines()
    assert ranking_lines[0].split()[:2] == ["rank", "agent"] and ranking_lines[1].split()[1] == "tactical"
    assert len({len(line) for line in ranking_lines}) == 1  # aligned columns
    assert "pairwise win rate" in table
    path = tmp_path / "ranking.csv"
    lopsided.to_csv(path)
    rows = list(csv.DictReader(path.open()))
    assert [row["name"] for row in rows] == [stats.name for stats in lopsided.ranking()]
    assert float(rows[0]["ci_low"]) <= float(rows[0]["win_rate"])


def test_four_player_tournament_summaries() -> None:
    game = make_game("quoridor", board_size=5, num_players=4)
    result = tournament(game, {"random": RandomAgent, "first": FirstLegalAgent()}, games_per_pairing=4, seed=0)
    assert len(result.records) == 3 * 4
    assert result.seat_counts() == {"random": [6, 6, 6, 6], "first": [6, 6, 6, 6]}
    assert all(stats.games == 12 for stats in result.stats)


def test_a_tournament_needs_two_agents(toy) -> None:
    with pytest.raises(ValueError, match="at least 2 agents"):
        tournament(toy, {"random": RandomAgent}, 2)


# -- one-vs-field, places, resumable logs, parallel workers ------------------------------------------
def test_field_lineups_put_each_entrant_against_the_field() -> None:
    assert field_lineups(["a", "b"], ["r"], 4) == [("a", "r", "r", "r"), ("b", "r", "r", "r")]
    assert field_lineups(["a"], ["x", "y"], 2) == [("a", "x"), ("a", "y")]
    assert field_lineups(["a"], ["x", "y"], 4) == [("a", "x", "x", "y"), ("a", "x", "y", "y")]
    assert field_lineups(["a"], ["x", "y", "z", "w"], 4) == [
        ("a", "x", "y", "z"),
        ("a", "x", "y", "w"),
        ("a", "x", "z", "w"),
        ("a", "y", "z", "w"),
    ]


def test_one_vs_field_tournament_against_three_random_agents() -> None:
    game = make_game("quoridor", board_size=5, num_players=4)
    agents = {"first": FirstLegalAgent(), "other": RandomAgent}
    result = tournament(game, agents, games_per_pairing=8, seed=2, field={"random": RandomAgent})
    assert len(result.records) == 2 * 8
    for record in result.records:
        assert sorted(record.agent_names).count("random") == 3
    assert result.seat_counts()["first"] == [2, 2, 2, 2]
    assert {stats.name: stats.games for stats in result.stats} == {"first": 8, "other": 8, "random": 16}


def test_mean_place_counts_ties_as_shared_places(toy) -> None:
    result = tournament(toy, {"tactical": TacticalAgent, "first": FirstLegalAgent()}, 20, seed=4)
    for stats in result.stats:
        expected = np.mean(
            [
                1.0 if r.outcome(stats.name) == 1 else 1.5 if r.outcome(stats.name) == 0.5 else 2.0
                for r in result.records
            ]
        )
        assert stats.mean_rank == pytest.approx(expected)
    assert "mean place" in result.table()


def test_field_mode_rejects_overlapping_or_missing_entrants(toy) -> None:
    with pytest.raises(ValueError, match="both an entrant and in the field"):
        tournament(toy, {"random": RandomAgent}, 2, field={"random": RandomAgent})
    with pytest.raises(ValueError, match="needs agents and a field"):
        tournament(toy, {"random": RandomAgent}, 2, field={})
    with pytest.raises(ValueError, match="workers must be in >= 1, got 0"):
        tournament(toy, {"a": RandomAgent, "b": RandomAgent}, 2, workers=0)


class CountingRandom(RandomAgent):
    """A random agent that counts the games it starts (reseed is called once per seat per game)."""

    started = 0

    def reseed(self, seed: int) -> None:
        CountingRandom.started += 1
        super().reseed(seed)


def test_a_logged_tournament_resumes_where_it_stopped(toy, tmp_path) -> None:
    agents = {"tactical": TacticalAgent, "random": RandomAgent}
    log = tmp_path / "run.jsonl"
    full = tournament(toy, agents, 12, seed=5, log_path=log)
    lines = log.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 12
    log.write_text("".join(lines[:5]) + lines[5][:17])  # stopped after 4 games, mid-write of the fifth
    CountingRandom.started = 0
    resumed = tournament(toy, {"tactical": TacticalAgent, "random": CountingRandom}, 12, seed=5, log_path=log)
    assert CountingRandom.started == 12 - 4
    assert [r.actions for r in resumed.records] == [r.actions for r in full.records]
    assert [s.win_rate for s in resumed.stats] == [s.win_rate for s in full.stats]
    assert len(log.read_text().splitlines()) == 1 + 12
    CountingRandom.started = 0
    tournament(toy, {"tactical": TacticalAgent, "random": CountingRandom}, 12, seed=5, log_path=log)
    assert CountingRandom.started == 0  # everything was already played


def test_a_log_from_another_tournament_is_refused(toy, tmp_path) -> None:
    log = tmp_path / "run.jsonl"
    tournament(toy, {"a": RandomAgent, "b": RandomAgent}, 2, seed=5, log_path=log)
    with pytest.raises(ValueError, match=r"another tournament: its 'seed' is 5, this run's is 6"):
        tournament(toy, {"a": RandomAgent, "b": RandomAgent}, 2, seed=6, log_path=log)


def logged(toy, tmp_path, games: int = 6) -> tuple[Path, list[str]]:
    """A finished logged tic-tac-toe tournament of ``games`` games: the log's path and its lines."""
    log = tmp_path / "run.jsonl"
    tournament(toy, {"a": RandomAgent, "b": RandomAgent}, games, seed=5, log_path=log)
    return log, log.read_text().splitlines(keepends=True)


def rerun(toy, log: Path, games: int = 6) -> list[int]:
    """Run the logged tournament again (it plays only what is missing); the schedule indices in the log."""
    tournament(toy, {"a": RandomAgent, "b": RandomAgent}, games, seed=5, log_path=log)
    return [json.loads(line)["index"] for line in log.read_text().splitlines()[1:]]


@pytest.mark.parametrize(
    ("damage", "line"),
    [
        (lambda lines: [*lines[:3], "\n", *lines[3:]], 4),  # a blank line
        (lambda lines: [*lines[:2], lines[2][:20] + "\n", *lines[3:]], 3),  # a garbled line
        (lambda lines: [*lines[:2], '{"index": 1}\n', *lines[3:]], 3),  # JSON, but not a game
        (lambda lines: [*lines, lines[2]], 8),  # a game logged twice
        (lambda lines: ["{not json\n", *lines[1:]], 1),  # a garbled header
    ],
    ids=["blank", "garbled", "not-a-game", "repeated", "garbled-header"],
)
def test_a_damaged_log_line_is_reported_with_file_and_line(toy, tmp_path, damage, line: int) -> None:
    log, lines = logged(toy, tmp_path)
    log.write_text("".join(damage(lines)))
    before = log.read_bytes()
    with pytest.raises(ValueError, match=rf"run.jsonl' line {line}: damaged line"):
        tournament(toy, {"a": RandomAgent, "b": RandomAgent}, 6, seed=5, log_path=log)
    with pytest.raises(ValueError, match=rf"line {line}: damaged line"):
        read_records(log)
    assert log.read_bytes() == before  # nothing is appended to a damaged log


def test_a_header_without_its_newline_is_repaired_before_games_are_appended(toy, tmp_path) -> None:
    log, lines = logged(toy, tmp_path)
    log.write_text(lines[0].rstrip("\n"))  # killed right after the header, before its newline
    assert rerun(toy, log) == list(range(6)) and log.read_text().splitlines()[0] == lines[0].rstrip("\n")
    log.write_text(lines[0][:25])  # killed in the middle of the header: the log holds no game yet
    assert rerun(toy, log) == list(range(6))


def test_a_truncated_last_line_is_dropped_and_replayed_once(toy, tmp_path) -> None:
    log, lines = logged(toy, tmp_path)
    log.write_text("".join(lines[:4]) + lines[4][:-1])  # the whole game but its newline
    assert rerun(toy, log) == list(range(6))
    assert [record.actions for record in read_records(log)] == [json.loads(line)["actions"] for line in lines[1:]]


def test_parallel_workers_give_the_same_records() -> None:
    game = make_game("quoridor", board_size=3)
    agents = {"random": partial(make_agent, "random", "quoridor"), "path": partial(make_agent, "path", "quoridor")}
    serial = tournament(game, agents, 6, seed=3)
    parallel = tournament(game, agents, 6, seed=3, workers=2)
    assert [r.actions for r in parallel.records] == [r.actions for r in serial.records]
    assert [r.agent_names for r in parallel.records] == [r.agent_names for r in serial.records]


# -- statistics -----------------------------------------------------------------------------------
def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(20, 20)
    assert high == 1.0 and 0.8 < low < 0.9


def test_fit_elo_is_symmetric_for_even_results_and_finite_for_perfect_ones() -> None:
    even = fit_elo(np.array([[0, 5], [5, 0]]), np.array([[0, 10], [10, 0]]))
    assert even == pytest.approx([ELO_MEAN, ELO_MEAN])
    perfect = fit_elo(np.array([[0, 10.0], [0, 0]]), np.array([[0, 10], [10, 0]]))
    assert np.isfinite(perfect).all() and perfect[0] > perfect[1] + 400


def test_a_tournament_worker_runs_torch_on_one_thread() -> None:
    torch = pytest.importorskip("torch")
    import importlib

    tournament_module = importlib.import_module("baselines.arena.tournament")  # the package exports the function

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        tournament_module._start_worker(make_game("toy_tictactoe"), {"random": RandomAgent(0)}, seed=1)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
