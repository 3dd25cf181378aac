"""Batched self-play: many games advance together and the new leaves of all their searches are valued in one
forward pass of the network (the cross-game batching of mctx/pgx, KataGo and Leela, on a CPU or a GPU).

**How.** Each game of a batch runs the unchanged self-play code (:func:`~.selfplay.play_selfplay_game`: Gumbel or
PUCT roots, max^n values for 2-4 players, determinized search, symmetries, score targets, playout caps) as a
greenlet (a coroutine with its own stack, switched in C: about a microsecond, no thread, no lock), with a
:class:`SharedLeafClient` as its evaluator. When a game's search wants its leaves valued (up to ``batch_size`` per
request, as before) the client switches back to the driver, :func:`play_batch`; once every game still playing has
asked, the driver values all their leaves in one ``evaluate_batch`` call, in game order, and resumes each game with
its share. Coroutines and not a rewrite of the search: the search stays one piece of code for play and self-play;
OS threads were measured first and lost what the batching won to lock hand-offs (``docs/results/alphazero.md``).

**Reproducible.** A forward pass's rows can differ in their last bits with the batch around them, so a batch is
always the same: each round takes exactly one request from every live game, in game order, and a game leaves the
batch only when it ends. The games of an iteration are cut into fixed chunks of ``batch_games`` (chunk ``k`` is
games ``k * batch_games`` to ``(k + 1) * batch_games - 1``), and a chunk is one job for a worker, so the examples do
not depend on the number of workers or on the backend; a resumed run replays the same chunks. ``batch_games`` is
therefore a setting a resumed run must keep.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from greenlet import greenlet

from baselines.search.evaluators import Evaluator
from boardenvs.core import Game

MAX_BATCH_GAMES = 4096
"""The most games one batch may play together."""
Valued = tuple[np.ndarray, np.ndarray | None]
"""One leaf's values per seat and priors, as :meth:`Evaluator.evaluate_batch` returns them."""


class SharedLeafClient(Evaluator):
    """The evaluator one game of a batch searches with: it hands its leaves to the driver and gets their values
    back once the round's forward pass ran."""

    name = "network"

    def __init__(self, shared: Evaluator) -> None:
        self.shared = shared

    def check(self, game: Game) -> None:
        self.shared.check(game)

    def evaluate(self, game: Game, state: Any) -> Valued:
        return self.evaluate_batch(game, [state])[0]

    def evaluate_batch(self, game: Game, states: Sequence[Any]) -> list[Valued]:
        return greenlet.getcurrent().parent.switch((game, states))


class BatchCounts:
    """What a batch's driver did: forward passes (``calls``) and leaves valued (``leaves``)."""

    def __init__(self) -> None:
        self.calls = 0
        self.leaves = 0


def play_batch(evaluator: Evaluator, jobs: Sequence[Callable[[Evaluator], Any]]) -> tuple[list[Any], BatchCounts]:
    """Run every job (a game given its evaluator) together, their leaves valued ``evaluator.evaluate_batch`` call
    per round; returns the jobs' results in order and the counts of forward passes and leaves.

    Raises:
        Exception: The first exception a job raises, whatever its type (the batch stops there).
    """
    games = [greenlet(job) for job in jobs]
    results: list[Any] = [None] * len(jobs)
    counts = BatchCounts()
    requests = {}
    for index in range(len(games)):
        _advance(games, index, SharedLeafClient(evaluator), requests, results)
    while requests:
        order = sorted(requests)
        states = [state for index in order for state in requests[index][1]]
        valued = evaluator.evaluate_batch(requests[order[0]][0], states)
        counts.calls, counts.leaves = counts.calls + 1, counts.leaves + len(states)
        shares, start = {}, 0
        for index in order:
            count = len(requests[index][1])
            shares[index], start = valued[start : start + count], start + count
        requests = {}
        for index in order:
            _advance(games, index, shares[index], requests, results)
    return results, counts


def _advance(games: list[greenlet], index: int, message: Any, requests: dict[int, Any], results: list[Any]) -> None:
    """Resume game ``index`` with ``message`` until it asks for leaves (kept in ``requests``) or ends (its result
    kept in ``results``)."""
    out = games[index].switch(message)
    if games[index].dead:
        results[index] = out
    else:
        requests[index] = out


__all__ = ["MAX_BATCH_GAMES", "BatchCounts", "SharedLeafClient", "play_batch"]
