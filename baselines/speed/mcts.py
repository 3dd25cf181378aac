"""MCTS simulations per second: our ``MCTSAgent`` (fast and generic playouts) against OpenSpiel's ``MCTSBot``
on Quoridor, one search from the initial position each, interleaved."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardenvs.registry import make_game


@dataclass
class SearchSpeed:
    """Timed MCTS searches of one implementation."""

    name: str
    simulations: int
    seconds: list[float] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """Simulations per second of the median search."""
        return self.simulations / float(np.median(self.seconds))


def our_mcts_search(config: dict[str, Any], simulations: int, uct_c: float, seed: int, fast: bool) -> float:
    """Seconds of one ``MCTSAgent`` search (random rollouts) from the initial Quoridor position."""
    from baselines.search.evaluators import RolloutEvaluator
    from baselines.search.mcts import MCTSAgent

    game = make_game("quoridor", **config)
    agent = MCTSAgent(seed, simulations=simulations, exploration=uct_c, evaluator=RolloutEvaluator(fast=fast))
    state = game.initial_state(np.random.default_rng(seed))
    start = time.perf_counter()
    agent.act(game, state, state.current_player)
    elapsed = time.perf_counter() - start
    if agent.last_search.simulations != simulations:
        raise RuntimeError(f"MCTSAgent ran {agent.last_search.simulations} simulations, expected {simulations}")
    return elapsed


def openspiel_quoridor(config: dict[str, Any]) -> Any:
    """OpenSpiel's Quoridor for ``config`` (2 players only: its MCTS aborts on 4), or ``None`` where OpenSpiel is
    not installed or the config has 4 players."""
    try:
        import pyspiel
    except ImportError:
        return None
    params = {"board_size": config.get("board_size", 9), "players": config.get("num_players", 2)}
    return pyspiel.load_game("quoridor", params) if params["players"] == 2 else None


def openspiel_mcts_search(config: dict[str, Any], simulations: int, uct_c: float, seed: int) -> float | None:
    """Seconds of one OpenSpiel ``MCTSBot`` search (``RandomRolloutEvaluator(n_rollouts=1)``), if installed."""
    game = openspiel_quoridor(config)
    if game is None:
        return None
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.mcts_search(state)
    return time.perf_counter() - start


def openspiel_cpp_mcts_search(config: dict[str, Any], simulations: int, uct_c: float, seed: int) -> float | None:
    """Seconds of one search of OpenSpiel's C++ ``pyspiel.MCTSBot`` (C++ random rollouts, one per leaf), if
    installed: the compiled peer of issue 35."""
    game = openspiel_quoridor(config)
    if game is None:
        return None
    import pyspiel

    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, uct_c, simulations, 1000, False, seed, False)
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return time.perf_counter() - start


def bench_mcts(config: dict[str, Any], simulations: int, repeats: int, uct_c: float, seed: int) -> list[SearchSpeed]:
    """Interleaved timed searches: ours (fast playouts: compiled where Numba is installed; the Python one; the
    generic ``legal_actions`` + ``apply``), OpenSpiel's Python ``MCTSBot`` and its C++ ``MCTSBot`` (if installed)."""
    from tqdm import tqdm

    from baselines.search.compiled import python_only

    ours = SearchSpeed("MCTSAgent (fast Quoridor playouts)", simulations)
    python = SearchSpeed("MCTSAgent (Python Quoridor playouts)", simulations)
    generic = SearchSpeed("MCTSAgent (generic legal_actions+apply)", simulations)
    openspiel = SearchSpeed("OpenSpiel MCTSBot (Python, C++ game)", simulations)
    compiled = SearchSpeed("OpenSpiel C++ MCTSBot", simulations)
    for repeat in tqdm(range(repeats), desc="MCTS searches", unit="round"):
        ours.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=True))
        with python_only():
            python.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=True))
        generic.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=False))
        elapsed = openspiel_mcts_search(config, simulations, uct_c, seed + repeat)
        if elapsed is not None:
            openspiel.seconds.append(elapsed)
        elapsed = openspiel_cpp_mcts_search(config, simulations, uct_c, seed + repeat)
        if elapsed is not None:
            compiled.seconds.append(elapsed)
    return [ours, python, generic] + [peer for peer in (openspiel, compiled) if peer.seconds]


def report_mcts(results: list[SearchSpeed]) -> str:
    """One line per implementation with its ratios to OpenSpiel's Python and C++ ``MCTSBot`` (when measured)."""
    reference = next((r for r in results if r.name.startswith("OpenSpiel MCTSBot")), None)
    compiled = next((r for r in results if r.name.startswith("OpenSpiel C++")), None)
    lines = [f"{'MCTS, random rollouts':42s} {'simulations/s':>14s} {'vs OpenSpiel':>13s} {'vs C++':>9s}"]
    for r in results:
        ratio = f"{r.per_second / reference.per_second:12.2f}x" if reference else f"{'n/a':>13s}"
        ratio_cpp = f"{r.per_second / compiled.per_second:8.2f}x" if compiled else f"{'n/a':>9s}"
        lines.append(f"{r.name:42s} {r.per_second:14,.0f} {ratio} {ratio_cpp}")
    if reference is None:
        lines.append("open_spiel is not installed (or the config is not 2-player): no reference measured")
    return "\n".join(lines)
