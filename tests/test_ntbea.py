"""NTBEA (``baselines.tuning.ntbea``): the model, the search on a cheap noisy function, games, and the CLI."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest

from baselines.factory import format_spec, make_agent, parse_spec
from baselines.search.rhea import RHEAAgent
from baselines.tuning.game_fitness import GameFitness, head_to_head
from baselines.tuning.ntbea import NTBEA, NTupleModel
from baselines.tuning.tuning import TuneSettings, search_space
from scripts.tune_ntbea import Args, main

OPTIMUM = {"a": 3, "b": "high", "c": 0.5, "d": False}
SPACE = {"a": [0, 1, 2, 3, 4, 5], "b": ["low", "mid", "high"], "c": [0.1, 0.5, 0.9], "d": [True, False]}


def noisy_fitness(params: dict, seed: int, index: int) -> float:
    """1 at the optimum (432 points), 1/8 less per step off it in any parameter, plus Gaussian noise (sd 0.2)."""
    del index
    loss = abs(params["a"] - 3) / 2 + (params["b"] != "high") + 2 * abs(params["c"] - 0.5) + (params["d"] is not False)
    return 1.0 - loss / 4 + 0.2 * float(np.random.default_rng(seed).normal())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_the_optimum_of_a_noisy_function(seed: int) -> None:
    result = NTBEA(SPACE, k=1.0, epsilon=0.7, seed=seed).run(noisy_fitness, 200)
    assert result.best == OPTIMUM
    assert len(result.history) == 200


def test_batches_give_the_same_run_inline_and_in_workers() -> None:
    inline = NTBEA(SPACE, batch_size=2, seed=5).run(noisy_fitness, 12, workers=1)
    parallel = NTBEA(SPACE, batch_size=2, seed=5).run(noisy_fitness, 12, workers=2)
    assert [e.params for e in inline.history] == [e.params for e in parallel.history]
    assert [e.fitness for e in inline.history] == [e.fitness for e in parallel.history]
    assert [e.batch for e in inline.history][:5] == [0, 1, 1, 2, 2]


def test_model_statistics_and_ucb() -> None:
    model = NTupleModel([2, 2], [(0,), (1,), (0, 1)], k=1.0, epsilon=0.5)
    assert model.estimate((0, 0)) == -math.inf
    model.add((0, 0), 1.0)
    model.add((0, 1), 0.0)
    assert model.estimate((0, 0)) == pytest.approx((0.5 + 1.0 + 1.0) / 3)
    assert model.estimate((1, 1)) == pytest.approx(0.0)  # only the 1-tuple of b=1 has data
    assert model.visits((0, 0)) == 1 and model.visits((1, 1)) == 0
    bonus_unvisited = math.sqrt(math.log(3) / 0.5)
    assert model.ucb((1, 0)) == pytest.approx(1.0 + (2 * bonus_unvisited + math.sqrt(math.log(3) / 1.5)) / 3)
    assert model.ucb((1, 0)) > model.ucb((0, 0))  # unvisited arms are explored first


def test_mutants_change_at_least_one_parameter_and_stay_in_the_space() -> None:
    ntbea = NTBEA({"x": [0, 1, 2], "y": [0, 1], "fixed": [7]}, seed=0)
    for _ in range(200):
        point = ntbea.mutate((1, 0, 0))
        assert point != (1, 0, 0) and point[2] == 0
        assert 0 <= point[0] < 3 and 0 <= point[1] < 2


def test_history_csv_plot_and_estimates(tmp_path) -> None:
    result = NTBEA(SPACE, seed=0, batch_size=3).run(noisy_fitness, 10, initial=OPTIMUM)
    assert result.history[0].params == OPTIMUM
    result.to_csv(tmp_path / "h.csv")
    rows = list(csv.DictReader((tmp_path / "h.csv").open()))
    assert len(rows) == 10 and list(rows[0]) == ["index", "batch", "seed", "a", "b", "c", "d", "fitness"]
    assert [count for count, _ in result.estimates] == [1, 4, 7, 10]
    result.plot(tmp_path / "f.png")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("space", "kwargs", "message"),
    [
        ({}, {}, "search space must be a non-empty dict"),
        ({"a": []}, {}, "'a' has no values"),
        ({"a": [1, 1]}, {}, "'a' has repeated values"),
        ({"a": "abc"}, {}, "'a' must be a list of values"),
        ({"a": [1, 2]}, {"k": -1}, "k must be a finite number >= 0"),
        ({"a": [1, 2]}, {"epsilon": 0}, "epsilon must be a finite number > 0"),
        ({"a": [1, 2]}, {"neighbours": 0}, "neighbours must be an int >= 1"),
        ({"a": [1, 2]}, {"batch_size": 1.5}, "batch_size must be an int >= 1"),
        ({"a": [1, 2]}, {"tuple_sizes": (4,)}, "tuple_sizes must be a subset"),
        ({"a": [1, 2]}, {"tuple_sizes": (), "full_tuple": False}, "at least one tuple"),
        ({"a": [1, 2]}, {"mutation_probability": 0}, "mutation_probability must be in"),
        ({"a": [1, 2]}, {"seed": -3}, "seed must be a non-negative int"),
    ],
)
def test_bad_settings_raise(space: dict, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        NTBEA(space, **kwargs)


def test_bad_run_arguments_raise() -> None:
    ntbea = NTBEA({"a": [1, 2]}, seed=0)
    with pytest.raises(ValueError, match="evaluations must be an int >= 1"):
        ntbea.run(noisy_fitness, 0)
    with pytest.raises(ValueError, match="workers must be an int >= 1"):
        ntbea.run(noisy_fitness, 5, workers=0)
    with pytest.raises(ValueError, match=r"a=3 is outside the search space \[1, 2\]"):
        ntbea.run(noisy_fitness, 5, initial={"a": 3})
    with pytest.raises(ValueError, match=r"missing \['a'\], unknown \['z'\]"):
        ntbea.run(noisy_fitness, 5, initial={"z": 1})
    with pytest.raises(ValueError, match="must be a finite number"):
        ntbea.run(lambda p, s, i: math.nan, 3)


# -- agents and games -----------------------------------------------------------------------------------
def test_agent_specs_round_trip() -> None:
    assert parse_spec("rhea:preset=bmrh_r2:sequence_length=3") == ("rhea", {"preset": "bmrh_r2", "sequence_length": 3})
    spec = format_spec("rhea", {"shift_buffer": False, "budget": 200})
    assert spec == "rhea:shift_buffer=false:budget=200"
    agent = make_agent(spec, "splendor", 0, {"budget": 300})
    assert isinstance(agent, RHEAAgent) and agent.params.budget == 300 and agent.params.shift_buffer is False
    assert agent.name == "rhea:shift_buffer=false:budget=300"
    assert make_agent("osla", "splendor", 0).name == "osla"
    with pytest.raises(ValueError, match="key=value"):
        parse_spec("rhea:budget")
    with pytest.raises(ValueError, match="does not take the settings"):
        make_agent("osla", "splendor", 0, {"budget": 3})
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nobody", "splendor", 0)


def test_game_fitness_rotates_seats_and_is_reproducible() -> None:
    fitness = GameFitness("toy_tictactoe", "rhea:budget=200", "random", games=2)
    first = [fitness({"sequence_length": 1}, 11, index) for index in range(4)]
    again = [fitness({"sequence_length": 1}, 11, index) for index in range(4)]
    assert first == again and all(0.0 <= value <= 1.0 for value in first)
    outcomes = head_to_head(GameFitness("toy_tictactoe", "rhea:budget=200", "random"), 6, seed=0)
    assert len(outcomes) == 6 and sum(outcomes) >= 4  # a planner rarely loses tic-tac-toe to random play


def test_tuning_rhea_on_a_toy_game_through_the_script(tmp_path) -> None:
    settings = TuneSettings(
        agent="rhea:budget=40", space="rhea", opponent="random", evaluations=6, batch_size=2, validate_games=2,
        progress=False,
    )  # fmt: skip
    args = Args(game="toy_tictactoe", config=[], out=str(tmp_path), settings=settings)
    outcome = main(args)
    assert len(outcome.result.history) == 6 and len(outcome.validation) == 2
    assert outcome.tuned_spec.startswith("rhea:budget=40:")
    summary = json.loads((tmp_path / "best.json").read_text())
    assert summary["best"] == outcome.result.best and summary["validation"]["games"] == 2
    assert (tmp_path / "fitness.png").exists() and (tmp_path / "history.csv").exists()


def test_search_spaces_of_the_script(tmp_path) -> None:
    space = search_space("rhea+ef", "rhea:value=ef:ef_mapping=id:sequence_length=2")
    assert "sequence_length" not in space and "shift_buffer" in space
    assert [name for name in space if name.startswith("ef_w")] == [f"ef_w{i}" for i in range(18)]
    assert len(search_space("ef", "rhea:value=ef:ef_degree=2")) == 15
    path = tmp_path / "space.json"
    path.write_text(json.dumps({"budget": [100, 200], "sequence_length": [1, 2]}))
    assert search_space(str(path), "rhea:budget=50") == {"sequence_length": [1, 2]}
    with pytest.raises(ValueError, match="give the agent value=ef"):
        search_space("ef", "rhea")
    with pytest.raises(ValueError, match="space must be one of"):
        search_space("nope", "rhea")
    with pytest.raises(ValueError, match="evaluations must be >= 1"):
        main(Args(out="", settings=TuneSettings(evaluations=0, progress=False)))


def test_splendor_paper_rows_table_and_plot(tmp_path) -> None:
    from scripts.splendor_paper import Args as PaperArgs
    from scripts.splendor_paper import Row, check_args, markdown, plot

    rows = [Row("a: BMRH* vs OSLA", "2p", "rhea:preset=bmrh_r1", "osla", (1.0, 0.5, 0.0, 1.0))]
    values = rows[0].values()
    assert values[4:7] == [4, 2.5, 0.625] and values[7] < 0.625 < values[8]
    assert "| a: BMRH* vs OSLA | 2p | 4 | 0.625 |" in markdown(rows)
    plot(rows, tmp_path / "p.png")
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="tune_evaluations must be >= 1"):
        check_args(PaperArgs(tune_evaluations=0))
    with pytest.raises(ValueError, match="osla_games must be >= 0"):
        check_args(PaperArgs(osla_games=-1))
