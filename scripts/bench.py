"""Speed benchmarks: random-play transitions per second of the forward model and of the environments (measured
by :mod:`baselines.speed`; this script parses the options, prints the tables and writes the JSON).

Every engine is driven by the same loop: read the legal actions (``game.legal_actions``, as the reference
engines' speeds were measured; the "mask" row reads ``legal_action_mask`` instead), pick one uniformly
with a pre-drawn random number, apply it, start a new game when one ends. "forward model + observe" adds the
observation of the next player to move: the least any environment must do per step, so every environment row
(the AEC ``raw_env`` and ``env()``, ``gymnasium.make`` against random opponents, and ``gymnasium.make_vec`` with
two subprocess workers, which counts learner steps) is also given as a ratio to it. When ``open_spiel`` is installed,
its C++ Quoridor is measured in the same run and the ratios are printed.

    python -m scripts.bench                     # every registered game, default config
    python -m scripts.bench --games quoridor --seconds 5
    python -m scripts.bench --seconds 2 --rounds 5   # rows take turns 5 times, medians kept (a busy machine)
    python -m scripts.bench --mcts             # MCTS simulations/s on Quoridor 9x9 vs OpenSpiel's MCTSBot
    python -m scripts.bench --alphazero        # AlphaZero self-play: per-game search vs 1-256 games per forward pass
    python -m scripts.bench --arena            # the live arena: server time of a move and a random bot's reply
    python -m scripts.bench --replay-page      # HTML replays: size, build time, stepping time in headless Chromium

``--mcts`` times one search from the initial Quoridor position with random rollouts (a fixed number of
simulations, the same UCT constant) for our ``MCTSAgent`` (its fast Quoridor playouts, and the generic
``legal_actions`` + ``apply`` playouts) and for OpenSpiel's Python ``MCTSBot`` with
``RandomRolloutEvaluator(n_rollouts=1)`` on its C++ Quoridor, interleaved, and prints the median rates and
their ratio. With ``--mcts`` the forward-model tables run only for the games named by ``--games``.

The "SVG picture" row draws the spectator's picture (``Game.render_svg``) of every position of random games; its
``us/transition`` is the time to draw one picture. The "rgb_array frame" row rasterises that picture
(``Game.render_rgb``: what ``rgb_array`` rendering and videos cost per frame) for 30 positions of random games.
``--arena`` plays every game's default config in the live arena (``baselines.web``, in process through its ASGI
app: request parsing, the move, a ``random`` bot's reply in its worker process, the seat view and its JSON) as a
person against ``random``, and prints the median milliseconds of server time per move. ``--replay-page`` writes
the HTML replay of one random game per game (``--config`` applies; node conquest with a 300-ply cap) and reports its
size, the time to build it, to open it in headless Chromium and to show every position once (the player's own
``show``, timed inside the page).

``--alphazero`` times AlphaZero's self-play search on ``--alphazero-game`` (``--config`` applies): one fresh
``PolicyValueNet`` (seeded by ``--seed``); in each round the same ``max(--alphazero-games)`` games each search
``--alphazero-moves`` moves (``MCTSAgent`` with ``--alphazero-search``: gumbel, self-play's default, or puct;
``--alphazero-simulations`` per move, ``--alphazero-batch`` leaves per request), once one game after another
(today's per-game search) and once per entry of ``--alphazero-games`` in batched self-play (that many games' leaves
valued in one forward pass), in alternating rounds, with ``torch.set_num_threads(1)``. It prints the median
simulations per second of each, the leaves per forward pass, the share of the time spent valuing leaves and the
ratio to the per-game search. With
``--alphazero`` too the forward-model tables run only for the games named by ``--games``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import boardenvs
from baselines.inputs import parse_config
from baselines.speed import (
    ALPHAZERO_ROUNDS,
    as_json,
    bench_alphazero,
    bench_arena,
    bench_game,
    bench_mcts,
    bench_replay_pages,
    report,
    report_alphazero,
    report_arena,
    report_mcts,
    report_replay_pages,
)

from ._args import COUNT, OptionError, Range, about, check_game, run_cli


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
    rounds: int = 1
    """Measure every row this many times, the rows taking turns, and keep each row's median (for a busy machine)."""
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
    replay_page: bool = False
    """Measure the HTML replay pages in headless Chromium (needs Playwright and a Chromium)."""
    arena: bool = False
    """Measure the live arena's server time per move against a random bot (needs the web extra)."""
    alphazero: bool = False
    """Measure AlphaZero self-play search (a fresh network): batched vs one-leaf simulations/s (see above)."""
    alphazero_game: str = "node_conquest"
    """Game of the AlphaZero self-play benchmark (with the --config pairs)."""
    alphazero_search: str = "gumbel"
    """Root search of the AlphaZero self-play benchmark: gumbel or puct."""
    alphazero_simulations: int = 32
    """Simulations per move of the AlphaZero self-play benchmark."""
    alphazero_moves: int = 2
    """Moves each game searches per timed AlphaZero self-play round."""
    alphazero_batch: int = 8
    """Leaves one game's search collects per request (self-play's batch_size)."""
    alphazero_games: list[int] = field(default_factory=lambda: [1, 8, 64, 256])
    """Games per forward pass of the batched self-play rows (the per-game row plays the same games one by one)."""
    alphazero_device: str = "cpu"
    """Where the AlphaZero self-play benchmark's network runs: cpu, cuda (cuda:<index>) or auto."""

    LIMITS: ClassVar = {
        "seconds": Range(0.0, 86_400.0, open_low=True),
        **dict.fromkeys(("rounds", "mcts_repeats", "alphazero_batch"), Range(1, 10**4)),
        **dict.fromkeys(("mcts_simulations", "alphazero_simulations", "alphazero_moves"), COUNT),
        "mcts_uct_c": Range(0.0, 1e6),
    }  # fmt: skip


