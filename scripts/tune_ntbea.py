"""Tune an agent's hyper-parameters with NTBEA against an opponent, then optionally validate the result.

    python -m scripts.tune_ntbea                                         # BMRH on Splendor vs BMRH*
    python -m scripts.tune_ntbea --agent "rhea:value=ef" --space rhea+ef --evaluations 500 --workers 2
    python -m scripts.tune_ntbea --game quoridor --config preset=small --opponent heuristic --space rhea

Each evaluation is ``--games-per-evaluation`` games of the candidate against ``--opponent`` (seats rotate
between evaluations); the fitness is the candidate's result (1 win, 1/2 shared first place, 0 loss).
Search spaces: ``rhea`` (BMRH's space from ``rinascimento_agents.csv``), ``ef`` (event-value weights
``ef_w<i>`` over -1, -0.8, ..., 1, sized by the agent's ``ef_mapping``/``ef_degree``/``ef_perspective``),
``rhea+ef`` (both), or a JSON file ``{"name": [values...]}``. Parameters fixed in ``--agent`` are removed from
the space. Writes ``<out>/history.csv``, ``<out>/fitness.png`` and ``<out>/best.json``.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselines.factory import format_spec, make_agent, parse_spec
from baselines.ntbea import NTBEA, GameFitness, NTBEAResult, head_to_head
from baselines.ratings import wilson_interval
from boardenvs.registry import make_game
from scripts._args import parse_args, parse_config

NAMED_SPACES = ("rhea", "ef", "rhea+ef")
"""Search spaces by name (or give a JSON file)."""


@dataclass
class Args:
    """Tune an agent with NTBEA against an opponent."""

    game: str = "splendor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=lambda: ["preset=rinascimento"])
    """Game config as key=value pairs; preset=<name> picks a registered preset."""
    agent: str = "rhea"
    """The tuned agent: rhea[:key=value:...]; the fixed parameters given here are not tuned."""
    space: str = "rhea"
    """Search space: rhea, ef, rhea+ef, or a JSON file name -> list of values."""
    opponent: str = "rhea:preset=bmrh_r1"
    """Opponent: rhea[:key=value:...] or an agent name of baselines.factory (random, osla, buyer, heuristic...)."""
    evaluations: int = 200
    """NTBEA budget: fitness evaluations."""
    games_per_evaluation: int = 1
    """Games per fitness evaluation."""
    k: float = 1.0
    """UCB exploration weight (seed 002: 1)."""
    epsilon: float = 0.7
    """Added to the arm counts of the exploration bonus (seed 002: 0.7)."""
    neighbours: int = 50
    """Mutants drawn per NTBEA iteration."""
    batch_size: int = 2
    """Mutants evaluated per iteration (the parallelism; results depend on it, not on --workers)."""
    workers: int = 1
    """Processes evaluating in parallel (1 = inline)."""
    validate_games: int = 0
    """After tuning, games of the recommendation against the opponent (0 = skip)."""
    seed: int = 0
    """Seed of the search and of every game."""
    out: str = "runs/ntbea"
    """Output folder (history.csv, fitness.png, best.json); empty to write nothing."""
    progress: bool = True
    """Show progress bars."""


@dataclass
class TuneOutcome:
    """What :func:`main` returns: the NTBEA result, the tuned agent's spec and the validation games."""

    result: NTBEAResult
    tuned_spec: str
    validation: list[float]

    def validation_summary(self) -> tuple[float, float, float, int]:
        """Win rate (draws count 1/2), Wilson 95% interval and number of validation games."""
        games = len(self.validation)
        points = sum(self.validation)
        low, high = wilson_interval(points, games)
        return (points / games if games else 0.0), low, high, games


