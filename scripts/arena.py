"""Start the live arena: play any game against any bot, or watch bots play, in a web browser.

    pip install -e ".[web]" && python -m scripts.arena              # then open http://127.0.0.1:8000
    python -m scripts.arena --port 8080 --think-seconds 5 --bot-workers 4
    python -m scripts.arena --allow-agent sb3:runs/ppo/model.zip    # let the page choose this model file

The server binds 127.0.0.1 (this machine only) unless ``--host`` says otherwise. A browser may choose any agent
spec that names no file; specs that load files (``sb3:``, ``rllib:``, ``checkpoint=``, ``table=``) only when
named with ``--allow-agent`` here, since loading them runs code from the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from baselines.web.sessions import ArenaSettings

from ._args import WORKERS, Range, run_cli

MAX_SESSIONS = 10_000
"""The most games an arena holds at once."""


@dataclass
class Args:
    """Serve the boardenvs arena web app."""

    host: str = "127.0.0.1"
    """Address to bind; 127.0.0.1 serves this machine only (0.0.0.0 serves every network it is on)."""
    port: int = 8000
    """Port to listen on."""
    max_sessions: int = 16
    """Games held at once."""
    idle_seconds: float = 1800.0
    """An untouched game may be closed after this long when room is needed."""
    think_seconds: float = 10.0
    """The most a bot may think about one move; a bot past it ends its game with a message."""
    bot_workers: int = 2
    """Worker processes that run the bots."""
    allow_agent: list[str] = field(default_factory=list)
    """Agent specs that load files (sb3:..., rllib:..., alphazero:checkpoint=...) the page may choose."""

    LIMITS: ClassVar = {
        "port": Range(1, 65535),
        "max_sessions": Range(1, MAX_SESSIONS),
        "idle_seconds": Range(0.0, 1e9, open_low=True),
        "think_seconds": Range(0.0, 86_400.0, open_low=True),
        "bot_workers": WORKERS,
    }


def settings_of(args: Args) -> ArenaSettings:
    """The arena's limits from the command line (``ValueError`` naming a bad one)."""
    if not 1 <= args.port <= 65535:
        raise ValueError(f"port must be in 1..65535, got {args.port}")
    if not 1 <= args.max_sessions <= MAX_SESSIONS:
        raise ValueError(f"max_sessions must be in 1..{MAX_SESSIONS}, got {args.max_sessions}")
    if not args.idle_seconds > 0:
        raise ValueError(f"idle_seconds must be > 0, got {args.idle_seconds}")
    if not args.think_seconds > 0:
        raise ValueError(f"think_seconds must be > 0, got {args.think_seconds}")
    if args.bot_workers < 1:
        raise ValueError(f"bot_workers must be >= 1, got {args.bot_workers}")
    empty = [spec for spec in args.allow_agent if not spec.strip()]
    if empty:
        raise ValueError(f"allow_agent: an agent spec cannot be empty, got {args.allow_agent}")
    return ArenaSettings(args.max_sessions, args.idle_seconds, args.think_seconds, args.bot_workers,
                         tuple(args.allow_agent))  # fmt: skip


def main(args: Args) -> None:
    """Serve the arena until interrupted."""
    import uvicorn  # the web extra

    from baselines.web.app import create_app

    app = create_app(settings_of(args))
    print(f"boardenvs arena on http://{args.host}:{args.port}  (Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


def cli(argv: list[str] | None = None) -> None:
    """Entry point of ``python -m scripts.arena``."""
    run_cli(Args, argv, main, description=__doc__, check=settings_of)


if __name__ == "__main__":
    cli()
