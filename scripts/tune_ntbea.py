"""Tune an agent's hyper-parameters with NTBEA against an opponent, then optionally validate the result.

    python -m scripts.tune_ntbea                                         # BMRH on Splendor vs BMRH*
    python -m scripts.tune_ntbea --agent "rhea:value=ef" --space rhea+ef --evaluations 500 --workers 2
    python -m scripts.tune_ntbea --game quoridor --config preset=small --opponent heuristic --space rhea
    python -m scripts.tune_ntbea --backend ray --ray-address 10.0.0.1:6379 --workers 64 --batch-size 64

Each evaluation is ``--games-per-evaluation`` games of the candidate against ``--opponent`` (seats rotate
between evaluations); the fitness is the candidate's result (1 win, 1/2 shared first place, 0 loss). The
evaluations run in ``--workers`` processes, or Ray actors with ``--backend ray``; the run is the same.
Search spaces: ``rhea`` (BMRH's space from ``rinascimento_agents.csv``), ``ef`` (event-value weights
``ef_w<i>`` over -1, -0.8, ..., 1, sized by the agent's ``ef_mapping``/``ef_degree``/``ef_perspective``),
``rhea+ef`` (both), or a JSON file ``{"name": [values...]}``. Parameters fixed in ``--agent`` are removed from
the space (``baselines/tuning/tuning.py``). Writes ``<out>/history.csv``, ``<out>/fitness.png`` and
``<out>/best.json``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from baselines.factory import make_agent
from baselines.inputs import parse_config
from baselines.tuning.tuning import TuneOutcome, TuneSettings, search_space, tune
from boardenvs.registry import make_game

from ._args import (
    about,
    check_agents,
    check_backend_options,
    check_game,
    run_cli,
)


@dataclass(frozen=True)
class Args:
    """Tune an agent with NTBEA against an opponent (the tuning options are :class:`TuneSettings`'s, one flag each)."""

    game: str = "splendor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=lambda: ["preset=rinascimento"])
    """Game config as key=value pairs; preset=<name> picks a registered preset."""
    out: str = "runs/ntbea"
    """Output folder (history.csv, fitness.png, best.json); empty to write nothing."""
    settings: TuneSettings = field(default_factory=TuneSettings)
    """The tuning run."""


def main(args: Args) -> TuneOutcome:
    """Run the tuning described by ``args``, write the outputs, and return them."""
    config = parse_config(args.config)
    game = make_game(args.game, **config)
    outcome = tune(args.game, config, args.settings)
    if args.out:
        _write(outcome, args, game.spec.name)
    return outcome


def _write(outcome: TuneOutcome, args: Args, game_name: str) -> None:
    out = Path(args.out)
    outcome.result.to_csv(out / "history.csv")
    outcome.result.plot(out / "fitness.png")
    rate, low, high, games = outcome.validation_summary()
    summary = {
        "game": game_name,
        "config": args.config,
        "agent": args.settings.agent,
        "opponent": args.settings.opponent,
        "evaluations": args.settings.evaluations,
        "best": outcome.result.best,
        "best_estimate": outcome.result.best_estimate,
        "tuned_spec": outcome.tuned_spec,
        "validation": {"games": games, "win_rate": rate, "ci_low": low, "ci_high": high},
    }
    (out / "best.json").write_text(json.dumps(summary, indent=2, default=str))


def check_args(args: Args) -> None:
    """Refuse a bad game, config, agent, opponent or search space (a JSON file that is not JSON included) before
    the first game; the budgets are checked by :class:`TuneSettings` itself."""
    settings = args.settings
    check_game(args.game, args.config)
    check_backend_options(settings.backend, settings.ray_address)
    check_agents("agent", [settings.agent], args.game)
    check_agents("opponent", [settings.opponent], args.game)
    with about("space"):
        space = search_space(settings.space, settings.agent)
        make_agent(settings.agent, args.game, 0, {key: values[0] for key, values in space.items()})


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.tune_ntbea``: tune, then print the recommendation."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    started = time.perf_counter()
    outcome = main(args)
    print(
        f"{args.settings.evaluations} evaluations in {time.perf_counter() - started:.1f} s, seed {args.settings.seed}"
    )
    print(f"best (model estimate {outcome.result.best_estimate:.3f}): {outcome.result.best}")
    print(f"tuned agent: {outcome.tuned_spec}")
    if outcome.validation:
        rate, low, high, games = outcome.validation_summary()
        print(f"validation vs {args.opponent}: {rate:.3f} [{low:.3f}, {high:.3f}] over {games} games")
    if args.out:
        print(f"wrote {args.out}/history.csv, fitness.png, best.json")


if __name__ == "__main__":
    cli()
