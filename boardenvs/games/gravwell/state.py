"""The Gravwell state: ship tiles, hands, draft field, commits, pending resolutions and pre-drawn randomness."""

from __future__ import annotations

from typing import NamedTuple

DRAFT, COMMIT, STOP = 0, 1, 2
"""Phases: drafting a stack, committing a card in secret, deciding on the Emergency Stop."""
PHASE_NAMES: tuple[str, ...] = ("draft", "commit", "emergency_stop")


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


class GravwellState:
    """One position. Treat it as immutable: ``Gravwell.apply`` always builds a new state.

    Attributes:
        pos: tile of every ship: players 0..n-1, then the hulks (36, and 26 with 3+ players).
        hands: per player, the bitmask of its cards (bit ``c`` = card ``c``).
        known: per player, the bitmask of its cards that everybody knows (drafted face up).
        stacks: per draft stack ``(face_up, face_down)``, ``(-1, -1)`` once taken.
        order: this round's draft order (player ids).
        picks: stacks taken so far this round.
        commits: per player, the card committed this turn, -1 if none yet.
        queue: ``[(card, owner), ...]`` still to resolve this turn, in resolution order (head = next).
        stops: per player, whether its Emergency Stop is still available.
        round, turn: 0-based.
        phase: ``DRAFT``, ``COMMIT`` or ``STOP``.
        revealed: per player, the card it played in the latest reveal, -1 if none.
        spent: bitmask of the cards revealed so far this round.
        decks: per round, the pre-drawn order of the 26 cards (the first ``6n`` form the stacks).
        ties: per round, the pre-drawn order of players used to order ships in the Singularity.
        winner: the player who escaped, -1 otherwise.
        events: the events of the last action (see :class:`GravwellEvent`).
        current_player, ply, truncated: as in every game.
    """

    __slots__ = (
        "pos", "hands", "known", "stacks", "order", "picks", "commits", "queue", "stops", "round", "turn",
        "phase", "revealed", "spent", "decks", "ties", "winner", "events", "current_player", "ply", "truncated",
    )  # fmt: skip

    def copy(self) -> GravwellState:
        """An equal, independent state (tuples and lists that ``apply`` only ever
        replaces, never mutates, are shared)."""
        new = GravwellState.__new__(GravwellState)
        new.pos, new.hands, new.known = self.pos[:], self.hands[:], self.known[:]
        new.stacks = self.stacks
        new.order, new.picks, new.commits = self.order, self.picks, self.commits[:]
        new.queue, new.stops, new.round, new.turn = self.queue, self.stops[:], self.round, self.turn
        new.phase, new.revealed, new.spent = self.phase, self.revealed, self.spent
        new.decks, new.ties = self.decks, self.ties
        new.winner, new.events, new.current_player = self.winner, self.events, self.current_player
        new.ply, new.truncated = self.ply, self.truncated
        return new

    def key(self) -> bytes:
        """Canonical bytes: equal keys mean equal positions (events included)."""
        return repr(tuple(getattr(self, name) for name in self.__slots__)).encode()

    def __repr__(self) -> str:
        return (
            f"GravwellState(round={self.round}, turn={self.turn}, phase={PHASE_NAMES[self.phase]}, "
            f"current_player={self.current_player}, ply={self.ply})"
        )
