"""scripts.bench runs every measurement and reports consistent numbers (speed itself is never asserted)."""

from __future__ import annotations

import importlib.util
import json

import pytest

import tests.toy_games  # noqa: F401  (registers toy_tictactoe, a game without a fast playout)
from baselines.games import random_games
from baselines.search.compiled import python_only
from baselines.speed import Measurement, median_measurement, report
from baselines.speed.engines import fast_playout_games
from boardenvs.registry import make_game
from scripts.bench import Args, main


def has_pillow() -> bool:
    return importlib.util.find_spec("PIL") is not None


def has_numba() -> bool:
    return importlib.util.find_spec("numba") is not None


def test_the_playout_row_plays_whole_games_by_the_fast_playout_and_only_where_a_game_has_one() -> None:
    game = make_game("gravwell", num_players=4)
    row = fast_playout_games("gravwell", game, 0.05, seed=0)
    assert row is not None and row.games > 0 and row.transitions > 100 * row.games  # a game is 100s of plies
    with python_only():
        python = fast_playout_games("gravwell", game, 0.05, seed=0)
    assert python is not None and python.name == "gravwell random games, Python playout"
    toy = make_game("toy_tictactoe")
    assert fast_playout_games("toy_tictactoe", toy, 0.05, seed=0) is None
    plies = random_games("toy_tictactoe", toy, 0, 2)  # no fast playout: the generic one
    assert len(plies) == 2 and all(count > 0 for count in plies)


def test_bench_measures_both_forward_model_loops_and_both_aec_loops(tmp_path) -> None:
    out = tmp_path / "bench.json"
    results = main(Args(games=["quoridor"], seconds=0.05, config=["board_size=3"], json_out=str(out)))
    names = [m.name for m in results["quoridor"]]
    assert names[:7] == [
        "quoridor forward model", "quoridor forward model, mask", "quoridor forward model + observe",
        "quoridor AEC raw_env", "quoridor AEC env()", "quoridor gymnasium.make",
        "quoridor make_vec async x2 (learner steps)",
    ]  # fmt: skip
    assert f"quoridor random games, {'compiled' if has_numba() else 'Python'} playout" in names
    assert all(m.transitions > 0 and m.games > 0 and m.per_second > 0 for m in results["quoridor"])
    saved = json.loads(out.read_text())
    assert saved["quoridor"][0]["transitions"] == results["quoridor"][0].transitions


def test_rounds_measure_every_row_repeatedly_and_keep_each_rows_median() -> None:
    results = main(Args(games=["quoridor"], seconds=0.02, config=["board_size=3"], rounds=3))["quoridor"]
    assert len(results) >= 7 and all(m.transitions > 0 for m in results)
    fast, slow, middle = (Measurement("x", 10 * k, 1, 1.0) for k in (3, 1, 2))
    assert median_measurement([fast, slow, middle]) is middle
    with pytest.raises(ValueError, match="--rounds must be >= 1"):
        main(Args(games=["quoridor"], rounds=0))


def test_report_gives_ratios_relative_to_the_forward_model_and_to_forward_plus_observe() -> None:
    results = main(Args(games=["quoridor"], seconds=0.02, config=["board_size=3"]))["quoridor"]
    lines = report(results).splitlines()
    assert "1.00x" in lines[1] and "games/s" in lines[0] and "vs fwd+obs" in lines[0]
    assert lines[3].rstrip().endswith("x") and lines[4].count("x") >= 2  # fwd+obs row; AEC row: both ratios
    observed, raw = results[2], results[3]
    assert f"{raw.microseconds / observed.microseconds:.2f}x" in lines[4]
    if any(m.name.startswith("OpenSpiel") for m in results):  # the dev install: both loops against the C++ one
        playout = next(m for m in results if " random games, " in m.name)
        openspiel = next(m for m in results if m.name.startswith("OpenSpiel"))
        share = f"{playout.per_second / openspiel.per_second:.2f}x OpenSpiel's transitions per second"
        assert lines[-1].startswith("random games by the playout") and share in lines[-1]


