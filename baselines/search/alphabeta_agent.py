"""The generic two-player alpha-beta agent ``alphabeta`` over :class:`baselines.search.alphabeta.AlphaBeta`.

**The agent** (:class:`AlphaBetaAgent`, ``make_agent("alphabeta:depth=3", game_name)``) plays two-player
games that have a heuristic value (``baselines.search.knowledge.games_with_values()``: the value MCTS's ``heuristic``
evaluator uses). Its leaf value is the root player's entry of
:func:`baselines.search.evaluators.heuristic_value`; a finished game is worth its returns, shrunk by
:data:`TERMINAL_DISCOUNT` per ply so that a sooner win (and a later loss) is preferred. It refuses games with
another number of players (``ValueError`` naming ``num_players``) and games without a value. It searches the
view it is given (for hidden information: one determinization). Given the seed it is deterministic, except
under a ``seconds`` budget, which depends on the machine's speed.

Example:
    >>> import numpy as np
    >>> from baselines.factory import make_agent
    >>> from boardenvs import make_game
    >>> game = make_game("quoridor", board_size=5)
    >>> agent = make_agent("alphabeta:depth=2", "quoridor", seed=0)
    >>> state = game.initial_state(np.random.default_rng(0))
    >>> bool(game.legal_action_mask(state)[agent.act(game, state, 0)])
    True
    >>> agent.last_search.depth
    2
"""

from __future__ import annotations

from typing import Any

from baselines.agent import MAX_COUNT, MAX_DEPTH, MAX_SECONDS, BaseAgent, SeedLike
from baselines.params import choice_param, float_param, int_param
from baselines.search.alphabeta import DEFAULT_DEPTH, ORDERINGS, TERMINAL_DISCOUNT, AlphaBeta, SearchResult
from baselines.search.evaluators import heuristic_value
from baselines.search.knowledge import games_with_values, priors_of, value_of
from boardenvs.core import Game


# -- the agent ------------------------------------------------------------------------------------
class AlphaBetaAgent(BaseAgent):
    """Alpha-beta search for two-player games with a heuristic value (see the module docstring).

    Args:
        seed: the agent's seed (int, generator or ``None``).
        name: display name (default ``"alphabeta"``).
        depth: the deepest iteration, in plies (>= 1), or ``None``: no depth limit when ``seconds`` or ``nodes``
            is given, else :data:`DEFAULT_DEPTH`.
        seconds: wall-clock budget per move (> 0) or ``None``.
        nodes: leaf valuations per move (>= 1) or ``None``: a budget that does not depend on the machine.
        ordering: one of :data:`ORDERINGS`.
    """

    name = "alphabeta"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        depth: int | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        ordering: str = "auto",
    ) -> None:
        super().__init__(seed, name)
        self.depth = int_param("depth", depth, 1, MAX_DEPTH, optional=True)
        self.seconds = float_param("seconds", seconds, 0.0, MAX_SECONDS, positive=True, optional=True)
        self.nodes = int_param("nodes", nodes, 1, MAX_COUNT, optional=True)
        if self.depth is None and self.seconds is None and self.nodes is None:
            self.depth = DEFAULT_DEPTH
        self.ordering = choice_param("ordering", ordering, ORDERINGS)
        self.last_search: SearchResult | None = None

    def check(self, game: Game) -> None:
        """``ValueError`` unless ``game`` has two players and a heuristic value."""
        players = game.spec.num_players
        if players != 2:
            raise ValueError(
                f"agent {self.name!r}: alpha-beta plays 2-player games, and this {game.spec.name} game has "
                f"num_players={players} (for more players use mcts, or minimax for battle_sheep)"
            )
        if value_of(game.spec.name) is None:
            raise ValueError(
                f"agent {self.name!r}: no heuristic value for game {game.spec.name!r}; games with one: "
                f"{games_with_values()}"
            )

    def act(self, game: Game, view: Any, player: int) -> int:
        """The move the search prefers for ``player`` in ``view``."""
        self.check(game)
        legal = game.legal_actions(view)
        if len(legal) == 0:
            raise ValueError(f"{self.name}: no legal action in the position given (is the game over?)")
        if len(legal) == 1:
            self.last_search = SearchResult(int(legal[0]), 0.0, 0, True, 0, 0.0)
            return int(legal[0])
        depth = self.depth if self.depth is not None else game.spec.max_game_length
        self.last_search = self._search(game).run(game, view, player, depth, self.seconds, self.nodes)
        return self.last_search.action

    def _search(self, game: Game) -> AlphaBeta:
        priors = priors_of(game.spec.name) if self.ordering in ("auto", "priors") else None
        by_value = self.ordering == "value" or (self.ordering == "auto" and priors is None)
        return AlphaBeta(heuristic_leaf, self.rng, priors=priors, order_by_value=by_value)


def heuristic_leaf(game: Game, state: Any, root: int, ply: int) -> float:
    """The root player's heuristic value of ``state``; a finished game's returns shrunk by
    :data:`TERMINAL_DISCOUNT` per ply."""
    if game.is_terminal(state):
        return float(game.returns(state)[root]) * (1.0 - TERMINAL_DISCOUNT * ply)
    return float(heuristic_value(game, state)[root])
