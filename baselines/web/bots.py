"""The arena's bots think in worker processes, each decision under a time limit.

A bot is any agent spec (``random``, ``mcts:simulations=400``, ``alphazero:pretrained``). The server never runs
agent code itself: :class:`BotPool` keeps a few spawned worker processes (they die with the server), each of which
builds the agents it is asked for, keeps them while their game lasts, and answers one decision at a time. The
server sends a worker only the bot's own view (``game.determinize(state, seat, rng)``), so a bot sees what its
seat may see, as in :func:`baselines.arena.play_game`. A decision that runs past the limit, or a worker that
crashes, kills that worker (a fresh one takes its place) and raises :class:`BotFailure`, which ends that game
with a message, never the server.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from baselines.workers import die_with_parent
from boardenvs.core import Game

BUILD_SECONDS = 60.0
"""Extra time allowed for a bot's first decision in a worker: building it may load a network (and torch)."""
AGENTS_PER_WORKER = 64
"""Agents a worker keeps; the least recently used is dropped (and rebuilt when asked for again)."""


class BotFailure(RuntimeError):
    """A bot could not be built, raised an error, chose an illegal action or ran past its time limit."""


@dataclass(frozen=True)
class BotRequest:
    """One decision: which agent (a spec and its seed, cached under ``key``), the game and the bot's view."""

    key: tuple[str, int]
    spec: str
    agent_seed: int
    decision_seed: int
    game: Game
    view: Any
    player: int


def _worker_main(parent_pid: int, started_by_main_thread: bool, connection: Any) -> None:
    """The loop of one worker process: build agents on demand, answer ``act`` requests until told to stop."""
    die_with_parent(parent_pid, kernel_signal=started_by_main_thread)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    agents: OrderedDict[tuple[str, int], Any] = OrderedDict()
    while True:
        message = connection.recv()
        if message is None:
            return
        kind, payload = message
        try:
            result = _build(agents, payload) if kind == "build" else _act(agents, payload)
            connection.send(("ok", result))
        except Exception as error:  # noqa: BLE001 -- any failure of agent code is reported, never fatal
            connection.send(("error", f"{type(error).__name__}: {error}"))


def _agent(agents: OrderedDict[tuple[str, int], Any], request: BotRequest) -> Any:
    from baselines.factory import make_agent  # imported in the worker only

    agent = agents.get(request.key)
    if agent is None:
        agent = make_agent(request.spec, request.game.spec.name, seed=request.agent_seed)
        agents[request.key] = agent
        if len(agents) > AGENTS_PER_WORKER:
            agents.popitem(last=False)
    agents.move_to_end(request.key)
    return agent


def _build(agents: OrderedDict[tuple[str, int], Any], request: BotRequest) -> str:
    return str(getattr(_agent(agents, request), "name", request.spec))


def _act(agents: OrderedDict[tuple[str, int], Any], request: BotRequest) -> int:
    agent = _agent(agents, request)
    reseed = getattr(agent, "reseed", None)
    if callable(reseed):
        reseed(request.decision_seed)
    return int(agent.act(request.game, request.view, request.player))


class _Worker:
    """One worker process and the pipe to it; restarted after a timeout or a crash."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.lock = threading.Lock()
        self.built: set[tuple[str, int]] = set()
        self.process: Any = None
        self.connection: Any = None

    def start(self) -> None:
        parent, child = self.context.Pipe()
        # Workers are (re)started from the server's request threads, which end when idle: the kernel's
        # parent-death signal is tied to the starting thread and would kill the worker with it.
        main_thread = threading.current_thread() is threading.main_thread()
        self.process = self.context.Process(target=_worker_main, args=(os.getpid(), main_thread, child), daemon=True)
        self.process.start()
        child.close()
        self.connection, self.built = parent, set()

    def stop(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.process = None

    def call(self, kind: str, request: BotRequest, seconds: float) -> Any:
        """Send one request and wait at most ``seconds`` for the answer (plus build time for a new agent)."""
        if self.process is None or not self.process.is_alive():
            self.start()
        limit = seconds + (0.0 if request.key in self.built else BUILD_SECONDS)
        try:
            self.connection.send((kind, request))
            answered = self.connection.poll(limit)
            status, result = self.connection.recv() if answered else ("timeout", None)
        except (EOFError, OSError, BrokenPipeError):
            status, result = "crash", None
        if status in ("timeout", "crash"):
            self.stop()
            reason = f"took longer than {seconds:g} s" if status == "timeout" else "crashed"
            raise BotFailure(f"bot {request.spec!r} (seat {request.player}) {reason}")
        if status == "error":
            raise BotFailure(f"bot {request.spec!r} (seat {request.player}) failed: {result}")
        self.built.add(request.key)
        return result


class BotPool:
    """A few worker processes that run the arena's bots (see the module docstring).

    Args:
        workers: Number of worker processes (1..16); games share them, each request takes one.
        think_seconds: The most a bot may think about one decision.
        wait_seconds: How long a request waits for a free worker before :class:`BotFailure` says all are busy.
    """

    def __init__(self, workers: int = 2, think_seconds: float = 10.0, wait_seconds: float = 30.0) -> None:
        if not 1 <= workers <= 16:
            raise ValueError(f"bot_workers must be in 1..16, got {workers}")
        if not 0 < think_seconds <= 600:
            raise ValueError(f"think_seconds must be in (0, 600], got {think_seconds}")
        context = multiprocessing.get_context("spawn")
        self.think_seconds, self.wait_seconds = think_seconds, wait_seconds
        self._workers = [_Worker(context) for _ in range(workers)]

    @property
    def size(self) -> int:
        """The number of worker processes."""
        return len(self._workers)

    def build(self, request: BotRequest, worker: int) -> str:
        """Build the agent of ``request`` in worker ``worker`` (checking its spec there); its name."""
        return str(self._call("build", request, worker))

    def act(self, request: BotRequest, worker: int) -> int:
        """The action the agent of ``request`` chooses in its view, within the time limit, in worker ``worker``
        (a game keeps one worker, so its bots keep their state between decisions)."""
        return int(self._call("act", request, worker))

    def _call(self, kind: str, request: BotRequest, index: int) -> Any:
        worker = self._workers[index % len(self._workers)]
        if not worker.lock.acquire(timeout=self.wait_seconds):
            raise BotFailure(f"the bot worker stayed busy for {self.wait_seconds:g} s; try again later")
        try:
            return worker.call(kind, request, self.think_seconds)
        finally:
            worker.lock.release()

    def close(self) -> None:
        """Stop every worker."""
        for worker in self._workers:
            with worker.lock:
                if worker.connection is not None and worker.process is not None and worker.process.is_alive():
                    with contextlib.suppress(OSError):
                        worker.connection.send(None)
                worker.stop()
