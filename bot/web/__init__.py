"""The bot's web server (aiohttp's, in the bot's own process; off unless ``CITTA_WEB_PORT`` is set):
the operator's endpoints ``/healthz``, ``/readyz`` and ``/metrics`` (`bot.web.ops`), behind the
guards every answer passes (`bot.web.guard`). A layer beside `bot.client`: it asks the service
(`bot.service.health`), never the storage, and knows the Discord side only as a `Source`."""
