"""What a legal Gravwell action does (docs/rules/rules.md §1): the transitions as plain functions, written for speed.

:func:`new_game` sets up ``initial_state``. ``Gravwell._apply`` calls one of :func:`draft`, :func:`commit` (a secret
card choice), :func:`reveal` (the last commit of a turn: every card is revealed and resolves) and
:func:`stop_decision`, passing the game's ``tables.Tables`` (what the transitions read of the configured game) and a
legal move: legality (``legality``) and the move cap are the job of ``Game.apply``. Every card moves ships through
``movement.resolve``, the one resolution path, which the agents and the tests call too.

A state keeps its attributes in its ``__dict__``; a transition copies that dict once into the new state,
replaces only the lists it changes (states share the others: states are never mutated) and records its
events as plain tuples ``(kind, player, card, detail, tile)`` (``GravwellState.events`` adds the ply).
The new state's own attributes (``current_player``, ``truncated``...) are therefore its own to set. Each
transition builds its state in place (``object.__new__`` and the dict) rather than through a helper: one
more Python call per move shows in the benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardenvs.core import TERMINAL
from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.movement import SIGNED_VALUES, WARP_GATE, heading, resolve
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP, GravwellState
from boardenvs.games.gravwell.tables import ROUNDS, TURNS, RawEvent, Tables

BITS: tuple[int, ...] = tuple(1 << card for card in range(NUM_CARDS))
CLEAR: tuple[int, ...] = tuple(~(1 << card) for card in range(NUM_CARDS))
MAX_PLAYERS = 4
ROUND_EVENTS = tuple(("round", -1, -1, r, -1) for r in range(ROUNDS))
COMMIT_EVENTS = tuple((("commit", p, -1, -1, -1),) for p in range(MAX_PLAYERS))
REVEAL_EVENTS = tuple(tuple(("reveal", p, c, -1, -1) for c in range(NUM_CARDS)) for p in range(MAX_PLAYERS))
PENDING = tuple(tuple((c, p) for c in range(NUM_CARDS)) for p in range(MAX_PLAYERS))
"""The queue entry ``(card, owner)``, shared."""
STOP_EVENTS = tuple(tuple(("emergency_stop", p, c, -1, -1) for c in range(NUM_CARDS)) for p in range(MAX_PLAYERS))
_new_object = object.__new__


def new_game(tables: Tables, decks: tuple[tuple[int, ...], ...], ties: tuple[tuple[int, ...], ...]) -> GravwellState:
    """Ships in the Singularity, the first round dealt from the pre-drawn ``decks`` (per round, the order of
    the 26 cards) and Singularity tie orders ``ties`` (per round, an order of the players)."""
    n = tables.n
    fields = {
        "pos": [0] * n + list(tables.hulks), "hands": [0] * n, "known": [0] * n, "stacks": (), "free": 0,
        "order": (), "picks": 0, "commits": [-1] * n, "queue": (), "direction": 0, "stops": [True] * n,
        "round": 0, "turn": 0, "phase": DRAFT, "revealed": (-1,) * n, "spent": 0, "decks": decks, "ties": ties,
        "winner": -1, "raw_events": (), "current_player": 0, "ply": 0, "truncated": False,
    }  # fmt: skip
    _start_round(tables, fields, [])
    state = _new_object(GravwellState)
    state.__dict__ = fields
    return state


# -- the moves -----------------------------------------------------------------------------------
def draft(tables: Tables, state: GravwellState, player: int, stack: int) -> GravwellState:
    """``player`` takes the open ``stack``; after the last pick the turn's commits start with seat 0."""
    fields = state.__dict__.copy()
    up, down = state.stacks[stack]
    fields["hands"] = hands = state.hands[:]
    hands[player] |= BITS[up] | BITS[down]
    fields["known"] = known = state.known[:]
    known[player] |= tables.known_mask[up][down]
    fields["free"], fields["ply"] = state.free & CLEAR[stack], state.ply + 1
    picks = fields["picks"] = state.picks + 1
    if picks == tables.num_stacks:
        fields["phase"], fields["current_player"] = COMMIT, 0
    else:
        fields["current_player"] = state.order[picks % tables.n]
    fields["raw_events"] = tables.draft_events[player][stack][up]
    new = _new_object(GravwellState)
    new.__dict__ = fields
    return new


def commit(state: GravwellState, player: int, card: int) -> GravwellState:
    """``player`` (not the last seat) commits ``card`` in secret; the next seat commits next."""
    fields = state.__dict__.copy()  # the hot path of random playouts
    fields["commits"] = commits = state.commits[:]
    commits[player] = card
    fields["current_player"], fields["ply"] = player + 1, state.ply + 1
    fields["raw_events"] = COMMIT_EVENTS[player]
    new = _new_object(GravwellState)
    new.__dict__ = fields
    return new


