"""The server pages' part of the storage contract (`bot.storage.protocol`): whether a server's page
is switched on and at which token (`/citta-server page`), the server a token finds, and the running
games the page lists (`bot.service.server_page`)."""

from __future__ import annotations

from typing import Protocol

from bot.storage.rows import GameRow


class ServerPagesProtocol(Protocol):
    """A server's page: its token while it is on, and what it lists that no other part reads."""

    async def token(self, guild: int) -> str | None:
        """The token of the server's page (None: the page is off)."""

    async def switch_on(self, guild: int, fresh: str) -> str:
        """Switch the server's page on: its token, ``fresh`` stored as it unless the page was on
        already (it then keeps its address; of several at once, all get the one stored)."""

    async def renew(self, guild: int, fresh: str) -> None:
        """Give the server's page the token ``fresh`` (switching it on if it was off): the old
        token then finds nothing."""

    async def switch_off(self, guild: int) -> bool:
        """Switch the server's page off (its token then finds nothing); False: it was off."""

    async def server_by_page(self, token: str) -> int | None:
        """The server whose page has the token ``token`` (None: none has)."""

    async def running_games(self, guild: int, last: int) -> list[GameRow]:
        """The ``last`` running games of ``guild`` (status ``active``), the newest first."""
