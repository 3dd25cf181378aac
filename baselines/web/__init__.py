"""The live arena: play any game against any bot, or watch bots play, in a web browser.

* :mod:`.requests`: checking what a browser sends, every field validated.
* :mod:`.views`: the seat views sent to a browser (what one seat may see), and the setup form's game summaries.
* :mod:`.sessions`: the games the server holds (:class:`~.sessions.Session`) and the :class:`~.sessions.Arena`
  that plays them (turns, bots, undo, replays).
* :mod:`.bots`: the worker processes that run bots, each decision under a time limit.
* :mod:`.app`: the Starlette app (the page and its JSON API); ``python -m scripts.arena`` serves it.

Needs the ``web`` extra (Starlette, uvicorn) for the app; the rest needs only the package.
"""
