"""Rating ladders: the fit recovers known ratings with honest intervals, a new agent is rated against fixed anchors,
and the command plays, resumes, refits from the logs alone and refuses bad input by name."""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import baselines.ladder.runs as runs_module
from baselines.arena.match import GameRecord
from baselines.ladder import ANCHOR, CONFIGS, fit_ladder, rate_against, roster
from baselines.ladder.fit import win_probability
from baselines.ladder.page import game_section, logs_in_repository, read_timing
from baselines.ladder.runs import default_anchors, ladder_game, ladder_records, load_fit, rated_agents, round_pairs
from scripts import ladder as ladder_script
from scripts._args import parse_args

TRUE = {"random": 0.0, "weak": 150.0, "middle": 300.0, "strong": 500.0}


def simulated_games(ratings: dict[str, float], games_per_pair: int, seed: int) -> list[GameRecord]:
    """Two-player games whose winners follow the Bradley-Terry model of ``ratings`` (no draws)."""
    rng = np.random.default_rng(seed)
    records = []
    for a, b in itertools.combinations(ratings, 2):
        p = float(win_probability(ratings[a], np.array([ratings[b]]))[0])
        for number in range(games_per_pair):
            seats = (a, b) if number % 2 == 0 else (b, a)
            a_wins = rng.random() < p
            returns = np.array([1.0, -1.0] if (seats[0] == a) == a_wins else [-1.0, 1.0], dtype=np.float32)
            records.append(GameRecord(seats, number, returns=returns))
    return records


def test_the_fit_recovers_known_ratings_with_the_anchor_at_zero() -> None:
    fit = fit_ladder(simulated_games(TRUE, 400, seed=1), list(TRUE), samples=200)
    assert fit.rating(ANCHOR) == 0.0
    for name, truth in TRUE.items():
        assert abs(fit.rating(name) - truth) < 40, (name, fit.rating(name))
        i = fit.names.index(name)
        assert fit.low[i] <= truth <= fit.high[i], (name, fit.low[i], fit.high[i])
    assert np.all(fit.half_widths() < 60)  # 400 games per pair: about +-40 Elo
    assert list(fit.games) == [1200] * 4


def test_more_games_give_narrower_intervals() -> None:
    few = fit_ladder(simulated_games(TRUE, 40, seed=2), list(TRUE), samples=200)
    many = fit_ladder(simulated_games(TRUE, 400, seed=2), list(TRUE), samples=200)
    assert np.all(many.half_widths()[1:] < few.half_widths()[1:])


def test_replicates_hold_the_fields_centre_so_the_anchor_has_an_interval_too() -> None:
    fit = fit_ladder(simulated_games(TRUE, 100, seed=3), list(TRUE), samples=200)
    assert np.allclose(fit.replicates.mean(axis=1), fit.ratings.mean())  # each replicate shifted to the centre
    assert fit.ratings[0] == 0.0 and fit.low[0] < 0.0 < fit.high[0]  # the anchor's place is uncertain too
    assert np.all(fit.low <= fit.ratings) and np.all(fit.ratings <= fit.high)


def test_a_pair_with_a_perfect_record_resamples_to_itself() -> None:
    records = simulated_games({"random": 0.0, "god": 3000.0}, 20, seed=3)  # god wins all 20
    fit = fit_ladder(records, ["random", "god"], samples=50)
    assert fit.low[1] == fit.high[1] == fit.rating("god")  # the bootstrap cannot see what was never observed


def test_a_new_agent_is_rated_against_fixed_anchors_within_its_true_interval() -> None:
    ladder = fit_ladder(simulated_games(TRUE, 400, seed=4), list(TRUE), samples=300)
    newcomer = simulated_games({**TRUE, "new": 250.0}, 200, seed=5)
    mine = [record for record in newcomer if "new" in record.agent_names]
    new = rate_against("new", mine, ladder, samples=300)
    assert new.games == 800 and new.low <= 250.0 <= new.high and abs(new.rating - 250.0) < 50


