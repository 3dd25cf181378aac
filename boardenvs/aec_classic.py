"""PettingZoo classic's three wrappers (``TerminateIllegal(-1) → AssertOutOfBounds → OrderEnforcing``) as one layer
over :class:`boardenvs.aec.BoardGameAEC`: :class:`ClassicWrapper` (``boardenvs.aec.env()`` and ``wrap_env`` make it).

It reads the raw env's hot attributes directly and uses its public hooks only: ``legal_mask()`` (the mask of the
current state, computed once per state), ``play_legal(agent, action)`` and ``end_with_illegal_action(agent,
reward)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from boardenvs.core import as_action

if TYPE_CHECKING:
    from boardenvs.aec import BoardGameAEC

RAW_ENV_HOOKS = ("legal_mask", "play_legal", "end_with_illegal_action")
"""The public methods of the raw env that the wrapper steps through."""


def _forwarded(name: str, before_reset_error: bool) -> property:
    """A read-only attribute of :class:`ClassicWrapper` read straight from the raw env (``BaseWrapper``'s
    ``__getattr__`` would be called for it on every access); like ``OrderEnforcingWrapper``, an
    ``AttributeError`` before ``reset`` for the attributes it guards."""

    def read(self: ClassicWrapper) -> Any:
        if before_reset_error and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(read, doc=f"The raw env's ``{name}``.")


class ClassicWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo classic's wrappers ``TerminateIllegal(-1) → AssertOutOfBounds → OrderEnforcing`` in one layer.

    The behaviour is theirs, call for call: an illegal action ends the game with ``illegal_reward`` for the
    offender and 0 for the others (``terminations`` and ``truncations`` both True, PettingZoo's illegal-move
    warning logged); an int outside the action space fails the assertion ``"action is not in action space"``;
    calls before ``reset`` raise PettingZoo's errors and a ``step`` after the game logs its warning. On top,
    a value that is not an action raises the ``TypeError`` of :func:`boardenvs.core.as_action` (not a penalty),
    ``None`` from an agent still playing the raw env's ``ValueError``, and ``last()`` after every agent is done
    ``RuntimeError``.

    Why one layer: stacked, the three wrappers cost 1.6-2.7x the raw env per step (measured in
    ``docs/results/env_speed.md``), almost all of it ``BaseWrapper.__getattr__`` walking down the stack for
    ``agent_selection``, ``terminations``, ... and ``TerminateIllegalWrapper`` building an observation just to
    read its mask. Here the hot attributes are read from the raw env directly and the legality check uses the
    raw env's mask of the current state (computed once per state). It stays an ``OrderEnforcingWrapper``, so
    ``agent_iter`` and PettingZoo's checks that look for one keep working.
    """

    agents = _forwarded("agents", True)
    agent_selection = _forwarded("agent_selection", True)
    rewards = _forwarded("rewards", True)
    terminations = _forwarded("terminations", True)
    truncations = _forwarded("truncations", True)
    infos = _forwarded("infos", True)
    num_agents = _forwarded("num_agents", True)
    _cumulative_rewards = _forwarded("_cumulative_rewards", False)
    possible_agents = _forwarded("possible_agents", False)
    observation_spaces = _forwarded("observation_spaces", False)
    action_spaces = _forwarded("action_spaces", False)

    def __init__(self, raw: BoardGameAEC, illegal_reward: float = -1.0) -> None:
        if not all(callable(getattr(raw, hook, None)) for hook in RAW_ENV_HOOKS):
            raise TypeError(f"raw must be a BoardGameAEC (boardenvs.aec.raw_env), got {type(raw).__name__}")
        super().__init__(raw)
        self._raw = raw
        self._illegal_reward = float(illegal_reward)
        self._num_actions = raw.game.spec.num_actions

    def step(self, action: Any) -> None:
        """Step the raw env, or end the game on an illegal action (see the class docstring)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        finished = raw.terminations[agent] or raw.truncations[agent]
        if action is None:
            if not finished:
                raise ValueError(f"action None is only allowed for a finished agent, but {agent} is still playing")
            raw.step(None)
            return
        if type(action) is not int:
            action = as_action(action)
        assert 0 <= action < self._num_actions, "action is not in action space"
        if finished:
            raw.step(action)  # the raw env's "only valid action is None" error
        elif raw.legal_mask()[action]:
            raw.play_legal(agent, action)
        else:
            EnvLogger.warn_on_illegal_move()
            raw.end_with_illegal_action(agent, self._illegal_reward)

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """PettingZoo's order-enforcing ``agent_iter`` (an error before ``reset``; ``step`` or ``reset`` required
        between two agents), reading the raw env directly."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _ClassicIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The raw env's ``last``: PettingZoo's ``AttributeError`` before ``reset``, ``RuntimeError`` after the game."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.last(observe)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's OrderEnforcingWrapper: the env's name


class _ClassicIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _ClassicIterator:
        return _ClassicIterator(self.env, self.max_iter)


class _ClassicIterator(AECOrderEnforcingIterator):
    """``AECOrderEnforcingIterator`` with its checks, reading ``agents`` and ``agent_selection`` from the raw env."""

    def __next__(self) -> str:
        raw = self.env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return raw.agent_selection
