"""Speed benchmarks: random-play transitions per second of the forward model and of the AEC env.

Every engine is driven by the same loop: read the legal actions (``game.legal_actions``, as the reference
engines' speeds were measured; the "mask" row reads ``legal_action_mask`` instead), pick one uniformly
with a pre-drawn random number, apply it, start a new game when one ends. When ``open_spiel`` is installed,
its C++ Quoridor is measured in the same run and the ratios are printed.

    python -m scripts.bench                     # every registered game, default config
    python -m scripts.bench --games quoridor --seconds 5
    python -m scripts.bench --mcts             # MCTS simulations/s on Quoridor 9x9 vs OpenSpiel's MCTSBot

``--mcts`` times one search from the initial Quoridor position with random rollouts (a fixed number of
simulations, the same UCT constant) for our ``MCTSAgent`` (its fast Quoridor playouts, and the generic
``legal_actions`` + ``apply`` playouts) and for OpenSpiel's Python ``MCTSBot`` with
``RandomRolloutEvaluator(n_rollouts=1)`` on its C++ Quoridor, interleaved, and prints the median rates and
their ratio. With ``--mcts`` the forward-model tables run only for the games named by ``--games``.
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
from baselines.settings import parse_config
from boardenvs.registry import make_game
from scripts._args import parse_args


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
    mcts: bool = False
    """Measure MCTS simulations per second on Quoridor against OpenSpiel's MCTSBot (see above)."""
    mcts_simulations: int = 1000
    """Simulations per timed MCTS search."""
    mcts_repeats: int = 3
    """Timed searches per MCTS implementation (the median rate is reported)."""
    mcts_uct_c: float = 1.4
    """UCT exploration constant of both MCTS implementations."""


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
    """Games played for ``seconds`` after an untimed warm-up of a fifth of that (at most 1 s: caches, tables)."""
    start = time.perf_counter()
    while time.perf_counter() - start < min(1.0, seconds / 5):
        play_one_game()
    transitions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        transitions += play_one_game()
        games += 1
    return Measurement(name, transitions, games, time.perf_counter() - start)


def forward_model(game: boardenvs.Game, seconds: float, seed: int, masked: bool = False) -> Measurement:
    """``legal_actions`` + choice + ``apply`` in a random playout loop, as the reference engines are timed
    (``Game.legal_actions`` lists the true entries of the mask unless the game has a faster way); ``masked``
    reads ``legal_action_mask`` instead (what the environments hand to learners) and lists it with ``nonzero``."""
    uniforms = _Uniforms(seed)
    rng = np.random.default_rng(seed)
    legal = (lambda state: game.legal_action_mask(state).nonzero()[0]) if masked else game.legal_actions

    def play() -> int:
        state, plies = game.initial_state(rng), 0
        while not game.is_terminal(state):
            state = game.apply(state, int(uniforms.pick(legal(state))))
            plies += 1
        return plies

    return _timed(f"{game.spec.name} forward model{', mask' if masked else ''}", seconds, play)


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
            action = None if terminated or truncated else int(uniforms.pick(obs["action_mask"].nonzero()[0]))
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


def openspiel_mcts_search(config: dict[str, Any], simulations: int, uct_c: float, seed: int) -> float | None:
    """Seconds of one OpenSpiel ``MCTSBot`` search (``RandomRolloutEvaluator(n_rollouts=1)``), if installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    params = {"board_size": config.get("board_size", 9), "players": config.get("num_players", 2)}
    if params["players"] != 2:
        return None
    game = pyspiel.load_game("quoridor", params)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.mcts_search(state)
    return time.perf_counter() - start


def bench_mcts(config: dict[str, Any], simulations: int, repeats: int, uct_c: float, seed: int) -> list[SearchSpeed]:
    """Interleaved timed searches: ours (fast playouts), ours (generic playouts), OpenSpiel (if installed)."""
    from tqdm import tqdm

    ours = SearchSpeed("MCTSAgent (fast Quoridor playouts)", simulations)
    generic = SearchSpeed("MCTSAgent (generic legal_actions+apply)", simulations)
    openspiel = SearchSpeed("OpenSpiel MCTSBot (Python, C++ game)", simulations)
    for repeat in tqdm(range(repeats), desc="MCTS searches", unit="round"):
        ours.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=True))
        generic.seconds.append(our_mcts_search(config, simulations, uct_c, seed + repeat, fast=False))
        elapsed = openspiel_mcts_search(config, simulations, uct_c, seed + repeat)
        if elapsed is not None:
            openspiel.seconds.append(elapsed)
    return [ours, generic] + ([openspiel] if openspiel.seconds else [])


def report_mcts(results: list[SearchSpeed]) -> str:
    """One line per implementation with its ratio to OpenSpiel's rate (when measured)."""
    reference = next((r for r in results if r.name.startswith("OpenSpiel")), None)
    lines = [f"{'MCTS, random rollouts':42s} {'simulations/s':>14s} {'vs OpenSpiel':>13s}"]
    for r in results:
        ratio = f"{r.per_second / reference.per_second:12.2f}x" if reference else f"{'n/a':>13s}"
        lines.append(f"{r.name:42s} {r.per_second:14,.0f} {ratio}")
    if reference is None:
        lines.append("open_spiel is not installed (or the config is not 2-player): no reference measured")
    return "\n".join(lines)


def bench_game(name: str, config: dict[str, Any], seconds: float, seed: int) -> list[Measurement]:
    """All measurements of one game."""
    game = make_game(name, **config)
    results = [forward_model(game, seconds, seed), forward_model(game, seconds, seed, masked=True)]
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


def main(args: Args) -> dict[str, list[Any]]:
    """Run the benchmarks and print one table per game (and the MCTS table with ``--mcts``)."""
    config = parse_config(args.config)
    names = args.games or ([] if args.mcts else boardenvs.list_games())
    all_results: dict[str, list[Any]] = {}
    for name in names:
        results = bench_game(name, config, args.seconds, args.seed)
        all_results[name] = results
        print(f"\n== {name} {config or ''}")
        print(report(results))
    if args.mcts:
        if args.mcts_simulations < 1 or args.mcts_repeats < 1:
            raise ValueError("--mcts-simulations and --mcts-repeats must be >= 1")
        speeds = bench_mcts(config, args.mcts_simulations, args.mcts_repeats, args.mcts_uct_c, args.seed)
        all_results["mcts"] = speeds
        print(f"\n== MCTS on quoridor {config or ''} from the initial position, {args.mcts_simulations} simulations")
        print(report_mcts(speeds))
    if args.json_out:
        data = {n: [_as_json(m) for m in r] for n, r in all_results.items()}
        with open(args.json_out, "w") as handle:
            json.dump(data, handle, indent=2)
    return all_results


def _as_json(measurement: Measurement | SearchSpeed) -> dict[str, Any]:
    extra = {"per_second": measurement.per_second}
    if isinstance(measurement, Measurement):
        extra["games_per_second"] = measurement.games_per_second
    return dataclasses.asdict(measurement) | extra


def cli(argv: list[str] | None = None) -> None:
    main(parse_args(Args, argv, description=__doc__))


if __name__ == "__main__":
    cli()
