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
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from baselines.agent import Agent, SeedLike
from baselines.arena import LEARNER_NAME, game_seeds, play_game, wilson_interval
from baselines.factory import make_agent
from baselines.games.gravwell.agents import RandomNoStopAgent
from baselines.params import choice_param, int_param
from baselines.progress import progress_bar
from baselines.search.mcts import MCTSAgent, Node
from boardenvs.games.gravwell import NUM_CARDS, Gravwell, GravwellConfig, GravwellState
from boardenvs.games.gravwell.cards import bits_to_cards
from boardenvs.games.gravwell.rules import ROUNDS
from boardenvs.games.gravwell.state import STOP
from boardenvs.registry import make_game

from ._args import COUNT, check_agents, run_cli

GAME_NAME = "gravwell"
NUM_PLAYERS = 2
KINDS = ("fair", "fairbr", "peek", "cheat", "cheatbr")
SEES_HIDDEN_INFORMATION = ("peek", "cheat", "cheatbr")
"""The kinds that are given the true state: upper bounds, not agents."""
OPPONENT_LABEL = "opponent"
"""The opponent's name in the game records (the learner's is ``LEARNER_NAME``)."""


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


# -- the learners ---------------------------------------------------------------------------------
# MCTSAgent has no public hook for the root of a search or for the choice at a node, so these agents override
# its protected methods _new_root and _select_uct (and call _child): they depend on baselines.search.mcts.
class CheatingMCTS(MCTSAgent):
    """MCTS that searches the state it is given as it is (no determinization). Given the true state (see
    :class:`TrueStateGravwell`) it knows everything, the future decks and tie orders included."""

    def __init__(self, seed: SeedLike = None, name: str | None = None, **settings: Any) -> None:
        super().__init__(seed, name, **{**settings, "determinizations": 1})

    def _new_root(self, game: Gravwell, view: GravwellState, player: int, perfect: bool) -> Node:
        root = Node(-1, 1)
        root.states[0] = view
        return root


class PeekMCTS(MCTSAgent):
    """MCTS that, given the true state, knows the present but not the future: each determinization keeps every
    hand and face-down card, and re-draws the opponent's pending commit (from the opponent's true hand), the
    decks of the rounds to come and their tie orders."""

    def _new_root(self, game: Gravwell, view: GravwellState, player: int, perfect: bool) -> Node:
        root = Node(-1, self.determinizations)
        root.states = [self._redraw_future(game, view, player) for _ in range(self.determinizations)]
        return root

    def _redraw_future(self, game: Gravwell, state: GravwellState, player: int) -> GravwellState:
        redrawn = state.copy()
        for other in range(game.spec.num_players):
            if other != player and redrawn.commits[other] >= 0:
                redrawn.commits[other] = int(self.rng.choice(bits_to_cards(redrawn.hands[other])))
        kept = state.round + 1  # the rounds so far, the current one included, keep their decks and tie orders
        decks = self.rng.permuted(_unshuffled_rows(NUM_CARDS)[kept:], axis=1).tolist()
        redrawn.decks = state.decks[:kept] + tuple(map(tuple, decks))
        ties = self.rng.permuted(_unshuffled_rows(game.spec.num_players)[kept:], axis=1).tolist()
        redrawn.ties = state.ties[:kept] + tuple(map(tuple, ties))
        return redrawn


def _unshuffled_rows(size: int) -> np.ndarray:
    """``ROUNDS`` rows of ``0..size-1``: what ``Gravwell.initial_state`` shuffles into the decks (26 cards) and
    the tie orders (one entry per player), row by row."""
    return np.tile(np.arange(size), (ROUNDS, 1))


class BestResponseMCTS(MCTSAgent):
    """MCTS whose tree models the other players as uniformly random: at their nodes the move is drawn at random
    (not chosen by UCT), so the search estimates the best response to a random opponent.

    Args:
        opponent_stops: whether the modelled opponent uses an offered Emergency Stop half the time (``random``)
            or never (``random_no_es``).
        seed, name, settings: as for :class:`MCTSAgent`.
    """

    def __init__(
        self, seed: SeedLike = None, name: str | None = None, *, opponent_stops: bool = True, **settings: Any
    ) -> None:
        super().__init__(seed, name, **settings)
        self.opponent_stops = opponent_stops
        self._searching_player = -1

    def act(self, game: Gravwell, view: GravwellState, player: int) -> int:
        self._searching_player = player
        return super().act(game, view, player)

    def _select_uct(self, game: Gravwell, node: Node, d: int, state: GravwellState) -> tuple[Node, int]:
        if state.current_player == self._searching_player:
            return super()._select_uct(game, node, d, state)
        action = self._random_opponent_action(game, state)
        return self._child(game, node, state, action), action

    def _random_opponent_action(self, game: Gravwell, state: GravwellState) -> int:
        if state.phase == STOP:
            stops = self.opponent_stops and self.rng.random() < 0.5
            return game.stop_action + (0 if stops else 1)
        legal = game.legal_actions(state)
        return int(legal[self.rng.integers(len(legal))])


