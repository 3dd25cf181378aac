"""Self-play: the search plays every seat against itself; each decision becomes a training example.

At every ply the seat to move searches its own view (``game.determinize``) with PUCT on the network's priors
and values, with Dirichlet noise at the root; the first ``temperature_plies`` plies are sampled from the
visit counts (temperature 1), later ones take the most visited action. The policy target is the root's visit
distribution, the value target the final returns in the mover's seat order. Games that declare symmetries
(``game.symmetries``: node conquest's half turn, Quoridor's mirror) add the transformed example of every
decision under each.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from baselines.learners.alphazero.evaluator import NetworkEvaluator, relative_values
from baselines.params import float_param, int_param
from baselines.search.mcts import MCTSAgent
from boardenvs.core import Game, Symmetry


@dataclass(frozen=True)
class Example:
    """One decision: the mover's ``observation`` and legal ``mask``, the search's ``policy`` (visit shares,
    zero off the mask) and the game's final ``value`` per seat in the mover's seat order."""

    observation: np.ndarray
    mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray


@dataclass(frozen=True)
class SelfPlaySettings:
    """How self-play searches.

    Attributes:
        simulations: PUCT simulations per move, >= 1 (seed 001: 50).
        exploration: the PUCT constant, >= 0.
        temperature_plies: plies sampled from the visit counts before playing the most visited action, >= 0.
        dirichlet_fraction: share of Dirichlet noise in the root priors, in [0, 1].
        dirichlet_alpha: its concentration, > 0.
        batch_size: leaves valued per forward pass, >= 1.
        determinizations: hidden-information games: views sampled per move, >= 1.
    """

    simulations: int = 50
    exploration: float = 1.0
    temperature_plies: int = 10
    dirichlet_fraction: float = 0.25
    dirichlet_alpha: float = 0.3
    batch_size: int = 8
    determinizations: int = 4

    def __post_init__(self) -> None:
        int_param("simulations", self.simulations, 1)
        float_param("exploration", self.exploration, 0.0)
        int_param("temperature_plies", self.temperature_plies, 0)
        float_param("dirichlet_fraction", self.dirichlet_fraction, 0.0, 1.0)
        float_param("dirichlet_alpha", self.dirichlet_alpha, 0.0, positive=True)
        int_param("batch_size", self.batch_size, 1)
        int_param("determinizations", self.determinizations, 1)

    def searcher(
        self, evaluator: NetworkEvaluator, seed: int, temperature: float, noise: bool = True, name: str | None = None
    ) -> MCTSAgent:
        """A PUCT search with these settings: one seat of self-play, or (``noise=False``) a competitive player."""
        return MCTSAgent(
            seed,
            name,
            simulations=self.simulations,
            evaluator=evaluator,
            selection="puct",
            exploration=self.exploration,
            determinizations=self.determinizations,
            temperature=temperature,
            dirichlet_fraction=self.dirichlet_fraction if noise else 0.0,
            dirichlet_alpha=self.dirichlet_alpha,
            batch_size=self.batch_size,
            reuse_tree=not noise,
        )


def play_selfplay_game(
    game: Game, evaluator: NetworkEvaluator, settings: SelfPlaySettings, seed: int
) -> tuple[list[Example], np.ndarray]:
    """One self-play game from ``seed``: its examples (mirrored ones included) and the final returns."""
    rng = np.random.default_rng(seed)
    seeds = rng.integers(2**31, size=2 * game.spec.num_players)
    sampling = [settings.searcher(evaluator, int(s), 1.0) for s in seeds[: game.spec.num_players]]
    greedy = [settings.searcher(evaluator, int(s), 0.0) for s in seeds[game.spec.num_players :]]
    state, decisions = game.initial_state(rng), []
    while not game.is_terminal(state):
        mover = int(state.current_player)
        view = game.determinize(state, mover, rng)
        searcher = (sampling if state.ply < settings.temperature_plies else greedy)[mover]
        action = searcher.act(game, view, mover)
        policy = searcher.last_search.policy(game.spec.num_actions)
        if not policy.any():  # a single legal move: no search ran
            policy[action] = 1.0
        mask = np.array(game.legal_action_mask(state), dtype=bool)
        decisions.append((game.observe(state, mover), mask, policy, mover))
        state = game.apply(state, action)
    returns = game.returns(state).astype(np.float32)
    examples = []
    for observation, mask, policy, mover in decisions:
        examples.append(Example(observation, mask, policy, relative_values(returns, mover)))
        examples.extend(transformed(symmetry, examples[-1], returns, mover) for symmetry in game.symmetries)
    return examples, returns


def transformed(symmetry: Symmetry, example: Example, returns: np.ndarray, mover: int) -> Example:
    """The example of the transformed position: observation, mask and policy moved by ``symmetry``, the value
    target the permuted ``returns`` in the seat order of the transformed mover."""
    value = relative_values(symmetry.seat_values_of(returns), symmetry.players[mover])
    mask, policy = symmetry.action_values_of(example.mask), symmetry.action_values_of(example.policy)
    return Example(symmetry.observation(example.observation), mask, policy, value)
