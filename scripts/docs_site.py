"""Write the documentation site's generated pages (a page and a picture per game, from the code), or check them.

    python -m scripts.docs_site            # write docs/games/<game>.md and .svg
    python -m scripts.docs_site --check    # exit 1 naming every page that differs from the code (as CI does)
    mkdocs build --strict                  # then build the site into site/ (mkdocs serve: watch it locally)

The pages come from :mod:`baselines.docs_site.game_pages`: each game's spec-sheet docstring, ``GameSpec``, config
fields with their documented ranges, observation fields, worked actions in notation, a picture from its SVG renderer
and the shipped models of the package's shelves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from baselines.docs_site import written_pages

from ._args import OptionError, run_cli

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Args:
    """Write (or check) the generated pages of the documentation site."""

    check: bool = False
    """Write nothing; exit 1 if a generated page differs from the committed one (or is missing)."""
    root: str = str(ROOT)
    """The repository whose docs/ folder holds the site."""


def main(args: Args) -> list[Path]:
    """The generated pages that differ from the files on disk: written (or, with ``--check``, only listed)."""
    pages = written_pages(Path(args.root))
    stale = [path for path, text in pages.items() if _text(path) != text]
    if not args.check:
        for path in stale:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(pages[path])
    return stale


def check_args(args: Args) -> None:
    """``--root`` must be a repository: a folder holding ``docs/``."""
    if not args.root.strip() or not (Path(args.root) / "docs").is_dir():
        raise OptionError("root", f"must be a folder holding docs/ (a boardenvs repository), got {args.root!r}")


def _text(path: Path) -> str | None:
    return path.read_text() if path.is_file() else None


def _run(args: Args) -> None:
    stale = main(args)
    if args.check and stale:
        names = ", ".join(str(path.relative_to(args.root)) for path in stale)
        raise SystemExit(f"generated pages differ from the code: {names}; run python -m scripts.docs_site")
    print("all generated pages match the code" if args.check else f"wrote {len(stale)} page(s)")


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.docs_site``."""
    run_cli(Args, argv, _run, description=__doc__, check=check_args)


if __name__ == "__main__":
    cli()
