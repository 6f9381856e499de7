"""The fake gateway: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME → replay + RESUMED, events.

Sharding, as Discord documents it: IDENTIFY may carry ``shard: [id, count]`` (none: ``[0, 1]``; an id
outside ``0..count-1`` is closed with 4010 Invalid Shard). A session is told (READY, GUILD_CREATE) of the
guilds on its shard only, ``(guild_id >> 22) % count == id`` (`payloads.shard_of`), and gets only their
events; events without a guild (direct messages, DM interactions) go to shard 0. Two sessions of one shard
both get its events.

As on Discord, a session outlives its websocket unless the client closed it with 1000: events are
queued for a disconnected session and replayed when it RESUMEs (``Session.replayed`` lists their
sequence numbers). Events go only to sessions with the intent they need (channel and thread events:
GUILDS; MESSAGE_CREATE: GUILD_MESSAGES or DIRECT_MESSAGES, with the content blanked without
MESSAGE_CONTENT unless the bot wrote the message, is mentioned or it is a DM).

``drop()`` cuts every websocket without a close frame (discord.py RESUMEs); while ``admitting`` is clear,
new websockets wait before HELLO (so a test can queue events for a session between two connections).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from . import payloads
from .wire import dumps

if TYPE_CHECKING:
    from .models import FakeChannel, FakeMessage, FakeUser
    from .server import FakeServer

HEARTBEAT_INTERVAL_MS = 41250
GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 12, 1 << 15


@dataclass(eq=False)
class Session:
    """One bot session: survives a dropped websocket (RESUME replays what it missed), not a 1000 close."""

    id: str
    intents: int
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    log: list[tuple[int, str]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    transport: asyncio.Transport | None = None
    resumes: int = 0
    replayed: list[int] = field(default_factory=list)  # sequence numbers replayed by the last RESUME
    shard: tuple[int, int] = (0, 1)  # [id, count] from IDENTIFY

    def receives(self, guild_id: int | None) -> bool:
        """Whether the events of guild ``guild_id`` (None: no guild, as a DM) come to this session."""
        shard, count = self.shard
        return payloads.shard_of(guild_id, count) == shard

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
        self.identifies = 0  # IDENTIFYs received: new sessions (a RESUME is not one)
        self.admitting = asyncio.Event()  # while clear, new websockets wait before HELLO
        self.admitting.set()

    @property
    def connected(self) -> list[Session]:
        """Sessions with an open websocket: bot processes that are running."""
        return [s for s in self.sessions.values() if s.connected]

    async def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> int:
        """Send a DISPATCH to every session with ``intent`` (two running bots both get it, as on Discord;
        a disconnected session gets it on RESUME); return how many are connected."""
        guild = _guild_of(event, data)
        sessions = [
            s for s in self.sessions.values() if (not intent or s.intents & intent) and s.receives(guild)
        ]  # fmt: skip
        for s in sessions:
            await s.send(0, data, event)
        return len([s for s in sessions if s.connected])

    async def channel_event(self, event: str, channel: FakeChannel) -> None:
        """CHANNEL_CREATE/UPDATE/DELETE or THREAD_CREATE/UPDATE/DELETE for ``channel``."""
        data = payloads.channel(channel)
        if event == "THREAD_CREATE":
            data["newly_created"] = True
        elif event == "THREAD_DELETE":
            data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
        await self.dispatch(event, data, GUILDS)

    async def message_create(self, msg: FakeMessage) -> None:
        """MESSAGE_CREATE (with the nonce, as Discord sends it) to the sessions that may see it."""
        dm = msg.channel.guild_id is None
        full = payloads.message(msg, nonce=True)
        if not dm:
            role_id = self.server.store.role_id(msg.channel, msg.author)
            full["member"] = payloads.member(msg.author, with_user=False, role_id=role_id)
        mentioned = self.server.store.bot.id in msg.mentioned
        blank = {"content": "", "embeds": [], "attachments": [], "components": []}
        for s in list(self.sessions.values()):
            if not s.intents & (DIRECT_MESSAGES if dm else GUILD_MESSAGES):
                continue
            if not s.receives(msg.channel.guild_id):
                continue
            readable = s.intents & MESSAGE_CONTENT or dm or mentioned or msg.author.bot
            await s.send(0, full if readable else full | blank, "MESSAGE_CREATE")

    async def drop(self) -> None:
        """Cut every open websocket without a close frame, as a network failure would."""
        for s in self.connected:
            if s.transport is not None:
                s.transport.abort()
            s.ws = None
        self.server.store.changed()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        await self.admitting.wait()
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
            elif op == 2 and not _valid_shard(d.get("shard")):
                await ws.close(code=4010, message=b"Invalid shard.")
            elif op == 2:
                self.identifies += 1
                session = Session(
                    secrets.token_hex(16), int(d.get("intents", 0)), ws, transport=request.transport,
                    shard=(d["shard"][0], d["shard"][1]) if d.get("shard") else (0, 1),
                )  # fmt: skip
                self.sessions[session.id] = session
                await self._ready(session)
            elif op == 6:
                session = self.sessions.get(d.get("session_id", ""))
                if session is None:
                    await ws.send_str(dumps({"op": 9, "d": False, "s": None, "t": None}))
                    continue
                await self._resume(session, ws, request.transport, d.get("seq") or 0)
            elif op == 8 and session is not None:
                members = [payloads.member(u) for u in self._members()]
                guild = d.get("guild_id") or str(self.server.store.guild_id)
                chunk = {"guild_id": str(guild), "members": members, "chunk_index": 0}
                chunk |= {"chunk_count": 1, "not_found": [], "nonce": d.get("nonce")}
                await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")
            self.server.store.changed()
        if session is not None and session.ws is ws:
            session.ws = None
            if ws.close_code == 1000:  # discord.py's Client.close(): the session ends
                self.sessions.pop(session.id, None)
        self.server.store.changed()
        return ws

    async def _resume(
        self, session: Session, ws: web.WebSocketResponse, transport: asyncio.Transport | None, seq: int
    ) -> None:
        async with session.lock:
            session.ws, session.transport = ws, transport
            session.resumes += 1
            session.replayed = []
            for number, text in session.log:
                if number > seq:
                    session.replayed.append(number)
                    await ws.send_str(text)
        await session.send(0, {}, "RESUMED")

    def _members(self) -> list[FakeUser]:
        return [*self.server.store.members, self.server.store.owner, self.server.store.bot]

    async def _ready(self, session: Session) -> None:
        st = self.server.store
        guilds = [g for g in st.guilds.values() if session.receives(g.id)]
        ready = {
            "v": 10,
            "user": payloads.user(st.bot),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "shard": list(session.shard),
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.server.gateway_url,
            "private_channels": [],
            "relationships": [],
            "application": {"id": str(st.application_id), "flags": 0},
        }
        await session.send(0, ready, "READY")
        for g in guilds:
            await session.send(0, self.guild_create(g.id), "GUILD_CREATE")

    def guild_create(self, guild_id: int) -> dict[str, Any]:
        """The GUILD_CREATE of one of the fake's guilds."""
        st = self.server.store
        return payloads.guild_create(
            st.guilds[guild_id],
            st.owner,
            st.guild_channels(guild_id),
            self._members(),
            st.active_threads(guild_id),
        )

    async def close(self) -> None:
        for s in self.connected:
            assert s.ws is not None
            await s.ws.close(code=1001)


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event is about (a GUILD_* event's own id), or None (a DM)."""
    guild = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
    return None if guild is None else int(guild)


def _valid_shard(shard: Any) -> bool:
    """Whether IDENTIFY's ``shard`` is absent or ``[id, count]`` with ``0 <= id < count``."""
    if shard is None:
        return True
    return (
        isinstance(shard, list) and len(shard) == 2 and all(isinstance(x, int) for x in shard)
        and 0 <= shard[0] < shard[1]
    )  # fmt: skip
