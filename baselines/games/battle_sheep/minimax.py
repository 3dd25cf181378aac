"""Battle Sheep's ``minimax`` agent (seed 003, "Experiments": the minimax baseline of its game-1 comparison).

The seed's minimax "maximize[s] the evaluation score when [the] egocentric agent moves and minimize[s] the score
in other players' round[s]", simulating "all moves from all players" to a limited depth. That is the *paranoid*
reduction of a 3-4 player game to two sides: the searching player maximises its own evaluation score
(:func:`~baselines.games.battle_sheep.evaluation.evaluation_score`, the seed's "Evaluation Score"), every
other player minimises it. Paranoid search is a two-player zero-sum search, so alpha-beta pruning is sound
(with 2 players it is plain minimax with alpha-beta); the search is :class:`baselines.search.alphabeta.AlphaBeta`.
With ``teams`` the partner maximises too (the seed's team rule: the ego player's team against the others).

* **Moves.** The seed's move set at every node (:func:`~baselines.games.battle_sheep.evaluation.seed_moves`:
  splits of 1, n // 2 and n - 1 sheep, every open direction), the same as its ``getLegalMoves``, which keeps
  the branching small (Battle Sheep's full move set has up to 8 (n - 1) moves per stack).
* **Leaves.** The evaluation score of the searching player, at the depth limit and at the end of the game
  alike (as the seed values every position). Turns pass to whoever moves next in the game, so blocked players
  are skipped and the depth counts decisions.
* **Ordering.** Children ordered by their evaluation score (best first for the side to move) at nodes with at
  least two plies left; ties and equal moves go to the agent's generator.
* **Budget.** ``depth`` plies (default :data:`DEFAULT_DEPTH`, iteratively deepened), ``seconds`` and/or
  ``nodes`` (evaluations per move, for a budget that does not depend on the machine).
* **Placement.** The seed's convolution start cell (:meth:`EvaluationAgent.start_cell`), as in all its agents.

With hidden stack sizes the agent searches the determinized view it is given.

Example:
    >>> import numpy as np
    >>> from boardenvs import make_game
    >>> game = make_game("battle_sheep", board_size=6, field_size=20, num_players=3, sheep_per_player=4)
    >>> agent = MinimaxAgent(seed=0, depth=3)
    >>> state = game.initial_state(np.random.default_rng(0))
    >>> while game.in_placement(state):
    ...     state = game.apply(state, agent.act(game, state, state.current_player))
    >>> bool(game.legal_action_mask(state)[agent.act(game, state, state.current_player)])
    True
"""

from __future__ import annotations

from typing import Any

from baselines.agent import MAX_COUNT, MAX_DEPTH, MAX_SECONDS, BaseAgent, SeedLike
from baselines.games.battle_sheep.evaluation import EvaluationAgent, evaluation_score, seed_moves
from baselines.params import bool_param, float_param, int_param
from baselines.search.alphabeta import AlphaBeta, SearchResult
from boardenvs.core import Game
from boardenvs.games.battle_sheep import Move

DEFAULT_DEPTH = 2
"""Plies searched by default: the mover and the next player (a full 4-player round is 4 plies)."""


def seed_move_actions(game: Game, state: Any) -> list[int]:
    """The action ids of the seed's moves for the player to move in ``state``."""
    player = state.current_player
    return [game.encode(state, Move("move", cell, d, m)) for cell, d, m in seed_moves(game, state, player)]


def evaluation_leaf(game: Game, state: Any, root: int, ply: int) -> float:
    """The seed's evaluation score of ``state`` for the searching player ``root``."""
    del ply
    return evaluation_score(game, state, root)


class MinimaxAgent(BaseAgent):
    """Seed 003's depth-limited paranoid minimax with alpha-beta (see the module docstring).

    Args:
        seed: the agent's seed (int, generator or ``None``).
        name: display name (default ``"minimax"``).
        depth: the deepest iteration in plies (>= 1).
        seconds: wall-clock budget per move (> 0) or ``None``.
        nodes: evaluations per move (>= 1) or ``None``.
        ordering: order moves by their evaluation score (else only by the generator's shuffle).
    """

    name = "minimax"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        depth: int = DEFAULT_DEPTH,
        seconds: float | None = None,
        nodes: int | None = None,
        ordering: bool = True,
    ) -> None:
        super().__init__(seed, name)
        self.depth = int_param("depth", depth, 1, MAX_DEPTH)
        self.seconds = float_param("seconds", seconds, 0.0, MAX_SECONDS, positive=True, optional=True)
        self.nodes = int_param("nodes", nodes, 1, MAX_COUNT, optional=True)
        self.ordering = bool_param("ordering", ordering)
        self.last_search: SearchResult | None = None

    def act(self, game: Game, view: Any, player: int) -> int:
        """The seed's start cell while placing, else the paranoid search's move."""
        if game.in_placement(view):
            return EvaluationAgent.start_cell(game, view)
        candidates = seed_move_actions(game, view)
        if len(candidates) == 1:
            return candidates[0]
        allies = [(player + 2) % 4] if game.config.teams else []
        search = AlphaBeta(evaluation_leaf, self.rng, seed_move_actions, order_by_value=self.ordering, allies=allies)
        self.last_search = search.run(game, view, player, self.depth, self.seconds, self.nodes)
        return self.last_search.action