class CheatingBestResponseMCTS(BestResponseMCTS, CheatingMCTS):
    """:class:`CheatingMCTS` with the random opponent model of :class:`BestResponseMCTS`."""


def make_learner(kind: str, simulations: int, opponent: Agent, seed: int) -> Agent:
    """The learner of ``kind`` with ``simulations`` per move (its best-response model follows ``opponent``)."""
    if kind == "fair":
        return make_agent(f"mcts:simulations={simulations}", GAME_NAME, seed=seed)
    if kind == "peek":
        return PeekMCTS(seed, name=kind, simulations=simulations)
    if kind == "cheat":
        return CheatingMCTS(seed, name=kind, simulations=simulations)
    opponent_stops = not isinstance(opponent, RandomNoStopAgent)
    learner_class = BestResponseMCTS if kind == "fairbr" else CheatingBestResponseMCTS
    return learner_class(seed, name=kind, simulations=simulations, opponent_stops=opponent_stops)


# -- the games ------------------------------------------------------------------------------------
class TrueStateGravwell(Gravwell):
    """Gravwell whose ``determinize`` gives seat ``seat`` (a copy of) the true state instead of a determinization.

    ``play_game`` shows each agent ``game.determinize(true_state, player, rng)``: playing this game rather than
    the plain one is how the kinds that see hidden information get the true state through the public game loop.
    The determinization is still drawn for that seat, so the random streams, and with the same moves the games,
    are those of the plain game.
    """

    def __init__(self, config: GravwellConfig, seat: int) -> None:
        super().__init__(config)
        self.seat = seat

    def determinize(self, state: GravwellState, player: int, rng: np.random.Generator) -> GravwellState:
        view = super().determinize(state, player, rng)
        return state.copy() if player == self.seat else view

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other) and other.seat == self.seat  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((super().__hash__(), self.seat))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.config, self.seat))


def games_by_seat(kind: str, game: Gravwell) -> list[Gravwell]:
    """The game ``play_game`` runs when the learner sits in each seat: for the kinds that see hidden information,
    one that shows the learner's seat the true state; else the plain game."""
    seats = range(game.spec.num_players)
    if kind in SEES_HIDDEN_INFORMATION:
        return [TrueStateGravwell(game.config, seat) for seat in seats]
    return [game for _ in seats]


@dataclass
class GameResult:
    """One game of the evaluation: its index, game seed, the learner's seat and outcome (1, 0.5, 0), the scores
    per seat, the number of plies and the wall-clock seconds."""

    index: int
    seed: int
    seat: int
    outcome: float
    scores: list[float]
    plies: int
    seconds: float


def play_seated_game(game: Gravwell, learner: Agent, opponent: Agent, seat: int, seed: int, index: int) -> GameResult:
    """Game ``index``: ``learner`` in ``seat``, ``opponent`` in every other seat, on game seed ``seed``."""
    seats = range(game.spec.num_players)
    agents = [learner if player == seat else opponent for player in seats]
    names = [LEARNER_NAME if player == seat else OPPONENT_LABEL for player in seats]
    started = time.perf_counter()
    record = play_game(game, agents, seed, names=names)
    seconds = time.perf_counter() - started
    return GameResult(index, seed, seat, record.outcome(LEARNER_NAME), record.scores.tolist(), record.plies, seconds)


def play_evaluation(
    games_for_seat: list[Gravwell],
    learner: Agent,
    opponent: Agent,
    games: int,
    seed: int,
    on_game: Callable[[GameResult], None],
) -> list[GameResult]:
    """``games`` games with the game seeds and seat rotation of ``evaluate_against``; ``on_game`` sees each one."""
    num_players = len(games_for_seat)
    seeds = game_seeds(seed, math.ceil(games / num_players))
    results = []
    for index in range(games):
        seat = index % num_players
        game = games_for_seat[seat]
        results.append(play_seated_game(game, learner, opponent, seat, seeds[index // num_players], index))
        on_game(results[-1])
    return results


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
