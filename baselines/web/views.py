"""What a browser is sent of a game in the live arena: the *seat view*, the game as one seat may see it.

:func:`seat_view` gives the picture and move list as one seat may see them (``Game.render_svg(state, seat)``,
``Game.action_text_for``), that seat's legal moves when it is to play, and the result. The true state, the deck
order and the game seed (which would reveal the deck) are never sent while a person plays a game with hidden
information; the spectator's view (:data:`SPECTATOR`: everything) is served only for games between bots, and only
when asked (:meth:`baselines.web.sessions.Arena.viewer` checks who may see what). :func:`game_summary` is what the
setup form shows of a game.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from baselines.factory import agent_choices
from baselines.web.requests import HUMAN
from boardenvs.registry import list_presets, make_game
from boardenvs.replay import config_to_json
from boardenvs.replay_html import outcome_text

if TYPE_CHECKING:
    from baselines.web.sessions import Session

SPECTATOR = "spectator"
"""The viewer that sees everything (games between bots only)."""
SUGGESTED_SPECS = ("random", "mcts:simulations=200", "rhea", "alphazero:pretrained", "ppo:pretrained")
"""Agent specs the setup form suggests for every game, after the game's scripted agents."""


def seat_view(session: Session, viewer: int | None) -> dict[str, Any]:
    """What a browser is sent: the game as ``viewer`` may see it (``None``: the spectator, everything)."""
    game, state = session.game, session.state
    to_move = None if session.over else int(state.current_player)
    playing = to_move is not None and to_move == viewer and session.seats[to_move] == HUMAN
    mask = game.legal_action_mask(state) if playing else None
    legal = [{"action": int(a), "text": game.action_to_str(state, int(a))} for a in np.flatnonzero(mask)] if playing \
        else []  # fmt: skip
    return {
        "id": session.id,
        "game": game.spec.name,
        "seats": [{"seat": seat, "player": spec} for seat, spec in enumerate(session.seats)],
        "viewer": SPECTATOR if viewer is None else viewer,
        "ply": int(state.ply),
        "to_move": to_move,
        "your_turn": playing,
        "svg": game.render_svg(state, viewer, mask),
        "legal": legal,
        "moves": _move_list(session, viewer),
        "over": session.over,
        "result": _result(session),
        "message": session.message,
        "can_undo": session.last_human_ply is not None,
    }


def _move_list(session: Session, viewer: int | None) -> list[dict[str, Any]]:
    game, moves = session.game, []
    for state, action in zip(session.states, session.actions):
        text = game.action_to_str(state, action) if viewer is None else game.action_text_for(state, action, viewer)
        moves.append({"player": int(state.current_player), "text": text})
    return moves


def _result(session: Session) -> str | None:
    if session.message is not None:
        return f"game stopped: {session.message}"
    if not session.game.is_terminal(session.state):
        return None
    names = [spec if spec != HUMAN else "you" for spec in session.seats]
    return outcome_text(session.game.returns(session.state), names, session.game.is_truncated(session.state))


@functools.cache
def game_summary(name: str) -> dict[str, Any]:
    """A game as the arena's setup form shows it: its default config, presets and suggested agents."""
    game = make_game(name)
    scripted = sorted(set(agent_choices(name)) - {"random", "mcts", "rhea", "alphabeta"})
    return {
        "name": name,
        "doc": (type(game).__doc__ or "").strip().splitlines()[0],
        "presets": list_presets(name),
        "config": config_to_json(game),
        "num_players": game.spec.num_players,
        "agents": [*scripted, *SUGGESTED_SPECS],
        "perfect_information": game.spec.perfect_information,
    }
