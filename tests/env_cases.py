"""The (game, config) cases that every generic adapter test runs over: every registered game, so new games
are covered automatically, with a few extra configs per game."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pytest

from boardenvs.aec import BoardGameAEC, env
from boardenvs.registry import list_games, list_presets
from tests.toy_games import ensure_toy_games_registered

ensure_toy_games_registered()


EXTRA_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "quoridor": [{"board_size": 5}, {"num_players": 4, "board_size": 5}],
    "toy_countdown": [{"num_players": 3}, {"num_players": 4, "start": 30, "cap": 12}],
}
"""Configs tested besides the default one; a game not listed here is tested with its presets."""


class Case(NamedTuple):
    name: str
    config: dict[str, Any]

    def make_raw(self, **kwargs: Any) -> BoardGameAEC:
        return BoardGameAEC(self.name, **self.config, **kwargs)

    def make_env(self, **kwargs: Any) -> Any:
        return env(self.name, **self.config, **kwargs)


def game_cases() -> list[Any]:
    """``pytest.param(Case)`` for every registered game and config."""
    cases = []
    for name in list_games():
        configs = EXTRA_CONFIGS.get(name, [{"preset": p} for p in list_presets(name)])
        for config in [{}, *configs]:
            label = ",".join(f"{k}={v}" for k, v in config.items()) or "default"
            cases.append(pytest.param(Case(name, config), id=f"{name}[{label}]"))
    return cases


CASES = game_cases()


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def aec_books(aec: Any) -> tuple[Any, ...]:
    """Everything a rejected call must leave unchanged in an AEC env (raw or wrapped)."""
    raw = aec.unwrapped
    return (
        raw.game_state.key(),
        raw.agent_selection,
        list(raw.agents),
        dict(raw.rewards),
        dict(raw._cumulative_rewards),
        dict(raw.terminations),
        dict(raw.truncations),
    )
