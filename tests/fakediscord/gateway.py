"""The fake gateway: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME → RESUMED, dispatches."""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads
from .payloads import dumps

if TYPE_CHECKING:
    from .server import FakeServer
    from .state import FakeUser

HEARTBEAT_INTERVAL_MS = 41250


@dataclass(eq=False)
class Session:
    """One bot session: survives a dropped websocket (RESUME replays what it missed), not a 1000 close."""

    id: str
    intents: int
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    log: list[tuple[int, str]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        async with self.lock:
            frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == 0:
                self.seq += 1
                frame["s"] = self.seq
            text = dumps(frame)
            if op == 0:
                self.log.append((self.seq, text))
            if self.ws is not None and not self.ws.closed:
                await self.ws.send_str(text)


class Gateway:
    def __init__(self, server: FakeServer) -> None:
        self.server = server
        self.sessions: dict[str, Session] = {}

    @property
    def connected(self) -> list[Session]:
        """Sessions with an open websocket: bot processes that are running."""
        return [s for s in self.sessions.values() if s.connected]

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a DISPATCH to every connected session (two running bots both get it, as on Discord)."""
        sessions = self.connected
        for s in sessions:
            await s.send(0, data, event)
        return len(sessions)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        # The client asks for compress=zlib-stream; uncompressed TEXT frames are fine for discord.py.
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session: Session | None = None
        await ws.send_str(
            dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None})
        )
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op, d = frame.get("op"), frame.get("d") or {}
            if op == 1:
                await ws.send_str(dumps({"op": 11, "d": None, "s": None, "t": None}))
            elif op in (2, 6) and d.get("token") != self.server.token:
                await ws.close(code=4004, message=b"Authentication failed.")
            elif op == 2:
                session = Session(secrets.token_hex(16), int(d.get("intents", 0)), ws)
                self.sessions[session.id] = session
                await self._ready(session)
            elif op == 6:
                session = self.sessions.get(d.get("session_id", ""))
                if session is None:
                    await ws.send_str(dumps({"op": 9, "d": False, "s": None, "t": None}))
                    continue
                async with session.lock:
                    session.ws = ws
                    for seq, text in session.log:
                        if seq > (d.get("seq") or 0):
                            await ws.send_str(text)
                await session.send(0, {}, "RESUMED")
            elif op == 8 and session is not None:
                members = [payloads.member(u) for u in self._members()]
                chunk = {"guild_id": str(self.server.store.guild_id), "members": members, "chunk_index": 0}
                chunk |= {"chunk_count": 1, "not_found": [], "nonce": d.get("nonce")}
                await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")
            self.server.store.changed()
        if session is not None and session.ws is ws:
            session.ws = None
            if (
                ws.close_code == 1000
            ):  # discord.py's Client.close() usually sends 4000, which keeps it resumable
                self.sessions.pop(session.id, None)
        self.server.store.changed()
        return ws

    def _members(self) -> list[FakeUser]:
        return [*self.server.store.members, self.server.store.bot]

    async def _ready(self, session: Session) -> None:
        st = self.server.store
        ready = {
            "v": 10,
            "user": payloads.user(st.bot),
            "guilds": [{"id": str(st.guild_id), "unavailable": True}],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.server.gateway_url,
            "private_channels": [],
            "relationships": [],
            "application": {"id": str(st.application_id), "flags": 0},
        }
        await session.send(0, ready, "READY")
        channels = [c for c in st.channels.values() if c.guild_id is not None]
        guild = payloads.guild_create(st.guild_id, st.guild_name, st.members[0], channels, self._members())
        await session.send(0, guild, "GUILD_CREATE")

    async def close(self) -> None:
        for s in self.connected:
            assert s.ws is not None
            await s.ws.close(code=1001)
