"""The live arena: play any game against any bot, or watch bots play, in a web browser.

* :mod:`.sessions`: the games the server holds, every request's checks, the seat views sent to a browser.
* :mod:`.bots`: the worker processes that run bots, each decision under a time limit.
* :mod:`.app`: the Starlette app (the page and its JSON API); ``python -m scripts.arena`` serves it.

Needs the ``web`` extra (Starlette, uvicorn) for the app; the sessions and bots need only the package.
"""
