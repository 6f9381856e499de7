"""La Città for Discord: the bot that runs games in Discord channels (``python -m bot``)."""

from __future__ import annotations
