"""The one switch of the compiled (Numba) paths of the games' playouts, and loading their kernels.

A game's compiled playout (``baselines/games/<game>/compiled.py``, kernels in ``kernels.py``) is used where Numba
is installed (the ``fast`` extra) and ``BOARDENVS_NO_COMPILE`` is unset or ``0``; otherwise the search plays the
Python playout, with the same results. :func:`load_kernels` imports a kernels module once (``None`` when the switch
is off or Numba is missing); :func:`python_only` turns every compiled path off within a block, to measure one path
against the other in one process and to check the fallbacks.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
from collections.abc import Callable, Iterator
from types import ModuleType

import numpy as np

from baselines.search.playout import UniformStream

DISABLE_VARIABLE = "BOARDENVS_NO_COMPILE"
"""Set to ``1`` to play the Python playouts even where Numba is installed."""
FINISHED, NEED_NUMBERS = 0, 1
"""The statuses every playout kernel returns (a kernel may add its own): the game ended or the plies were played;
the block of random numbers ran out before a draw (refill the stream and call again)."""


def compiling_disabled() -> bool:
    """Whether :data:`DISABLE_VARIABLE` turns the compiled paths off."""
    return os.environ.get(DISABLE_VARIABLE, "") not in ("", "0")


@functools.cache
def load_kernels(module: str) -> ModuleType | None:
    """The kernels module ``module`` (compiled functions), or ``None`` with the switch off or without Numba."""
    if compiling_disabled():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:  # no Numba
        return None


@contextlib.contextmanager
def python_only() -> Iterator[None]:
    """Within the block every compiled playout is off (the Python playouts play)."""
    before = os.environ.get(DISABLE_VARIABLE)
    os.environ[DISABLE_VARIABLE] = "1"
    load_kernels.cache_clear()
    try:
        yield
    finally:
        if before is None:
            del os.environ[DISABLE_VARIABLE]
        else:
            os.environ[DISABLE_VARIABLE] = before
        load_kernels.cache_clear()


def run_to_the_end(run: Callable[[np.ndarray, int], tuple[int, int]], stream: UniformStream) -> int:
    """Call a playout kernel, ``run(block, index) -> (status, index)``, with the stream's block of numbers until it
    stops for another reason than :data:`NEED_NUMBERS` (refilling the block each time it does, where the Python
    playout refills); the stream's index follows the kernel's. Returns the last status."""
    while True:
        status, index = run(stream.array, stream.index)
        stream.index = index
        if status != NEED_NUMBERS:
            return status
        stream.refill()


__all__ = [
    "DISABLE_VARIABLE",
    "FINISHED",
    "NEED_NUMBERS",
    "compiling_disabled",
    "load_kernels",
    "python_only",
    "run_to_the_end",
]
