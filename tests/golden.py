"""Golden playthroughs shared by every game: write seeded games as JSON lines, replay them and diff every ply.

A golden file is one seeded game. The first line is a header (game, version, config, seed); every further
line is one ply: ``before`` (``to_text``), the ``action`` id, its ``move`` string, the sorted ``legal`` move
strings, any game-specific fields (``extra``), ``after`` (``to_text``) and the ``returns`` after the move.
Regenerating the files is a reviewed change that bumps the game's version.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.core import Game

Chooser = Callable[[Game, Any, np.random.Generator], int]
Extra = Callable[[Any], dict[str, Any]]
"""Game-specific fields recorded from the state after each move (e.g. Splendor's event types)."""


def random_move(game: Game, state: Any, rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    legal = game.legal_actions(state)
    return int(legal[rng.integers(len(legal))])


def _legal_names(game: Game, state: Any) -> list[str]:
    return sorted(game.action_to_str(state, int(a)) for a in game.legal_actions(state))


def playthrough(game: Game, seed: int, choose: Chooser = random_move, extra: Extra | None = None) -> list[dict]:
    """The ply records of one seeded game."""
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    records = []
    while not game.is_terminal(state):
        action = choose(game, state, rng)
        after = game.apply(state, action)
        record = {"before": game.to_text(state), "action": action, "move": game.action_to_str(state, action)}
        record["legal"] = _legal_names(game, state)
        record.update(extra(after) if extra else {})
        record.update({"after": game.to_text(after), "returns": game.returns(after).tolist()})
        records.append(record)
        state = after
    return records


def write_golden(
    directory: Path,
    games: dict[str, tuple[dict[str, Any], tuple[int, ...]]],
    make: Callable[..., Game],
    choose: Chooser = random_move,
    extra: Extra | None = None,
) -> list[Path]:
    """Write ``<name>_seed<seed>.jsonl`` for every named config and seed; returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (config, seeds) in games.items():
        game = make(**config)
        for seed in seeds:
            header = {"game": game.spec.name, "version": game.spec.version, "config": config, "seed": seed}
            path = directory / f"{name}_seed{seed}.jsonl"
            lines = [header, *playthrough(game, seed, choose, extra)]
            path.write_text("".join(json.dumps(line) + "\n" for line in lines))
            paths.append(path)
    return paths


def replay_golden(path: Path, make: Callable[..., Game], extra: Extra | None = None) -> None:
    """Replay one golden file and assert that every ply matches it."""
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = make(**header["config"])
    assert header["version"] == game.spec.version, "golden files are from another rules version: regenerate, review"
    state = game.initial_state(np.random.default_rng(header["seed"]))
    for index, ply in enumerate(plies):
        where = f"{path.name} ply {index}"
        assert game.to_text(state) == ply["before"], where
        assert _legal_names(game, state) == ply["legal"], where
        assert game.action_to_str(state, ply["action"]) == ply["move"], where
        assert game.parse_action(state, ply["move"]) == ply["action"], where
        state = game.apply(state, ply["action"])
        for key, value in (extra(state) if extra else {}).items():
            assert value == ply[key], f"{where}: {key}"
        assert game.to_text(state) == ply["after"], where
        assert game.returns(state).tolist() == ply["returns"], where
    assert game.is_terminal(state)


def print_written(paths: list[Path]) -> None:
    """Report the files a ``make_golden`` module wrote."""
    for path in paths:
        print(f"{path}: {path.stat().st_size:,} bytes")