def reveal(tables: Tables, state: GravwellState, card: int) -> GravwellState:
    """The last seat commits ``card``: reveal every card of the turn and resolve them in card order."""
    n = tables.n
    fields = state.__dict__.copy()
    revealed = (*state.commits[: n - 1], card)
    hands, spent = state.hands[:], state.spent
    events = [COMMIT_EVENTS[n - 1][0]]
    queue = []
    for owner, played in enumerate(revealed):
        hands[owner] &= CLEAR[played]
        spent |= BITS[played]
        events.append(REVEAL_EVENTS[owner][played])
        queue.append(PENDING[owner][played])
    queue.sort()
    fields["hands"], fields["spent"], fields["ply"] = hands, spent, state.ply + 1
    fields["revealed"], fields["commits"] = revealed, [-1] * n
    fields["pos"] = pos = state.pos[:]
    return _resolve_queue(tables, fields, pos, queue, 0, events)


def stop_decision(tables: Tables, state: GravwellState, use: bool) -> GravwellState:
    """The owner of the card at the head of the queue uses its Emergency Stop (the card is cancelled) or not
    (the card moves the way worked out before the decision); then the rest of the queue resolves."""
    fields = state.__dict__.copy()
    queue = state.queue
    fields["ply"] = state.ply + 1
    fields["pos"] = pos = state.pos[:]
    if not use:
        return _resolve_queue(tables, fields, pos, queue, 0, [], state.direction or 2)
    card, owner = queue[0]
    stops = fields["stops"] = state.stops[:]
    stops[owner] = False
    return _resolve_queue(tables, fields, pos, queue, 1, [STOP_EVENTS[owner][card]])


# -- resolution -----------------------------------------------------------------------------------
def _resolve_queue(
    tables: Tables,
    fields: dict[str, Any],
    pos: list[int],
    queue: Sequence[tuple[int, int]],
    start: int,
    events: list[RawEvent],
    declined: int = 0,
) -> GravwellState:
    """Resolve ``queue[start:]`` on ``pos`` (each card by ``movement.resolve``, which records the "move" events)
    until a card needs an Emergency Stop decision, someone escapes or the turn ends; returns the new state.
    ``declined`` is 0 unless the owner of ``queue[start]`` has just declined the stop: then it is the way that
    card moves (+1/-1, from before the decision), or 2 for a tractor."""
    stops, n, inert = fields["stops"], tables.n, tables.inert_tractors
    for index in range(start, len(queue)):
        card, owner = queue[index]
        if declined:
            direction, declined = declined, 0
        else:
            signed = SIGNED_VALUES[card]
            direction = heading(pos, owner) if signed else 0  # 0 for a tractor: it has no direction
            if signed and not direction:
                events.append(("stuck", owner, card, -1, pos[owner]))
                continue
            if stops[owner]:  # the owner decides first; the card would move ``direction``
                fields["phase"], fields["current_player"], fields["queue"] = STOP, owner, tuple(queue[index:])
                fields["direction"] = direction
                break
        winner = resolve(pos, owner, card, n, inert, direction, events)
        if winner >= 0:
            _escape(fields, events, winner, card)
            break
    else:
        fields["queue"], fields["direction"] = (), 0
        _end_turn(tables, fields, events)
    fields["raw_events"] = tuple(events)
    new = _new_object(GravwellState)
    new.__dict__ = fields
    return new


def _escape(fields: dict[str, Any], events: list[RawEvent], winner: int, card: int) -> None:
    """``winner``'s ship reached the Warp Gate: the game is over, later cards do not resolve."""
    fields["winner"], fields["current_player"], fields["queue"], fields["direction"] = winner, TERMINAL, (), 0
    events.append(("escape", winner, card, -1, WARP_GATE))


# -- rounds and turns -----------------------------------------------------------------------------
def _end_turn(tables: Tables, fields: dict[str, Any], events: list[RawEvent]) -> None:
    """After the turn's cards: the next turn's commits, the next round, or the end of the game."""
    turn = fields["turn"] + 1
    if turn < TURNS:
        fields["turn"], fields["phase"], fields["current_player"] = turn, COMMIT, 0
        return
    if fields["round"] + 1 == ROUNDS:
        fields["turn"], fields["current_player"] = TURNS - 1, TERMINAL
        return
    fields["round"] += 1
    _start_round(tables, fields, events)


def _start_round(tables: Tables, fields: dict[str, Any], events: list[RawEvent]) -> None:
    """Deal the round's stacks, reset hands (and stops unless Hardcore) and set the draft order: ships in the
    Singularity first (in the round's pre-drawn tie order), then the furthest from the Warp Gate first."""
    n, round_ = tables.n, fields["round"]
    deck, pos = fields["decks"][round_], fields["pos"]
    fields["stacks"] = tuple(zip(deck[0 : 6 * n : 2], deck[1 : 6 * n : 2]))
    fields["free"] = (1 << tables.num_stacks) - 1
    fields["hands"], fields["known"], fields["spent"] = [0] * n, [0] * n, 0
    if not tables.hardcore:
        fields["stops"] = [True] * n
    waiting = [p for p in fields["ties"][round_] if pos[p] == 0]
    order = tuple(waiting + sorted((p for p in range(n) if pos[p] > 0), key=pos.__getitem__))
    fields["order"], fields["picks"], fields["phase"], fields["turn"] = order, 0, DRAFT, 0
    fields["current_player"] = order[0]
    events.append(ROUND_EVENTS[round_])
