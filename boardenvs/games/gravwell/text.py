"""The text of a Gravwell state: the whole of it (``to_text``, the golden records' form) or what one seat may see."""

from __future__ import annotations

from boardenvs.core import TERMINAL
from boardenvs.games.gravwell.cards import SYMBOLS, bits_to_cards, card_name
from boardenvs.games.gravwell.state import PHASE_NAMES, GravwellState


def state_text(state: GravwellState, n: int, no_secrets: bool, viewer: int | None = None) -> str:
    """The state of an ``n``-player game as text; with a ``viewer`` seat, only what that seat may see: others'
    face-down cards (``?``) and pending commits (``hidden``), and face-down draft cards unless ``no_secrets``."""
    mover = "over" if state.current_player == TERMINAL else f"player {state.current_player}"
    lines = [
        f"round {state.round + 1}/6 turn {state.turn + 1}/6 {PHASE_NAMES[state.phase]} {mover} ply {state.ply}",
        "ships " + " ".join(f"P{p}@{state.pos[p]}" for p in range(n)) + " hulks " + str(state.pos[n:]),
    ]
    for p in range(n):
        hidden = viewer is not None and p != viewer
        lines.append(f"P{p} stop={'yes' if state.stops[p] else 'no'} {hand_text(state, p, hidden)}")
    down_hidden = viewer is not None and not no_secrets
    stacks = " ".join(f"{i}:{SYMBOLS[u]}/{'?' if down_hidden else SYMBOLS[d]}" for i, u, d in state.open_stacks())
    lines.append(f"order {list(state.order)} stacks {stacks}")
    lines.append("queue " + " ".join(f"{card_name(c)}<P{o}" for c, o in state.queue))
    if state.winner >= 0:
        lines.append(f"winner P{state.winner}")
    return "\n".join(lines)


def hand_text(state: GravwellState, p: int, hidden: bool) -> str:
    """``commit=... hand: ...`` of seat ``p``; ``hidden`` shows only its face-up (``*``) cards, ``?`` for the rest,
    and whether it has committed."""
    known = state.known[p]
    if hidden:
        cards = [SYMBOLS[c] + "*" for c in bits_to_cards(state.hands[p] & known)]
        cards += ["?"] * (state.hands[p] & ~known).bit_count()
        commit = "hidden" if state.commits[p] >= 0 else "-"
    else:
        cards = [SYMBOLS[c] + ("*" if known >> c & 1 else "") for c in bits_to_cards(state.hands[p])]
        commit = str(state.commits[p])
    return f"commit={commit} hand: {' '.join(cards)}"
