"""Gravwell's moves: the :class:`Move` NamedTuple, the codec between moves and action ids, and the action text.

The codec does not depend on the state: with ``n`` players, ids ``[0, 3n)`` draft stack ``s``, ``[3n, 3n + 26)``
commit card ``c``, ``3n + 26`` uses the Emergency Stop ("stop") and ``3n + 27`` declines it ("go").
"""

from __future__ import annotations

from typing import NamedTuple

from boardenvs.games.gravwell.cards import NUM_CARDS, SYMBOLS


class Move(NamedTuple):
    """A typed move: ``kind`` is "draft" (``index`` = stack), "play" (``index`` = card) or "stop"
    (``index`` 1 = use the Emergency Stop, 0 = let the card resolve)."""

    kind: str
    index: int


def decode(n: int, action: int) -> Move:
    """The :class:`Move` of an action id of an ``n``-player game; ``ValueError`` if out of range."""
    action = int(action)
    play_base = 3 * n
    stop_action = play_base + NUM_CARDS
    if not 0 <= action < stop_action + 2:
        raise ValueError(f"action {action} is out of range [0, {stop_action + 2})")
    if action < play_base:
        return Move("draft", action)
    if action < stop_action:
        return Move("play", action - play_base)
    return Move("stop", int(action == stop_action))


def encode(n: int, move: Move) -> int:
    """The action id of ``move`` in an ``n``-player game; ``ValueError`` for an unknown kind or an index out of its
    range (stacks ``0..3n-1``, cards ``0..25``, stop ``0``/``1``)."""
    kind, index = move
    sizes = {"draft": 3 * n, "play": NUM_CARDS, "stop": 2}
    if kind not in sizes:
        raise ValueError(f"unknown move kind {kind!r}; kinds are {list(sizes)}")
    if isinstance(index, bool) or not 0 <= index < sizes[kind]:
        raise ValueError(f"{kind} index must be in 0..{sizes[kind] - 1}, got {index!r}")
    if kind == "draft":
        return int(index)
    if kind == "play":
        return 3 * n + int(index)
    return 3 * n + NUM_CARDS + (0 if index else 1)


def action_text(n: int, action: int) -> str:
    """The action in the game's notation: "draft 4", "play Mg", "stop" or "go"."""
    kind, index = decode(n, action)
    if kind == "draft":
        return f"draft {index}"
    if kind == "play":
        return f"play {SYMBOLS[index]}"
    return "stop" if index else "go"
