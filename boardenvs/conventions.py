"""The conventions every environment adapter shares: agent names, reset options, the event infos, the render seat,
and what an illegal action does (the modes, the replacement, the error that says why).

The error of an illegal action carries the game's own reason (``Game.illegal_reason``: in the game's notation, and
never about anything the acting player cannot see), so a PettingZoo or Gymnasium user reads the same explanation as
a user of the game itself.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardenvs.core import Game, check_choice, check_int

ILLEGAL_ACTION_MODES: tuple[str, ...] = ("end", "replace")
"""What the single-agent and Parallel envs do with an illegal action (``illegal_action=``): ``"end"`` the episode
with the penalty (PettingZoo classic's rule), or ``"replace"`` it by a uniformly random legal action drawn from the
env's ``np_random``, add the penalty to the step's reward, set ``info["illegal_action"]`` and play on (so tools that
never pass a mask, such as rl-zoo3, SB3's ``evaluate_policy`` or SuperSuit, keep a meaningful game)."""

GAME_OVER_MESSAGE = "every agent is done (the game is over): call reset() to start a new game"
"""The ``RuntimeError`` of ``step``/``last`` once ``agents`` is empty."""


def agent_name(player: int) -> str:
    """The PettingZoo name of game player ``player``: ``"player_<i>"``."""
    return f"player_{player}"


def check_illegal_action(illegal_action: str) -> None:
    """Raise ``ValueError`` naming ``illegal_action`` unless it is one of :data:`ILLEGAL_ACTION_MODES`."""
    check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)


def random_legal_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``mask`` (non-empty), drawn from ``rng``: what replaces an illegal one."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def illegal_reason(game: Game, state: Any, action: int) -> str:
    """Why the int ``action`` is illegal for the player to move in ``state`` (not terminal): the game's reason
    (:meth:`boardenvs.core.Game.illegal_reason`), or that it is out of range; ``""`` if the game gives none."""
    num_actions = game.spec.num_actions
    if not 0 <= action < num_actions:
        return f"action {action} is out of range [0, {num_actions})"
    return game.illegal_reason(state, action)


def illegal_action_message(action: int, agent: str, env_name: str, reason: str) -> str:
    """The ``ValueError`` text of the raw envs for ``agent`` playing the illegal int ``action``: what, where and why
    (``reason``, from :func:`illegal_reason`)."""
    because = f": {reason}" if reason else ""
    return f"illegal action {action} for agent {agent} in {env_name}{because}; {LEGAL_ACTIONS_HINT}"


LEGAL_ACTIONS_HINT = "legal actions are those with observation['action_mask'] == 1"
"""The end of every illegal-action error: where the legal actions are."""


def new_events(before: Any, after: Any) -> list[Any] | None:
    """The events ``after`` recorded beyond those of ``before``; ``None`` if states have no ``events``.

    ``state.events`` is read as a log that grows along the game; if ``before``'s events are not a prefix of
    ``after``'s (a game that keeps only the latest events), all of ``after``'s events are new.
    """
    events = getattr(after, "events", None)
    if events is None:
        return None
    previous = list(getattr(before, "events", None) or ())
    events = list(events)
    if events[: len(previous)] == previous:
        return events[len(previous) :]
    return events


def check_reset_options(options: Any, allowed: tuple[str, ...] = (), unknown: str = "warn") -> dict[str, Any]:
    """``options`` of ``reset`` as a dict: ``None`` is ``{}``, anything but a mapping is a ``TypeError``.

    Keys not in ``allowed`` raise ``ValueError`` naming them (``unknown="error"``, the single-agent env) or are
    ignored with a warning (``unknown="warn"``, the PettingZoo envs: PettingZoo's own ``api_test`` and
    ``parallel_api_test`` call ``reset(options={"options": 1})`` and require it to work).
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict (or None), got {type(options).__name__}")
    extra = sorted(str(key) for key in options if key not in allowed)
    if extra:
        message = f"unknown reset option(s) {extra}; the options are: {list(allowed) or 'none'}"
        if unknown == "error":
            raise ValueError(message)
        warnings.warn(f"{message}; ignored", UserWarning, stacklevel=3)
    return dict(options)


def seat_of(render_seat: Any, num_players: int) -> int | None:
    """The seat ``render_seat`` names: ``None``, a seat ``0..num_players-1`` or its agent name ``"player_<i>"``."""
    if render_seat is None:
        return None
    if isinstance(render_seat, str):
        names = [agent_name(p) for p in range(num_players)]
        if render_seat not in names:
            allowed = f"None, a seat 0..{num_players - 1} or one of {names}"
            raise ValueError(f"render_seat must be {allowed}, got {render_seat!r}")
        return names.index(render_seat)
    check_int("render_seat", render_seat, 0, num_players - 1)
    return int(render_seat)
