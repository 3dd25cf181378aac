"""Tests of the tabular Q-learning Gravwell agent and its scripts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from baselines.arena import play_game
from baselines.factory import make_agent
from baselines.games.gravwell import RandomEmergencyStopAgent
from baselines.learners.gravwell_q import (
    GravwellQAgent,
    GravwellQSettings,
    PretrainedQAgent,
    boltzmann_choice,
    learn,
    play_state,
    shipped_table,
    state_144,
    state_864,
    stop_state,
)
from boardenvs.games.gravwell import Gravwell
from scripts import gravwell_paper, train_gravwell_q


def _random_states(game: Gravwell, count: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    state, states = game.initial_state(rng), []
    while len(states) < count:
        if game.is_terminal(state):
            state = game.initial_state(rng)
        states.append(state)
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
    return states


def test_representations_cover_their_ranges_and_ignore_hidden_info() -> None:
    game = Gravwell(num_players=4)
    seen144, seen864 = set(), set()
    rng = np.random.default_rng(1)
    for state in _random_states(game, 1500, 0):
        player = state.current_player
        index144, index864 = play_state(state, player, 4, 144), play_state(state, player, 4, 864)
        assert 0 <= index144 < 144 and 0 <= index864 < 864
        for _ in range(2):
            view = game.determinize(state, player, rng)
            assert play_state(view, player, 4, 144) == index144
            assert play_state(view, player, 4, 864) == index864
        seen144.add(index144)
        seen864.add(index864)
    assert len(seen144) > 20 and len(seen864) > len(seen144)


def test_representation_codes() -> None:
    pos = [10, 13, 0, 2, 36, 26]
    assert state_144(pos, 0, 4) == (3 - 1) * 12 + (8 - 1)
    assert state_144([0, 0, 0, 0, 36, 26], 0, 4) == 11 * 12 + 11
    assert state_144([5, 40, 0, 0, 36, 26], 0, 4) == 10 * 12 + 11
    assert state_864(pos, 0, 4, 5) == 5 * 144 + state_144(pos, 0, 4)
    assert {stop_state(t, m) for t in range(6) for m in range(-15, 16)} == set(range(120))


def test_boltzmann_reproducible_by_seed() -> None:
    values = np.array([0.0, 1.0, 2.0, -1.0])
    draws = [[boltzmann_choice(values, 1.5, np.random.default_rng(seed)) for _ in range(1)] for seed in range(50)]
    again = [[boltzmann_choice(values, 1.5, np.random.default_rng(seed)) for _ in range(1)] for seed in range(50)]
    assert draws == again and len({d[0] for d in draws}) > 1
    rng = np.random.default_rng(0)
    cold = [boltzmann_choice(values, 0.01, rng) for _ in range(20)]
    assert cold == [2] * 20


def test_training_updates_table_and_plays_legally() -> None:
    agent = GravwellQAgent(3, GravwellQSettings(representation=864))
    wins = learn(agent, 200, seed=5)
    assert wins.shape == (200,) and not agent.training
    assert np.count_nonzero(agent.q_play) > 50 and np.count_nonzero(agent.q_stop) > 5
    again = GravwellQAgent(3, GravwellQSettings(representation=864))
    learn(again, 200, seed=5)
    np.testing.assert_array_equal(agent.q_play, again.q_play)
    game = Gravwell(num_players=4)
    for seed in range(4):
        record = play_game(game, [agent, *(RandomEmergencyStopAgent(seat) for seat in (1, 2, 3))], seed)
        assert record.plies > 0


def test_round_rewards_and_disabled_stop() -> None:
    agent = GravwellQAgent(0, GravwellQSettings(reward_timing="round", use_stop=False))
    learn(agent, 30, seed=2, game=Gravwell(num_players=4, inert_tractors=True))
    assert np.count_nonzero(agent.q_play) > 0 and np.count_nonzero(agent.q_stop) == 0


def test_save_load_round_trip(tmp_path: Path) -> None:
    agent = GravwellQAgent(0, GravwellQSettings(representation=864, temperature=2.0))
    learn(agent, 20, seed=1)
    agent.save(tmp_path / "q")
    loaded = GravwellQAgent.load(tmp_path / "q.npz")
    assert loaded.settings == agent.settings and not loaded.training
    np.testing.assert_array_equal(loaded.q_play, agent.q_play)
    np.testing.assert_array_equal(loaded.q_stop, agent.q_stop)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("representation", 100),
        ("temperature", 0.0),
        ("learning_rate", 1.5),
        ("discount", -0.1),
        ("negative_factor", 11.0),
        ("reward_timing", "game"),
        ("use_stop", "yes"),
    ],
)
def test_bad_settings_name_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        GravwellQSettings(**{field: value})


def test_bad_script_settings(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="games"):
        train_gravwell_q.main(train_gravwell_q.Args(games=0, out=str(tmp_path / "q"), progress=False))
    with pytest.raises(ValueError, match="opponents"):
        train_gravwell_q.main(train_gravwell_q.Args(games=2, opponents="x", out=str(tmp_path / "q"), progress=False))
    with pytest.raises(ValueError, match="tree_games"):
        gravwell_paper.main(gravwell_paper.Args(tree_games=0, out=str(tmp_path), progress=False))


def test_train_script_writes_table_and_curve(tmp_path: Path) -> None:
    args = train_gravwell_q.Args(games=20, window=5, out=str(tmp_path / "q"), progress=False)
    train_gravwell_q.main(args)
    assert (tmp_path / "q.npz").exists() and (tmp_path / "q.json").exists() and (tmp_path / "q_curve.png").exists()


def test_paper_script_end_to_end(tmp_path: Path) -> None:
    train_gravwell_q.main(train_gravwell_q.Args(games=10, out=str(tmp_path / "q"), progress=False))
    args = gravwell_paper.Args(
        q_games=4,
        tree_games=4,
        final_games=4,
        neuro_games=4,
        q_table=str(tmp_path / "q"),
        out=str(tmp_path / "p"),
        progress=False,
    )
    rows = gravwell_paper.main(args)
    assert len(rows) == 2 * (4 + 4 + 4 + 4)
    final = {row.agent for row in rows if row.experiment == "c"}
    assert final == {"tree", "qlearning", "neuroevolution", "random_no_es"}
    for experiment in "abcd":
        for preset, _ in gravwell_paper.PRESETS:
            part = [row for row in rows if row.experiment == experiment and row.preset == preset]
            assert sum(row.wins for row in part) == pytest.approx(4)
    lines = (tmp_path / "p" / "gravwell_paper.csv").read_text().splitlines()
    assert lines[0].split(",") == list(gravwell_paper.FIELDS) and len(lines) == 33
    assert (tmp_path / "p" / "gravwell_paper.png").exists()
    assert "qlearning" in gravwell_paper.table(rows)


def test_json_table_round_trip_and_shape_check(tmp_path: Path) -> None:
    agent = GravwellQAgent(0, GravwellQSettings(representation=864, reward_timing="round"))
    learn(agent, 10, seed=3)
    path = agent.export_json(tmp_path / "table.json", {"games": 10})
    other = GravwellQAgent(1)
    other.load_json(path.read_text())
    assert other.settings == agent.settings
    np.testing.assert_allclose(other.q_play, agent.q_play, atol=1e-4)
    np.testing.assert_allclose(other.q_stop, agent.q_stop, atol=1e-4)
    broken = json.loads(path.read_text())
    broken["settings"]["representation"] = 144
    with pytest.raises(ValueError, match="broken.json: the content does not match its digest"):
        other.load_json(json.dumps(broken), "broken.json")
    del broken["sha256"]  # a table written before digests: read unchecked, but its shapes still are
    with pytest.raises(ValueError, match="table shapes"):
        other.load_json(json.dumps(broken), "broken.json")
    with pytest.raises(ValueError, match="has no digest"):
        other.load_json(json.dumps(broken), "broken.json", require_digest=True)


@pytest.mark.parametrize("inert", [False, True])
def test_registered_agent_loads_the_shipped_table_of_the_game(inert: bool) -> None:
    agent = make_agent("qlearning", "gravwell", 0)
    assert isinstance(agent, PretrainedQAgent) and agent.loaded_for is None
    game = Gravwell(num_players=4, inert_tractors=inert)
    record = play_game(game, [agent, *(RandomEmergencyStopAgent(seat) for seat in (1, 2, 3))], seed=7)
    assert record.plies > 0 and agent.loaded_for is inert and not agent.training
    shipped = json.loads(shipped_table(inert))
    assert shipped["training"]["inert_tractors"] is inert and shipped["training"]["games"] >= 1000
    np.testing.assert_array_equal(agent.q_play, np.asarray(shipped["q_play"]))
    assert np.count_nonzero(agent.q_play) > 100 and np.count_nonzero(agent.q_stop) > 10


def test_ablation_mode_writes_one_row_per_variant(tmp_path: Path) -> None:
    args = gravwell_paper.Args(
        ablations=True, train_games=3, ablation_games=2, presets="correct", out=str(tmp_path), progress=False
    )
    rows = gravwell_paper.main(args)
    assert [row.agent for row in rows] == list(gravwell_paper.ABLATIONS)
    assert all(row.preset == "correct" and row.games == 2 and 0 <= row.wins <= 2 for row in rows)
    assert (tmp_path / "gravwell_ablations.csv").exists() and (tmp_path / "gravwell_ablations.png").exists()
    with pytest.raises(ValueError, match="presets"):
        gravwell_paper.main(gravwell_paper.Args(presets="wrong", out=str(tmp_path), progress=False))
