"""The Ray backend of :mod:`baselines.distributed`: a pool of Ray actors, fed chunks of items, that survives losing
actors and nodes.

Each actor runs the initializer once (so agents and networks are built once per actor, as a local process builds
them) and then chunks of items: one running and, while plenty is left, one queued behind it, so an actor never
waits for this process to collect a result and send more. The initializer's arguments go to the object store once
(``ray.put``), not once per actor or per item. A chunk is sized from the measured time per item: about
:data:`TARGET_TASK_SECONDS` of work, so Ray's cost per task (a few milliseconds) stays small, and never more than a
:data:`CHUNKS_PER_WORKER`-th of each worker's share of what is left, so the last chunks are small and the workers
finish together (guided self-scheduling). Without ``ray_address`` (and without ``RAY_ADDRESS`` in the environment)
a private local Ray starts with ``workers`` CPUs; it stays up until this process ends, so later executors
(AlphaZero builds one per iteration) find it running. A Ray already initialized in this process is used as it is,
whatever the address.

Fault tolerance: an item is a pure function of its arguments (a game of its seed and seats), so when an actor or
its node dies, the unfinished items of its chunk run again on another actor and give the same results; a
replacement actor is started and joins when the cluster has room for it. Every item is yielded exactly once. An
item whose worker dies :data:`MAX_ATTEMPTS` times is an error (it may be what kills its worker). An exception
raised by the function itself (a bug, an illegal action) is never retried: it propagates at once, as an instance
of its own type carrying the worker's traceback, as it does from the local pool.
"""

from __future__ import annotations

import itertools
import logging
import math
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from baselines.distributed.executor import Closing, in_order

INSTALL_HINT = 'pip install "boardenvs[distributed]"'
"""What installs the Ray backend."""
TARGET_TASK_SECONDS = 0.1
"""Work per Ray task the chunking aims at: long enough that Ray's cost per task (2-7 ms of this process's time
measured on a busy 2-core machine, while the actor works on its queued chunk) stays small, short enough that the
results (and a tournament's log) arrive steadily and a lost chunk costs little."""
CHUNKS_PER_WORKER = 4
"""A chunk holds at most a ``1 / CHUNKS_PER_WORKER`` part of each worker's share of the items still waiting."""
MAX_ATTEMPTS = 3
"""Times an item may lose its worker (a dead actor or node) before the run stops with an error."""
CONNECT_TIMEOUT_SECONDS = 10.0
"""How long to wait for a Ray cluster to answer at a ``ray_address`` before calling it unreachable (``ray.init``
itself retries an address where none answers for many minutes)."""
GCS_PROBE = "/ray.rpc.NodeInfoGcsService/GetClusterId"
"""The call that asks a Ray cluster's GCS whether it is there (the first one Ray's own clients make)."""
START_TIMEOUT_SECONDS = 300.0
"""How long to wait, with no work running, for any Ray actor to start before giving up (an actor waits for a
free CPU in the cluster)."""

WORKER_NICENESS_VARIABLE = "RAY_worker_niceness"
"""Ray starts its workers at niceness 15 unless this says otherwise; a local Ray started here runs them at 0, as
the local pool's processes run, so that on a shared machine the two backends get the same share of the CPU
(measured: at niceness 15 the actors lost their cores to other jobs). Set it yourself to keep Ray's default."""


logger = logging.getLogger(__name__)


