"""Headless Chromium for the browser tests: the operating system's browser driven by Playwright.

Playwright cannot download its own browsers here, so it is pointed at the system's Chromium (``apt-get install
chromium``; ``BOARDENVS_CHROMIUM`` names another executable). Without a browser or Playwright these tests skip
with the reason, except in CI (``CI=true``), where a missing browser fails the run.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_executable() -> str | None:
    """The Chromium to drive: ``$BOARDENVS_CHROMIUM``, or the first browser of :data:`CANDIDATES` on the PATH."""
    named = os.environ.get("BOARDENVS_CHROMIUM")
    if named:
        return named if os.path.exists(named) else None
    return next((path for path in map(shutil.which, CANDIDATES) if path), None)


def missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI needs the browser tests to run: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install playwright)")
    executable = chromium_executable()
    if executable is None:
        missing("no Chromium found: apt-get install chromium, or set BOARDENVS_CHROMIUM")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    yield page
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def arena_server() -> Iterator[tuple[str, object]]:
    """A live arena on 127.0.0.1 in a background thread: its base URL and its :class:`Arena`."""
    pytest.importorskip("uvicorn")
    import uvicorn

    from baselines.web.app import create_app
    from baselines.web.bots import BotPool
    from baselines.web.sessions import Arena, ArenaSettings

    arena = Arena(ArenaSettings(), BotPool(workers=1, think_seconds=30))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(arena=arena), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the arena server did not start"
    yield f"http://127.0.0.1:{port}", arena
    server.should_exit = True
    thread.join(timeout=10)
