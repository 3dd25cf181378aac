"""The neuro-evolution agent (:class:`NeuroevolutionAgent`): its network picks the card, drafting is random and
the Emergency Stop is never used, as in seed 000."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.neuroevolution.files import load_network, shipped_network
from baselines.learners.neuroevolution.network import Network, network_inputs
from boardenvs.core import Game
from boardenvs.games.gravwell.cards import bits_to_cards
from boardenvs.games.gravwell.state import COMMIT, DRAFT

SHIPPED = "shipped"
"""The ``network`` value of :class:`NeuroevolutionAgent` that picks the package's network."""


class NeuroevolutionAgent(BaseAgent):
    """The seed's neuro-evolution agent: the network picks the card, drafting is random, no Emergency Stop.

    Args:
        seed: seeds the random drafting.
        network: a :class:`Network`, the path of a saved one, or ``"shipped"`` (default): the package's network
            for the game's ``inert_tractors`` setting, loaded when the agent first acts in such a game.
        name: the agent's name.
    """

    name = "neuroevolution"

    def __init__(self, seed: SeedLike = None, network: Network | str = SHIPPED, name: str | None = None) -> None:
        super().__init__(seed, name)
        self.shipped = isinstance(network, str) and network == SHIPPED
        self.network: Network | None = None if self.shipped else _as_network(network)
        self.loaded_for: bool | None = None

    def act(self, game: Game, view: Any, player: int) -> int:
        if view.phase == DRAFT:
            legal = game.legal_actions(view)
            return int(legal[self.rng.integers(len(legal))])
        if view.phase == COMMIT:
            hand = bits_to_cards(view.hands[player])
            slot = self._network_for(game).choose(network_inputs(view.pos, hand, player, game.n), len(hand))
            return game.play_base + hand[slot]
        return game.stop_action + 1  # decline the Emergency Stop

    def _network_for(self, game: Game) -> Network:
        if self.shipped:
            inert = bool(getattr(game.config, "inert_tractors", False))
            if self.loaded_for is not inert:
                self.network, self.loaded_for = shipped_network(inert), inert
        assert self.network is not None
        return self.network


def _as_network(network: Network | str | Path) -> Network:
    if isinstance(network, Network):
        return network
    if isinstance(network, (str, Path)):
        return load_network(network)
    raise ValueError(f"network must be a Network, a path or {SHIPPED!r}, got {network!r}")
