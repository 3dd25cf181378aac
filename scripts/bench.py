"""Speed benchmarks: random-play transitions per second of the forward model and of the AEC env.

Every engine is driven by the same loop: read the legal actions, pick one uniformly with a pre-drawn
random number, apply it, start a new game when one ends. When ``open_spiel`` is installed, its C++
Quoridor is measured in the same run and the ratios are printed.

    python -m scripts.bench                     # every registered game, default config
    python -m scripts.bench --games quoridor --seconds 5
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import boardenvs
from boardenvs.registry import make_game
from scripts._args import parse_args, parse_config


@dataclass
class Args:
    """Command-line arguments of the benchmark."""

    games: list[str] = field(default_factory=list)
    """Games to measure (default: every registered game)."""
    seconds: float = 3.0
    """Wall-clock budget of each measurement."""
    seed: int = 0
    """Seed of the random play."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, applied to every game (e.g. board_size=5)."""
    json_out: str = ""
    """Optional path of a JSON file with the results."""


@dataclass
class Measurement:
    """One timed run."""

    name: str
    transitions: int
    games: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.transitions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def microseconds(self) -> float:
        return 1e6 * self.seconds / max(1, self.transitions)


class _Uniforms:
    """Pre-drawn uniform numbers, so every engine pays the same small price for its random choice."""

    def __init__(self, seed: int, size: int = 1 << 16) -> None:
        self.values = np.random.default_rng(seed).random(size).tolist()
        self.index = 0

    def pick(self, options: Any) -> Any:
        self.index = (self.index + 1) & 0xFFFF
        return options[int(self.values[self.index] * len(options))]


def _timed(name: str, seconds: float, play_one_game: Callable[[], int]) -> Measurement:
    transitions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        transitions += play_one_game()
        games += 1
    return Measurement(name, transitions, games, time.perf_counter() - start)


def forward_model(game: boardenvs.Game, seconds: float, seed: int) -> Measurement:
    """``legal_action_mask`` + ``apply`` in a random playout loop."""
    uniforms = _Uniforms(seed)
    rng = np.random.default_rng(seed)

    def play() -> int:
        state, plies = game.initial_state(rng), 0
        while not game.is_terminal(state):
            state = game.apply(state, int(uniforms.pick(np.flatnonzero(game.legal_action_mask(state)))))
            plies += 1
        return plies

    return _timed(f"{game.spec.name} forward model", seconds, play)


def aec_env(name: str, config: dict[str, Any], seconds: float, seed: int, wrapped: bool) -> Measurement:
    """The PettingZoo AEC loop (``last`` + ``step``), with or without the standard wrappers."""
    from boardenvs.aec import env as wrapped_env
    from boardenvs.aec import raw_env

    env = wrapped_env(name, **config) if wrapped else raw_env(name, **config)
    uniforms = _Uniforms(seed)
    episode = [seed]

    def play() -> int:
        env.reset(seed=episode[0])
        episode[0] += 1
        plies = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else int(uniforms.pick(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            plies += action is not None
        return plies

    label = "AEC env()" if wrapped else "AEC raw_env"
    return _timed(f"{name} {label}", seconds, play)


def openspiel_quoridor(config: dict[str, Any], seconds: float, seed: int) -> Measurement | None:
    """OpenSpiel's C++ Quoridor driven from Python with the same loop, if ``open_spiel`` is installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    params = {"board_size": config.get("board_size", 9), "players": config.get("num_players", 2)}
    if params["players"] != 2:
        return None  # OpenSpiel's 4-player Quoridor aborts on some positions
    os_game = pyspiel.load_game("quoridor", params)
    uniforms = _Uniforms(seed)

    def play() -> int:
        state, plies = os_game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(uniforms.pick(state.legal_actions()))
            plies += 1
        return plies

    return _timed("OpenSpiel quoridor (C++)", seconds, play)


def bench_game(name: str, config: dict[str, Any], seconds: float, seed: int) -> list[Measurement]:
    """All measurements of one game."""
    game = make_game(name, **config)
    results = [forward_model(game, seconds, seed)]
    results.append(aec_env(name, config, seconds, seed, wrapped=False))
    results.append(aec_env(name, config, seconds, seed, wrapped=True))
    if name == "quoridor":
        reference = openspiel_quoridor(config, seconds, seed)
        if reference is not None:
            results.append(reference)
    return results


def report(results: list[Measurement]) -> str:
    """An aligned table; ratios are relative to the first row (our forward model)."""
    base = results[0]
    lines = [f"{'what':40s} {'transitions/s':>14s} {'us/transition':>14s} {'games/s':>9s} {'vs forward':>11s}"]
    for m in results:
        ratio = m.microseconds / base.microseconds
        lines.append(
            f"{m.name:40s} {m.per_second:14,.0f} {m.microseconds:14.2f} {m.games_per_second:9,.1f} {ratio:10.2f}x"
        )
    openspiel = [m for m in results if m.name.startswith("OpenSpiel")]
    if openspiel:
        share = base.per_second / openspiel[0].per_second
        lines.append(f"forward model reaches 1/{1 / share:.1f} of OpenSpiel's transitions per second")
    return "\n".join(lines)


def main(args: Args) -> dict[str, list[Measurement]]:
    """Run the benchmarks and print one table per game."""
    config = parse_config(args.config)
    names = args.games or boardenvs.list_games()
    all_results: dict[str, list[Measurement]] = {}
    for name in names:
        results = bench_game(name, config, args.seconds, args.seed)
        all_results[name] = results
        print(f"\n== {name} {config or ''}")
        print(report(results))
    if args.json_out:
        data = {
            n: [dataclasses.asdict(m) | {"per_second": m.per_second, "games_per_second": m.games_per_second} for m in r]
            for n, r in all_results.items()
        }
        with open(args.json_out, "w") as handle:
            json.dump(data, handle, indent=2)
    return all_results


def cli(argv: list[str] | None = None) -> None:
    main(parse_args(Args, argv, description=__doc__))


if __name__ == "__main__":
    cli()