def test_rating_a_ladder_member_again_lands_inside_its_ladder_interval() -> None:
    ladder = fit_ladder(simulated_games(TRUE, 400, seed=6), list(TRUE), samples=300)
    again = simulated_games({**TRUE, "middle-again": TRUE["middle"]}, 200, seed=7)
    mine = [record for record in again if "middle-again" in record.agent_names]
    new = rate_against("middle-again", mine, ladder, samples=300)
    i = ladder.names.index("middle")
    assert max(new.low, ladder.low[i]) <= min(new.high, ladder.high[i])  # the two intervals overlap
    assert ladder.low[i] - 25 <= new.rating <= ladder.high[i] + 25


def test_the_fit_refuses_an_unknown_anchor_and_games_of_agents_off_the_ladder() -> None:
    records = simulated_games(TRUE, 4, seed=8)
    with pytest.raises(ValueError, match=r"anchor 'nobody' is not among the ladder's agents"):
        fit_ladder(records, list(TRUE), anchor="nobody")
    with pytest.raises(ValueError, match=r"names agents that are not on the ladder: \['strong'\]"):
        fit_ladder(records, ["random", "weak", "middle"])
    with pytest.raises(ValueError, match=r"samples must be >= 1"):
        fit_ladder(records, list(TRUE), samples=0)


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_every_roster_entry_builds_on_its_ladders_config(game: str) -> None:
    from baselines.factory import make_agent

    ladder = roster(game)
    assert ladder.names[0] == ANCHOR
    table = ladder_game(ladder)
    state = table.initial_state(np.random.default_rng(0))
    for label, spec in ladder.entries.items():
        agent = make_agent(spec, game, seed=0)
        if label in ("random", "greedy", "path"):  # cheap ones also move (the others are played by the runs below)
            assert table.legal_action_mask(state)[agent.act(table, state, state.current_player)]


def run(tmp_path: Path, *argv: str) -> str:
    return ladder_script.main(parse_args(ladder_script.Args, ["--out", str(tmp_path), "--no-progress", *argv]))


