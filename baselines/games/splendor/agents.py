"""Scripted Splendor agents: seed 002's one-step look-ahead on points (OSLA) and a greedy card buyer.

:class:`OSLAAgent` is Rinascimento's ``OneStepLookAheadAgent`` with its ``PointsHeuristic``, written as
intended: every legal action is applied to the agent's view once and one with the most points for the agent
afterwards is played (ties broken by the agent's generator; the Java loop re-evaluates a single sampled
action, an apparent bug of the reference code).

:class:`BuyerAgent` plays, in this order: buy the affordable card with the most points (cheaper first);
reserve a face-up card an opponent could buy now for 3 or more points (block); take the tokens that most
reduce the shortfall on its target card (the card with the best points per missing token, reserved cards
included); reserve the target; anything else. It returns the tokens it needs least, takes any noble and,
when the official rules let it choose how to pay, keeps its gold (coloured tokens first).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.agent import BaseAgent
from boardenvs.core import Game

BLOCK_POINTS = 3
"""An opponent's affordable face-up card worth at least this many points is worth blocking."""


class OSLAAgent(BaseAgent):
    """One-step look-ahead on the agent's own points (seed 002's OSLA with ``PointsHeuristic``)."""

    name = "osla"

    def act(self, game: Game, view: Any, player: int) -> int:
        """A legal action that leaves ``player`` with the most points."""
        actions = game.legal_actions(view)
        points = np.array([game.scores(game.apply(view, int(a)))[player] for a in actions])
        return self.choose(actions[points == points.max()])


def shortfall(game: Game, view: Any, player: int, card: int) -> int:
    """Tokens ``player`` still lacks to buy ``card`` (gold counted as wildcards)."""
    cards, row = game.tables.cards, view.players[player]
    need = np.maximum(cards.cost[card] - row[6:11], 0)
    return int(np.maximum(need - row[:5], 0).sum()) - int(row[5])


class BuyerAgent(BaseAgent):
    """Greedy buyer: buy points, block opponents' big purchases, take tokens toward the cheapest points."""

    name = "buyer"

    def act(self, game: Game, view: Any, player: int) -> int:
        """The first applicable rule of the module docstring."""
        legal = [int(a) for a in game.legal_actions(view)]
        by_kind: dict[str, list[int]] = {}
        for action in legal:
            by_kind.setdefault(game.decode(view, action).kind, []).append(action)
        if "return" in by_kind:
            return self._return(game, view, player, by_kind["return"])
        if "noble" in by_kind:
            return self.choose(by_kind["noble"])
        if "pay" in by_kind:
            return by_kind["pay"][0]
        for rule in (self._buy, self._block, self._take, self._reserve_target):
            action = rule(game, view, player, by_kind)
            if action is not None:
                return action
        return self.choose(legal)

    def _card_of(self, game: Game, view: Any, player: int, action: int) -> int:
        kind, arg = game.decode(view, action)
        if kind in ("buy_face_up", "reserve_face_up"):
            return int(view.face_up.ravel()[arg])
        return int(view.reserved[player, arg])

    def _buy(self, game: Game, view: Any, player: int, by_kind: dict[str, list[int]]) -> int | None:
        buys = by_kind.get("buy_face_up", []) + by_kind.get("buy_reserved", [])
        if not buys:
            return None
        cards = game.tables.cards
        value = [
            (int(cards.points[c]), -int(cards.cost[c].sum()))
            for c in (self._card_of(game, view, player, a) for a in buys)
        ]
        return buys[max(range(len(buys)), key=value.__getitem__)]

    def _block(self, game: Game, view: Any, player: int, by_kind: dict[str, list[int]]) -> int | None:
        cards = game.tables.cards
        for action in by_kind.get("reserve_face_up", []):
            card = self._card_of(game, view, player, action)
            if cards.points[card] < BLOCK_POINTS:
                continue
            for other in range(game.spec.num_players):
                if other != player and shortfall(game, view, other, card) <= 0:
                    return action
        return None

    def target(self, game: Game, view: Any, player: int) -> int:
        """The face-up or reserved card with the best points per missing token (-1 if none)."""
        cards = game.tables.cards
        candidates = [int(c) for c in np.concatenate([view.face_up.ravel(), view.reserved[player]]) if c >= 0]
        if not candidates:
            return -1

        def value(card: int) -> float:
            return (int(cards.points[card]) + 0.5) / (1 + max(0, shortfall(game, view, player, card)))

        return max(candidates, key=value)

    def _take(self, game: Game, view: Any, player: int, by_kind: dict[str, list[int]]) -> int | None:
        takes = by_kind.get("take_different", []) + by_kind.get("take_same", [])
        card = self.target(game, view, player)
        if not takes or card < 0:
            return None
        row = view.players[player]
        missing = np.maximum(np.maximum(game.tables.cards.cost[card] - row[6:11], 0) - row[:5], 0)
        gains = []
        for action in takes:
            taken = game.apply(view, action).players[player, :5] - row[:5]
            gains.append(int(np.minimum(taken, missing).sum()))
        best = max(gains)
        return self.choose([a for a, g in zip(takes, gains) if g == best]) if best > 0 else None

    def _reserve_target(self, game: Game, view: Any, player: int, by_kind: dict[str, list[int]]) -> int | None:
        card = self.target(game, view, player)
        for action in by_kind.get("reserve_face_up", []):
            if self._card_of(game, view, player, action) == card:
                return action
        return None

    def _return(self, game: Game, view: Any, player: int, returns: list[int]) -> int:
        card = self.target(game, view, player)
        row = view.players[player]
        need = np.maximum(game.tables.cards.cost[card] - row[6:11], 0) if card >= 0 else np.zeros(5)
        surplus = {a: (row[game.decode(view, a).arg] - (need[game.decode(view, a).arg] if game.decode(
            view, a).arg < 5 else 99)) for a in returns}  # fmt: skip
        return max(returns, key=surplus.__getitem__)
