"""The self-contained HTML replay page and ``scripts.replay`` (the page itself runs in tests/browser)."""

from __future__ import annotations

import json
import re

import pytest

from baselines.agent import RandomAgent
from baselines.arena import play_game, tournament
from baselines.arena.replays import replay_from_record
from boardenvs import make_game
from boardenvs.replay import load_replay
from boardenvs.replay_html import (
    HtmlReplay,
    pack_pictures,
    replay_data,
    replay_html,
    result_text,
    unpack_pictures,
    write_replay_html,
)
from scripts import replay as replay_script


def random_replay(name: str, seed: int = 1, **config):
    game = make_game(name, **config)
    record = play_game(game, [RandomAgent() for _ in range(game.spec.num_players)], seed)
    return replay_from_record(game, record), game


def page_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_the_page_needs_nothing_outside_the_file():
    replay, _ = random_replay("quoridor", board_size=5)
    page = replay_html(replay)
    assert "<link" not in page and " src=" not in page and "@import" not in page
    assert set(re.findall(r"https?://[a-z0-9./]+", page)) == {"http://www.w3.org/2000/svg"}


def test_the_page_holds_a_picture_per_position_and_the_moves_in_notation():
    replay, game = random_replay("quoridor", board_size=5)
    states = load_replay(replay.to_json())[2]
    data = page_data(replay_html(replay))
    assert unpack_pictures(data["tokens"], data["pictures"]) == [[game.render_svg(state) for state in states]]
    assert data["moves"][0] == [move.notation for move in replay.moves]
    assert data["result"] == result_text(replay)


def test_a_game_with_hidden_information_has_a_view_per_seat_and_the_spectator():
    replay, game = random_replay("splendor")
    states = load_replay(replay.to_json())[2]
    data = replay_data(replay, game, states)
    assert data["views"][0].startswith("spectator") and len(data["views"]) == 3
    pictures = unpack_pictures(data["tokens"], data["pictures"])
    for seat in range(2):
        assert pictures[seat + 1] == [game.render_svg(state, seat) for state in states]


def test_pictures_are_stored_as_the_tags_that_changed():
    replay, game = random_replay("node_conquest", max_plies=100)
    states = load_replay(replay.to_json())[2]
    pictures = [game.render_svg(state) for state in states]
    tokens, packed = pack_pictures([pictures, pictures[::-1]])
    assert unpack_pictures(tokens, packed) == [pictures, pictures[::-1]]
    stored = sum(map(len, tokens)) + len(json.dumps(packed))
    assert stored < sum(map(len, pictures)) / 4


def test_nothing_in_the_data_can_close_the_script_element():
    replay, _ = random_replay("quoridor", board_size=3)
    replay = type(replay)(**{**replay.__dict__, "agents": ("</script><script>alert(1)</script>", "b")})
    page = replay_html(replay)
    assert page.count("</script>") == 2
    assert page_data(page)["agents"][0] == "</script><script>alert(1)</script>"


def test_result_text_names_the_winner_or_a_draw():
    replay, _ = random_replay("quoridor", board_size=5)
    winner = max(range(2), key=lambda seat: replay.result.returns[seat])
    assert result_text(replay) == f"random (seat {winner}) won"
    assert result_text(replay, finished=False).startswith("not finished")


def test_jupyter_shows_the_page_in_a_sandboxed_frame(tmp_path):
    replay, _ = random_replay("quoridor", board_size=3)
    shown = HtmlReplay(replay)
    markup = shown._repr_html_()
    assert markup.startswith("<iframe srcdoc=") and 'sandbox="allow-scripts"' in markup
    assert shown.save(tmp_path / "x.html").read_text() == shown.html


def test_write_replay_html_reads_a_replay_file_and_checks_it(tmp_path):
    replay, _ = random_replay("quoridor", board_size=5)
    path = replay.save(tmp_path / "game.json")
    out = write_replay_html(path, tmp_path / "game.html")
    assert page_data(out.read_text())["moves"][0] == [move.notation for move in replay.moves]
    data = json.loads(path.read_text())
    data["moves"][0]["action"] = 9999
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="replay move 0"):
        write_replay_html(path, tmp_path / "bad.html")


# -- scripts.replay ---------------------------------------------------------------------------------
def test_script_writes_the_page_of_a_tournament_log_game(tmp_path):
    log = tmp_path / "log.jsonl"
    tournament(make_game("quoridor", board_size=3), {"a": RandomAgent, "b": RandomAgent}, 2, seed=1, log_path=log)
    out = tmp_path / "page.html"
    replay_script.cli([str(log), "--game", "1", "--out", str(out), "--json", str(tmp_path / "r.json")])
    assert page_data(out.read_text())["agents"] in (["a", "b"], ["b", "a"])
    assert load_replay(tmp_path / "r.json")[0].meta["source"].endswith("game 1")


def test_script_plays_a_new_game_and_writes_both_files(tmp_path):
    args = replay_script.Args(new="node_conquest", agents=["greedy", "random"], config=["max_plies=20"], seed=3,
                              out=str(tmp_path / "p.html"), json=str(tmp_path / "p.json"))  # fmt: skip
    replay = replay_script.main(args)
    assert replay.agents == ("greedy", "random") and len(replay.moves) == 20
    assert load_replay(tmp_path / "p.json")[0] == replay


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "error: --source: name a JSON replay"),
        (["nowhere.json"], "error: --source: no file"),
        (["--new", "quoridor", "--agents", "random"], "error: --agents: quoridor has 2 seats, got 1"),
        (["--new", "chess"], "error: --new: unknown game 'chess'"),
    ],
)
def test_script_errors_name_the_argument(argv, message, capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        replay_script.cli([*argv, "--out", str(tmp_path / "x.html")])
    errors = capsys.readouterr().err
    assert exit_info.value.code == 2 and message in errors and "Traceback" not in errors
    assert not (tmp_path / "x.html").exists()