def test_the_command_plays_resumes_and_refits_from_its_logs_alone(tmp_path: Path) -> None:
    agents = ["--game", "node_conquest", "--agents", "greedy,mcts-50", "--samples", "50"]
    out = run(tmp_path, *agents, "--games-per-pairing", "4")
    assert "greedy,greedy," in out and (tmp_path / "ladder.png").stat().st_size > 0
    logs = sorted(path.name for path in (tmp_path / "round_000").iterdir())
    assert logs == ["greedy--vs--mcts-50.jsonl", "random--vs--greedy.jsonl", "random--vs--mcts-50.jsonl"]
    first = (tmp_path / "ratings.csv").read_text()
    (tmp_path / "ratings.csv").unlink()
    (tmp_path / "bootstrap.csv").unlink()
    results = tmp_path / "results"
    results.mkdir()
    run(tmp_path, *agents, "--fit-only", "--publish", "--results-dir", str(results))
    assert (tmp_path / "ratings.csv").read_text() == first  # the logs alone give the same ladder
    page = (results / "ladder.md").read_text()
    assert "## node_conquest (the default config)\n\n12 games, " in page and "| 1 | greedy | `greedy` |" in page
    assert "hours of play (the project's 2-core machine, shared with other jobs, 1 worker)" in page
    assert (tmp_path / "timing.csv").read_text().count("\n") == 1 + 3
    run(tmp_path, *agents, "--games-per-pairing", "4")  # every game already logged: nothing played, no time added
    assert (tmp_path / "timing.csv").read_text().count("\n") == 1 + 3
    assert (results / "ladder_node_conquest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Not yet fitted: quoridor, splendor, gravwell, battle_sheep." in page
    run(tmp_path, *agents, "--games-per-pairing", "4", "--rounds", "2")
    close = round_pairs(roster("node_conquest").only(["greedy", "mcts-50"]), tmp_path, 1)
    played = sorted(path.stem.replace("--vs--", " ") for path in (tmp_path / "round_001").glob("*.jsonl"))
    assert played == sorted(f"{a} {b}" for a, b in close)  # round 1 plays only the pairs within the gap
    assert len(ladder_records(tmp_path)) == 12 + 4 * len(close)
    with open(tmp_path / "ratings.csv", newline="") as handle:
        games = {row["agent"]: int(row["games"]) for row in csv.DictReader(handle)}
    assert sum(games.values()) == 2 * len(ladder_records(tmp_path))


def test_later_rounds_play_only_the_pairs_whose_ratings_are_close(tmp_path: Path, monkeypatch) -> None:
    ladder = roster("node_conquest").only(["greedy", "mcts-50"])
    assert round_pairs(ladder, tmp_path, 0) == [("random", "greedy"), ("random", "mcts-50"), ("greedy", "mcts-50")]
    simulated = simulated_games({"random": 0.0, "greedy": 1200.0, "mcts-50": 1300.0}, 20, seed=9)
    monkeypatch.setattr(runs_module, "_round_records", lambda path: simulated)  # round 0's logs, as if played
    assert round_pairs(ladder, tmp_path, 1) == [("greedy", "mcts-50")]  # random is 1,200 Elo below both
    with pytest.raises(FileNotFoundError, match="play the ladder first"):
        ladder_records(tmp_path / "nothing")


def test_the_command_rates_a_new_agent_against_the_fitted_ladder(tmp_path: Path) -> None:
    run(tmp_path, "--game", "node_conquest", "--agents", "greedy", "--games-per-pairing", "4", "--samples", "50")
    rate = ["--rate", "random", "--label", "random-2", "--games-per-pairing", "2", "--anchors", "random"]
    out = run(tmp_path, "--game", "node_conquest", *rate, "--samples", "50")
    assert out.startswith("random-2: ") and (tmp_path / "rate_random-2.jsonl").is_file()
    about = json.loads((tmp_path / "rate_random-2.json").read_text())
    settings = (about["spec"], about["anchors"], about["games_per_pairing"], about["workers"])
    assert settings == ("random", ["random"], 2, 1) and about["seconds"] >= 0
    results = tmp_path / "results"
    results.mkdir()
    run(tmp_path, "--game", "node_conquest", "--agents", "greedy", "--fit-only", "--publish", "--results-dir",
        str(results), "--samples", "50")  # fmt: skip
    with open(tmp_path / "rated.csv", newline="") as handle:
        (rated,) = list(csv.DictReader(handle))
    assert (rated["agent"], rated["spec"], rated["games"]) == ("random-2", "random", "2")
    assert out.startswith(f"random-2: {float(rated['rating']):+.0f} [")  # the log alone gives the same rating
    page = (results / "ladder.md").read_text()
    assert "Rated against this ladder with one command each" in page
    (tmp_path / "rate_ghost.json").write_text(json.dumps({**about, "label": "ghost", "anchors": ["mcts-50"]}))
    (tmp_path / "rate_ghost.jsonl").write_text((tmp_path / "rate_random-2.jsonl").read_text())
    assert [agent.rating.name for agent in rated_agents(tmp_path)] == ["random-2"]  # its anchor is not on this ladder
    assert "| random-2 | `random` | " in page and "| random: +0 [" in page  # beside the ladder's own random
    with pytest.raises(ValueError, match=r"label: 'greedy' is already on the node_conquest ladder"):
        run(tmp_path, "--game", "node_conquest", "--rate", "random", "--label", "greedy", "--games-per-pairing", "2")
    with pytest.raises(ValueError, match=r"anchors: \['nobody'\] are not on the ladder"):
        run(tmp_path, "--game", "node_conquest", "--rate", "random", "--label", "r3", "--anchors", "nobody")
    assert default_anchors(load_fit(tmp_path)) == ["random", "greedy"]


USER_AGENT = """
from baselines import BaseAgent


class FirstLegal(BaseAgent):
    \"\"\"A user's own agent: the lowest legal action id, or the highest with reverse=True.\"\"\"

    def __init__(self, seed=None, name=None, reverse=False):
        super().__init__(seed, name)
        self.reverse = reverse

    def act(self, game, view, player):
        legal = game.legal_actions(view)
        return int(legal[-1] if self.reverse else legal[0])
"""


def test_a_users_own_agent_class_is_rated_in_worker_processes(tmp_path: Path, monkeypatch) -> None:
    modules = tmp_path / "modules"
    modules.mkdir()
    (modules / "my_ladder_agents.py").write_text(USER_AGENT)
    monkeypatch.syspath_prepend(str(modules))
    monkeypatch.setenv("PYTHONPATH", str(modules))  # the spawned workers import it too
    ladder = tmp_path / "ladder"
    run(ladder, "--game", "node_conquest", "--agents", "greedy", "--games-per-pairing", "4", "--samples", "50")
    spec = "class:my_ladder_agents.FirstLegal:reverse=true"
    out = run(ladder, "--game", "node_conquest", "--rate", spec, "--label", "first-legal", "--games-per-pairing", "4",
              "--samples", "50", "--workers", "2")  # fmt: skip
    assert out.startswith("first-legal: ")
    lines = (ladder / "rate_first-legal.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 2 * 4 and "first-legal" in lines[0]  # the header and 4 games per anchor
    with pytest.raises(ValueError, match=r"agent spec 'class:my_ladder_agents.Missing': .* not an agent class"):
        run(ladder, "--game", "node_conquest", "--rate", "class:my_ladder_agents.Missing", "--label", "m")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "--game: no ladder for 'chess'; ladders: quoridor, splendor"),
        (["--agents", "greedy,nobody"], "--agents: ['nobody'] are not on the node_conquest ladder"),
        (["--games-per-pairing", "0"], "--games-per-pairing"),
        (["--rate", "no_such_agent"], "--rate"),
        (["--rate", "random", "--fit-only"], "--rate: rates against a fitted ladder"),
        (["--publish", "--results-dir", "/no/such/folder"], "--results-dir: no folder '/no/such/folder'"),
    ],
)
def test_bad_options_are_refused_by_name(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        ladder_script.cli(argv)
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_the_page_names_the_logs_folder_when_the_logs_are_in_the_repository(tmp_path: Path) -> None:
    repository, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    results = repository / "docs" / "results"
    results.mkdir(parents=True)
    inside = repository / "runs" / "ladder" / "node_conquest"
    assert logs_in_repository(inside, results) == "runs/ladder/node_conquest"
    assert logs_in_repository(elsewhere / "node_conquest", results) == ""
    rows = [{"agent": "random", "spec": "random", "rating": "0", "low": "-10", "high": "10", "games": "4"}]
    kept = game_section("node_conquest", rows, "0.10 hours of play", "runs/ladder/node_conquest")
    assert "Every game is in the repository, `runs/ladder/node_conquest/`" in kept
    assert "not in the repository" in game_section("node_conquest", rows, "0.10 hours of play")
    (results / "ladder_node_conquest.txt").write_text("0.10 hours of play (x)\nlogs: runs/ladder/node_conquest\n")
    assert read_timing(results / "ladder_node_conquest.txt") == ("0.10 hours of play (x)", "runs/ladder/node_conquest")
    (results / "ladder_node_conquest.txt").write_text("0.70 hours of play (x)\n")
    assert read_timing(results / "ladder_node_conquest.txt") == ("0.70 hours of play (x)", "")


def test_a_refit_names_the_roster_agents_its_logs_have_no_games_of(tmp_path: Path) -> None:
    run(tmp_path, "--game", "node_conquest", "--agents", "greedy", "--samples", "20", "--games-per-pairing", "2")
    out = run(tmp_path, "--game", "node_conquest", "--agents", "greedy,mcts-50", "--samples", "20", "--fit-only")
    assert "greedy,greedy," in out and "mcts-50," not in out
    assert out.rstrip().endswith("not on the ladder yet (no games in its logs; play the ladder to add them): mcts-50")
