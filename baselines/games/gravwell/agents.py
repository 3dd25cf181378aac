"""Scripted Gravwell agents of seed 000 (Gravitas): the two random agents (§3.6) and the decision-tree agent (§3.5).

The decision trees, as the seed describes them (Figures 7-9 are not in the stored text; the prose is
followed):

* **Drafting.** Cards fall in five groups: tractors, repulsors, high normals (value >= 8), low normals
  (<= 3) and the remaining normals. Prefer a stack whose face-up card belongs to a group the hand lacks, in
  the order tractor, repulsor, low, high, remaining; within a group the earliest-resolving card. If every
  visible group is already held, the earliest-resolving face-up card.
* **Card choice.** Nearest ship ahead: a normal card (the first in resolution order,
  which is the most predictable); behind: a repulsor. Without one of the wanted type: a tractor if held,
  else the lowest normal (moving backwards) or the lowest repulsor (moving forwards). Stuck: a random card.
* **Emergency Stop.** Used when the card about to resolve would decrease the ship's position.

The seed's Q-learning agent (§3.4) is in :mod:`baselines.learners.gravwell_q`.
"""

from __future__ import annotations

from typing import Any

from baselines.agent import BaseAgent, SeedLike
from baselines.params import float_param
from boardenvs.core import Game
from boardenvs.games.gravwell.cards import NORMAL, REPULSOR, TRACTOR, TYPES, VALUES, bits_to_cards
from boardenvs.games.gravwell.movement import heading, resolve
from boardenvs.games.gravwell.state import COMMIT, DRAFT

GROUP_PREFERENCE = ("tractor", "repulsor", "low", "high", "remaining")
__all__ = ["DecisionTreeAgent", "RandomEmergencyStopAgent", "RandomNoStopAgent", "card_group"]


def card_group(card: int) -> str:
    """The seed's drafting group of ``card``."""
    if TYPES[card] == TRACTOR:
        return "tractor"
    if TYPES[card] == REPULSOR:
        return "repulsor"
    value = VALUES[card]
    return "high" if value >= 8 else "low" if value <= 3 else "remaining"


class RandomEmergencyStopAgent(BaseAgent):
    """Uniform random choices; uses an offered Emergency Stop with probability ``stop_probability`` (``random_es``;
    not :class:`baselines.agent.RandomAgent`, which plays every game and knows no Emergency Stop)."""

    name = "random_es"

    def __init__(self, seed: SeedLike = None, stop_probability: float = 0.5, name: str | None = None) -> None:
        super().__init__(seed, name)
        self.stop_probability = float_param("stop_probability", stop_probability, 0.0, 1.0)

    def act(self, game: Game, view: Any, player: int) -> int:
        if view.phase not in (DRAFT, COMMIT):
            return game.stop_action + (0 if self.rng.random() < self.stop_probability else 1)
        legal = game.legal_actions(view)
        return int(legal[self.rng.integers(len(legal))])


class RandomNoStopAgent(RandomEmergencyStopAgent):
    """Uniform random choices; never uses the Emergency Stop (Gravitas ``RandomIgnoreEmergency``)."""

    name = "random_no_es"

    def __init__(self, seed: SeedLike = None, name: str | None = None) -> None:
        super().__init__(seed, 0.0, name)


class DecisionTreeAgent(BaseAgent):
    """The seed's decision-tree agent (drafting, card-choice and Emergency Stop trees)."""

    name = "decision_tree"

    def act(self, game: Game, view: Any, player: int) -> int:
        if view.phase == DRAFT:
            return self.draft(view, player)
        if view.phase == COMMIT:
            return game.play_base + self.choose_card(view, player)
        return game.stop_action + (0 if self.stop_wanted(game, view) else 1)

    def draft(self, view: Any, player: int) -> int:
        """The stack to take."""
        held = {card_group(card) for card in bits_to_cards(view.hands[player])}
        open_stacks = [(up, index) for index, up, _ in view.open_stacks()]
        for group in GROUP_PREFERENCE:
            if group in held:
                continue
            choices = sorted(item for item in open_stacks if card_group(item[0]) == group)
            if choices:
                return choices[0][1]
        return min(open_stacks)[1]

    def choose_card(self, view: Any, player: int) -> int:
        """The card to commit."""
        hand = bits_to_cards(view.hands[player])
        direction = heading(view.pos, player)
        if direction == 0:
            return int(hand[self.rng.integers(len(hand))])
        wanted, fallback = (NORMAL, REPULSOR) if direction > 0 else (REPULSOR, NORMAL)
        for kinds in ((wanted,), (TRACTOR,)):
            cards = [card for card in hand if TYPES[card] in kinds]
            if cards:
                return cards[0]
        return min((card for card in hand if TYPES[card] == fallback), key=lambda card: VALUES[card])

    def stop_wanted(self, game: Game, view: Any) -> bool:
        """True if the card about to resolve would move the owner's ship backwards."""
        card, owner = view.queue[0]
        pos = list(view.pos)
        before = pos[owner]
        resolve(pos, owner, card, game.n, game.config.inert_tractors)
        return pos[owner] < before
