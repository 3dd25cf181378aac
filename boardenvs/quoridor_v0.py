"""Quoridor as a PettingZoo AEC environment, importable PettingZoo-style.

Example:
    >>> from boardenvs import quoridor_v0
    >>> env = quoridor_v0.env(board_size=5)
    >>> env.reset(seed=0)
    >>> env.agent_selection
    'player_0'
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from boardenvs.aec import BoardGameAEC, wrap_env


class raw_env(BoardGameAEC):  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped Quoridor AEC env; takes the keyword arguments of :class:`boardenvs.aec.BoardGameAEC`."""

    metadata = {**BoardGameAEC.metadata, "name": "quoridor_v0"}
    default_game = "quoridor"


def env(**kwargs: Any) -> AECEnv:
    """The wrapped Quoridor AEC env (illegal moves penalised, calls in order); kwargs as for :class:`raw_env`."""
    return wrap_env(raw_env(**kwargs))
