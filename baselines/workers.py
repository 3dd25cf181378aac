"""Worker processes that die with their parent.

A ``ProcessPoolExecutor`` worker waits for work on a queue; when the parent is killed (``kill -9``, the
out-of-memory killer) nothing tells it, and idle workers live on, holding memory and, through their open pipe,
keeping multiprocessing's resource tracker alive too. :func:`process_pool` starts workers that watch their
parent: on Linux the kernel sends them ``SIGKILL`` when it dies (``prctl(PR_SET_PDEATHSIG)``), and everywhere a
watchdog thread polls ``os.getppid()`` and ends the worker once the parent is gone. With every worker gone, the
resource tracker sees its pipe close and exits on its own.

Workers are started from the thread that submits work (Python starts spawn workers on demand); the kernel ties
``PR_SET_PDEATHSIG`` to that thread, so submit from a thread that lives as long as the pool (the usual ``with
process_pool(...) as pool:`` block does).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process receives when its parent dies (``<linux/prctl.h>``)."""
POLL_SECONDS = 0.5
"""How often the watchdog thread checks that the parent is still there."""


def process_pool(
    workers: int, initializer: Callable[..., None] | None = None, initargs: Sequence[Any] = ()
) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``workers`` spawned processes that end when this process ends, however it
    ends; each runs ``initializer(*initargs)`` once it watches its parent."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_orphan_safe_worker,
        initargs=(os.getpid(), initializer, tuple(initargs)),
    )


def _start_orphan_safe_worker(
    parent_pid: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    die_with_parent(parent_pid)
    if initializer is not None:
        initializer(*initargs)


def die_with_parent(parent_pid: int, kernel_signal: bool = True) -> None:
    """End this process when the process ``parent_pid`` (its parent) ends: a kernel parent-death signal where
    there is one (Linux) and ``kernel_signal`` asks for it, and a watchdog thread everywhere. Ends at once if the
    parent is already gone.

    The kernel sends its signal when the *thread* that started this process ends, not only the process, so ask
    for it only when that thread lives as long as the parent (the main thread, or a pool's own ``with`` block);
    a process started from a short-lived thread (a web server's request threads) relies on the watchdog alone.
    """
    if kernel_signal:
        _set_parent_death_signal()
    if os.getppid() != parent_pid:
        os._exit(1)
    watchdog = threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent-watchdog", daemon=True)
    watchdog.start()


def _set_parent_death_signal() -> bool:
    """Ask the kernel for ``SIGKILL`` when the parent dies; ``False`` where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_SECONDS)
    os._exit(1)


__all__ = ["POLL_SECONDS", "die_with_parent", "process_pool"]
