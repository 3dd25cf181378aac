"""What a settings dataclass says about its fields, so that a command line can be built from it alone.

The library's settings dataclasses (``AlphaZeroSettings``, ``SB3Settings``, ``TabularQSettings``, ...) are the
one statement of a run's options: each field has its type, its default, its help (the string literal under it,
or its line in the class docstring's ``Attributes:``) and, in its ``metadata``, the :class:`Range` a number allows
(:func:`setting` writes it). :func:`options_of` lists a dataclass's fields as :class:`Option` s, one per flag, a
field whose type is itself a dataclass (nested settings) flattened into its fields; :func:`build` turns the flat
values back into the dataclass, nested ones included. Scripts (``scripts._args``) build their parsers from these.

Flag names: a field's own name, or its ``metadata["flag"]``; a nested field whose name an outer field already
takes is prefixed with its path (``selfplay.batch_size`` -> ``selfplay_batch_size``). An optional field
(``int | None``) takes the word ``none``, or its ``metadata["none"]`` (``0``), for ``None``.

:func:`settings_from` copies fields from another dataclass of the same names. A run's game and name lists read from
text are :mod:`baselines.inputs`'.

Example: with

    @dataclass
    class Inner:
        rate: float = setting(0.1, FRACTION)
        '''Step size.'''

    @dataclass
    class Outer:
        rounds: int = setting(10, COUNT, flag="games")
        inner: Inner = field(default_factory=Inner)
        budget: float | None = setting(None, POSITIVE, none=0.0)

``options_of(Outer)`` names the flags ``games``, ``inner_rate`` (``rate`` would do unless another field took it)
and ``budget``, and ``build(Outer, {"games": 3, "budget": 0.0})`` is ``Outer(3, Inner(0.1), None)``.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import re
import textwrap
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

S = TypeVar("S")

RANGE, FLAG, NONE = "range", "flag", "none"
"""The ``metadata`` keys a settings field may carry: its :class:`Range`, its flag name, its stand-in for ``None``."""
MAX_INT = 2**31 - 1
"""The largest int option: every int a script passes on fits a C ``int`` and seeds every generator."""


# -- ranges -----------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Range:
    """The values a numeric setting allows: ``low..high`` for an int, ``[low, high]`` (``(low, high]`` when
    ``open_low``) for a float.

    >>> Range(1, 10).describe(int), Range(0.0, 1.0, open_low=True).describe(float)
    ('an int in 1..10', 'a finite number in (0, 1]')
    """

    low: float
    high: float
    open_low: bool = False

    def allows(self, value: float) -> bool:
        """Whether ``value`` is in the range."""
        return (self.low < value if self.open_low else self.low <= value) and value <= self.high

    def describe(self, kind: type) -> str:
        """The range in words, for an int or a float setting."""
        if kind is int:
            return f"an int in {int(self.low)}..{int(self.high)}"
        return f"a finite number in {'(' if self.open_low else '['}{self.low:g}, {self.high:g}]"


INT_RANGE = Range(0, MAX_INT)
"""The range of an int setting that declares none (seeds, and counts where 0 means none)."""
FLOAT_RANGE = Range(0.0, 1e9)
"""The range of a float setting that declares none."""
COUNT = Range(1, 10**9)
"""A count of games, steps, episodes, simulations, ... (at least one)."""
COUNT_OR_ZERO = Range(0, 10**9)
"""A count where 0 means none (or "the default")."""
WORKERS = Range(1, 1024)
"""Processes or actors working in parallel."""
FRACTION = Range(0.0, 1.0)
"""A probability or a share."""
POSITIVE = Range(0.0, 1e9, open_low=True)
"""A positive number (a learning rate, a temperature, seconds)."""


def setting(
    default: Any = dataclasses.MISSING,
    bounds: Range | None = None,
    *,
    factory: Any = dataclasses.MISSING,
    flag: str | None = None,
    none: Any = dataclasses.MISSING,
) -> Any:
    """A dataclass field (``default`` or ``factory``) with what a command line needs to know of it: the
    ``bounds`` a number allows, the ``flag`` it goes by when not its name, the value (``none``) that stands for
    ``None`` on the command line."""
    metadata: dict[str, Any] = {}
    if bounds is not None:
        metadata[RANGE] = bounds
    if flag is not None:
        metadata[FLAG] = flag
    if none is not dataclasses.MISSING:
        metadata[NONE] = none
    return dataclasses.field(default=default, default_factory=factory, metadata=metadata)


# -- the fields as options --------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Option:
    """One flag of a settings dataclass: a field, nested ones flattened.

    Attributes:
        name: the flag's name with underscores (``n_envs`` is ``--n-envs``).
        path: the field's path from the top dataclass (``("selfplay", "batch_size")``).
        hint: the field's type, ``None`` left out of an optional one.
        default: the value the command line shows and starts from (an optional field's stand-in for ``None``).
        help: the field's documentation.
        bounds: the :class:`Range` the field declares (``None``: the usual one of its kind, :attr:`range`).
        optional: the field takes ``None``; ``none`` stands for it besides the word ``none``.
    """

    name: str
    path: tuple[str, ...]
    hint: Any
    default: Any
    help: str = ""
    bounds: Range | None = None
    optional: bool = False
    none: Any = None

    @property
    def kind(self) -> Any:
        """``int``/``float``/``str``/``bool`` of the option, or of each item of a list or tuple option."""
        return scalar_kind(self.hint)

    @property
    def many(self) -> bool:
        """The option takes several values (a list or a tuple field)."""
        return typing.get_origin(self.hint) in (list, tuple)

    @property
    def range(self) -> Range:
        """The values a numeric option allows: its declared range, else :data:`INT_RANGE` or :data:`FLOAT_RANGE`."""
        if self.bounds is not None:
            return self.bounds
        return INT_RANGE if self.kind is int else FLOAT_RANGE


def scalar_kind(hint: Any) -> Any:
    """``int``/``float``/... for a field of that type or a list or tuple of them, else the hint itself."""
    return typing.get_args(hint)[0] if typing.get_origin(hint) in (list, tuple) else hint


def _without_none(hint: Any) -> tuple[Any, bool]:
    """``(hint without None, whether it had None)``: ``int | None`` -> ``(int, True)``."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(rest) == 1:
            return rest[0], True
    return hint, False


def _is_nested(hint: Any) -> bool:
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def _leaves(cls: type, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], type, dataclasses.Field]]:
    """``(path, owner class, field)`` of every field of ``cls`` that is not itself a dataclass, depth first."""
    hints = typing.get_type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init:
            continue
        if _is_nested(hints[f.name]):
            found += _leaves(hints[f.name], (*path, f.name))
        else:
            found.append(((*path, f.name), cls, f))
    return found


