"""One progress bar for long runs (tournaments, NTBEA, head-to-head games): tqdm when asked for, else a no-op.

tqdm is imported only when a bar is shown, so the library does not need it.
"""

from __future__ import annotations

from typing import Any


class NoBar:
    """The bar of a run that shows none: ``update``, ``set_postfix`` and ``close`` do nothing (a context manager,
    like tqdm)."""

    def update(self, count: int = 1) -> None:
        del count

    def set_postfix(self, **values: object) -> None:
        del values

    def close(self) -> None:
        pass

    def __enter__(self) -> NoBar:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def progress_bar(enabled: bool, total: int, description: str, unit: str, done: int = 0) -> Any:
    """A tqdm bar over ``total`` items starting at ``done`` when ``enabled``, else a :class:`NoBar`."""
    if not enabled:
        return NoBar()
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc=description, unit=unit)