def import_ray() -> Any:
    """The ``ray`` module; an ``ImportError`` saying what to install when it is missing."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(f"backend='ray' needs Ray, which is not installed: {INSTALL_HINT}") from error
    return ray


def connect_ray(ray: Any, address: str | None, workers: int) -> None:
    """Make sure this process is connected to a Ray cluster (``make_executor`` of :mod:`baselines.distributed`
    says which one).

    A given address is first asked whether a Ray cluster answers there (:func:`check_reachable`), because
    ``ray.init`` retries an address where none answers for many minutes; Ray's own ``ConnectionError`` is raised
    again naming the address.
    """
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is None:
        os.environ.setdefault(WORKER_NICENESS_VARIABLE, "0")
        ray.init(address="local", num_cpus=workers, include_dashboard=False, log_to_driver=False)
        return
    if address != "auto":
        check_reachable(address)
    try:
        ray.init(address=address, log_to_driver=False)
    except ConnectionError as error:
        raise ConnectionError(f"cannot connect to the Ray cluster at {address!r}: {error}") from error


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_SECONDS) -> None:
    """``ConnectionError`` naming ``address`` unless a Ray cluster answers there within ``timeout`` seconds.

    ``host:port`` is a cluster's GCS: it must answer one of its calls (``GetClusterId``; a refusal for want of a
    token also proves it is there), since an open port alone proves nothing (a proxy or another server may
    accept the connection, and ``ray.init`` would then wait for minutes). ``ray://host:port`` is a Ray Client
    server, whose own connection gives up after 30 s: a TCP connection is checked first. With ``RAY_USE_TLS``
    only the TCP connection is checked (the probe speaks plain gRPC). ``ValueError`` for an address that is not
    ``[ray://]host:port``.
    """
    host, port = _host_and_port(address)
    plain_tcp = address.startswith("ray://") or os.environ.get("RAY_USE_TLS", "").lower() in ("1", "true")
    problem = (_tcp_problem if plain_tcp else _gcs_problem)(host, port, timeout)
    if problem:
        raise ConnectionError(
            f"cannot reach the Ray cluster at {address!r} ({problem}); start one there with `ray start --head` or "
            "leave --ray-address out to start a local Ray"
        )


def _tcp_problem(host: str, port: int, timeout: float) -> str:
    """Why no TCP connection to ``host:port`` opens within ``timeout`` seconds; ``""`` when one does."""
    try:
        socket.create_connection((host.strip("[]"), port), timeout=timeout).close()
    except OSError as error:
        return str(error) or type(error).__name__
    return ""


def _gcs_problem(host: str, port: int, timeout: float) -> str:
    """Why no Ray GCS answers at ``host:port`` within ``timeout`` seconds; ``""`` when one does."""
    import grpc  # a dependency of Ray

    with grpc.insecure_channel(f"{host}:{port}") as channel:
        try:
            channel.unary_unary(GCS_PROBE)(b"", timeout=timeout)  # an empty GetClusterIdRequest
        except grpc.RpcError as error:
            if error.code() not in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED):
                return f"{error.code().name}: {error.details()}"
    return ""


def _host_and_port(address: str) -> tuple[str, int]:
    """The host (an IPv6 one in brackets, as gRPC wants it) and the port of ``[ray://]host:port``."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a Ray address must be host:port, ray://host:port or auto, got {address!r}")
    return host, int(port)


class RayWorker:
    """The body of one Ray actor: runs the initializer once, then chunks of items."""

    def start(self, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> str:
        """Run the initializer; return the id of the node this actor lives on."""
        if initializer is not None:
            initializer(*initargs)
        import ray

        return ray.get_runtime_context().get_node_id()

    def run(self, fn: Callable[[Any], Any], chunk: list[tuple[int, Any]]) -> tuple[list[tuple[int, Any]], float]:
        """``(position, fn(item))`` for the chunk's items, and the seconds they took."""
        started = time.perf_counter()
        results = [(position, fn(item)) for position, item in chunk]
        return results, time.perf_counter() - started


@dataclass(eq=False)
class _Actor:
    """One actor of the pool: its handle, its number (for messages), its node once started, and its chunks sent
    and not yet collected."""

    handle: Any
    number: int
    node: str = ""
    in_flight: int = 0


@dataclass
class _Timing:
    """What the finished chunks of one map took, which sizes the next chunks."""

    items: int = 0
    seconds: float = 0.0
    latest: float = 0.0
    """Seconds per item of the latest finished chunk."""
    largest: int = 0
    """Items of the largest finished chunk."""

    def add(self, items: int, seconds: float) -> None:
        """Count a finished chunk of ``items`` items that took ``seconds`` in its worker."""
        self.items, self.seconds = self.items + items, self.seconds + seconds
        self.latest, self.largest = seconds / items, max(self.largest, items)

    def chunk_size(self, waiting: int, workers: int) -> int:
        """Items of the next chunk: about ``TARGET_TASK_SECONDS`` of work at the slower of the mean and the latest
        time per item (items may get slower, as when a tournament reaches its slow agents), at most four times
        the largest chunk finished so far (one quick item says little: 1, 4, 16, ...), and at most a
        ``CHUNKS_PER_WORKER``-th of each worker's share of the ``waiting`` items."""
        if self.items == 0:
            return 1
        share = math.ceil(waiting / (CHUNKS_PER_WORKER * max(workers, 1)))
        per_item = max(self.seconds / self.items, self.latest)
        by_time = int(TARGET_TASK_SECONDS / per_item) if per_item > 0 else share
        return max(1, min(share, by_time, 4 * self.largest))


class RayExecutor(Closing):
    """The Ray backend: ``workers`` actors, chunks of items to the actors with room for one, retries when actors
    die (see the module docstring); :func:`baselines.distributed.make_executor` builds it."""

    def __init__(
        self,
        workers: int,
        initializer: Callable[..., None] | None,
        initargs: Sequence[Any],
        ray_address: str | None,
    ) -> None:
        self.ray = import_ray()
        connect_ray(self.ray, ray_address, workers)
        self.actor_class = self.ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(RayWorker)
        self.start_args = (initializer, self.ray.put(tuple(initargs)))
        self.workers, self.numbers = workers, itertools.count()
        self.actors: list[_Actor] = []  # started and alive
        self.starting: dict[Any, _Actor] = {}
        self.running: dict[Any, tuple[_Actor, list[tuple[int, Any]]]] = {}
        self._top_up()

    def _top_up(self) -> None:
        """Start actors until ``workers`` are started or starting (the first ones, and replacements)."""
        while len(self.actors) + len(self.starting) < self.workers:
            actor = _Actor(self.actor_class.remote(), next(self.numbers))
            self.starting[actor.handle.start.remote(*self.start_args)] = actor

    def map(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """``fn(item)`` in order: the unordered results, each held back until its turn."""
        return in_order(self.map_unordered(fn, items))

    def map_unordered(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """``(position, fn(item))`` as each chunk finishes; every item exactly once, whatever dies on the way."""
        queue: deque[tuple[int, Any]] = deque(enumerate(items))
        attempts = [0] * len(queue)
        timing = _Timing()
        self._top_up()
        try:
            while queue or self.running:
                self._dispatch(fn, queue, timing)
                for ref in self._wait():
                    yield from self._collect(ref, queue, attempts, timing)
        finally:
            self._abandon_running()

    def _dispatch(self, fn: Callable[[Any], Any], queue: deque[tuple[int, Any]], timing: _Timing) -> None:
        """Give every actor a chunk, then a second one to queue behind it while plenty is left (the actor starts
        it while this process collects the first: no idle worker between chunks)."""
        for depth in (1, 2):
            for actor in self.actors:
                if not queue or (depth == 2 and len(queue) < 2 * len(self.actors)):
                    return
                if actor.in_flight < depth:
                    size = min(timing.chunk_size(len(queue), len(self.actors)), len(queue))
                    chunk = [queue.popleft() for _ in range(size)]
                    self.running[actor.handle.run.remote(fn, chunk)] = (actor, chunk)
                    actor.in_flight += 1

    def _wait(self) -> list[Any]:
        """The finished references (task results or actor starts); an error when no actor can start."""
        refs = [*self.running, *self.starting]
        if not refs:
            raise RuntimeError("no Ray worker is left to run the remaining items")
        timeout = None if self.running else START_TIMEOUT_SECONDS
        ready, _ = self.ray.wait(refs, num_returns=1, timeout=timeout)
        if not ready:
            raise RuntimeError(
                f"no Ray worker started within {START_TIMEOUT_SECONDS:.0f} s: each needs 1 free CPU in the "
                f"cluster (resources free now: {self.ray.available_resources()})"
            )
        return ready

    def _collect(
        self, ref: Any, queue: deque[tuple[int, Any]], attempts: list[int], timing: _Timing
    ) -> Iterator[tuple[int, Any]]:
        if ref in self.starting:
            self._started(ref)
            return
        actor, chunk = self.running.pop(ref)
        actor.in_flight -= 1
        try:
            results, seconds = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as error:
            raise _cause(error) from error
        except _worker_lost_errors(self.ray) as error:
            self._lost(actor, chunk, error, queue, attempts)
            return
        timing.add(len(chunk), seconds)
        logger.debug(
            "Ray worker %d finished items %s in %.3f s", actor.number, [p for p, _ in chunk], seconds,
            extra={"ray_node": actor.node},
        )  # fmt: skip
        yield from results

    def _started(self, ref: Any) -> None:
        actor = self.starting.pop(ref)
        try:
            actor.node = self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as error:
            raise _cause(error) from error
        except _worker_lost_errors(self.ray) as error:
            logger.warning("Ray worker %d died while starting (%s); starting another", actor.number, _first(error))
            self._top_up()
            return
        self.actors.append(actor)

    def _lost(
        self,
        actor: _Actor,
        chunk: list[tuple[int, Any]],
        error: Exception,
        queue: deque[tuple[int, Any]],
        attempts: list[int],
    ) -> None:
        """Put a chunk whose actor died back at the front of the queue; drop the actor and start another."""
        positions = [position for position, _ in chunk]
        for position in positions:
            attempts[position] += 1
            if attempts[position] >= MAX_ATTEMPTS:
                raise RuntimeError(
                    f"item {position} lost its Ray worker {MAX_ATTEMPTS} times; it may be what kills the worker "
                    f"(out of memory?); last error: {_first(error)}"
                ) from error
        logger.warning(
            "Ray worker %d (node %s) died running items %s (%s); running them again on another worker",
            actor.number, actor.node, positions, _first(error),
        )  # fmt: skip
        queue.extendleft(reversed(chunk))
        if actor in self.actors:  # its other chunk in flight, if any, fails the same way
            self.actors.remove(actor)
            self._kill(actor)
            self._top_up()

    def _abandon_running(self) -> None:
        """Kill the actors still running work nobody will collect (the caller stopped early, or an item raised);
        the next map starts new ones."""
        for actor, _ in self.running.values():
            if actor in self.actors:
                self.actors.remove(actor)
                self._kill(actor)
        self.running.clear()

    def _kill(self, actor: _Actor) -> None:
        try:
            self.ray.kill(actor.handle)
        except Exception:  # already gone with its node
            logger.debug("Ray worker %d was already gone", actor.number)

    def close(self) -> None:
        """Kill every actor (the Ray runtime itself stays up for the next executor of this process)."""
        for actor in [*self.actors, *self.starting.values(), *(actor for actor, _ in self.running.values())]:
            self._kill(actor)
        self.actors, self.starting, self.running = [], {}, {}


def _worker_lost_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """Ray's errors for work lost with its worker process or node (retried), as opposed to an exception raised
    by the work itself (``RayTaskError``, never retried)."""
    errors = ray.exceptions
    return (
        errors.RayActorError, errors.WorkerCrashedError, errors.NodeDiedError, errors.ObjectLostError,
        errors.OutOfMemoryError, errors.LocalRayletDiedError,
    )  # fmt: skip


def _cause(error: Any) -> BaseException:
    """The exception a Ray task raised, as itself (its message unchanged, as the local pool gives it), or, when
    it could not be sent back, Ray's error posing as its type; the worker's traceback is in the Ray error."""
    cause = getattr(error, "cause", None)
    return cause if isinstance(cause, BaseException) else error.as_instanceof_cause()


def _first(error: BaseException) -> str:
    """The first line of an error's message (Ray's are long)."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"
