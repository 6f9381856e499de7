"""What a seat's player may know (part of the service layer). A player who took a seat over
(`/citta replace`) sees only what was revealed to the seat after they took it
(`bot.storage.rows.SeatRow.held_since`): a card the previous player polled this year stays with
them — in `/citta secrets` (and its button) and in what a hint knows.

>>> from bot.storage.rows import SeatRow, Secret
>>> card = {"message": "card {number} is {service}", "values": {"number": 2, "service": "health"}}
>>> polled = Secret(seat=0, year=1, move=5, kind="peek", text="", values={"cards": [card]})
>>> known_peek(SeatRow(seat=0, user_id=1, name="Ann"), [None, None, "health", None], [polled])
[None, None, 'health', None]
>>> known_peek(SeatRow(seat=0, user_id=2, name="Bob", held_since=7), [None, None, "health", None], [polled])
[None, None, None, None]
"""

from __future__ import annotations

from typing import Any

from bot.storage.rows import SeatRow, Secret


def since_held(seat: SeatRow, secrets: list[Secret]) -> list[Secret]:
    """The seat's private events its present player may know: those after they took it."""
    return [s for s in secrets if s.move > seat.held_since]


def known_peek(seat: SeatRow, peek: list[Any], secrets: list[Secret]) -> list[Any]:
    """The seat's polled voice cards of the year (``peek``, as the engine keeps them) that its present
    player may know (``secrets``: the seat's private events of the year)."""
    if seat.held_since == 0:
        return list(peek)
    known: list[Any] = [None] * len(peek)
    for secret in since_held(seat, secrets):
        if secret.kind == "peek":
            for card in secret.values.get("cards", []):
                number, service = card["values"]["number"], card["values"]["service"]
                if 0 <= number < len(known):
                    known[number] = service
    return known


def for_holder(snapshot: dict[str, Any], seat: SeatRow, secrets: list[Secret]) -> dict[str, Any]:
    """The stored position as the seat's present player may know it: the polls of the seat before
    they took it forgotten (for a hint, which thinks from the seat's knowledge)."""
    if seat.held_since == 0:
        return snapshot
    players = [dict(p) for p in snapshot["players"]]
    players[seat.seat]["peek"] = known_peek(seat, players[seat.seat]["peek"], secrets)
    return {**snapshot, "players": players}
