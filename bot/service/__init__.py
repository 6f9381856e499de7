"""The service layer: every command and button as plain data in and out (no Discord objects),
one module per use case (lobby, commit, undo, recap, reminders, settings, absence, archive…),
assembled into `CittaService` in `core`."""

from __future__ import annotations

from bot.service.core import CittaService, Renderer, ServiceBase, default_renderer

__all__ = ["CittaService", "Renderer", "ServiceBase", "default_renderer"]
