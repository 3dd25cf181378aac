"""Every speed row of one game, measured in turns (:func:`bench_game`), and their table (:func:`report`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baselines.speed.engines import (
    fast_playout_games,
    forward_model,
    forward_model_observed,
    openspiel_quoridor,
    rgb_frames,
    svg_pictures,
)
from baselines.speed.envs import aec_env, gymnasium_env, vector_env
from baselines.speed.timing import Measurement, median_measurement
from boardenvs.registry import make_game


def bench_game(name: str, config: dict[str, Any], seconds: float, seed: int, rounds: int = 1) -> list[Measurement]:
    """All measurements of one game; with ``rounds`` > 1 every row is measured that many times, the rows taking
    turns (so a change in the machine's load hits every row alike), and each row's median is kept."""
    game = make_game(name, **config)
    rows: list[Callable[[], Measurement | None]] = [
        lambda: forward_model(game, seconds, seed),
        lambda: forward_model(game, seconds, seed, masked=True),
        lambda: forward_model_observed(game, seconds, seed),
        lambda: aec_env(name, config, seconds, seed, wrapped=False),
        lambda: aec_env(name, config, seconds, seed, wrapped=True),
        lambda: gymnasium_env(name, config, seconds, seed),
        lambda: vector_env(name, config, seconds, seed),
        lambda: svg_pictures(game, seconds, seed),
        lambda: rgb_frames(game, seconds, seed),
        lambda: fast_playout_games(name, game, seconds, seed),
    ]
    if name == "quoridor":
        rows.append(lambda: openspiel_quoridor(config, seconds, seed))
    runs: list[list[Measurement]] = [[] for _ in rows]
    for _ in range(rounds):
        for row, measure in zip(runs, rows, strict=True):
            measurement = measure()
            if measurement is not None:
                row.append(measurement)
    return [median_measurement(row) for row in runs if row]


def report(results: list[Measurement]) -> str:
    """An aligned table: time per transition relative to the first row (the forward model) and, for the
    environment rows, to "forward model + observe" (what an environment cannot go below)."""
    base = results[0]
    observed = next((m for m in results if m.name.endswith("forward model + observe")), None)
    lines = [
        f"{'what':44s} {'transitions/s':>14s} {'us/transition':>14s} {'games/s':>9s} {'vs forward':>11s} "
        f"{'vs fwd+obs':>11s}"
    ]
    for m in results:
        ratio = m.microseconds / base.microseconds
        env_row = observed is not None and any(word in m.name for word in ("AEC", "gymnasium", "make_vec"))
        vs_observed = f"{m.microseconds / observed.microseconds:10.2f}x" if env_row else f"{'':>11s}"
        lines.append(
            f"{m.name:44s} {m.per_second:14,.0f} {m.microseconds:14.2f} {m.games_per_second:9,.1f} {ratio:10.2f}x "
            f"{vs_observed}"
        )
    openspiel = [m for m in results if m.name.startswith("OpenSpiel")]
    if openspiel:
        share = base.per_second / openspiel[0].per_second
        lines.append(f"forward model reaches 1/{1 / share:.1f} of OpenSpiel's transitions per second")
        playouts = [m for m in results if " random games, " in m.name]
        if playouts:
            share = playouts[0].per_second / openspiel[0].per_second
            lines.append(
                f"random games by the playout (its loop inside): {share:.2f}x OpenSpiel's transitions per second "
                "(a Python loop calling its C++ per ply)"
            )
    return "\n".join(lines)
