"""Tests of ``baselines.settings``: script arguments turned into settings, and game configs from text."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from baselines.inputs import parse_config
from baselines.settings import settings_from


@dataclass
class Inner:
    width: int = 64
    depth: int = 2


@dataclass
class Outer:
    rate: float = 0.1
    rounds: int = 10
    inner: Inner = field(default_factory=Inner)
    decay: float = 0.0


@dataclass
class Args:
    rate: float = 0.5
    games: int = 3
    width: int = 8
    depth: int = 4
    out: str = "runs"


def test_same_named_fields_renames_nested_settings_and_kept_defaults() -> None:
    settings = settings_from(Args(), Outer, renames={"rounds": "games"}, defaults=["decay"])
    assert settings == Outer(rate=0.5, rounds=3, inner=Inner(width=8, depth=4), decay=0.0)
    kept = settings_from(Args(), Outer, renames={"rounds": "games"}, defaults=["decay", "inner.depth"])
    assert kept.inner == Inner(width=8, depth=2)


def test_a_setting_the_arguments_lack_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match=r"Args has no field 'rounds' for the setting Outer.rounds"):
        settings_from(Args(), Outer, defaults=["decay"])
    with pytest.raises(ValueError, match=r"Args has no field 'decay' .*defaults=\['decay'\]"):
        settings_from(Args(), Outer, renames={"rounds": "games"})


def test_renames_and_defaults_must_name_real_settings() -> None:
    with pytest.raises(ValueError, match=r"does not have: \['inner.size', 'speed'\]"):
        settings_from(Args(), Outer, renames={"speed": "rate"}, defaults=["inner.size"])


def test_the_settings_check_their_values_as_usual() -> None:
    from baselines.learners.tabular_q import TabularQSettings as QSettings

    @dataclass
    class QArgs:
        learning_rate: float = 2.0
        discount: float = 0.9
        exploration: str = "epsilon"
        epsilon: float = 0.1
        epsilon_final: str = "none"
        temperature: float = 0.1
        initial_value: float = 0.0

    with pytest.raises(ValueError, match="learning_rate"):
        settings_from(QArgs(), QSettings)


def test_the_q_learning_scripts_parse_the_learning_settings_directly() -> None:
    from baselines.learners.gravwell_q import GravwellQSettings
    from baselines.learners.tabular_q import TabularQSettings as QSettings
    from scripts import train_gravwell_q, train_tabular_q
    from scripts._args import parse_args

    flags = ["--learning-rate", "0.3", "--epsilon-final", "0.05", "--temperature", "0.7", "--resume"]
    tabular = parse_args(train_tabular_q.Args, flags)
    assert tabular.settings == QSettings(learning_rate=0.3, epsilon_final=0.05, temperature=0.7) and tabular.resume
    assert parse_args(train_tabular_q.Args, ["--epsilon-final", "none"]).settings.epsilon_final is None
    assert parse_args(train_tabular_q.Args, []).settings == QSettings()
    gravwell = parse_args(
        train_gravwell_q.Args, ["--representation", "864", "--reward-timing", "round", "--no-use-stop"]
    )
    assert gravwell.settings == GravwellQSettings(864, 1.0, 0.7, 0.2, 10.0, "round", False)
    assert parse_args(train_gravwell_q.Args, []).settings == GravwellQSettings()


def test_the_qlnn_script_takes_comma_separated_hidden_widths() -> None:
    pytest.importorskip("torch")
    from baselines.learners.qlnn import QLNNSettings
    from scripts import train_qlnn
    from scripts._args import parse_args

    flags = ["--hidden", "128,128", "--activation", "relu", "--replay", "20000", "--epsilon-decay", "0.6"]
    expected = QLNNSettings(hidden=(128, 128), activation="relu", replay=20000, epsilon_decay=0.6)
    assert parse_args(train_qlnn.Args, train_qlnn.split_lists(flags)).settings == expected
    for hidden in (["--hidden=128,128"], ["--hidden", "128", "128"], ["--hidden", "128, 128,"]):
        assert parse_args(train_qlnn.Args, train_qlnn.split_lists(hidden)).settings.hidden == (128, 128)
    assert train_qlnn.split_lists(["--hidden="]) == ["--hidden", ""]
    assert parse_args(train_qlnn.Args, []).settings == QLNNSettings()


def test_the_evolution_script_parses_the_evolution_settings_directly() -> None:
    from baselines.learners.neuroevolution import EvolutionSettings
    from scripts import evolve_gravwell
    from scripts._args import parse_args

    args = parse_args(
        evolve_gravwell.Args, ["--generations", "5", "--num-players", "2", "--inert-tractors", "--resume"]
    )
    assert args.settings == EvolutionSettings(generations=5, num_players=2, inert_tractors=True) and args.resume
    assert parse_args(evolve_gravwell.Args, []).settings == EvolutionSettings()


def test_the_alphazero_script_parses_the_trainers_settings_directly() -> None:
    pytest.importorskip("torch")
    from baselines.learners.alphazero import AlphaZeroSettings, NetworkConfig, SelfPlaySettings
    from scripts import train_alphazero
    from scripts._args import parse_args

    flags = "--games 7 --simulations 9 --fast-simulations 3 --channels 16 --batch-size 32 --workers 2 --seed 5"
    args = parse_args(train_alphazero.Args, [*flags.split(), "--selfplay-batch-size", "4", "--minutes", "0"])
    assert args.settings == AlphaZeroSettings(
        games_per_iteration=7, selfplay=SelfPlaySettings(simulations=9, fast_simulations=3, batch_size=4),
        network=NetworkConfig(channels=16), batch_size=32, workers=2, seed=5,
    )  # fmt: skip
    assert args.settings.time_budget_minutes is None and args.settings.eval_simulations is None
    budget = parse_args(train_alphazero.Args, ["--minutes", "2.5", "--eval-simulations", "6"]).settings
    assert (budget.time_budget_minutes, budget.eval_simulations) == (2.5, 6)
    assert parse_args(train_alphazero.Args, []).settings == AlphaZeroSettings()


def test_the_sb3_script_parses_the_run_settings_themselves() -> None:
    pytest.importorskip("sb3_contrib")
    from baselines.learners.sb3.runs import SB3Settings
    from scripts import train_sb3
    from scripts._args import parse_args

    assert train_sb3.Args is SB3Settings
    assert parse_args(SB3Settings, ["--n-envs", "2", "--ent-coef", "0"]) == SB3Settings(n_envs=2, ent_coef=0.0)


def test_game_configs_are_read_as_python_literals() -> None:
    assert parse_config(["board_size=5", "preset=small", "teams=True", "name='x'"]) == {
        "board_size": 5, "preset": "small", "teams": True, "name": "x",
    }  # fmt: skip
    with pytest.raises(ValueError, match="key=value"):
        parse_config(["board_size"])
