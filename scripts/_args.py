"""Command lines built from an ``Args`` dataclass, and the one way every script runs and reports a wrong option.

Every field of ``Args`` is one flag (``n_envs`` is ``--n-envs``) whose help is the field's docstring. A script's
``cli(argv)`` is ``run_cli(Args, argv, run, description=__doc__, check=check_args)``:

1. **Parse.** Ints and floats are read and range-checked as the command line is parsed: an option takes the
   :class:`Range` its ``Args.LIMITS`` gives it (a class attribute: the ranges the script knows, such as
   ``{"games": COUNT}``), else :data:`INT_RANGE` (``0..2**31 - 1``) or :data:`FLOAT_RANGE` (``[0, 1e9]``); a
   float is never NaN or an infinity.
2. **Check.** ``Args(...)`` (its ``__post_init__``), then ``check(args)``: everything that can be checked before
   any work starts (the game and its config, agent specs, files that must exist, JSON), with no side effect.
3. **Run.** ``run(args)``: ``main`` and the printing.

A wrong option at any step prints ``error: --flag: what is wrong`` to stderr and exits with status 2, without a
traceback (``--debug`` shows the traceback instead). An error names its flag through :class:`OptionError` (or
:func:`about`), or by starting with the name of an ``Args`` field (``"seed must be >= 0"``, ``"game: unknown
game"``): the library's own messages name their settings that way.

A game config given as ``key=value`` flags is read by :func:`baselines.settings.parse_config`.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import functools
import inspect
import math
import re
import sys
import textwrap
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MAX_INT = 2**31 - 1
"""The largest int option: every int a script passes on fits a C ``int`` and seeds every generator."""
DEBUG_FLAG = "--debug"
"""The flag that shows the traceback of an error instead of the one-line message."""
COMMAND_PREFIX = "boardenvs-"
"""The prefix of the commands ``pip install`` puts on the path (``boardenvs-tournament``, see pyproject.toml)."""
REPORTED = (ValueError, TypeError, OSError, ImportError)
"""What a wrong option raises while the arguments are checked (an ``ImportError``: an option that needs an extra
that is not installed). In ``main`` only ``ValueError`` and ``OSError`` are: a ``TypeError`` there is a bug."""


# -- ranges -----------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Range:
    """The values a numeric option allows: ``low..high`` for an int, ``[low, high]`` (``(low, high]`` when
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
        """The range in words, for an int or a float option."""
        if kind is int:
            return f"an int in {int(self.low)}..{int(self.high)}"
        return f"a finite number in {'(' if self.open_low else '['}{self.low:g}, {self.high:g}]"


INT_RANGE = Range(0, MAX_INT)
"""The range of an int option its script does not declare (seeds, and counts where 0 means none)."""
FLOAT_RANGE = Range(0.0, 1e9)
"""The range of a float option its script does not declare."""
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


def option_range(cls: type, name: str) -> Range:
    """The :class:`Range` of the numeric option ``name`` of the ``Args`` class ``cls``."""
    declared: Mapping[str, Range] = getattr(cls, "LIMITS", {})
    if name in declared:
        return declared[name]
    return INT_RANGE if _scalar_kind(typing.get_type_hints(cls)[name]) is int else FLOAT_RANGE


def flag_of(name: str) -> str:
    """The flag of the ``Args`` field ``name``: ``n_envs`` -> ``--n-envs``."""
    return "--" + name.replace("_", "-")


# -- the parser -------------------------------------------------------------------------------------
@functools.cache
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


def _scalar_kind(hint: Any) -> Any:
    """``int``/``float`` for a numeric option or a list of them, else the hint itself."""
    return typing.get_args(hint)[0] if typing.get_origin(hint) is list else hint


def number_parser(kind: type, bounds: Range) -> Callable[[str], Any]:
    """The argparse ``type`` of an int or float option: the value, or ``ArgumentTypeError`` saying what the option
    allows (a float is never NaN or infinite)."""

    def parse(text: str) -> Any:
        try:
            value = kind(text.strip())
        except (ValueError, OverflowError):
            value = None
        if value is None or (kind is float and not math.isfinite(value)) or not bounds.allows(value):
            raise argparse.ArgumentTypeError(f"must be {bounds.describe(kind)}, got {text!r}")
        return value

    parse.__name__ = kind.__name__
    return parse


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors read ``error: --flag: what is wrong`` (status 2, no usage block)."""

    def error(self, message: str) -> NoReturn:
        message = re.sub(r"^argument ([^:]+): ", lambda match: match.group(1).split("/")[0] + ": ", message)
        fail(message, f"{self.prog} --help lists the options")


def _add_flag(parser: argparse.ArgumentParser, cls: type, f: dataclasses.Field, kind: Any, help_text: str) -> None:
    flag = flag_of(f.name)
    default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
    scalar = _scalar_kind(kind)
    bounds = f"; {option_range(cls, f.name).describe(scalar)}" if scalar in (int, float) else ""
    help_text = f"{help_text} (default: {default!r}{bounds})".replace("%", "%%")
    item_type = number_parser(scalar, option_range(cls, f.name)) if scalar in (int, float) else scalar
    if kind is bool:
        parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default, help=help_text)
    elif typing.get_origin(kind) is list:
        parser.add_argument(flag, nargs="*", type=item_type, default=default, help=help_text)
    else:
        parser.add_argument(flag, type=item_type, default=default, help=help_text)


def program_name(cls: type) -> str:
    """How the user ran the script: an installed command (``boardenvs-evaluate``) or ``python -m <module>``."""
    command = Path(sys.argv[0]).name
    if command.startswith(COMMAND_PREFIX):
        return command
    module = cls.__module__
    if module == "__main__":  # python -m <module>: the name it was run by
        spec = getattr(sys.modules["__main__"], "__spec__", None)
        module = spec.name if spec is not None else f"scripts.{Path(sys.argv[0]).stem}"
    return f"python -m {module}"


def build_parser(cls: type, description: str | None = None) -> argparse.ArgumentParser:
    """The parser of the dataclass ``cls``: one flag per field, and ``--debug``."""
    parser = _Parser(
        prog=program_name(cls),
        description=description or cls.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    unknown = sorted(set(getattr(cls, "LIMITS", {})) - set(hints))
    if unknown:
        raise TypeError(f"{cls.__qualname__}.LIMITS names no field: {unknown}")
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        _add_flag(parser, cls, f, hints[f.name], docs.get(f.name, ""))
    parser.add_argument(DEBUG_FLAG, action="store_true", help="on an error, show its traceback")
    return parser


def parse_args(cls: type[T], argv: Sequence[str] | None = None, description: str | None = None) -> T:
    """Parse ``argv`` into an instance of the dataclass ``cls`` (``--debug`` is accepted and ignored).

    A value out of its range exits (status 2) with the message; an error of ``cls(...)`` itself is raised.
    """
    namespace = vars(build_parser(cls, description).parse_args(argv))
    namespace.pop("debug")
    return cls(**namespace)


# -- errors -----------------------------------------------------------------------------------------
class OptionError(ValueError):
    """A wrong value of the option ``field`` (an ``Args`` field name); ``str(error)`` is what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@contextmanager
def about(field: str) -> Iterator[None]:
    """Raise a ``ValueError``, ``TypeError`` or ``OSError`` of the block as an :class:`OptionError` of ``field``
    (an :class:`OptionError` of another field passes through unchanged)."""
    try:
        yield
    except OptionError:
        raise
    except REPORTED as error:
        raise OptionError(field, _without_prefix(str(error), field)) from error


def _without_prefix(message: str, field: str) -> str:
    """``message`` without the name of ``field`` it starts with, since the flag is printed before it:
    ``"seed: ..."``, ``"--runs takes ..."``, ``"seed must ..."`` and ``"config ['x']: ..."`` lose their first word
    (``"resume and force exclude each other"`` keeps it)."""
    flag = flag_of(field)
    for prefix in (f"{field}: ", f"{flag}: "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    for head in (f"{flag} ", f"{field} must ", f"{field} ["):
        if message.startswith(head):
            return message[len(head.split(" ")[0]) + 1 :]
    return message


def field_named(cls: type, message: str, renames: Mapping[str, str] | None = None) -> str | None:
    """The ``Args`` field whose name (or flag, or dotted settings path) starts ``message``, if any.

    ``renames`` maps a library setting's name to the field that sets it (``{"games_per_iteration": "games"}``).
    """
    match = re.match(r"\s*(?:--)?([A-Za-z_][\w.-]*)", message)
    if match is None:
        return None
    name = match.group(1).replace("-", "_").rstrip(".").split(".")[-1]
    name = (renames or {}).get(name, name)
    return name if name in {f.name for f in dataclasses.fields(cls)} else None  # type: ignore[arg-type]


def error_line(cls: type, error: BaseException, renames: Mapping[str, str] | None = None) -> str:
    """The one-line report of ``error``: ``--flag: what is wrong`` when it names a field, else the message."""
    message = str(error) or type(error).__name__
    field = error.field if isinstance(error, OptionError) else field_named(cls, message, renames)
    return f"{flag_of(field)}: {_without_prefix(message, field)}" if field else message


def fail(message: str, hint: str = "") -> NoReturn:
    """Print ``error: message`` (and ``hint``) to stderr and exit with status 2."""
    print(f"error: {message}" + (f"\n({hint})" if hint else ""), file=sys.stderr)
    raise SystemExit(2)


# -- running a script -------------------------------------------------------------------------------
def run_cli(
    cls: type[T],
    argv: Sequence[str] | None,
    run: Callable[[T], R],
    *,
    description: str | None = None,
    check: Callable[[T], object] | None = None,
    renames: Mapping[str, str] | None = None,
) -> R:
    """Parse ``argv`` (``sys.argv[1:]`` when ``None``) into ``cls``, check it, then return ``run(args)``.

    A wrong option (at parse time, in ``cls(...)``, in ``check`` or a ``ValueError``/``OSError`` of ``run``) prints
    ``error: --flag: what is wrong`` and exits with status 2; with ``--debug`` it is raised with its traceback.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    namespace = vars(build_parser(cls, description).parse_args(arguments))
    debug = namespace.pop("debug")
    try:
        args = cls(**namespace)
        if check is not None:
            check(args)
    except REPORTED as error:
        _report(cls, error, renames, debug)
    try:
        return run(args)
    except (ValueError, OSError) as error:
        _report(cls, error, renames, debug)


def _report(cls: type, error: BaseException, renames: Mapping[str, str] | None, debug: bool) -> NoReturn:
    if debug:
        raise error
    fail(error_line(cls, error, renames), f"{DEBUG_FLAG} shows the traceback")


# -- checks that many scripts share ------------------------------------------------------------------
def check_game(game_name: str, config: list[str], game_field: str = "game", config_field: str = "config") -> Any:
    """The game ``game_name`` with the ``key=value`` ``config``; an :class:`OptionError` of ``game_field`` or
    ``config_field``."""
    from baselines.settings import checked_game

    try:
        return checked_game(game_name, config)[0]
    except ValueError as error:
        message = str(error)
        if message.startswith("game: "):
            raise OptionError(game_field, message[len("game: ") :]) from None
        raise OptionError(config_field, message.removeprefix("config ")) from None


def check_agents(field: str, specs: Iterable[str], game_name: str) -> None:
    """Build every agent of ``specs`` for ``game_name`` (a file an ``sb3:`` spec names is loaded): an
    :class:`OptionError` of ``field`` naming the first bad one."""
    from baselines.factory import make_agent

    for spec in specs:
        with about(field):
            make_agent(spec, game_name)


def check_backend_options(backend: str, ray_address: str) -> None:
    """The backend (Ray installed when it is asked for) and the Ray cluster at ``ray_address``, which must answer
    (within a few seconds); an error naming ``backend`` or ``ray_address``."""
    from baselines.distributed import check_reachable, require_backend

    require_backend(backend, ray_address or None)  # each of its errors starts with the option it names
    if backend == "ray" and ray_address:
        with about("ray_address"):
            check_reachable(ray_address)


def names_in(field: str, text: str, minimum: int = 1) -> list[str]:
    """The comma-separated names of ``text`` (stripped, in order); an :class:`OptionError` of ``field`` for fewer
    than ``minimum`` or a repeated name."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) < minimum:
        raise OptionError(field, f"name at least {minimum}, got {text!r}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise OptionError(field, f"names must be distinct, repeated: {repeated}")
    return names


def check_existing_file(field: str, path: str, what: str = "file") -> None:
    """An :class:`OptionError` of ``field`` unless ``path`` names an existing file."""
    if not path:
        raise OptionError(field, f"give the path of a {what}")
    if not Path(path).is_file():
        raise OptionError(field, f"no {what} at {path!r}")