def check_alphazero_args(args: Args) -> None:
    """``ValueError`` naming the first ``--alphazero-*`` count below 1."""
    for flag in ("alphazero_simulations", "alphazero_moves", "alphazero_batch"):
        value = getattr(args, flag)
        if value < 1:
            raise ValueError(f"--{flag.replace('_', '-')} must be >= 1, got {value}")
    from baselines.learners.alphazero.batched import MAX_BATCH_GAMES

    if not args.alphazero_games or not all(1 <= games <= MAX_BATCH_GAMES for games in args.alphazero_games):
        raise ValueError(f"--alphazero-games must be counts in 1..{MAX_BATCH_GAMES}, got {args.alphazero_games}")


def main(args: Args) -> dict[str, list[Any]]:
    """Run the benchmarks and print one table per game (and the MCTS table with ``--mcts``, the AlphaZero
    self-play table with ``--alphazero``)."""
    config = parse_config(args.config)
    if args.alphazero:
        check_alphazero_args(args)
    if args.rounds < 1:
        raise ValueError(f"--rounds must be >= 1, got {args.rounds}")
    only_extra = args.mcts or args.alphazero or args.arena or args.replay_page
    names = args.games or ([] if only_extra else boardenvs.list_games())
    all_results: dict[str, list[Any]] = {}
    for name in names:
        results = bench_game(name, config, args.seconds, args.seed, args.rounds)
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
    if args.alphazero:
        all_results["alphazero"] = run_alphazero(args, config)
    if args.arena:
        latencies = bench_arena(args.games or boardenvs.list_games(), config, args.seconds, args.seed)
        all_results["arena"] = latencies
        print("\n== live arena: server time of a person's move and a random bot's reply (ms)")
        print(report_arena(latencies))
    if args.replay_page:
        pages = bench_replay_pages(args.games or boardenvs.list_games(), config, args.seed)
        all_results["replay_page"] = pages
        print("\n== HTML replay pages in headless Chromium")
        print(report_replay_pages(pages))
    if args.json_out:
        data = {n: [as_json(m) for m in r] for n, r in all_results.items()}
        with open(args.json_out, "w") as handle:
            json.dump(data, handle, indent=2)
    return all_results


def run_alphazero(args: Args, config: dict[str, Any]) -> list[Any]:
    """The AlphaZero self-play rows, printed as a table."""
    selfplay = bench_alphazero(
        args.alphazero_game, config, search=args.alphazero_search, simulations=args.alphazero_simulations,
        moves=args.alphazero_moves, batch=args.alphazero_batch, games_per_batch=args.alphazero_games, seed=args.seed,
        device=args.alphazero_device,
    )  # fmt: skip
    print(
        f"\n== AlphaZero self-play search on {args.alphazero_game}{f' {config}' if config else ''}: fresh network, "
        f"{args.alphazero_simulations} simulations/move, {max(args.alphazero_games)} games of "
        f"{args.alphazero_moves} moves per round, median of {ALPHAZERO_ROUNDS} alternating rounds, "
        f"network on {selfplay[0].device}, torch.set_num_threads(1)"
    )
    print(report_alphazero(selfplay, args.alphazero_search))
    return selfplay


def check_args(args: Args) -> None:
    """Refuse an unknown game, a config that does not apply to every measured game, or a bad AlphaZero setting."""
    only_extra = args.mcts or args.alphazero or args.arena or args.replay_page
    for name in args.games or ([] if only_extra else boardenvs.list_games()):
        check_game(name, args.config, game_field="games")
    if args.mcts:
        check_game("quoridor", args.config)
    if args.alphazero:
        check_game(args.alphazero_game, args.config, game_field="alphazero_game")
        if args.alphazero_search not in ("gumbel", "puct"):
            raise OptionError("alphazero_search", f"must be gumbel or puct, got {args.alphazero_search!r}")
        from baselines.learners.alphazero.network import resolve_device

        with about("alphazero_device"):
            resolve_device(args.alphazero_device)


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.bench``."""
    run_cli(Args, argv, main, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
