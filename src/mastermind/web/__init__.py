"""``mastermind web``: one asyncio server (aiohttp) for every visitor, a JSON API over the games package and
a page of this package's own (static/: HTML, CSS and plain JavaScript modules, no build step,
nothing loaded from outside the server).

- :mod:`.server`: the application, its middlewares (visitors, limits, errors as JSON) and
  :func:`~.server.serve`;
- :mod:`.api`: the routes, which only call the games package (:class:`~mastermind.Game`,
  :class:`~mastermind.Match`) and say what it answers; :mod:`.views` writes games as JSON, the
  secret left out until the game is over;
- :mod:`.sessions`: visitors (a session cookie), their settings, and the games held in memory;
- :mod:`.limits`: what one visitor may ask of the server.

Needs the ``web`` extra (aiohttp).
"""
