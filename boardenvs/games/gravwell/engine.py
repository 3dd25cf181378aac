"""The Gravwell transitions (RULES.md §1), written for speed: the engine behind ``Gravwell.apply``.

A state keeps its attributes in its ``__dict__``; a transition copies that dict once, replaces only the
lists it changes (states share the others: states are never mutated) and records its events as plain
tuples ``(ply, kind, player, card, detail, tile)`` (``GravwellState.events`` wraps them on access).
The caller (``Gravwell.apply``) has checked that the action is legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardenvs.core import TERMINAL
from boardenvs.games.gravwell.cards import NUM_CARDS, VALUES
from boardenvs.games.gravwell.observation import TURNS
from boardenvs.games.gravwell.rules import SIGNED_VALUES, WARP_GATE, heading, pull, slide
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP, GravwellState

ROUNDS = 6
BITS: tuple[int, ...] = tuple(1 << card for card in range(NUM_CARDS))
CLEAR: tuple[int, ...] = tuple(~(1 << card) for card in range(NUM_CARDS))
RawEvent = tuple[str, int, int, int, int]
"""``(kind, player, card, detail, tile)``: a ``GravwellEvent`` without its ply (that of the action)."""
MAX_PLAYERS = 4
ROUND_EVENTS = tuple(("round", -1, -1, r, -1) for r in range(ROUNDS))
COMMIT_EVENTS = tuple((("commit", p, -1, -1, -1),) for p in range(MAX_PLAYERS))
REVEAL_EVENTS = tuple(tuple(("reveal", p, c, -1, -1) for c in range(NUM_CARDS)) for p in range(MAX_PLAYERS))
PENDING = tuple(tuple((c, p) for c in range(NUM_CARDS)) for p in range(MAX_PLAYERS))
"""The queue entry ``(card, owner)``, shared."""
STOP_EVENTS = tuple(tuple(("emergency_stop", p, c, -1, -1) for c in range(NUM_CARDS)) for p in range(MAX_PLAYERS))
_new_object = object.__new__


def new_state(fields: dict[str, Any]) -> GravwellState:
    """The state whose attributes are ``fields`` (taken over, not copied)."""
    state = _new_object(GravwellState)
    state.__dict__ = fields
    return state


class Engine:
    """The transitions of ``Gravwell`` (a mixin: it reads the game's ``n``, ``num_stacks``, ``config``,
    ``_last_ply`` (the last ply before the ``max_plies`` cut), ``_inert``, ``_known_mask`` and ``_seats``
    (``range(n)`` as a tuple))."""

    n: int
    num_stacks: int
    config: Any
    _last_ply: int
    _inert: bool
    _known_mask: tuple[tuple[int, ...], ...]
    _seats: tuple[int, ...]

    def _successor(self, fields: dict[str, Any], events: Sequence[RawEvent], ply: int) -> GravwellState:
        """The state after ply ``ply`` from its attributes; the game ends after ply ``_last_ply``."""
        fields["raw_events"] = tuple(events)
        if ply >= self._last_ply and fields["current_player"] != TERMINAL:
            fields["current_player"], fields["truncated"] = TERMINAL, True
        state = _new_object(GravwellState)
        state.__dict__ = fields
        return state

    def _start_round(self, fields: dict[str, Any], events: list[RawEvent], ply: int) -> None:
        """Deal the round's stacks, reset hands (and stops unless Hardcore) and set the draft order."""
        n, round_ = self.n, fields["round"]
        deck, pos = fields["decks"][round_], fields["pos"]
        fields["stacks"] = tuple(zip(deck[0 : 6 * n : 2], deck[1 : 6 * n : 2]))
        fields["free"] = (1 << self.num_stacks) - 1
        fields["hands"], fields["known"], fields["spent"] = [0] * n, [0] * n, 0
        if not self.config.hardcore:
            fields["stops"] = [True] * n
        waiting = [p for p in fields["ties"][round_] if pos[p] == 0]
        order = tuple(waiting + sorted((p for p in range(n) if pos[p] > 0), key=pos.__getitem__))
        fields["order"], fields["picks"], fields["phase"], fields["turn"] = order, 0, DRAFT, 0
        fields["current_player"] = order[0]
        events.append(ROUND_EVENTS[round_])

    def _draft(self, state: GravwellState, player: int, stack: int) -> GravwellState:
        fields = state.__dict__.copy()
        ply = state.ply
        up, down = state.stacks[stack]
        fields["hands"] = hands = state.hands[:]
        hands[player] |= BITS[up] | BITS[down]
        fields["known"] = known = state.known[:]
        known[player] |= self._known_mask[up][down]
        fields["free"], fields["ply"] = state.free & CLEAR[stack], ply + 1
        picks = fields["picks"] = state.picks + 1
        if picks == self.num_stacks:
            fields["phase"], fields["current_player"] = COMMIT, 0
        else:
            fields["current_player"] = state.order[picks % self.n]
        fields["raw_events"] = self._draft_events[player][stack][up]
        if ply >= self._last_ply:
            fields["current_player"], fields["truncated"] = TERMINAL, True
        new = _new_object(GravwellState)
        new.__dict__ = fields
        return new

    def _reveal(self, state: GravwellState, card: int) -> GravwellState:
        """The last commit (``card``) of a turn: reveal every card and resolve them in card order."""
        fields = state.__dict__.copy()
        ply = state.ply
        revealed = (*state.commits[: self.n - 1], card)
        hands, spent = state.hands[:], state.spent
        events = [COMMIT_EVENTS[self.n - 1][0]]
        queue = []
        for owner, played in enumerate(revealed):
            hands[owner] &= CLEAR[played]
            spent |= BITS[played]
            events.append(REVEAL_EVENTS[owner][played])
            queue.append(PENDING[owner][played])
        queue.sort()
        fields["hands"], fields["spent"], fields["ply"] = hands, spent, ply + 1
        fields["revealed"], fields["commits"] = revealed, [-1] * self.n
        fields["pos"] = pos = state.pos[:]
        return self._resolve(fields, pos, queue, 0, 0, events, ply)

    def _stop(self, state: GravwellState, use: bool) -> GravwellState:
        fields = state.__dict__.copy()
        ply, queue = state.ply, state.queue
        fields["ply"] = ply + 1
        fields["pos"] = pos = state.pos[:]
        if not use:
            return self._resolve(fields, pos, queue, 0, state.direction or 2, [], ply)
        card, owner = queue[0]
        stops = fields["stops"] = state.stops[:]
        stops[owner] = False
        return self._resolve(fields, pos, queue, 1, 0, [STOP_EVENTS[owner][card]], ply)

    def _resolve(
        self,
        fields: dict[str, Any],
        pos: list[int],
        queue: Sequence[tuple[int, int]],
        index: int,
        declined: int,
        events: list[RawEvent],
        ply: int,
    ) -> GravwellState:
        """Resolve ``queue[index:]`` on ``pos`` until a card needs an Emergency Stop decision, someone escapes
        or the turn ends. ``declined`` is 0 unless the owner of ``queue[index]`` has just declined the stop:
        then it is the way that card moves (+1/-1, from before the decision), or 2 for a tractor."""
        stops, end = fields["stops"], len(queue)
        while index < end:
            card, owner = queue[index]
            signed = SIGNED_VALUES[card]
            if declined:
                direction, declined = declined, 0
            elif signed:
                direction = heading(pos, owner)
                if not direction:
                    events.append(("stuck", owner, card, -1, pos[owner]))
                    index += 1
                    continue
                if stops[owner]:
                    return self._pause(fields, events, ply, owner, queue[index:], direction)
            elif stops[owner]:
                return self._pause(fields, events, ply, owner, queue[index:], 0)
            if signed:
                tile = slide(pos, owner, direction * signed)
                events.append(("move", owner, card, owner, tile))
                if tile == WARP_GATE:
                    return self._escape(fields, events, ply, owner, card)
            elif not self._inert:
                for ship, _, tile in pull(pos, owner, VALUES[card], self.n):
                    events.append(("move", owner, card, ship, tile))
                    if tile == WARP_GATE and ship < self.n:
                        return self._escape(fields, events, ply, ship, card)
            index += 1
        fields["queue"], fields["direction"] = (), 0
        self._end_turn(fields, events, ply)
        return self._successor(fields, events, ply)

    def _pause(
        self,
        fields: dict[str, Any],
        events: list[RawEvent],
        ply: int,
        owner: int,
        queue: Sequence[tuple[int, int]],
        direction: int,
    ) -> GravwellState:
        """``owner`` decides on the Emergency Stop before the head of ``queue`` (the cards left) resolves; it
        would move ``direction`` (0 for a tractor)."""
        fields["phase"], fields["current_player"], fields["queue"] = STOP, owner, tuple(queue)
        fields["direction"], fields["raw_events"] = direction, tuple(events)
        if ply >= self._last_ply:
            fields["current_player"], fields["truncated"] = TERMINAL, True
        state = _new_object(GravwellState)
        state.__dict__ = fields
        return state

    def _escape(
        self, fields: dict[str, Any], events: list[RawEvent], ply: int, winner: int, card: int
    ) -> GravwellState:
        """``winner``'s ship reached the Warp Gate: the game is over, later cards do not resolve."""
        fields["winner"], fields["current_player"], fields["queue"], fields["direction"] = winner, TERMINAL, (), 0
        events.append(("escape", winner, card, -1, WARP_GATE))
        return self._successor(fields, events, ply)

    def _end_turn(self, fields: dict[str, Any], events: list[RawEvent], ply: int) -> None:
        turn = fields["turn"] + 1
        if turn < TURNS:
            fields["turn"], fields["phase"], fields["current_player"] = turn, COMMIT, 0
            return
        if fields["round"] + 1 == ROUNDS:
            fields["turn"], fields["current_player"] = TURNS - 1, TERMINAL
            return
        fields["round"] += 1
        self._start_round(fields, events, ply)
