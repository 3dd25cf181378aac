"""Command lines built from an ``Args`` dataclass: one flag per field, help from the field's docstring.

A game config given as ``key=value`` flags is read by :func:`baselines.settings.parse_config`.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import textwrap
import typing
from typing import Any, TypeVar

T = TypeVar("T")


def field_docs(cls: type) -> dict[str, str]:
    """The string literal under each field of a dataclass (its attribute docstring), inherited ones included:
    an ``Args`` that extends a library's settings dataclass documents its fields there, once."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if dataclasses.is_dataclass(klass):
            docs.update(_own_field_docs(klass))
    return docs


def _own_field_docs(cls: type) -> dict[str, str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for previous, node in zip(body, body[1:]):
        is_doc = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if is_doc and isinstance(previous, ast.AnnAssign) and isinstance(previous.target, ast.Name):
            docs[previous.target.id] = str(node.value.value).strip()
    return docs


def _add_flag(parser: argparse.ArgumentParser, f: dataclasses.Field, kind: Any, help_text: str) -> None:
    flag = "--" + f.name.replace("_", "-")
    default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
    help_text = f"{help_text} (default: {default!r})"
    if kind is bool:
        parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help_text)
    elif typing.get_origin(kind) is list:
        item = typing.get_args(kind)[0]
        parser.add_argument(flag, nargs="*", type=item, default=default, help=help_text)
    else:
        parser.add_argument(flag, type=kind, default=default, help=help_text)


def parse_args(cls: type[T], argv: list[str] | None = None, description: str | None = None) -> T:
    """Parse ``argv`` into an instance of the dataclass ``cls``."""
    parser = argparse.ArgumentParser(
        description=description or cls.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        _add_flag(parser, f, hints[f.name], docs.get(f.name, ""))
    namespace = parser.parse_args(argv)
    return cls(**vars(namespace))

