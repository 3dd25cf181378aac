"""scripts.evaluate: one agent against each opponent, wins/draws/losses over seat-rotated games."""

from __future__ import annotations

import pytest

from scripts.evaluate import Args, cli, main


def test_heuristic_beats_random_and_counts_add_up() -> None:
    lines = main(Args(config=["board_size=5"], agent="heuristic", opponents="random,path", games=10, seed=3))
    assert [line.opponent for line in lines] == ["random", "path"]
    assert all(line.games == 10 for line in lines)
    assert lines[0].wins >= 9


def test_evaluation_is_reproducible_by_seed() -> None:
    args = Args(config=["board_size=5"], agent="random", opponents="random", games=8, seed=5)
    assert main(args) == main(args)


def test_cli_prints_one_line_per_opponent(capsys) -> None:
    cli(["--config", "board_size=3", "--agent", "path", "--opponents", "random", "--games", "4"])
    out = capsys.readouterr().out
    assert "vs random" in out and "wins" in out and "/4" in out


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"games": 0}, "games must be >= 1"), ({"opponents": " , "}, "opponents"), ({"agent": "nobody"}, "unknown agent")],
)
def test_bad_settings_raise_naming_them(kwargs, match) -> None:
    with pytest.raises(ValueError, match=match):
        main(Args(config=["board_size=3"], **kwargs))


def test_each_opponents_line_comes_out_before_the_next_opponent_plays(monkeypatch) -> None:
    import scripts.evaluate as evaluate

    events: list[str] = []
    played = evaluate.evaluate_against

    def recording(game, agent, opponent, games, seed, name, on_game):
        events.append(f"start {name}")
        return played(game, agent, opponent, games, seed, name, lambda: (events.append("game"), on_game()))

    monkeypatch.setattr(evaluate, "evaluate_against", recording)
    args = Args(config=["board_size=3"], agent="path", opponents="random,path", games=3, progress=False)
    lines = main(args, lambda line: events.append(f"line {line.opponent}"))
    assert events == ["start random", "game", "game", "game", "line random", "start path", "game", "game", "game",
                      "line path"]  # fmt: skip
    assert [line.games for line in lines] == [3, 3]


def test_the_progress_bar_counts_the_games_on_stderr(capsys) -> None:
    cli(["--config", "board_size=3", "--agent", "path", "--opponents", "random", "--games", "4"])
    captured = capsys.readouterr()
    assert "vs random" in captured.err and "4/4" in captured.err
    cli(["--config", "board_size=3", "--agent", "path", "--opponents", "random", "--games", "4", "--no-progress"])
    assert "4/4" not in capsys.readouterr().err