def test_mcts_flag_times_our_search_and_openspiels_side_by_side(tmp_path, capsys) -> None:
    out = tmp_path / "mcts.json"
    args = Args(mcts=True, mcts_simulations=20, mcts_repeats=1, config=["board_size=5"], json_out=str(out))
    results = main(args)
    assert list(results) == ["mcts"]  # with --mcts the forward models run only for games named explicitly
    names = [r.name for r in results["mcts"]]
    assert names[:3] == ["MCTSAgent (fast Quoridor playouts)", "MCTSAgent (Python Quoridor playouts)",
                         "MCTSAgent (generic legal_actions+apply)"]  # fmt: skip
    assert all(r.simulations == 20 and len(r.seconds) == 1 and r.per_second > 0 for r in results["mcts"])
    printed = capsys.readouterr().out
    assert "simulations/s" in printed and "vs OpenSpiel" in printed
    saved = json.loads(out.read_text())
    assert saved["mcts"][0]["simulations"] == 20
    if len(names) > 3:  # open_spiel installed: its Python and C++ MCTSBot are the references of the ratios
        assert names[3:] == ["OpenSpiel MCTSBot (Python, C++ game)", "OpenSpiel C++ MCTSBot"]
        lines = printed.splitlines()
        assert "vs C++" in printed and lines[-1].endswith("1.00x") and "1.00x" in lines[-2]


def test_report_mcts_without_openspiel_says_so() -> None:
    from baselines.speed import SearchSpeed, report_mcts

    text = report_mcts([SearchSpeed("ours", 10, [0.5])])
    assert "20" in text and "no reference" in text


def test_alphazero_flag_times_per_game_and_batched_self_play_on_the_same_games(tmp_path, capsys) -> None:
    out = tmp_path / "alphazero.json"
    args = Args(
        alphazero=True, alphazero_simulations=4, alphazero_moves=2, alphazero_batch=2, alphazero_games=[1, 3],
        config=["rows=3", "cols=3"], json_out=str(out),
    )  # fmt: skip
    results = main(args)
    assert list(results) == ["alphazero"]  # with --alphazero the forward models run only for games named explicitly
    per_game, one, three = results["alphazero"]
    assert [speed.games_per_batch for speed in (per_game, one, three)] == [0, 1, 3]
    assert per_game.simulations == one.simulations == three.simulations  # the same games, searched the same way
    for speed in (per_game, one, three):
        assert len(speed.seconds) == 3 and sum(speed.simulations) > 0 and speed.per_second > 0
        assert 0 < speed.network_share < 1
    assert per_game.forward_passes == one.forward_passes  # one game per batch: the same passes as alone
    assert three.leaves_per_pass > one.leaves_per_pass  # three games' leaves share each pass
    printed = capsys.readouterr().out
    assert "vs per game" in printed and "network share" in printed and "torch.set_num_threads(1)" in printed
    assert "network on cpu" in printed and per_game.device == "cpu"
    saved = json.loads(out.read_text())["alphazero"]
    assert saved[2]["simulations"] == three.simulations and saved[0]["per_second"] > 0


def test_alphazero_flag_rejects_counts_below_one() -> None:
    with pytest.raises(ValueError, match="--alphazero-batch must be >= 1"):
        main(Args(alphazero=True, alphazero_batch=0, config=["rows=3", "cols=3"]))
    with pytest.raises(ValueError, match=r"--alphazero-games must be counts in 1..4096, got \[0\]"):
        main(Args(alphazero=True, alphazero_games=[0], config=["rows=3", "cols=3"]))


def test_alphazero_device_is_checked_before_anything_runs(capsys) -> None:
    import torch

    from scripts.bench import cli

    with pytest.raises(SystemExit):
        cli(["--alphazero", "--alphazero-device", "tpu"])
    assert "--alphazero-device" in capsys.readouterr().err
    if not torch.cuda.is_available():
        with pytest.raises(SystemExit):
            cli(["--alphazero", "--alphazero-device", "cuda"])
        assert "torch sees no CUDA GPU" in capsys.readouterr().err


def test_the_svg_and_rgb_rows_draw_pictures_of_random_positions() -> None:
    results = main(Args(games=["quoridor"], seconds=0.02, config=["board_size=3"]))["quoridor"]
    svg = next(m for m in results if m.name == "quoridor SVG picture")
    assert svg.transitions >= 200 and svg.microseconds > 0
    frames = [m for m in results if m.name == "quoridor rgb_array frame"]  # the same pictures rasterised
    assert [m.transitions >= 30 and m.microseconds > 0 for m in frames] == ([True] if has_pillow() else [])


def test_arena_flag_times_moves_against_random_bots(tmp_path, capsys) -> None:
    pytest.importorskip("starlette")
    out = tmp_path / "arena.json"
    results = main(Args(games=["quoridor"], seconds=0.1, config=["board_size=5"], arena=True, json_out=str(out)))
    latency = results["arena"][0]
    assert latency.name == "quoridor" and len(latency.milliseconds) >= 5 and min(latency.milliseconds) > 0
    assert "median ms" in capsys.readouterr().out
    assert json.loads(out.read_text())["arena"][0]["name"] == "quoridor"
