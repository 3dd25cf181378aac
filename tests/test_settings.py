"""Tests of ``baselines.settings``: script arguments turned into settings, and game configs from text."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from baselines.settings import parse_config, settings_from


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


def test_the_training_scripts_get_the_settings_their_flags_name() -> None:
    from baselines.learners.gravwell_q import GravwellQSettings
    from baselines.learners.tabular_q import TabularQSettings as QSettings
    from scripts import train_gravwell_q, train_tabular_q

    tabular = train_tabular_q.Args(learning_rate=0.3, epsilon_final="0.05", temperature=0.7)
    assert settings_from(tabular, QSettings) == QSettings(
        learning_rate=0.3, discount=tabular.discount, exploration=tabular.exploration, epsilon=tabular.epsilon,
        epsilon_final=0.05, temperature=0.7, initial_value=tabular.initial_value,
    )  # fmt: skip
    gravwell = train_gravwell_q.Args(representation=864, reward_timing="round", use_stop=False)
    expected = GravwellQSettings(864, 1.0, 0.7, 0.2, 10.0, "round", False)
    assert settings_from(gravwell, GravwellQSettings) == expected


def test_the_alphazero_script_maps_its_flags_like_the_hand_written_mapping() -> None:
    pytest.importorskip("torch")
    from baselines.learners.alphazero import AlphaZeroSettings, NetworkConfig, SelfPlaySettings
    from scripts import train_alphazero

    args = train_alphazero.Args(
        games=7, simulations=9, fast_simulations=3, channels=16, batch_size=32, workers=2, seed=5
    )
    settings = settings_from(
        args, AlphaZeroSettings, renames=train_alphazero.RENAMES, defaults=train_alphazero.UNEXPOSED
    )
    selfplay = SelfPlaySettings(
        "gumbel", 9, exploration=args.exploration, temperature_plies=args.temperature_plies,
        gumbel_actions=args.gumbel_actions, full_search_fraction=args.full_search_fraction,
        fast_simulations=args.fast_simulations,
    )  # fmt: skip
    assert settings == AlphaZeroSettings(
        iterations=args.iterations, games_per_iteration=7, selfplay=selfplay,
        network=NetworkConfig(channels=16, blocks=args.blocks, hidden=args.hidden),
        buffer_iterations=args.buffer_iterations, epochs=args.epochs, batch_size=32, learning_rate=args.learning_rate,
        score_weight=args.score_weight, arena_games=args.arena_games, accept_threshold=args.accept_threshold,
        eval_games=args.eval_games, eval_every=args.eval_every, eval_opponents=tuple(args.eval_opponents),
        sparring=args.sparring, sparring_fraction=args.sparring_fraction, warm_start=args.warm_start,
        warm_start_games=args.warm_start_games, device=args.device, workers=2, seed=5,
    )  # fmt: skip
    assert settings.selfplay.batch_size == SelfPlaySettings().batch_size  # not the trainer's batch_size


def test_every_field_of_the_sb3_script_is_a_run_setting() -> None:
    pytest.importorskip("sb3_contrib")
    from baselines.learners.sb3.runs import SB3Settings
    from scripts.train_sb3 import Args as SB3Args

    assert [f.name for f in dataclasses.fields(SB3Args)] == [f.name for f in dataclasses.fields(SB3Settings)]
    assert dataclasses.asdict(settings_from(SB3Args(), SB3Settings)) == dataclasses.asdict(SB3Args())


def test_game_configs_are_read_as_python_literals() -> None:
    assert parse_config(["board_size=5", "preset=small", "teams=True", "name='x'"]) == {
        "board_size": 5, "preset": "small", "teams": True, "name": "x",
    }  # fmt: skip
    with pytest.raises(ValueError, match="key=value"):
        parse_config(["board_size"])
