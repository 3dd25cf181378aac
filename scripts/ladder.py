"""A game's rating ladder: play it (resumable), fit it from its logs, or rate a new agent against it.

    python -m scripts.ladder --game node_conquest --games-per-pairing 20 --rounds 2 --workers 2
    python -m scripts.ladder --game node_conquest --fit-only          # recompute the ladder from its logs alone
    python -m scripts.ladder --game node_conquest --fit-only --publish  # into docs/results/ladder.md
    python -m scripts.ladder --game node_conquest --rate mcts:simulations=400 --label mcts-400 --games-per-pairing 40
    python -m scripts.ladder --game node_conquest --rate class:my_agents.Greedy --label mine   # your own agent class

A ladder lives in ``--out`` (default ``runs/ladder/<game>``, whose logs the repository tracks):
``round_<k>/<a>--vs--<b>.jsonl`` (every game of a pair in round k; running the command again resumes a killed round, a
larger ``--rounds`` adds games), ``ratings.csv``, ``bootstrap.csv`` and ``ladder.png``. Ratings are on the Elo scale
with ``random`` at 0, with stratified bootstrap 95% intervals (``baselines.ladder``). ``--rate`` plays the new agent
against anchors spread over the fitted ladder (``--anchors`` to choose them) and rates it with their ratings held fixed;
its games go to ``rate_<label>.jsonl`` (its spec, anchors and wall time to ``rate_<label>.json``), and every later fit
rates it again from that log (``rated.csv``, a table under the ladder on the published page).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from baselines.ladder import ANCHOR, CONFIGS, PlaySettings, fit_folder, play_ladder, rate_agent, roster
from baselines.ladder.page import publish

from ._args import COUNT, WORKERS, OptionError, check_agents, check_backend_options, names_in, run_cli


@dataclass
class Args:
    """Play, fit or extend a game's rating ladder."""

    game: str = "node_conquest"
    """The game: quoridor, splendor, gravwell, battle_sheep or node_conquest (each on its benchmark config)."""
    games_per_pairing: int = 20
    """Games per pair of agents in each round (a multiple of the number of players), or per anchor with --rate."""
    rounds: int = 1
    """Rounds of the round robin to have played (each with its own seed; more rounds add games)."""
    agents: str = ""
    """Comma-separated labels of the roster to play (random is always in); empty: the whole roster."""
    fit_only: bool = False
    """Play nothing: fit the ladder from the logs in --out."""
    rate: str = ""
    """An agent spec to rate against the fitted ladder (instead of playing the ladder); class:<module>.<Class> for your
    own agent class (importable from the folder you run in)."""
    label: str = ""
    """The new agent's name on the ladder with --rate (default: the spec); no '/' (it names rate_<label>.jsonl)."""
    anchors: str = ""
    """Comma-separated ladder agents the new agent meets; empty: six spread over the ladder's ratings."""
    samples: int = 1000
    """Bootstrap replicates of the fit."""
    seed: int = 0
    """Seed of the first round (round k plays seed + k) and of the bootstrap."""
    workers: int = 1
    """Processes (or Ray actors with --backend ray) playing games in parallel; the records do not depend on it."""
    backend: str = "local"
    """local (processes of this machine) or ray."""
    ray_address: str = ""
    """Ray cluster to join with --backend ray (host:port); empty: start a local Ray."""
    out: str = ""
    """The ladder's folder; empty: runs/ladder/<game>."""
    publish: bool = False
    """After the fit, copy the ladder into --results-dir (ladder_<game>.csv/.png) and rewrite its ladder.md."""
    results_dir: str = "docs/results"
    """Where --publish writes."""
    progress: bool = True
    """Print a line per pair of agents played."""

    LIMITS: ClassVar = {"games_per_pairing": COUNT, "rounds": COUNT, "samples": COUNT, "workers": WORKERS}


def folder_of(args: Args) -> Path:
    """The ladder's folder."""
    return Path(args.out or f"runs/ladder/{args.game}")


def check_args(args: Args) -> None:
    """Every option is checked before a game is played."""
    if args.game not in CONFIGS:
        raise OptionError("game", f"no ladder for {args.game!r}; ladders: {', '.join(CONFIGS)}")
    ladder = roster(args.game)
    if args.agents:
        with_labels = names_in("agents", args.agents)
        try:
            ladder.only(with_labels)
        except ValueError as error:
            raise OptionError("agents", str(error).removeprefix("agents: ")) from None
    if args.rate:
        check_agents("rate", [args.rate], args.game)
        if args.fit_only:
            raise OptionError("rate", "rates against a fitted ladder: leave out --fit-only")
        label = args.label or args.rate
        if "/" in label or not label.strip():
            raise OptionError("label", f"names the file rate_<label>.jsonl: give one without '/', got {label!r}")
    if args.anchors:
        names_in("anchors", args.anchors)
    if args.publish and not Path(args.results_dir).is_dir():
        raise OptionError("results_dir", f"no folder {args.results_dir!r} to publish into")
    check_backend_options(args.backend, args.ray_address)


def main(args: Args) -> str:
    """Run the command; the text it prints."""
    ladder = roster(args.game)
    if args.agents:
        ladder = ladder.only(names_in("agents", args.agents))
    folder = folder_of(args)
    settings = PlaySettings(args.games_per_pairing, args.rounds, args.seed, args.workers, args.backend,
                            args.ray_address or None, args.progress)  # fmt: skip
    if args.rate:
        anchors = names_in("anchors", args.anchors) if args.anchors else None
        label = args.label or args.rate
        new = rate_agent(ladder, folder, args.rate, label, settings, anchors)
        return (
            f"{label}: {new.rating:+.0f} [{new.low:+.0f}, {new.high:+.0f}] on the {args.game} ladder ({ANCHOR} = 0), "
            f"{new.points:g} points in {new.games} games; the games: {folder / f'rate_{label}.jsonl'}"
        )
    if not args.fit_only:
        play_ladder(ladder, folder, settings)
    fit = fit_folder(ladder, folder, args.samples, args.seed)
    text = (folder / "ratings.csv").read_text() + f"\nwritten: {folder / 'ratings.csv'}, {folder / 'ladder.png'}"
    unplayed = [name for name in ladder.names if name not in fit.names]
    if unplayed:
        text += f"\nnot on the ladder yet (no games in its logs; play the ladder to add them): {', '.join(unplayed)}"
    if args.publish:
        text += f", {publish(args.game, folder, Path(args.results_dir))}"
    return text


def _run(args: Args) -> None:
    print(main(args))


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.ladder``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