def _flag_names(leaves: list[tuple[tuple[str, ...], type, dataclasses.Field]]) -> dict[tuple[str, ...], str]:
    """The flag name of every leaf path: its own (or ``metadata["flag"]``), prefixed with its parent field's name
    (then its whole path) when a shallower field already takes it."""
    names: dict[tuple[str, ...], str] = {}
    for path, _, f in sorted(leaves, key=lambda leaf: len(leaf[0])):
        taken = set(names.values())
        for name in (f.metadata.get(FLAG, f.name), "_".join(path[-2:]), "_".join(path)):
            if name not in taken:
                names[path] = name
                break
        else:
            raise TypeError(f"two settings fields take the flag {'_'.join(path)!r}")
    return names


@functools.cache
def options_of(cls: type) -> tuple[Option, ...]:
    """The options of the dataclass ``cls``, one per field (nested dataclasses flattened), in field order.

    A field's range is its ``metadata["range"]``, else what ``cls.LIMITS`` (a class attribute mapping top-level
    field names to ranges) gives it."""
    leaves = _leaves(cls)
    names = _flag_names(leaves)
    limits: Mapping[str, Range] = getattr(cls, "LIMITS", {})
    unknown = sorted(set(limits) - {path[0] for path in names if len(path) == 1})
    if unknown:
        raise TypeError(f"{cls.__qualname__}.LIMITS names no field: {unknown}")
    return tuple(_option(path, owner, f, names[path], limits) for path, owner, f in leaves)


def _option(path: tuple[str, ...], owner: type, f: dataclasses.Field, name: str, limits: Mapping[str, Range]) -> Option:
    hint, optional = _without_none(typing.get_type_hints(owner)[f.name])
    default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
    none = f.metadata.get(NONE)
    if default is None and none is not None:
        default = none
    bounds = f.metadata.get(RANGE, limits.get(path[0]) if len(path) == 1 else None)
    return Option(name, path, hint, default, field_docs(owner).get(f.name, ""), bounds, optional, none)


def build(cls: type[S], values: Mapping[str, Any]) -> S:
    """The dataclass ``cls`` (its nested settings too) from option name -> value; a missing option keeps its
    field's default, an optional one's stand-in becomes ``None``. ``cls``'s own checks run as usual."""
    by_path = {option.path: option for option in options_of(cls)}
    return _build_nested(cls, (), by_path, values)


