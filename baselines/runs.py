"""Run files that survive a kill: atomic writes, line-checked logs and claimed run directories.

Training runs and tournaments write results that must outlive a ``kill -9`` at any moment:

- :func:`atomic_write` writes a file through a temporary file and a rename, so a reader (or a resumed run) finds
  the old version or the new one, never half of one. It guards against the writing process dying; it does not
  ``fsync``, so a power cut may still lose the newest version.
- :func:`split_lines` splits a line-based log (CSV, JSON lines) into its complete lines and a half-written tail,
  and :func:`damaged_line` is the error that names a bad line by file and number: a log whose *last* line was cut
  short by a kill is recovered by dropping that line; damage anywhere else is reported, never guessed at.
- :class:`RunDirectory` claims a run's folder: it holds a lock (``.lock``, released by the operating system
  when the process dies, even by ``SIGKILL``) so two processes never write one run, and it refuses to replace an
  existing run unless told (``force``); it deletes the temporary files a killed writer left behind;
  :func:`require_run` refuses to resume a folder that holds no run.
- Model files are checked before they are trusted: :func:`check_zip` (:func:`zip_problem`) verifies every member
  of a ``.npz`` or ``torch.save`` archive against its CRC-32 (numpy and torch do not), and a JSON model file carries
  the SHA-256 of its content (:func:`with_digest`, :func:`check_digest`), so a flipped bit is an error, never a
  changed value.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import numpy as np

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux or macOS: runs are not locked
    fcntl = None  # type: ignore[assignment]


def temporary_path(path: str | Path) -> Path:
    """The hidden temporary file next to ``path`` that :func:`atomic_write` writes first: ``.<stem>.<pid>.tmp
    <suffix>`` (the suffix is kept, so a writer that picks its format from the name, or adds a missing suffix,
    writes where it is asked to)."""
    path = Path(path)
    return path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")


def atomic_write(path: str | Path, write: Callable[[Path], Any]) -> Path:
    """Call ``write(temporary_path)`` and rename the result onto ``path``: a kill leaves the old file or the new
    one, never half of one (the temporary file is removed if ``write`` fails). Returns ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = temporary_path(path)
    try:
        write(temporary)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically (:func:`atomic_write`), with ``\\n`` line ends on every platform."""
    return atomic_write(path, lambda temporary: _write_text(temporary, text))


def _write_text(path: Path, text: str) -> None:
    with open(path, "w", newline="") as handle:
        handle.write(text)


# -- line-based logs ----------------------------------------------------------------------------------------
def split_lines(data: bytes) -> tuple[list[bytes], bytes]:
    """The complete lines of ``data`` (each ending in ``\\n``, which is kept) and the unterminated tail (``b""``
    when ``data`` ends with a newline): a tail is a line whose writer died before finishing it."""
    lines = data.splitlines(keepends=True)
    if lines and not lines[-1].endswith(b"\n"):
        return lines[:-1], lines[-1]
    return lines, b""


def damaged_line(path: str | Path, line: int, reason: str, what: str = "line") -> ValueError:
    """The error for a damaged line: names the file and the (1-based) line number, says what is wrong and how to
    go on."""
    return ValueError(
        f"{str(path)!r} line {line}: damaged {what} ({reason}); repair or delete that line (or the file) and run again"
    )


# -- integrity of model files -------------------------------------------------------------------------------
DIGEST_KEY = "sha256"
"""The key under which a JSON model file holds the digest of the rest of its content (:func:`with_digest`)."""


def json_digest(payload: Mapping[str, Any]) -> str:
    """The SHA-256 of ``payload``'s canonical JSON text (sorted keys, no spaces): the same for the same data
    however the file was laid out, different after any change of a value."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def with_digest(payload: Mapping[str, Any]) -> dict[str, Any]:
    """``payload`` with its :func:`json_digest` added under :data:`DIGEST_KEY` (a JSON file that a bit flip
    cannot change into another valid file: :func:`check_digest` refuses it)."""
    return {**payload, DIGEST_KEY: json_digest(payload)}


def check_digest(payload: dict[str, Any], label: str, required: bool = False) -> dict[str, Any]:
    """``payload`` without its digest, after checking it (:func:`with_digest`).

    Args:
        payload: A JSON object read from a file.
        label: The file, for the message.
        required: Refuse a payload without a digest (files the package ships always have one; a file written before
            digests were added has none and is read unchecked).

    Raises:
        ValueError: the digest is not the content's (the file was changed after it was written), or it is missing
            where required.
    """
    content = {key: value for key, value in payload.items() if key != DIGEST_KEY}
    stored = payload.get(DIGEST_KEY)
    if stored is None and not required:
        return content
    if stored != json_digest(content):
        found = "has no digest" if stored is None else "does not match its digest"
        raise ValueError(f"{label}: the content {found} ({DIGEST_KEY!r}): the file was changed after it was written")
    return content


