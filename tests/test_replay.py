"""The JSON replay format: recorded from games and tournament logs, checked move by move when loaded."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from baselines.agent import RandomAgent
from baselines.arena import play_game, tournament
from baselines.arena.replays import game_from_repr, log_replay, replay_from_record
from boardenvs import make_game
from boardenvs.replay import (
    REPLAY_FORMAT_VERSION,
    Replay,
    ReplayError,
    load_replay,
    record_replay,
    replay_states,
    setup_rng,
)

CONFIGS = [
    ("quoridor", {"board_size": 5}),
    ("quoridor", {"board_size": 5, "num_players": 4}),
    ("splendor", {}),
    ("splendor", {"rinascimento": True}),
    ("gravwell", {"num_players": 2}),
    ("battle_sheep", {"num_players": 2, "hidden_counts": True}),
    ("node_conquest", {"max_plies": 60}),
    ("node_conquest", {"topology": "hex", "rows": 3, "cols": 3, "max_plies": 40}),
]


def random_replay(name: str, config: dict, seed: int = 3) -> tuple[Replay, object]:
    game = make_game(name, **config)
    record = play_game(game, [RandomAgent() for _ in range(game.spec.num_players)], seed)
    return replay_from_record(game, record), game


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_a_recorded_game_reloads_through_json_to_its_final_position(name, config):
    replay, game = random_replay(name, config)
    text = json.dumps(replay.to_json())
    loaded, loaded_game, states = load_replay(json.loads(text))
    assert loaded == replay and loaded_game == game
    assert len(states) == len(replay.moves) + 1
    assert game.is_terminal(states[-1])
    assert np.allclose(game.returns(states[-1]), replay.result.returns)


def test_the_replay_starts_where_play_game_started():
    game = make_game("splendor")
    record = play_game(game, [RandomAgent(), RandomAgent()], seed=11)
    states = replay_states(replay_from_record(game, record), game)
    assert states[0].key() == game.initial_state(setup_rng(11)).key()
    assert game.returns(states[-1]).tolist() == record.returns.tolist()


def test_rewards_are_paid_on_the_last_move_only():
    replay, _ = random_replay("quoridor", {"board_size": 5})
    assert all(not any(move.rewards) for move in replay.moves[:-1])
    assert list(replay.moves[-1].rewards) == list(replay.result.returns)


def test_a_replay_file_round_trips(tmp_path):
    replay, _ = random_replay("node_conquest", {"max_plies": 30})
    path = replay.save(tmp_path / "game.json")
    assert load_replay(path)[0] == replay


def tampered(replay: Replay, change) -> dict:
    data = copy.deepcopy(replay.to_json())
    change(data)
    return data


@pytest.fixture(scope="module")
def quoridor_replay() -> Replay:
    return random_replay("quoridor", {"board_size": 5})[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="something-else"), "not a replay"),
        (lambda d: d.update(format_version=REPLAY_FORMAT_VERSION + 1), "format_version"),
        (lambda d: d.update(game_version=d["game_version"] + 1), "game_version"),
        (lambda d: d.update(game="chess"), "not a boardenvs game"),
        (lambda d: d["config"].update(board_size=99), "config"),
        (lambda d: d["moves"][1].update(action=10_000), "replay move 1"),
        (lambda d: d["moves"][0].update(player=1), "seat 0 was to move"),
        (lambda d: d["moves"][0].update(notation="z9"), "written"),
        (lambda d: d["result"].update(returns=[-1.0, 1.0]) or d["moves"][-1].update(rewards=[-1.0, 1.0]), "rewards"),
        (lambda d: d["result"].update(returns=[-1.0, 1.0]), "returns"),
        (lambda d: d["result"].update(truncated=True), "truncated"),
        (lambda d: d["result"].update(plies=1), "plies"),
        (lambda d: d.update(agents=["only one"]), "agents"),
        (lambda d: d.update(seed=-5), "seed"),
        (lambda d: d.update(seed="7"), "'seed' must be an integer"),
        (lambda d: d["moves"][0].update(action=True), "'action' must be an integer"),
        (lambda d: d["moves"][0].pop("player"), "no field 'player'"),
        (lambda d: d["moves"].append(d["moves"][-1]), "already over"),
        (lambda d: d["moves"][0].update(rewards=[0.0, float("nan")]), "finite numbers"),
    ],
)
def test_a_tampered_replay_is_refused_naming_what_is_wrong(quoridor_replay, change, message):
    with pytest.raises(ReplayError, match=message):
        load_replay(tampered(quoridor_replay, change))


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(ReplayError, match="cannot read replay"):
        load_replay(path)


def test_an_unfinished_game_replays_to_its_last_position():
    game = make_game("quoridor", board_size=5)
    replay = record_replay(game, 2, [int(game.legal_actions(game.initial_state(setup_rng(2)))[0])], ["a", "b"])
    _, _, states = load_replay(replay.to_json())
    assert len(states) == 2 and not game.is_terminal(states[-1])


def test_a_replay_is_built_from_any_game_of_a_tournament_log(tmp_path):
    game = make_game("quoridor", board_size=3)
    log = tmp_path / "log.jsonl"
    tournament(game, {"a": RandomAgent, "b": RandomAgent}, 4, seed=5, log_path=log)
    lines = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    for line in lines:
        replay = log_replay(log, line["index"])
        assert [move.action for move in replay.moves] == line["actions"]
        assert replay.seed == line["seed"] and list(replay.agents) == line["agent_names"]
    assert log_replay(log).seed == lines[0]["seed"]
    with pytest.raises(ValueError, match="has no game 99; its games: 0-3"):
        log_replay(log, 99)


def test_a_tampered_tournament_log_does_not_replay(tmp_path):
    game = make_game("quoridor", board_size=3)
    log = tmp_path / "log.jsonl"
    tournament(game, {"a": RandomAgent, "b": RandomAgent}, 2, seed=5, log_path=log)
    header, first, *rest = log.read_text().splitlines()
    data = json.loads(first)
    data["returns"] = [-value for value in data["returns"]]
    log.write_text("\n".join([header, json.dumps(data), *rest]) + "\n")
    with pytest.raises(ValueError, match="claims returns"):
        log_replay(log, data["index"])


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('echo hacked')",
        "Quoridor(QuoridorConfig(board_size=__import__('os')))",
        "Chess(ChessConfig())",
        "Quoridor(QuoridorConfig(board_size=5), 3)",
    ],
)
def test_a_log_header_game_is_read_as_data_and_never_run(text):
    with pytest.raises(ValueError):
        game_from_repr(text)


def test_a_log_header_game_is_rebuilt_with_its_config():
    game = make_game("node_conquest", topology="graph", nodes=3, edges=((0, 1), (1, 2)), max_plies=10)
    assert game_from_repr(repr(game)) == game
