"""How well can search do against a random opponent in 2-player Gravwell? Fair search, and the ceilings above it.

    python -m scripts.gravwell_ceiling                                    # fair: mcts, 100 simulations, 100 games
    python -m scripts.gravwell_ceiling --kind cheat --simulations 100 --json-out runs/gravwell_ceiling/cheat.json
    python -m scripts.gravwell_ceiling --kind fairbr --simulations 400 --opponent random_no_es --games 60
    python -m scripts.gravwell_ceiling --kind peek --games 60 --progress  # a tqdm bar instead of a line per game

One search agent (the *learner*) plays ``games`` games of ``make_game("gravwell", num_players=2)`` against
``opponent``, on the game seeds and with the seat rotation of ``baselines.arena.evaluate_against`` (the learner
takes seat 0, then seat 1, each game seed twice), so the same seed gives the same games. The kinds of learner:

* ``fair``: the repo's ``mcts:simulations=N``; it sees its determinized view, like every agent.
* ``fairbr``: fair, but in its tree the opponent picks uniformly random moves instead of UCT ones: it models the
  opponent as random (always "go" at an Emergency Stop against ``random_no_es``). Knowing that the opponent is
  random is allowed information; the model is only right against ``random`` and ``random_no_es``.
* ``peek``: sees the true *current* state (every hand, the face-down cards) but not the future: each of its
  determinizations re-draws the future decks and tie orders, and the opponent's pending commit from the
  opponent's true hand.
* ``cheat``: searches the true state, everything included: the future decks and tie orders, and the card the
  opponent has already committed.
* ``cheatbr``: ``cheat`` with the random opponent model of ``fairbr``.

**``peek``, ``cheat`` and ``cheatbr`` see hidden information on purpose.** They measure an upper bound: how much
of the gap to always winning is hidden information, and how much is the luck of the draw that no play can
overcome. They are not agents to use, and their win rates are not anybody's playing strength.

Results with the default seed 1 against ``random`` (60-100 games each): fair 100 simulations 0.69, fair 400 0.71,
fairbr 400 0.73, peek 100 0.92, cheat 100 0.95.

The win rate counts wins only (a shared first place is a draw, not half a win); the interval is Wilson's 95%.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from baselines.arena import wilson_interval
from baselines.arena.seated import GameResult, play_evaluation
from baselines.factory import make_agent
from baselines.games.gravwell.ceiling import (
    GAME_NAME,
    KINDS,
    SEES_HIDDEN_INFORMATION,
    TrueStateGravwell,
    games_by_seat,
    make_learner,
)
from baselines.params import choice_param, int_param
from baselines.progress import progress_bar
from boardenvs.registry import make_game

from ._args import COUNT, check_agents, run_cli

NUM_PLAYERS = 2

__all__ = ["KINDS", "SEES_HIDDEN_INFORMATION", "Args", "TrueStateGravwell", "cli", "main"]


@dataclass
class Args:
    """Win rate of a fair or a cheating search agent against an opponent in 2-player Gravwell."""

    kind: str = "fair"
    """fair (mcts), fairbr (fair, opponent modelled as random), or peek, cheat, cheatbr: these three see hidden
    information on purpose (upper bounds, not agents to use)."""
    simulations: int = 100
    """MCTS simulations per move, >= 1."""
    opponent: str = "random"
    """The opponent, an agent name of baselines.factory: random, random_no_es (never uses the Emergency Stop), ..."""
    games: int = 100
    """Games to play, >= 1; the learner's seat rotates (seat 0, seat 1, ...), each game seed played from both."""
    seed: int = 1
    """Evaluation seed: the game seeds and the agents' seeds derive from it (1 gives the results quoted above)."""
    json_out: str = ""
    """Write the result, every game's seed, seat, outcome and scores included, as JSON to this path ("" to skip)."""
    progress: bool = False
    """Show a tqdm bar instead of one line per game."""

    LIMITS: ClassVar = {"simulations": COUNT, "games": COUNT}


# -- the run --------------------------------------------------------------------------------------
def checked(args: Args) -> Args:
    """``args`` with the kind spelled as in ``KINDS``; ``ValueError`` naming a bad parameter and what it allows."""
    kind = choice_param("kind", args.kind, KINDS)
    simulations = int_param("simulations", args.simulations, 1)
    games = int_param("games", args.games, 1)
    return dataclasses.replace(args, kind=kind, simulations=simulations, games=games)


def check_args(args: Args) -> None:
    """:func:`checked`, and the opponent built once, before any game."""
    checked(args)
    check_agents("opponent", [args.opponent], GAME_NAME)


def game_line(result: GameResult) -> str:
    """The progress line of one game."""
    return f"game {result.index} seat {result.seat} outcome {result.outcome} scores {result.scores}"


def summary(args: Args, results: list[GameResult], seconds: float) -> dict[str, Any]:
    """The result of the run: wins, draws, losses, the win rate and its Wilson 95% interval, and every game."""
    wins = sum(result.outcome == 1.0 for result in results)
    draws = sum(result.outcome == 0.5 for result in results)
    low, high = wilson_interval(wins, args.games)
    return {
        "kind": args.kind,
        "simulations": args.simulations,
        "opponent": args.opponent,
        "games": args.games,
        "seed": args.seed,
        "wins": wins,
        "draws": draws,
        "losses": args.games - wins - draws,
        "win_rate": wins / args.games,
        "wilson95": [low, high],
        "seconds_per_game": seconds / args.games,
        "games_detail": [dataclasses.asdict(result) for result in results],
    }


def result_line(result: dict[str, Any]) -> str:
    """The final ``RESULT`` line: win rate, Wilson 95% interval, draws, losses and seconds per game."""
    low, high = result["wilson95"]
    return (
        f"RESULT {result['kind']} sims={result['simulations']} vs {result['opponent']}: "
        f"{result['wins']}/{result['games']} = {result['win_rate']:.3f} [{low:.3f}, {high:.3f}] "
        f"draws {result['draws']} losses {result['losses']}  {result['seconds_per_game']:.2f} s/game"
    )


def main(args: Args) -> dict[str, Any]:
    """Play the evaluation described by ``args`` (a line per game, or a bar); write the JSON if asked; return the
    result (see :func:`summary`)."""
    args = checked(args)
    game = make_game(GAME_NAME, num_players=NUM_PLAYERS)
    opponent = make_agent(args.opponent, GAME_NAME, seed=args.seed)
    learner = make_learner(args.kind, args.simulations, opponent, args.seed)
    started = time.perf_counter()
    with progress_bar(args.progress, args.games, f"{args.kind} vs {args.opponent}", "game") as bar:

        def on_game(result: GameResult) -> None:
            bar.update()
            if not args.progress:
                print(game_line(result), flush=True)

        results = play_evaluation(games_by_seat(args.kind, game), learner, opponent, args.games, args.seed, on_game)
    result = summary(args, results, time.perf_counter() - started)
    if args.json_out:
        path = Path(args.json_out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(result))
    return result


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.gravwell_ceiling``: run, then print the ``RESULT`` line."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


def _run(args: Args) -> None:
    result = main(args)
    print(result_line(result), flush=True)
    if args.json_out:
        print(f"wrote {args.json_out}")


if __name__ == "__main__":
    cli()