def is_finite_number(value: Any) -> bool:
    """True for an int or float (not a bool) that is finite as a float64."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def number_table(value: Any, what: str) -> np.ndarray:
    """``value`` (JSON data: nested lists) as a float64 array, if it is a regular table of finite numbers only;
    numpy's own conversion would also take strings (``"1.5"``) and booleans, and NaN.

    Raises:
        ValueError: naming ``what``: a ragged table, or an entry that is not a finite int or float.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif not is_finite_number(item):
            raise ValueError(f"{what} must hold finite numbers only, found {item!r}")
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as error:
        raise ValueError(f"{what} must be a regular table of numbers: {error}") from None


def zip_problem(path: str | Path) -> str | None:
    """What is wrong with the zip archive at ``path`` (``None`` if nothing): not a zip archive, or a member whose
    bytes do not match its CRC-32. ``.npz`` and ``torch.save`` files are zip archives, and neither numpy nor torch
    checks the CRCs, so a flipped bit in an array would otherwise load silently as another value."""
    try:
        with zipfile.ZipFile(path) as archive:
            damaged = archive.testzip()
    except Exception as error:  # noqa: BLE001 - zipfile raises many types for damaged archives
        return f"damaged or not a zip archive ({type(error).__name__}: {error})"
    return None if damaged is None else f"its member {damaged!r} is damaged (bad CRC-32)"


def check_zip(path: str | Path, what: str) -> None:
    """Raise ``ValueError`` naming the file and ``what`` it should be if :func:`zip_problem` finds a problem."""
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"{str(path)!r} is not a readable {what}: {problem}")


# -- run directories ----------------------------------------------------------------------------------------
TEMPORARY_NAME = re.compile(r"^\..+\.\d+\.tmp(\.[^.]*)?$")
"""The names :func:`temporary_path` gives."""


def remove_temporaries(folder: str | Path) -> list[Path]:
    """Delete the temporary files that writers killed in :func:`atomic_write` left in ``folder`` and its
    subfolders (only safe while no one writes there: :class:`RunDirectory` calls it under its lock)."""
    stale = [path for path in Path(folder).rglob(".*.tmp*") if path.is_file() and TEMPORARY_NAME.match(path.name)]
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def require_run(folder: str | Path, outputs: Iterable[str]) -> None:
    """Refuse to resume a run that is not there: ``folder`` must hold at least one of ``outputs``.

    Raises:
        FileNotFoundError: the folder holds none of them (the message says how to start a run there instead).
    """
    folder = Path(folder)
    names = list(outputs)
    if not any((folder / name).exists() for name in names):
        raise FileNotFoundError(
            f"resume: no run to resume in {str(folder)!r}, nothing to continue (it holds none of {', '.join(names)}): "
            "run the same command without --resume to start one there"
        )


class RunDirectory:
    """A run's output folder, claimed for one process (a context manager).

    Entering it creates the folder, takes its lock (``<folder>/.lock``; the operating system releases it when the
    process ends, however it ends) and, for a new run, checks that the folder holds none of ``outputs``: if it
    does, it raises ``FileExistsError`` naming ``--resume`` and ``--force``, or with ``force`` deletes them.

    Args:
        folder: the run's folder.
        outputs: names (files or folders) inside ``folder`` whose presence means "this folder holds a run".
        resume: the run continues what the folder holds (nothing is checked or deleted).
        force: a new run replaces whatever run the folder holds (its ``outputs`` are deleted).
    """

    def __init__(self, folder: str | Path, outputs: Iterable[str], *, resume: bool = False, force: bool = False):
        if resume and force:
            raise ValueError("resume and force exclude each other: resume continues a run, force replaces it")
        self.folder, self.outputs = Path(folder), tuple(outputs)
        self.resume, self.force = resume, force
        self._lock: IO[str] | None = None

    def existing(self) -> list[Path]:
        """The run outputs the folder holds now."""
        return [self.folder / name for name in self.outputs if (self.folder / name).exists()]

    def __enter__(self) -> RunDirectory:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        try:
            remove_temporaries(self.folder)
            if not self.resume:
                self._clear()
        except BaseException:
            self.release()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()

    def _take_lock(self) -> None:
        if fcntl is None:
            return
        handle = open(self.folder / ".lock", "a+")  # noqa: SIM115 -- held until release()
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise RuntimeError(
                f"{str(self.folder)!r} is in use by a run still going ({holder}); wait for it or stop it first"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}\n")
        handle.flush()
        self._lock = handle

    def _clear(self) -> None:
        existing = self.existing()
        if existing and not self.force:
            names = ", ".join(path.name for path in existing)
            raise FileExistsError(
                f"{str(self.folder)!r} already holds a run ({names}): pass --resume to continue it or --force to "
                "replace it (its files are deleted)"
            )
        for path in existing:
            shutil.rmtree(path) if path.is_dir() else path.unlink()

    def release(self) -> None:
        """Give the lock back (``__exit__`` does)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None


__all__ = [
    "DIGEST_KEY",
    "RunDirectory",
    "atomic_write",
    "atomic_write_text",
    "check_digest",
    "check_zip",
    "damaged_line",
    "is_finite_number",
    "json_digest",
    "number_table",
    "remove_temporaries",
    "require_run",
    "split_lines",
    "temporary_path",
    "with_digest",
    "zip_problem",
]
