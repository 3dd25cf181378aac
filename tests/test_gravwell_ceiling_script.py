"""Tests of ``scripts/gravwell_ceiling.py``, called through ``main(Args)`` and ``cli(argv)``."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest

import baselines.games.gravwell.ceiling as ceiling_agents
import scripts.gravwell_ceiling as ceiling
from baselines.arena import evaluate_against
from baselines.factory import make_agent
from boardenvs.registry import make_game
from scripts.gravwell_ceiling import KINDS, SEES_HIDDEN_INFORMATION, Args, TrueStateGravwell, cli, main

SMALL = {"simulations": 4, "games": 2}


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_plays_its_games(kind: str) -> None:
    result = main(Args(kind=kind, **SMALL))
    assert result["games"] == 2
    assert result["wins"] + result["draws"] + result["losses"] == 2
    assert [game["seat"] for game in result["games_detail"]] == [0, 1]
    low, high = result["wilson95"]
    assert low <= result["win_rate"] <= high


def test_fair_is_the_repos_mcts_in_evaluate_against() -> None:
    seed = 3
    result = main(Args(kind="fair", simulations=4, games=2, seed=seed))
    game = make_game("gravwell", num_players=2)
    learner = make_agent("mcts:simulations=4", "gravwell", seed=seed)
    expected = evaluate_against(game, learner, make_agent("random", "gravwell", seed=seed), 2, seed)
    assert (result["wins"], result["draws"], result["losses"]) == expected


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "oracle"}, r"kind must be one of \['fair', 'fairbr', 'peek', 'cheat', 'cheatbr'\], got 'oracle'"),
        ({"simulations": 0}, r"simulations must be an int >= 1, got 0"),
        ({"games": 0}, r"games must be an int >= 1, got 0"),
    ],
)
def test_bad_settings_are_refused_by_name(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        main(Args(**{**SMALL, **change}))


@pytest.mark.parametrize("kind", SEES_HIDDEN_INFORMATION)
def test_the_cheating_kinds_are_given_the_true_state(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Spies on the game (what play_game passes to determinize: the true state) and on the learner (the view it
    is given next): at every learner turn the two are equal; the opponent's views are not all the true state."""
    truth: dict[str, bytes] = {}
    learner_saw_truth: list[bool] = []
    opponent_saw_truth: list[bool] = []

    class SpyGame(TrueStateGravwell):
        def determinize(self, state: Any, player: int, rng: np.random.Generator) -> Any:
            view = super().determinize(state, player, rng)
            truth["key"] = state.key()
            if player != self.seat:
                opponent_saw_truth.append(view.key() == state.key())
            return view

    make_learner = ceiling.make_learner

    def spied_learner(*args: Any, **kwargs: Any) -> Any:
        learner = make_learner(*args, **kwargs)
        act = learner.act

        def spying_act(game: Any, view: Any, player: int) -> int:
            learner_saw_truth.append(view.key() == truth["key"])
            return act(game, view, player)

        learner.act = spying_act
        return learner

    monkeypatch.setattr(ceiling_agents, "TrueStateGravwell", SpyGame)
    monkeypatch.setattr(ceiling, "make_learner", spied_learner)
    main(Args(kind=kind, **SMALL))
    assert learner_saw_truth and all(learner_saw_truth)
    assert not all(opponent_saw_truth)


def test_fair_kinds_play_the_plain_game() -> None:
    game = make_game("gravwell", num_players=2)
    for kind in ("fair", "fairbr"):
        assert all(seat_game is game for seat_game in ceiling.games_by_seat(kind, game))


def test_the_true_state_game_draws_what_the_plain_game_draws() -> None:
    """Seeing the true state changes no random stream: the games are those of the plain game."""
    plain = make_game("gravwell", num_players=2)
    cheating = TrueStateGravwell(plain.config, seat=1)
    state = plain.initial_state(np.random.default_rng(0))
    plain_rng, cheating_rng = np.random.default_rng(5), np.random.default_rng(5)
    opponent_view = cheating.determinize(state, 0, cheating_rng)
    assert opponent_view.key() == plain.determinize(state, 0, plain_rng).key() != state.key()
    seat_view = cheating.determinize(state, 1, cheating_rng)
    plain.determinize(state, 1, plain_rng)
    assert seat_view.key() == state.key() and seat_view is not state  # a copy: an agent cannot change the game
    assert plain_rng.bit_generator.state == cheating_rng.bit_generator.state
    assert pickle.loads(pickle.dumps(cheating)) == cheating != TrueStateGravwell(plain.config, seat=0)


def test_cli_prints_the_result_line_and_writes_the_json(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    out = tmp_path / "runs" / "cheat.json"
    cli(["--kind", "cheat", "--simulations", "4", "--games", "2", "--opponent", "random_no_es", "--json-out", str(out)])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" seat")[0] for line in lines[:2]] == ["game 0", "game 1"]
    assert lines[2].startswith("RESULT cheat sims=4 vs random_no_es: ")
    written = json.loads(out.read_text())
    assert written["kind"] == "cheat" and written["opponent"] == "random_no_es" and len(written["games_detail"]) == 2
