"""Self-play: the search plays every seat against itself; each decision becomes a training example.

At every ply the seat to move searches its own view (``game.determinize``) with the network's priors and
values: a **Gumbel** root search (``search="gumbel"``, the default: Gumbel-top-k root actions, sequential
halving, the improved policy ``softmax(logits + sigma(completed Q))`` as the policy target) or **PUCT**
(``search="puct"``: Dirichlet noise at the root, the visit shares as the target). The first
``temperature_plies`` plies play a move sampled from the policy target; later ones play the search's move.

**Playout-cap randomisation** (KataGo): with ``full_search_fraction < 1`` only that share of the moves gets the
full ``simulations`` and becomes a training example; the others are played with ``fast_simulations`` and
recorded only through the game's outcome. Value targets are the final returns in the mover's seat order; the
auxiliary score target is the final :meth:`~boardenvs.core.Game.scores` as a margin (see :func:`score_margins`)
for games that define scores. Games that declare symmetries (``game.symmetries``: node conquest's half turn,
Quoridor's mirror) add the transformed example of every decision under each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from baselines.agent import Agent
from baselines.learners.alphazero.batched import MAX_BATCH_GAMES
from baselines.learners.alphazero.evaluator import NetworkEvaluator, relative_values
from baselines.params import choice_param, float_param, int_param
from baselines.search.mcts import MCTSAgent
from baselines.settings import COUNT, FRACTION, POSITIVE, Range, setting
from boardenvs.core import Game, Symmetry


@dataclass(frozen=True)
class Example:
    """One decision: the mover's ``observation`` and legal ``mask``, the search's ``policy`` target (zero off
    the mask), the game's final ``value`` per seat and the final ``score`` margins (:func:`score_margins`), both
    in the mover's seat order."""

    observation: np.ndarray
    mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    score: np.ndarray


SEARCHES = ("gumbel", "puct")
"""The root searches self-play can use."""
BATCH_GAMES = 16
"""Self-play games played together by default (their leaves valued in one forward pass)."""


@dataclass(frozen=True)
class SelfPlaySettings:
    """How self-play searches.

    Attributes:
        search: ``"gumbel"`` or ``"puct"`` (see the module docstring).
        simulations: simulations per move (full searches), >= 1 (seed 001: 50 with PUCT).
        exploration: the PUCT constant, >= 0 (PUCT only).
        temperature_plies: plies whose move is sampled from the policy target, >= 0.
        dirichlet_fraction: share of Dirichlet noise in the root priors, in [0, 1] (PUCT only).
        dirichlet_alpha: its concentration, > 0 (PUCT only).
        batch_size: leaves one game's search collects per request, >= 1.
        batch_games: games played together, the leaves of all of them valued in one forward pass
            (:mod:`.batched`), in 1..4096; a resumed run must keep it (it fixes which games share a pass).
        determinizations: hidden-information games: views sampled per move, >= 1.
        gumbel_actions: root actions considered by the Gumbel search, >= 1 (Gumbel only).
        full_search_fraction: share of moves searched with ``simulations`` and recorded, in (0, 1].
        fast_simulations: simulations of the other moves, in 1..``simulations``.
    """

    search: str = "gumbel"
    simulations: int = setting(32, COUNT)
    exploration: float = setting(1.0, Range(0.0, 1e6))
    temperature_plies: int = setting(10, Range(0, 10**6))
    dirichlet_fraction: float = setting(0.25, FRACTION)
    dirichlet_alpha: float = setting(0.3, POSITIVE)
    batch_size: int = setting(8, Range(1, 10**6))
    batch_games: int = setting(BATCH_GAMES, Range(1, MAX_BATCH_GAMES))
    determinizations: int = setting(4, Range(1, 10**4))
    gumbel_actions: int = setting(16, Range(1, 10**4))
    full_search_fraction: float = setting(1.0, Range(0.0, 1.0, open_low=True))
    fast_simulations: int = setting(8, COUNT)

    def __post_init__(self) -> None:
        object.__setattr__(self, "search", choice_param("search", self.search, SEARCHES))
        int_param("simulations", self.simulations, 1)
        float_param("exploration", self.exploration, 0.0)
        int_param("temperature_plies", self.temperature_plies, 0)
        float_param("dirichlet_fraction", self.dirichlet_fraction, 0.0, 1.0)
        float_param("dirichlet_alpha", self.dirichlet_alpha, 0.0, positive=True)
        int_param("batch_size", self.batch_size, 1)
        int_param("batch_games", self.batch_games, 1, MAX_BATCH_GAMES)
        int_param("determinizations", self.determinizations, 1)
        int_param("gumbel_actions", self.gumbel_actions, 1)
        float_param("full_search_fraction", self.full_search_fraction, 0.0, 1.0, positive=True)
        int_param("fast_simulations", self.fast_simulations, 1, self.simulations)

    def searcher(
        self, evaluator: NetworkEvaluator, seed: int, noise: bool = True, name: str | None = None, fast: bool = False
    ) -> MCTSAgent:
        """A search with these settings that plays its own move: one seat of self-play, or (``noise=False``) a
        competitive player (PUCT without root noise and with tree reuse; Gumbel as in self-play).
        ``fast``: the playout-cap's fast budget."""
        gumbel = self.search == "gumbel"
        return MCTSAgent(
            seed,
            name,
            simulations=self.fast_simulations if fast else self.simulations,
            evaluator=evaluator,
            selection=self.search,
            exploration=self.exploration,
            determinizations=self.determinizations,
            dirichlet_fraction=self.dirichlet_fraction if noise and not gumbel and not fast else 0.0,
            dirichlet_alpha=self.dirichlet_alpha,
            batch_size=self.batch_size,
            reuse_tree=False if gumbel else not noise,
            gumbel_actions=self.gumbel_actions,
        )


