"""Run a function right after a module is first imported (a post-import hook), or now if it already was.

``boardenvs`` registers its environments with Gymnasium and PettingZoo this way: the rules need numpy only, so
``import boardenvs`` must not import either framework, yet ``gymnasium.make("boardenvs/...")`` must work whichever
of the two packages a user imports first.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any


def when_imported(module_name: str, callback: Callable[[], None]) -> None:
    """Call ``callback()`` once ``module_name`` (a top-level module) has been imported: now if it is loaded."""
    if module_name in sys.modules:
        callback()
        return
    _finder().callbacks.setdefault(module_name, []).append(callback)


class _Loader(importlib.abc.Loader):
    """The module's own loader, followed by the callbacks once the module has executed."""

    def __init__(self, loader: Any, callbacks: list[Callable[[], None]]) -> None:
        self._loader, self._callbacks = loader, callbacks

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        for callback in self._callbacks:
            callback()


class _PostImportFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader another finder returns for a watched module."""

    def __init__(self) -> None:
        self.callbacks: dict[str, list[Callable[[], None]]] = {}

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.callbacks:
            return None
        callbacks = self.callbacks.pop(fullname)
        spec = _real_spec(self, fullname, path, target)
        if spec is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _Loader(spec.loader, callbacks)
        return spec


def _real_spec(skip: Any, fullname: str, path: Any, target: Any) -> importlib.machinery.ModuleSpec | None:
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if finder is not skip and find_spec is not None:
            spec = find_spec(fullname, path, target)
            if spec is not None:
                return spec
    return None


def _finder() -> _PostImportFinder:
    for finder in sys.meta_path:
        if isinstance(finder, _PostImportFinder):
            return finder
    finder = _PostImportFinder()
    sys.meta_path.insert(0, finder)
    return finder
