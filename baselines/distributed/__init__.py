"""One way to run a function over many items in parallel, on this machine's processes or on a Ray cluster.

Every parallel path of the project (the tournament's games, NTBEA's evaluations, AlphaZero's self-play games)
asks :func:`make_executor` for an :class:`Executor` and gives it a picklable function and its items. Two backends
implement it:

* ``"local"`` (the default, nothing to install): the spawned process pool of :mod:`baselines.workers`, whose
  processes end with this one (:class:`LocalExecutor`, here).
* ``"ray"`` (``pip install "boardenvs[distributed]"``): a pool of ``workers`` Ray actors that sizes its chunks of
  items from their measured time and runs again the items of an actor or node that dies
  (:mod:`baselines.distributed.ray_executor`, which says how). Ray itself is imported only when one is built.

The files: this one (the backend choice and the local backend), ``executor.py`` (the :class:`Executor` protocol
and what the backends share) and ``ray_executor.py`` (the Ray backend).

Example:
    >>> with make_executor("local", 2) as pool:
    ...     sorted(pool.map_unordered(abs, [-1, -2, 3]))
    [(0, 1), (1, 2), (2, 3)]
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import as_completed
from typing import Any

from baselines.distributed.executor import Closing, Executor, in_order
from baselines.distributed.ray_executor import (
    INSTALL_HINT,
    WORKER_NICENESS_VARIABLE,
    RayExecutor,
    check_reachable,
    connect_ray,
    import_ray,
)
from baselines.workers import process_pool

BACKENDS = ("local", "ray")
"""The backends :func:`make_executor` knows."""


def check_backend(backend: str, ray_address: str | None = None) -> str:
    """``backend`` if it is one of :data:`BACKENDS`; ``ValueError`` otherwise, or for a ``ray_address`` given to
    the local backend (it would be ignored)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if ray_address and backend != "ray":
        raise ValueError(f"ray_address={ray_address!r} needs backend='ray' (--backend ray), got {backend!r}")
    return backend


def require_backend(backend: str, ray_address: str | None = None) -> str:
    """:func:`check_backend`, and for ``"ray"`` an ``ImportError`` naming the extra to install when Ray is
    missing: called where a run starts, so it fails before any work is done."""
    check_backend(backend, ray_address)
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise ImportError(f"backend='ray' needs Ray, which is not installed: {INSTALL_HINT}")
    return backend


def runs_inline(backend: str, workers: int) -> bool:
    """Whether a caller should do the work in this process: one local worker needs no pool."""
    return backend == "local" and workers == 1


def make_executor(
    backend: str,
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: Sequence[Any] = (),
    ray_address: str | None = None,
) -> Executor:
    """An executor of ``workers`` workers, each running ``initializer(*initargs)`` once before its first item.

    Args:
        backend: ``"local"`` (spawned processes of this machine) or ``"ray"`` (Ray actors).
        workers: worker processes or actors, >= 1.
        initializer: run once in each worker (builds its agents or network); picklable.
        initargs: its arguments; picklable (sent once to the object store with Ray).
        ray_address: the Ray cluster to join (``host:port``, ``ray://host:port`` or ``auto``); ``None``:
            ``RAY_ADDRESS``, else a new local Ray with ``workers`` CPUs. A Ray already initialized in this process
            is used whatever the address.

    Raises:
        ValueError: an unknown backend, ``workers < 1``, or a ``ray_address`` with the local backend.
        ImportError: ``"ray"`` without Ray installed (the message says what to install).
        ConnectionError: an unreachable ``ray_address`` (the message names it).
    """
    require_backend(backend, ray_address)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    if backend == "local":
        return LocalExecutor(workers, initializer, initargs)
    return RayExecutor(workers, initializer, initargs, ray_address)


class LocalExecutor(Closing):
    """The local backend: :func:`baselines.workers.process_pool`, one future per item."""

    def __init__(self, workers: int, initializer: Callable[..., None] | None, initargs: Sequence[Any]) -> None:
        self.pool = process_pool(workers, initializer, initargs)

    def map_unordered(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """``(position, fn(item))`` as each item finishes; the items not started are cancelled on an error."""
        futures = {self.pool.submit(fn, item): position for position, item in enumerate(items)}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()

    def map(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """``fn(item)`` in order (``ProcessPoolExecutor.map``)."""
        return self.pool.map(fn, items)

    def close(self) -> None:
        """Wait for the running items and end the processes."""
        self.pool.shutdown(wait=True, cancel_futures=True)


__all__ = [
    "BACKENDS",
    "INSTALL_HINT",
    "WORKER_NICENESS_VARIABLE",
    "Executor",
    "LocalExecutor",
    "RayExecutor",
    "check_backend",
    "check_reachable",
    "connect_ray",
    "import_ray",
    "in_order",
    "make_executor",
    "require_backend",
    "runs_inline",
]