def _build_nested(
    cls: type[S], path: tuple[str, ...], by_path: dict[tuple[str, ...], Option], values: Mapping[str, Any]
) -> S:
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        here = (*path, f.name)
        if not f.init:
            continue
        if _is_nested(hints[f.name]):
            kwargs[f.name] = _build_nested(hints[f.name], here, by_path, values)
        elif by_path[here].name in values:
            option = by_path[here]
            value = values[option.name]
            kwargs[f.name] = None if option.optional and option.none is not None and value == option.none else value
    return cls(**kwargs)


# -- the fields' documentation ----------------------------------------------------------------------
@functools.cache
def field_docs(cls: type) -> dict[str, str]:
    """The documentation of each field of a dataclass, inherited ones included: the string literal under it (its
    attribute docstring), else its entry in the ``Attributes:`` section of the class docstring."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if dataclasses.is_dataclass(klass):
            docs.update(_attributes_section(klass.__doc__ or ""))
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


def _attributes_section(doc: str) -> dict[str, str]:
    """``name -> text`` of the ``Attributes:`` section of a Google-style docstring (continuation lines joined)."""
    lines = textwrap.dedent("\n".join(doc.splitlines()[1:])).splitlines()
    if "Attributes:" not in lines:
        return {}
    docs: dict[str, str] = {}
    name, indent = None, None
    for line in lines[lines.index("Attributes:") + 1 :]:
        if not line.strip():
            break
        depth = len(line) - len(line.lstrip())
        indent = depth if indent is None else indent
        entry = re.match(r"\s*(\w+)(?: \([^)]*\))?: (.*)", line)
        if depth == indent and entry:
            name = entry.group(1)
            docs[name] = entry.group(2).strip()
        elif depth > indent and name is not None:
            docs[name] += " " + line.strip()
        else:
            break
    return docs


# -- copying, configs, names -----------------------------------------------------------------------
def settings_from(
    args: Any, cls: type[S], *, renames: Mapping[str, str] | None = None, defaults: Iterable[str] = ()
) -> S:
    """The ``cls`` settings whose fields take the values of the same-named fields of the dataclass ``args``.

    A settings field whose type is itself a dataclass (nested settings) and that ``args`` does not have is
    built the same way from ``args``; its fields are named by their path, ``"selfplay.simulations"``. Fields
    of ``args`` that no setting uses (an output folder, a progress flag) are ignored.

    Args:
        args: the script's arguments (a dataclass instance).
        cls: the settings dataclass to build; its own checks (``__post_init__``) run as usual.
        renames: settings field path -> name of the argument that holds its value.
        defaults: settings field paths that keep their default (the script does not expose them).

    Raises:
        ValueError: a settings field has no argument of its name and is neither renamed nor kept at its
            default, or ``renames``/``defaults`` name a field ``cls`` does not have.
    """
    renames, keep = dict(renames or {}), set(defaults)
    unknown = sorted((set(renames) | keep) - _field_paths(cls))
    if unknown:
        raise ValueError(f"renames/defaults name fields {cls.__name__} does not have: {unknown}")
    available = {f.name for f in dataclasses.fields(args)}
    return _build(args, available, cls, "", renames, keep)


def _build(args: Any, available: set[str], cls: type[S], prefix: str, renames: dict[str, str], keep: set[str]) -> S:
    """``cls`` filled from ``args``; ``prefix`` is the path of ``cls`` inside the top-level settings."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        path = prefix + f.name
        if path in keep or not f.init:
            continue
        source = renames.get(path, f.name)
        nested = None if source in available or path in renames else _dataclass_type(cls, f.name)
        if source in available:
            values[f.name] = getattr(args, source)
        elif nested is not None:
            values[f.name] = _build(args, available, nested, path + ".", renames, keep)
        else:
            raise ValueError(
                f"{type(args).__name__} has no field {source!r} for the setting {cls.__name__}.{f.name} "
                f"({path!r}): add the argument, map it with renames={{{path!r}: ...}}, or keep the default with "
                f"defaults=[{path!r}]"
            )
    return cls(**values)


def _dataclass_type(cls: type, name: str) -> type | None:
    """The type of field ``name`` of ``cls`` if it is a dataclass, else ``None``."""
    hint = typing.get_type_hints(cls).get(name)
    return hint if isinstance(hint, type) and dataclasses.is_dataclass(hint) else None


def _field_paths(cls: type, prefix: str = "") -> set[str]:
    """Every field path of ``cls``, nested settings included (``"selfplay"`` and ``"selfplay.simulations"``)."""
    paths = set()
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        paths.add(prefix + f.name)
        nested = _dataclass_type(cls, f.name)
        if nested is not None:
            paths |= _field_paths(nested, prefix + f.name + ".")
    return paths
