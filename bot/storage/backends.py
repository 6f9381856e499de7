"""Which storage ``CITTA_DB`` names, and opening it: a file path or ``sqlite:///path`` for SQLite
(the default, ``citta.db``), ``postgresql://user:password@host:port/database`` for PostgreSQL.

>>> target("citta.db")
Target(kind='sqlite', where=PosixPath('citta.db'))
>>> target("sqlite:////data/citta.db").where
PosixPath('/data/citta.db')
>>> target("postgresql://citta:s3cret@db:5432/citta").kind
'postgres'
>>> shown("postgresql://citta:s3cret@db:5432/citta")
'postgresql://citta:[redacted]@db:5432/citta'

A URL that does not parse is reported with nothing of what stands between ``://`` and the last
``@`` (a password with ``/``, ``?`` or ``#`` in it would cut the URL there):

>>> try:
...     target("postgresql://citta:ab/c?d#e@db:5432/citta")
... except BadDatabase as e:
...     print(str(e).split(": write")[0])
CITTA_DB=postgresql://…@db:5432/citta is not a PostgreSQL URL
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from bot.storage.protocol import StorageProtocol

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")
REDACTED = "[redacted]"
EXAMPLES = "a file path, sqlite:///path or postgresql://user:password@host:port/database"
ENCODE = (
    "a password with / ? # @ : or % in it is written percent-encoded: / as %2F, ? as %3F, # as %23, "
    "@ as %40, : as %3A, % as %25"
)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


class BadDatabase(ValueError):
    """``CITTA_DB`` names no storage we know; the message says what was expected (no password)."""


@dataclass(frozen=True)
class Target:
    """A storage to open: an SQLite file, or a PostgreSQL URL."""

    kind: Literal["sqlite", "postgres"]
    where: Path | str
    """The SQLite file (a `Path`), or the PostgreSQL URL (a `str`)."""


def target(value: str | Path) -> Target:
    """The storage ``value`` names (see the module docstring); BadDatabase when it names none.
    Following SQLAlchemy, ``sqlite:///`` is followed by the path: ``sqlite:///citta.db`` is
    relative, ``sqlite:////data/citta.db`` absolute."""
    if isinstance(value, Path):
        return Target("sqlite", value)
    text = value.strip()
    match = _SCHEME.match(text)
    if match is None:
        if not text:
            raise BadDatabase(f"CITTA_DB is empty: set it to {EXAMPLES}.")
        return Target("sqlite", Path(text))
    scheme = match.group(1).lower()
    if scheme == "sqlite":
        if not text.startswith(SQLITE_PREFIX) or text == SQLITE_PREFIX:
            raise BadDatabase(
                f"CITTA_DB={text} names no file: write sqlite:///relative/path.db or sqlite:////absolute/path.db."
            )
        return Target("sqlite", Path(text[len(SQLITE_PREFIX) :]))
    if scheme in POSTGRES_SCHEMES:
        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
        except ValueError:
            raise BadDatabase(
                f"CITTA_DB={hidden(text)} is not a PostgreSQL URL: write {EXAMPLES} ({ENCODE})."
            ) from None
        if not parts.hostname and "host=" not in parts.query:
            raise BadDatabase(
                f"CITTA_DB={hidden(text)} names no server: write "
                f"postgresql://user:password@host:port/database ({ENCODE})."
            )
        return Target("postgres", text)
    raise BadDatabase(f"CITTA_DB={hidden(text)} is neither SQLite nor PostgreSQL: set it to {EXAMPLES}.")


def hidden(text: str) -> str:
    """A URL for an error message: nothing of what stands between ``://`` and its last ``@`` (the
    user and the password, however they are written), nor of its query (``?password=…``).

    >>> hidden("postgresql://me:p@ss/w?rd@db/citta?sslmode=require&password=x")
    'postgresql://…@db/citta?…'
    >>> hidden("postgres://db/citta")
    'postgres://db/citta'
    """
    head, sep, rest = text.partition("://")
    if "@" in rest:
        rest = "…@" + rest.rpartition("@")[2]
    address, question, _query = rest.partition("?")
    return head + sep + address + ("?…" if question else "")


def shown(value: str | Path) -> str:
    """``value`` fit for a log or an error message: a URL's password replaced by ``[redacted]``."""
    text = str(value)
    if _SCHEME.match(text) is None:
        return text
    try:
        parts = urlsplit(text)
    except ValueError:
        return re.sub(r"(://[^:/@]*:)[^@]*@", rf"\1{REDACTED}@", text)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            user = f"{user.split(':', 1)[0]}:{REDACTED}"
        netloc = f"{user}@{host}"
    query = urlencode(
        [(k, REDACTED if k == "password" else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)],
        safe="[]/",
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def passwords(value: str | Path) -> tuple[str, ...]:
    """The password in a PostgreSQL URL as written and decoded (to redact from the logs), if any."""
    text = str(value)
    if _SCHEME.match(text) is None:
        return ()
    try:
        parts = urlsplit(text)
    except ValueError:
        return ()
    given = parts.password or dict(parse_qsl(parts.query)).get("password") or ""
    return tuple(dict.fromkeys(p for p in (given, unquote(given)) if p))


async def open_storage(url_or_path: str | Path) -> StorageProtocol:
    """Open the storage ``url_or_path`` names (`target`), migrated to the current schema."""
    found = target(url_or_path)
    if found.kind == "postgres":
        from bot.storage.postgres import PostgresStorage  # asyncpg only when it is used

        return await PostgresStorage.open(str(found.where))
    from bot.storage.sqlite import Storage

    return await Storage.open(found.where)