def search_space(name: str, agent: str) -> dict[str, list[Any]]:
    """The search space called ``name`` for ``agent`` (without the parameters the agent spec fixes)."""
    kind, fixed = parse_spec(agent)
    if name not in NAMED_SPACES:
        path = Path(name)
        if not path.is_file():
            raise ValueError(f"space must be one of {list(NAMED_SPACES)} or a JSON file, got {name!r}")
        space = json.loads(path.read_text())
        if not isinstance(space, dict):
            raise ValueError(f"{name} must hold a JSON object name -> list of values")
        return {key: list(values) for key, values in space.items() if key not in fixed}
    if kind != "rhea":
        raise ValueError(f"the named spaces {list(NAMED_SPACES)} tune the rhea agent, not {kind!r}")
    from baselines.event_values import WEIGHT_VALUES, num_weights
    from baselines.rhea import RHEA_SEARCH_SPACE, parse_params

    space: dict[str, list[Any]] = {}
    if name in ("rhea", "rhea+ef"):
        space.update({key: list(values) for key, values in RHEA_SEARCH_SPACE.items()})
    if name in ("ef", "rhea+ef"):
        params, _ = parse_params(**fixed)
        if params.value != "ef":
            raise ValueError(f"space {name!r} tunes event-value weights: give the agent value=ef, got {agent!r}")
        count = num_weights(params.ef_mapping, params.ef_degree, params.ef_perspective)
        space.update({f"ef_w{i}": list(WEIGHT_VALUES) for i in range(count)})
    return {key: values for key, values in space.items() if key not in fixed}


def check_args(args: Args) -> None:
    """``ValueError`` for budgets below 1 (the other values are checked by NTBEA and the agents)."""
    for name in ("evaluations", "games_per_evaluation", "workers", "batch_size", "neighbours"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(args, name)}")
    if args.validate_games < 0:
        raise ValueError(f"validate_games must be >= 0, got {args.validate_games}")


def main(args: Args) -> TuneOutcome:
    """Run the tuning described by ``args``, write the outputs, and return them."""
    check_args(args)
    config = parse_config(args.config)
    game = make_game(args.game, **config)
    fitness = GameFitness(args.game, args.agent, args.opponent, tuple(config.items()), args.games_per_evaluation)
    space = search_space(args.space, args.agent)
    _check_agents(fitness, space)
    ntbea = NTBEA(space, args.k, args.epsilon, args.neighbours, args.batch_size, seed=args.seed)
    result = ntbea.run(fitness, args.evaluations, workers=args.workers, progress=args.progress)
    kind, fixed = parse_spec(args.agent)
    tuned_spec = format_spec(kind, {**fixed, **result.best})
    validation: list[float] = []
    if args.validate_games:
        check = GameFitness(args.game, tuned_spec, args.opponent, tuple(config.items()))
        validation = head_to_head(check, args.validate_games, args.seed + 1, args.workers, args.progress, "validate")
    outcome = TuneOutcome(result, tuned_spec, validation)
    if args.out:
        _write(outcome, args, game.spec.name)
    return outcome


def _check_agents(fitness: GameFitness, space: dict[str, list[Any]]) -> None:
    """Build the candidate with the first value of every parameter and the opponent, to fail fast."""

    make_agent(fitness.candidate, fitness.game, 0, {key: values[0] for key, values in space.items()})
    make_agent(fitness.opponent, fitness.game, 0)


def _write(outcome: TuneOutcome, args: Args, game_name: str) -> None:
    out = Path(args.out)
    outcome.result.to_csv(out / "history.csv")
    outcome.result.plot(out / "fitness.png")
    rate, low, high, games = outcome.validation_summary()
    summary = {
        "game": game_name,
        "config": args.config,
        "agent": args.agent,
        "opponent": args.opponent,
        "evaluations": args.evaluations,
        "best": outcome.result.best,
        "best_estimate": outcome.result.best_estimate,
        "tuned_spec": outcome.tuned_spec,
        "validation": {"games": games, "win_rate": rate, "ci_low": low, "ci_high": high},
    }
    (out / "best.json").write_text(json.dumps(summary, indent=2, default=str))


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.tune_ntbea``: tune, then print the recommendation."""
    args = parse_args(Args, argv if argv is not None else sys.argv[1:], description=__doc__)
    started = time.perf_counter()
    outcome = main(args)
    print(f"{args.evaluations} evaluations in {time.perf_counter() - started:.1f} s, seed {args.seed}")
    print(f"best (model estimate {outcome.result.best_estimate:.3f}): {outcome.result.best}")
    print(f"tuned agent: {outcome.tuned_spec}")
    if outcome.validation:
        rate, low, high, games = outcome.validation_summary()
        print(f"validation vs {args.opponent}: {rate:.3f} [{low:.3f}, {high:.3f}] over {games} games")
    if args.out:
        print(f"wrote {args.out}/history.csv, fitness.png, best.json")


if __name__ == "__main__":
    cli()
