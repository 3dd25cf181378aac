"""What every parallel backend offers (:class:`Executor`), and what the backends share: closing with ``with``,
and putting unordered results back in order (:func:`in_order`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol


class Executor(Protocol):
    """What every backend offers: functions of one item run in parallel workers, and a ``close``."""

    def map_unordered(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """``(position in items, fn(item))`` for every item, as each finishes."""
        ...

    def map(self, fn: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[Any]:
        """``fn(item)`` for every item, in the order of ``items``."""
        ...

    def close(self) -> None:
        """Stop the workers."""
        ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc: object) -> None: ...


class Closing:
    """``with executor:`` closes it on the way out."""

    def close(self) -> None:
        """Stop the workers (each backend says how)."""
        raise NotImplementedError

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def in_order(results: Iterable[tuple[int, Any]]) -> Iterator[Any]:
    """The results of :meth:`Executor.map_unordered`, put back in the order of their positions."""
    waiting: dict[int, Any] = {}
    following = 0
    for position, result in results:
        waiting[position] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1