def play_selfplay_game(
    game: Game, evaluator: NetworkEvaluator, settings: SelfPlaySettings, seed: int, sparring: Agent | None = None
) -> tuple[list[Example], np.ndarray]:
    """One self-play game from ``seed``: its examples (mirrored ones included) and the final returns.

    With a ``sparring`` agent, it plays one seat (drawn from ``seed``) in place of the search, and only the
    search's decisions become examples (their value targets are the outcome of the game against it).
    """
    rng = np.random.default_rng(seed)
    players = game.spec.num_players
    seeds = rng.integers(2**31, size=2 * players + 1)
    full = [settings.searcher(evaluator, int(s)) for s in seeds[:players]]
    fast = [settings.searcher(evaluator, int(s), fast=True) for s in seeds[players : 2 * players]]
    sparring_seat = int(seeds[-1] % players) if sparring is not None else -1
    if sparring is not None:
        sparring.reseed(int(seeds[-1]))
    state, decisions = game.initial_state(rng), []
    while not game.is_terminal(state):
        mover = int(state.current_player)
        view = game.determinize(state, mover, rng)
        if sparring is not None and mover == sparring_seat:
            state = game.apply(state, sparring.act(game, view, mover))
            continue
        recorded = settings.full_search_fraction >= 1.0 or rng.random() < settings.full_search_fraction
        searcher = (full if recorded else fast)[mover]
        action = searcher.act(game, view, mover)
        policy = searcher.last_search.policy(game.spec.num_actions)
        if not policy.any():  # a single legal move: no search ran
            policy[action] = 1.0
        if state.ply < settings.temperature_plies:
            action = int(rng.choice(len(policy), p=policy / policy.sum()))
        if recorded:
            mask = np.array(game.legal_action_mask(state), dtype=bool)
            decisions.append((game.observe(state, mover), mask, policy, mover))
        state = game.apply(state, action)
    return examples_of(game, state, decisions), game.returns(state).astype(np.float32)


def play_demonstration_game(game: Game, teacher: Agent, seed: int) -> list[Example]:
    """One game of ``teacher`` in every seat, recorded as examples for a warm start: the policy target is the
    teacher's move (one-hot), the value and score targets the game's outcome, as in self-play."""
    rng = np.random.default_rng(seed)
    teacher.reseed(int(rng.integers(2**31)))
    state, decisions = game.initial_state(rng), []
    while not game.is_terminal(state):
        mover = int(state.current_player)
        action = teacher.act(game, game.determinize(state, mover, rng), mover)
        policy = np.zeros(game.spec.num_actions, dtype=np.float32)
        policy[action] = 1.0
        decisions.append(
            (game.observe(state, mover), np.array(game.legal_action_mask(state), dtype=bool), policy, mover)
        )
        state = game.apply(state, action)
    return examples_of(game, state, decisions)


def examples_of(
    game: Game, final: object, decisions: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]
) -> list[Example]:
    """The examples of a finished game's ``decisions`` ``(observation, mask, policy, mover)``: the targets are
    the ``final`` state's returns and score margins in each mover's seat order, with every symmetry's image."""
    returns = game.returns(final).astype(np.float32)
    margins = score_margins(game, final)
    examples = []
    for observation, mask, policy, mover in decisions:
        value, score = relative_values(returns, mover), relative_values(margins, mover)
        examples.append(Example(observation, mask, policy, value, score))
        examples.extend(transformed(symmetry, examples[-1], returns, margins, mover) for symmetry in game.symmetries)
    return examples


def has_scores(game: Game) -> bool:
    """Whether ``game`` defines scores of its own (not the default: its returns)."""
    return type(game).scores is not Game.scores


def score_margins(game: Game, state: object) -> np.ndarray:
    """The final scores as margins: ``(score - mean score) / max(1, largest |score|)`` per seat, in [-1, 1];
    zeros for a game without scores of its own (:func:`has_scores`)."""
    if not has_scores(game):
        return np.zeros(game.spec.num_players, dtype=np.float32)
    scores = np.asarray(game.scores(state), dtype=np.float64)
    scale = max(1.0, float(np.abs(scores).max()))
    return ((scores - scores.mean()) / scale).astype(np.float32)


def transformed(symmetry: Symmetry, example: Example, returns: np.ndarray, margins: np.ndarray, mover: int) -> Example:
    """The example of the transformed position: observation, mask and policy moved by ``symmetry``, the value
    and score targets the permuted ``returns`` and ``margins`` in the seat order of the transformed mover."""
    new_mover = symmetry.players[mover]
    value = relative_values(symmetry.seat_values_of(returns), new_mover)
    score = relative_values(symmetry.seat_values_of(margins), new_mover)
    mask, policy = symmetry.action_values_of(example.mask), symmetry.action_values_of(example.policy)
    return Example(symmetry.observation(example.observation), mask, policy, value, score)
