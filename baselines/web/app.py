"""The live arena as a Starlette web app: a page to set up, play and watch games, and its JSON API.

Start it with ``python -m scripts.arena`` (the ``web`` extra: Starlette and uvicorn). The API (every request is
checked by :mod:`baselines.web.requests` and :mod:`baselines.web.sessions`; a refused one gets a 4xx with
``{"error": message}`` and changes nothing):

==========================================  ======================================================================
``GET  /api/catalog``                        games, presets, default configs, suggested agents
``POST /api/sessions``                       new game ``{"game", "preset"?, "config"?, "seats": [...], "seed"?}``
``GET  /api/sessions/{id}``                  the game as a seat sees it (``?seat=k``; ``?view=spectator`` for bots)
``POST /api/sessions/{id}/move``             a person's move ``{"seat", "action", "ply"}``; bots reply at once
``POST /api/sessions/{id}/advance``          one bot move ``{"ply"}`` (watching bots)
``POST /api/sessions/{id}/undo``             take back the last person's move and the replies ``{}``
``POST /api/sessions/{id}/restart``          the same game from its first position ``{}``
``GET  /api/sessions/{id}/replay``           the game as a JSON replay (hidden-information games: once over)
``DELETE /api/sessions/{id}``                close the game
==========================================  ======================================================================

Every state-changing call answers with the seat view, like ``GET /api/sessions/{id}`` with the same query.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from baselines.web.requests import RequestError
from baselines.web.sessions import Arena, ArenaSettings, Session
from baselines.web.views import seat_view

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 65_536
"""Request bodies larger than this are refused (413)."""
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC_FILES = {"arena.js": "text/javascript", "arena.css": "text/css"}


def error_response(status: int, message: str) -> JSONResponse:
    """A refusal: ``{"error": message}`` with the status."""
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


async def read_body(request: Request) -> Any:
    """The request's JSON body (``{}`` when empty); 413 when too large, 400 when not JSON."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise RequestError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
    if not body.strip():
        return {}
    try:
        return json.loads(body)
    except (UnicodeDecodeError, ValueError) as error:
        raise RequestError(400, f"the request body is not JSON: {error}") from None


class ArenaApi:
    """The page and the JSON API over one :class:`Arena` (refusals become responses in :func:`create_app`)."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena

    def routes(self) -> list[Route]:
        """Every route of the app."""
        return [
            Route("/", self.page),
            Route("/static/{name}", self.static),
            Route("/api/catalog", self.catalog),
            Route("/api/sessions", self.create, methods=["POST"]),
            Route("/api/sessions/{id}", self.show, methods=["GET"]),
            Route("/api/sessions/{id}", self.close, methods=["DELETE"]),
            Route("/api/sessions/{id}/move", self.action(self.arena.move), methods=["POST"]),
            Route("/api/sessions/{id}/advance", self.action(self.arena.advance), methods=["POST"]),
            Route("/api/sessions/{id}/undo", self.action(self.arena.undo), methods=["POST"]),
            Route("/api/sessions/{id}/restart", self.action(self.arena.restart), methods=["POST"]),
            Route("/api/sessions/{id}/replay", self.replay, methods=["GET"]),
        ]

    async def view_of(self, request: Request, session: Session) -> JSONResponse:
        """The seat view the request's query asks for."""
        viewer = self.arena.viewer(session, request.query_params.get("seat"), request.query_params.get("view"))
        return JSONResponse(await run_in_threadpool(seat_view, session, viewer), headers=SECURITY_HEADERS)

    def action(self, method: Callable[[Session, Any], None]) -> Callable[[Request], Awaitable[Response]]:
        """An endpoint that changes a game with ``method(session, body)`` and answers with the seat view."""

        async def endpoint(request: Request) -> Response:
            session = self.arena.session(request.path_params["id"])
            self.arena.viewer(session, request.query_params.get("seat"), request.query_params.get("view"))
            await run_in_threadpool(method, session, await read_body(request))
            return await self.view_of(request, session)

        return endpoint

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html", headers=SECURITY_HEADERS)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            raise RequestError(404, f"no file {name!r}")
        return FileResponse(STATIC / name, media_type=STATIC_FILES[name], headers=SECURITY_HEADERS)

    async def catalog(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(self.arena.catalog), headers=SECURITY_HEADERS)

    async def create(self, request: Request) -> Response:
        session = await run_in_threadpool(self.arena.create, await read_body(request))
        return await self.view_of(request, session)

    async def show(self, request: Request) -> Response:
        return await self.view_of(request, self.arena.session(request.path_params["id"]))

    async def replay(self, request: Request) -> Response:
        data = self.arena.replay(self.arena.session(request.path_params["id"])).to_json()
        headers = {**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="{data["game"]}-replay.json"'}
        return JSONResponse(data, headers=headers)

    async def close(self, request: Request) -> Response:
        self.arena.remove(request.path_params["id"])
        return JSONResponse({"closed": request.path_params["id"]}, headers=SECURITY_HEADERS)


def create_app(settings: ArenaSettings | None = None, arena: Arena | None = None) -> Starlette:
    """The arena's web app (``arena`` given: share it, e.g. in tests; else one is made from ``settings``)."""
    arena = arena or Arena(settings)

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestError)
        return error_response(error.status, error.message)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        arena.close()

    app = Starlette(routes=ArenaApi(arena).routes(), lifespan=lifespan, exception_handlers={RequestError: refused})
    app.state.arena = arena
    return app
