"""The registry's opponent hook: what an agent package may register, how the envs find it, clear errors."""

from __future__ import annotations

import pytest

from boardenvs import registry
from boardenvs.registry import list_opponents, make_opponent_agent, register_opponent
from tests.toy_games import FirstLegalAgent


def test_random_is_the_environments_own_and_heuristic_only_names_the_default() -> None:
    with pytest.raises(ValueError, match="not 'random'.*got 'random'"):
        register_opponent("toy_countdown", "random", FirstLegalAgent)
    with pytest.raises(ValueError, match="'heuristic' only as the default; got 'heuristic'"):
        register_opponent("toy_countdown", "heuristic", FirstLegalAgent)
    with pytest.raises(ValueError, match="non-empty"):
        register_opponent("toy_countdown", "", FirstLegalAgent)
    with pytest.raises(TypeError, match="factory must be callable"):
        register_opponent("toy_countdown", "first", 42)  # type: ignore[arg-type]


def test_the_default_opponent_is_listed_first_as_heuristic() -> None:
    assert list_opponents("toy_tictactoe") == ["heuristic", "first_legal"]
    assert isinstance(make_opponent_agent("toy_tictactoe", "heuristic"), FirstLegalAgent)
    assert list_opponents("quoridor") == ["heuristic", "path"]  # the package's default is itself named heuristic


def test_every_lookup_builds_a_fresh_agent() -> None:
    assert make_opponent_agent("toy_tictactoe", "first_legal") is not make_opponent_agent(
        "toy_tictactoe", "first_legal"
    )


class BrokenEntryPoint:
    value = "broken_package.agents:register"

    def load(self):
        raise ImportError("No module named 'broken_package'")


def test_a_failing_opponent_plugin_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_PLUGINS_LOADED", [False])
    monkeypatch.setattr(registry.metadata, "entry_points", lambda group: [BrokenEntryPoint()])
    with pytest.raises(RuntimeError, match="opponent plugin 'broken_package.agents:register'.*No module"):
        make_opponent_agent("toy_tictactoe", "heuristic")
