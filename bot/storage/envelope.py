"""What goes into the outbox: a `Post` as JSON (and its attached file apart), and back.

The service layer stores every announcement with the change it announces; the delivery task
reads it back here. A post is either a change to a game (``outcome``: the channel message,
the DMs, and the "Show my peek" button for those whose DM failed) or a plain message with
DMs and a fallback line. A turn post's pictures are not stored: its `Drawing` is, in the
payload, and the pictures are kept in memory or drawn again (`bot.service.drawings`). Other
pictures are stored one after the other in the blob, the payload saying each one's name, alt
text and size (as were turn posts' until their drawings were stored; a row stored before
pictures existed has its one image there). All of these keep loading.

>>> from bot.results import DirectMessage, Message, Post
>>> post = Post(7, Message("hi", mentions=(3,)), (DirectMessage(3, "psst"),), "see DMs")
>>> payload, image = dump(post)
>>> load(7, payload, image) == post
True
>>> pics = (Picture("board.png", b"PNG1", "the board"), Picture("table.png", b"PNG22", "the table"))
>>> post = Post(7, Message("turn", pictures=pics))
>>> load(7, *dump(post)) == post
True
>>> drawing = Drawing("k1", "{}", ("D5",), "D5", 1, "en")
>>> payload, image = dump(Post(7, Message("turn", pictures=pics, drawing=drawing)))
>>> image is None and load(7, payload, None) == Post(7, Message("turn", drawing=drawing))
True
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from bot.results import Button, DirectMessage, Drawing, Message, Outcome, Picture, Post


def _button(b: Button) -> dict[str, str]:
    link = {} if b.url is None else {"url": b.url}
    return {"label": b.label, "custom_id": b.custom_id, "style": b.style, **link}


def _message(m: Message) -> dict[str, Any]:
    data: dict[str, Any] = {
        "text": m.text,
        "filename": m.filename,
        "mentions": list(m.mentions),
        "buttons": [_button(b) for b in m.buttons],
    }
    if m.thread is not None:
        data["thread"] = m.thread
    if m.drawing is not None:
        data["drawing"] = asdict(m.drawing)
    elif m.pictures:
        data["pictures"] = [{"filename": p.filename, "alt": p.alt, "size": len(p.data)} for p in m.pictures]
    return data


def _blob(m: Message) -> bytes | None:
    """What is stored apart from the payload: the pictures one after the other (unless they are
    drawn from the stored drawing), or the file."""
    return b"".join(p.data for p in m.pictures) if m.pictures and m.drawing is None else m.image


def _pictures(listed: list[dict[str, Any]], blob: bytes | None) -> tuple[Picture, ...]:
    out, at = [], 0
    for p in listed:
        out.append(Picture(p["filename"], (blob or b"")[at : at + p["size"]], p["alt"]))
        at += p["size"]
    return tuple(out)


def _load_button(d: dict[str, Any]) -> Button:
    return Button(d["label"], d["custom_id"], d["style"], d.get("url"))  # (no url: stored before links)


def _load_drawing(d: dict[str, Any]) -> Drawing:
    return Drawing(**{**d, "highlight": tuple(d["highlight"])})


def _load_message(d: dict[str, Any], image: bytes | None) -> Message:
    if "pictures" in d:
        pictures, image = _pictures(d["pictures"], image), None
    else:
        pictures = ()
    return Message(
        d["text"],
        image=image,
        pictures=pictures,
        filename=d["filename"],
        mentions=tuple(d["mentions"]),
        buttons=tuple(_load_button(b) for b in d["buttons"]),
        drawing=_load_drawing(d["drawing"]) if "drawing" in d else None,
        thread=d.get("thread"),
    )


def dump(post: Post) -> tuple[str, bytes | None]:
    """The JSON payload of ``post`` and its attached file (stored apart, as a blob)."""
    message = post.outcome.announcement if post.outcome is not None else post.message
    data: dict[str, Any] = {
        "message": None if message is None else _message(message),
        "dms": [{"user": d.user_id, "text": d.text} for d in post.direct],
        "fallback": post.fallback,
    }
    if post.outcome is not None:
        data["outcome"] = {"game": post.outcome.game}
        if post.outcome.peek_button is not None:
            data["outcome"]["peek_button"] = _button(post.outcome.peek_button)
    return json.dumps(data), None if message is None else _blob(message)


def load(channel: int, payload: str, image: bytes | None) -> Post:
    """The `Post` stored by `dump`."""
    data = json.loads(payload)
    message = None if data["message"] is None else _load_message(data["message"], image)
    dms = tuple(DirectMessage(d["user"], d["text"]) for d in data["dms"])
    if "outcome" in data:
        o = data["outcome"]
        peek = _load_button(o["peek_button"]) if "peek_button" in o else None
        outcome = Outcome(Message(""), announcement=message, dms=dms, game=o["game"], peek_button=peek)
        return Post(channel, outcome=outcome, fallback=data["fallback"])
    return Post(channel, message, dms, data["fallback"])
