"""The Gravwell state: ship tiles, hands, draft field, commits, pending resolutions and pre-drawn randomness."""

from __future__ import annotations

from typing import NamedTuple

DRAFT, COMMIT, STOP = 0, 1, 2
"""Phases: drafting a stack, committing a card in secret, deciding on the Emergency Stop."""
PHASE_NAMES: tuple[str, ...] = ("draft", "commit", "emergency_stop")
LIST_FIELDS: tuple[str, ...] = ("pos", "hands", "known", "commits", "stops")
"""The attributes held in lists (every other attribute is an int, a bool or a tuple)."""


class GravwellEvent(NamedTuple):
    """One public happening, recorded in ``state.events`` (the events of the last action only).

    ``kind`` is one of "draft" (``card`` = the face-up card of the taken stack, ``detail`` = the stack),
    "commit" (``card`` = -1: nobody sees which), "reveal" (``card`` = the revealed card), "move" (``card``
    played by ``player`` moved ship ``detail`` to tile ``tile``), "stuck", "emergency_stop", "escape"
    (``player`` reached the Warp Gate) and "round".
    """

    ply: int
    kind: str
    player: int
    card: int = -1
    detail: int = -1
    tile: int = -1


_tuple_new = tuple.__new__


def _events(state: GravwellState) -> tuple[GravwellEvent, ...]:
    """``state.raw_events`` (as the engine records them: without the ply, which is that of the last action,
    ``state.ply - 1``) as :class:`GravwellEvent` tuples."""
    ply = state.ply - 1
    return tuple([_tuple_new(GravwellEvent, (ply, *raw)) for raw in state.raw_events])


class GravwellState:
    """One position. Treat it as immutable: ``Gravwell.apply`` always builds a new state, sharing with its
    input every list it does not change (``copy`` copies the lists).

    Attributes:
        pos: tile of every ship: players 0..n-1, then the hulks (36, and 26 with 3+ players).
        hands: per player, the bitmask of its cards (bit ``c`` = card ``c``).
        known: per player, the bitmask of the cards it drafted face up this round (everybody knows them; those
            still in its hand are ``known[p] & hands[p]``, played ones stay set).
        stacks: the round's draft stacks as dealt, ``(face_up, face_down)`` each (see ``open_stacks``).
        free: bitmask of the stacks still on the table (bit ``s`` = stack ``s``).
        order: this round's draft order (player ids).
        picks: stacks taken so far this round.
        commits: per player, the card committed this turn, -1 if none yet.
        queue: ``[(card, owner), ...]`` still to resolve this turn, in resolution order (head = next).
        direction: in the ``STOP`` phase, the way the head of ``queue`` will move (+1 towards the Warp Gate,
            -1 back; 0 for a tractor), worked out before the decision, which cannot change it; 0 otherwise.
        stops: per player, whether its Emergency Stop is still available.
        round, turn: 0-based.
        phase: ``DRAFT``, ``COMMIT`` or ``STOP``.
        revealed: per player, the card it played in the latest reveal, -1 if none.
        spent: bitmask of the cards revealed so far this round.
        decks: per round, the pre-drawn order of the 26 cards (the first ``6n`` form the stacks).
        ties: per round, the pre-drawn order of players used to order ships in the Singularity.
        winner: the player who escaped, -1 otherwise.
        events: the events of the last action (see :class:`GravwellEvent`), built on access from
            ``raw_events``, the plain tuples ``(kind, player, card, detail, tile)`` the engine records (the
            ply of every one of them is ``ply - 1``; most are shared constants, so recording costs nothing).
        current_player, ply, truncated: as in every game.

    The attributes live in the instance ``__dict__`` so that the engine copies a state with one dict copy.
    """

    FIELDS: tuple[str, ...] = (
        "pos", "hands", "known", "stacks", "free", "order", "picks", "commits", "queue", "stops", "round", "turn",
        "phase", "revealed", "spent", "decks", "ties", "winner", "raw_events", "current_player", "ply", "truncated",
    )  # fmt: skip

    events = property(_events, doc="The events of the last action, as :class:`GravwellEvent` (read-only).")

    def open_stacks(self) -> list[tuple[int, int, int]]:
        """``(index, face_up, face_down)`` of every stack still on the table."""
        free = self.free
        return [(index, up, down) for index, (up, down) in enumerate(self.stacks) if free >> index & 1]

    def copy(self) -> GravwellState:
        """An equal, independent state (the lists are copied; tuples and ints are immutable and shared)."""
        new = object.__new__(GravwellState)
        fields = self.__dict__.copy()
        for name in LIST_FIELDS:
            fields[name] = fields[name][:]
        new.__dict__ = fields
        return new

    def key(self) -> bytes:
        """Canonical bytes: equal keys mean equal positions (events included)."""
        return repr(tuple(getattr(self, name) for name in self.FIELDS)).encode()

    def __repr__(self) -> str:
        return (
            f"GravwellState(round={self.round}, turn={self.turn}, phase={PHASE_NAMES[self.phase]}, "
            f"current_player={self.current_player}, ply={self.ply})"
        )
