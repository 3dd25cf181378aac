"""The live arena's API: every request checked, seat views only, bots bounded (the page runs in tests/browser)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from baselines.web.app import MAX_BODY_BYTES, create_app  # noqa: E402
from baselines.web.bots import BotPool  # noqa: E402
from baselines.web.sessions import Arena, ArenaSettings  # noqa: E402

QUORIDOR = {"game": "quoridor", "config": {"board_size": 5}, "seats": ["human", "random"]}


@pytest.fixture(scope="module")
def arena():
    arena = Arena(ArenaSettings(max_sessions=64, think_seconds=20, allowed_agents=("sb3:named/by/owner.zip",)),
                  BotPool(workers=1, think_seconds=20))  # fmt: skip
    yield arena
    arena.close()


@pytest.fixture(scope="module")
def client(arena):
    with TestClient(create_app(arena=arena)) as client:
        yield client


def new_game(client, body=None, status=200):
    response = client.post("/api/sessions", json=body or QUORIDOR)
    assert response.status_code == status, response.text
    return response.json()


def play(client, view, action, extra=None):
    body = {"seat": view["to_move"], "action": action, "ply": view["ply"], **(extra or {})}
    return client.post(f"/api/sessions/{view['id']}/move", json=body)


def test_the_page_and_its_files_are_served(client):
    assert "boardenvs arena" in client.get("/").text
    assert client.get("/static/arena.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/../app.py").status_code == 404
    assert "Content-Security-Policy" in client.get("/").headers


def test_the_catalog_lists_every_game_with_its_defaults(client):
    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    assert set(games) >= {"quoridor", "splendor", "gravwell", "battle_sheep", "node_conquest"}
    assert games["quoridor"]["config"]["board_size"] == 9 and "heuristic" in games["quoridor"]["agents"]


def test_a_move_is_answered_with_the_bots_reply(client):
    view = new_game(client)
    assert view["your_turn"] and view["viewer"] == 0 and 'class="target"' in view["svg"]
    after = play(client, view, view["legal"][0]["action"]).json()
    assert [move["player"] for move in after["moves"]] == [0, 1]
    assert after["your_turn"] and after["ply"] == 2


def test_a_whole_game_against_random_ends_with_a_result(client):
    view = new_game(client)
    while not view["over"]:
        view = play(client, view, view["legal"][0]["action"]).json()
    assert view["result"].endswith("won") and view["legal"] == [] and view["to_move"] is None


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        ({"action": 10_000}, 400, "'action' must be an integer in 0..57"),
        ({"action": True}, 400, "'action' must be an integer"),
        ({"action": 0}, 400, "illegal here"),
        ({"ply": 5}, 409, "stale move"),
        ({"seat": 1}, 403, "played by a bot"),
        ({"seat": 7}, 400, "'seat' must be an integer in 0..1"),
        ({"extra": 1}, 400, "unknown field"),
    ],
)
def test_a_bad_move_is_refused_and_changes_nothing(client, change, status, message):
    view = new_game(client)
    response = play(client, view, view["legal"][0]["action"], change)
    assert response.status_code == status and message in response.json()["error"]
    assert client.get(f"/api/sessions/{view['id']}").json() == view


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({**QUORIDOR, "game": "chess"}, 400, "game: unknown game 'chess'"),
        ({**QUORIDOR, "config": {"board_size": 1}}, 400, "board_size"),
        ({**QUORIDOR, "config": {"colour": 1}}, 400, "unknown config parameter"),
        ({**QUORIDOR, "config": [1]}, 400, "config: must be a JSON object"),
        ({**QUORIDOR, "preset": "huge"}, 400, "preset"),
        ({**QUORIDOR, "seats": ["human"]}, 400, "has 2 seats"),
        ({**QUORIDOR, "seats": ["human", "grandmaster"]}, 400, "unknown agent 'grandmaster'"),
        ({**QUORIDOR, "seats": ["human", "mcts:simulations=-3"]}, 400, "seat 1"),
        ({**QUORIDOR, "seats": ["human", 5]}, 400, "'human' or an agent spec"),
        ({**QUORIDOR, "seats": ["human", "sb3:/tmp/model.zip"]}, 403, "loads a file"),
        ({**QUORIDOR, "seats": ["human", "class:os.system"]}, 403, "imports code"),
        ({**QUORIDOR, "seats": ["human", "alphazero:checkpoint=/tmp/x.pt"]}, 403, "names a file"),
        ({**QUORIDOR, "seats": ["human", "tabular_q:table=../t.npz"]}, 403, "names a file"),
        ({**QUORIDOR, "seats": ["human", "sb3:named/by/owner.zip"]}, 400, "seat 1"),
        ({**QUORIDOR, "seed": -1}, 400, "'seed' must be an integer"),
        ({**QUORIDOR, "speed": 3}, 400, "unknown field(s) ['speed']"),
        ({"game": "splendor", "seats": ["human", "random"], "seed": 4}, 400, "hidden information"),
        ({"game": "node_conquest", "config": {"max_plies": 100_000}, "seats": ["random", "random"]}, 400, "plies"),
    ],
)
def test_a_bad_new_game_is_refused_naming_what_is_wrong(client, body, status, message):
    response = client.post("/api/sessions", json=body)
    assert response.status_code == status and message in response.json()["error"], response.text[:300]


def test_a_body_that_is_not_json_or_too_large_is_refused(client):
    assert client.post("/api/sessions", content=b"{oops").status_code == 400
    assert client.post("/api/sessions", content=b"[" + b"1," * MAX_BODY_BYTES + b"1]").status_code == 413
    assert "request body must be a JSON object" in client.post("/api/sessions", json=[1]).json()["error"]


def test_an_unknown_game_id_is_a_404(client):
    response = client.get("/api/sessions/nope")
    assert response.status_code == 404 and "no game 'nope'" in response.json()["error"]


def test_undo_takes_back_the_persons_move_and_the_reply(client):
    view = new_game(client)
    after = play(client, view, view["legal"][0]["action"]).json()
    assert after["can_undo"]
    undone = client.post(f"/api/sessions/{view['id']}/undo", json={}).json()
    assert undone == view
    assert client.post(f"/api/sessions/{view['id']}/undo", json={}).status_code == 409


def test_start_over_replays_the_same_first_position(client):
    view = new_game(client)
    play(client, view, view["legal"][0]["action"])
    assert client.post(f"/api/sessions/{view['id']}/restart", json={}).json() == view


def test_a_person_sees_only_their_seat_and_never_the_spectator_view(client):
    view = new_game(client)
    assert client.get(f"/api/sessions/{view['id']}?view=spectator").status_code == 403
    assert client.get(f"/api/sessions/{view['id']}?seat=1").status_code == 403
    assert client.get(f"/api/sessions/{view['id']}?seat=x").status_code == 400


def test_bots_move_one_at_a_time_when_asked_and_the_spectator_may_watch(client):
    view = new_game(client, {"game": "splendor", "seats": ["random", "random"], "seed": 3})
    assert view["ply"] == 0 and view["viewer"] == 0
    spectator = client.get(f"/api/sessions/{view['id']}?view=spectator").json()
    assert spectator["viewer"] == "spectator"
    after = client.post(f"/api/sessions/{view['id']}/advance?view=spectator", json={"ply": 0}).json()
    assert after["ply"] == 1
    stale = client.post(f"/api/sessions/{view['id']}/advance", json={"ply": 0})
    assert stale.status_code == 409


def test_the_replay_of_a_hidden_information_game_waits_for_its_end(client):
    view = new_game(client, {"game": "splendor", "seats": ["human", "random"]})
    response = client.get(f"/api/sessions/{view['id']}/replay")
    assert response.status_code == 409 and "when the game is over" in response.json()["error"]
    assert "seed" not in view


def test_the_replay_of_a_finished_game_downloads_and_loads(client):
    from boardenvs.replay import load_replay

    view = new_game(client)
    while not view["over"]:
        view = play(client, view, view["legal"][-1]["action"]).json()
    response = client.get(f"/api/sessions/{view['id']}/replay")
    assert response.headers["content-disposition"].startswith("attachment")
    replay, game, states = load_replay(response.json())
    assert replay.agents == ("person", "random") and game.is_terminal(states[-1])


def test_closing_a_game_forgets_it(client):
    view = new_game(client)
    assert client.delete(f"/api/sessions/{view['id']}").status_code == 200
    assert client.get(f"/api/sessions/{view['id']}").status_code == 404


def test_a_bot_that_runs_past_its_time_ends_its_game_not_the_server():
    arena = Arena(ArenaSettings(think_seconds=0.5), BotPool(workers=1, think_seconds=0.5))
    try:
        with TestClient(create_app(arena=arena)) as client:
            slow = {"game": "quoridor", "seats": ["human", "mcts:simulations=100000000"]}
            view = new_game(client, slow)
            after = play(client, view, view["legal"][0]["action"]).json()
            assert after["over"] and "took longer than 0.5 s" in after["message"]
            assert "game stopped" in after["result"]
            fresh = new_game(client)
            assert play(client, fresh, fresh["legal"][0]["action"]).json()["ply"] == 2
    finally:
        arena.close()


def test_games_are_bounded_and_idle_ones_make_room():
    busy = Arena(ArenaSettings(max_sessions=2, idle_seconds=3600), BotPool(workers=1))
    idle = Arena(ArenaSettings(max_sessions=2, idle_seconds=0), BotPool(workers=1))
    try:
        with TestClient(create_app(arena=busy)) as client:
            first = new_game(client)
            new_game(client)
            response = client.post("/api/sessions", json=QUORIDOR)
            assert response.status_code == 503 and "holds 2 games" in response.json()["error"]
            assert client.get(f"/api/sessions/{first['id']}").status_code == 200
        with TestClient(create_app(arena=idle)) as client:
            first = new_game(client)
            new_game(client)
            new_game(client)
            assert client.get(f"/api/sessions/{first['id']}").status_code == 404
    finally:
        busy.close()
        idle.close()


def test_the_server_binds_this_machine_only_unless_told_otherwise():
    from scripts.arena import Args, settings_of

    assert Args().host == "127.0.0.1"
    settings = settings_of(Args(allow_agent=["sb3:m.zip"], think_seconds=3))
    assert settings.allowed_agents == ("sb3:m.zip",) and settings.think_seconds == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [({"port": 0}, "port must be in"), ({"max_sessions": 0}, "max_sessions"), ({"idle_seconds": -1}, "idle_seconds")],
)
def test_the_server_refuses_bad_limits(change, message):
    from scripts.arena import Args, settings_of

    with pytest.raises(ValueError, match=message):
        settings_of(Args(**change))


@pytest.mark.parametrize(("workers", "think", "message"), [(0, 1, "bot_workers"), (1, 0, "think_seconds")])
def test_the_bot_pool_refuses_bad_limits(workers, think, message):
    with pytest.raises(ValueError, match=message):
        BotPool(workers=workers, think_seconds=think)


def test_a_bot_that_fails_ends_its_game_with_the_reason(client):
    pytest.importorskip("torch")
    body = {"game": "quoridor", "config": {"board_size": 7}, "seats": ["human", "alphazero:pretrained"]}
    view = new_game(client, body)
    after = play(client, view, view["legal"][0]["action"]).json()
    assert after["over"] and "no network is shipped for quoridor" in after["message"]
    again = client.post(f"/api/sessions/{view['id']}/move", json={"seat": 0, "action": 0, "ply": after["ply"]})
    assert again.status_code == 409 and "the game is over" in again.json()["error"]
    assert new_game(client)["your_turn"]


def test_a_bot_worker_outlives_the_request_thread_that_started_it():
    """The server starts workers from request threads, which end when idle; the worker must not end with its
    thread (Linux ties the kernel's parent-death signal to the thread that started the process)."""
    from baselines.web.bots import BotRequest
    from boardenvs.registry import make_game

    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    request = BotRequest(("random", 0), "random", 1, 2, game, state, 0)
    pool = BotPool(workers=1, think_seconds=20)
    try:
        thread = threading.Thread(target=pool.act, args=(request, 0))
        thread.start()
        thread.join()
        time.sleep(1.0)  # the kernel's signal, were it asked for, comes as the thread ends
        worker = pool._workers[0]
        assert worker.process.is_alive(), f"the worker ended with its thread (exit code {worker.process.exitcode})"
        assert pool.act(request, 0) in game.legal_actions(state)
    finally:
        pool.close()
