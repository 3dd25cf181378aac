"""Command lines built from an ``Args`` dataclass, and the one way every script runs and reports a wrong option.

Every field of ``Args`` is one flag (``n_envs`` is ``--n-envs``) whose help is the field's docstring; a field whose
type is a library settings dataclass (``settings: AlphaZeroSettings``) is flattened into one flag per settings field,
so a script states only its own few options and the library's settings are parsed directly
(:func:`baselines.settings.options_of`). A script's ``cli(argv)`` is ``run_cli(Args, argv, run,
description=__doc__, check=check_args)``:

1. **Parse.** Ints and floats are read and range-checked as the command line is parsed: an option takes the
   :class:`Range` of its settings field's ``metadata["range"]`` (:func:`baselines.settings.setting`), or the one
   ``Args.LIMITS`` gives it (a class attribute: the ranges the script knows, such as ``{"games": COUNT}``), else
   :data:`INT_RANGE` (``0..2**31 - 1``) or :data:`FLOAT_RANGE` (``[0, 1e9]``); a float is never NaN or an
   infinity.
2. **Check.** ``Args(...)`` and its nested settings (their ``__post_init__``), then ``check(args)``: everything
   that can be checked before any work starts (the game and its config, agent specs, files that must exist,
   JSON), with no side effect.
3. **Run.** ``run(args)``: ``main`` and the printing.

A wrong option at any step prints ``error: --flag: what is wrong`` to stderr and exits with status 2, without a
traceback (``--debug`` shows the traceback instead). An error names its flag through :class:`OptionError` (or
:func:`about`), or by starting with the name of an ``Args`` field (``"seed must be >= 0"``, ``"game: unknown
game"``): the library's own messages name their settings that way.

A game config given as ``key=value`` flags is read by :func:`baselines.inputs.parse_config`.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from baselines.inputs import checked_game
from baselines.settings import (  # noqa: F401  (the ranges are re-exported: the scripts' LIMITS use them)
    COUNT,
    COUNT_OR_ZERO,
    FLOAT_RANGE,
    FRACTION,
    INT_RANGE,
    MAX_INT,
    POSITIVE,
    WORKERS,
    Option,
    Range,
    build,
    options_of,
)

T = TypeVar("T")
R = TypeVar("R")

DEBUG_FLAG = "--debug"
"""The flag that shows the traceback of an error instead of the one-line message."""
COMMAND_PREFIX = "boardenvs-"
"""The prefix of the commands ``pip install`` puts on the path (``boardenvs-tournament``, see pyproject.toml)."""
REPORTED = (ValueError, TypeError, OSError, ImportError)
"""What a wrong option raises while the arguments are checked (an ``ImportError``: an option that needs an extra
that is not installed). In ``main`` only ``ValueError`` and ``OSError`` are: a ``TypeError`` there is a bug."""


# -- the parser -------------------------------------------------------------------------------------
def option_range(cls: type, name: str) -> Range:
    """The :class:`Range` of the numeric option ``name`` of the ``Args`` class ``cls`` (its settings field's
    ``metadata["range"]``, else ``cls.LIMITS[name]``, else :data:`INT_RANGE` or :data:`FLOAT_RANGE`)."""
    return option_named(cls, name).range


def option_named(cls: type, name: str) -> Option:
    """The option ``name`` (a flag name with underscores) of the ``Args`` class ``cls``."""
    for option in options_of(cls):
        if option.name == name:
            return option
    raise KeyError(f"{cls.__qualname__} has no option {name!r}")


def flag_of(name: str) -> str:
    """The flag of the option ``name``: ``n_envs`` -> ``--n-envs``."""
    return "--" + name.replace("_", "-")


def number_parser(kind: type, bounds: Range, optional: bool = False) -> Callable[[str], Any]:
    """The argparse ``type`` of an int or float option: the value, or ``ArgumentTypeError`` saying what the option
    allows (a float is never NaN or infinite; an ``optional`` option also takes the word ``none``)."""

    def parse(text: str) -> Any:
        if optional and text.strip().lower() == "none":
            return None
        try:
            value = kind(text.strip())
        except (ValueError, OverflowError):
            value = None
        if value is None or (kind is float and not math.isfinite(value)) or not bounds.allows(value):
            allowed = bounds.describe(kind) + (" or none" if optional else "")
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value

    parse.__name__ = kind.__name__
    return parse


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors read ``error: --flag: what is wrong`` (status 2, no usage block)."""

    def error(self, message: str) -> NoReturn:
        message = re.sub(r"^argument ([^:]+): ", lambda match: match.group(1).split("/")[0] + ": ", message)
        fail(message, f"{self.prog} --help lists the options")


def _add_flag(parser: argparse.ArgumentParser, option: Option) -> None:
    flag, kind = flag_of(option.name), option.kind
    numeric = kind in (int, float)
    bounds = f"; {option.range.describe(kind)}" if numeric else ""
    help_text = f"{option.help} (default: {option.default!r}{bounds})".replace("%", "%%")
    item_type = number_parser(kind, option.range, option.optional) if numeric else kind
    if option.hint is bool:
        parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=option.default, help=help_text)
    elif option.many:
        parser.add_argument(flag, nargs="*", type=item_type, default=option.default, help=help_text)
    else:
        parser.add_argument(flag, type=item_type, default=option.default, help=help_text)


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
    """The parser of the dataclass ``cls``: one flag per option (:func:`baselines.settings.options_of`: one per
    field, nested settings flattened), and ``--debug``."""
    parser = _Parser(
        prog=program_name(cls),
        description=description or cls.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for option in options_of(cls):
        _add_flag(parser, option)
    parser.add_argument(DEBUG_FLAG, action="store_true", help="on an error, show its traceback")
    return parser


def parse_args(cls: type[T], argv: Sequence[str] | None = None, description: str | None = None) -> T:
    """Parse ``argv`` into an instance of the dataclass ``cls`` (``--debug`` is accepted and ignored).

    A value out of its range exits (status 2) with the message; an error of ``cls(...)`` itself is raised.
    """
    namespace = vars(build_parser(cls, description).parse_args(argv))
    namespace.pop("debug")
    return build(cls, namespace)


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
    """The option of the ``Args`` class ``cls`` whose name (or flag, or settings field, or dotted settings path)
    starts ``message``, if any.

    ``renames`` maps a library setting's name to the option that sets it (``{"games_per_iteration": "games"}``);
    a settings field whose flag has another name (``metadata["flag"]``) needs none.
    """
    match = re.match(r"\s*(?:--)?([A-Za-z_][\w.-]*)", message)
    if match is None:
        return None
    name = match.group(1).replace("-", "_").rstrip(".").split(".")[-1]
    name = (renames or {}).get(name, name)
    options = options_of(cls)
    exact = [option.name for option in options if option.name == name]
    by_field = [option.name for option in options if option.path[-1] == name]
    return (exact or by_field or [None])[0]


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
        args = build(cls, namespace)
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
