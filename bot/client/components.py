"""What a press of each kind of component does, once the door (`bot.client.door`) let it in: a
service call, and its result as a reply.

The private panel's steps edit the panel in place, through the press's own interaction (a panel
older than an interaction token's 15 minutes keeps working); a step the game moved past is answered
with a fresh panel that says so. Join, Leave and Start have the lobby message edited through the
outbox (stored with the change).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from functools import partial

from bot import ids
from bot.client.commands.base import viewer
from bot.client.door import Component, Press
from bot.client.replies import announce, answer, deliver
from bot.errors import CittaError
from bot.results import Message, Outcome, User
from bot.service import (
    absence,
    archive,
    leaving,
    lobby,
    mine,
    moves,
    panel,
    questions,
    resume,
    review,
    review_why,
    tournaments,
)
from bot.service.context import Context
from i18n import N_, _

CLOSED = N_("Panel closed. The 🎲 button on the latest turn post opens it again.")
LobbyChange = Callable[[Context, int, User], Awaitable[Outcome]]


async def _lobby(press: Press, change: LobbyChange) -> None:
    """Join, Leave, Start: the change stored the edit of the lobby message, which the outbox
    sends; when it could not (the message was not known: `bot.service.lobby`), its reply is the
    lobby message, edited in place here (its text and buttons, no file) and noted as the lobby's
    message from now on."""
    await press.update()
    outcome = await change(press.ctx, press.ref.game, press.user)
    if outcome.reply.text:
        await press.edit(Message(outcome.reply.text, buttons=outcome.reply.buttons))
        if press.interaction.message is not None:
            await lobby.shown(press.ctx, press.channel, press.interaction.message.id, outcome.reply)
    await announce(press.interaction, outcome)


class Join(Component, kind=ids.JOIN):
    async def act(self, press: Press) -> None:
        await _lobby(press, lobby.join)


class Leave(Component, kind=ids.LEAVE):
    async def act(self, press: Press) -> None:
        await _lobby(press, lobby.leave)


class Start(Component, kind=ids.START):
    async def act(self, press: Press) -> None:
        await _lobby(press, lobby.start)


class Peek(Component, kind=ids.PEEK):
    async def act(self, press: Press) -> None:
        await press.thinking()
        await absence.come_back(press.ctx, press.user.id, game_id=press.ref.game)
        await answer(
            press.interaction, await questions.secrets(press.ctx, press.user.id, game_id=press.ref.game)
        )


class Abandon(Component, kind=ids.ABANDON):
    async def act(self, press: Press) -> None:
        await press.thinking()
        outcome = await leaving.abandon(
            press.ctx, press.user.id, game_id=press.ref.game, can_manage=press.can_manage
        )
        await deliver(press.interaction, outcome)


class Forget(Component, kind=ids.FORGET):
    async def act(self, press: Press) -> None:
        await press.thinking()
        await answer(press.interaction, await archive.forget(press.ctx, press.guild, press.user.id))


class Here(Component, kind=ids.HERE):
    async def act(self, press: Press) -> None:
        await press.thinking()
        outcome = await resume.move_here(
            press.ctx,
            press.user.id,
            guild=press.guild,
            channel=press.channel,
            game_id=press.ref.game,
            can_manage=press.can_manage,
        )
        await deliver(press.interaction, outcome)


class Move(Component, kind=ids.MOVE):
    """A move's button: a turn post's quick answer, a hint's, a warning's "play anyway"."""

    async def act(self, press: Press) -> None:
        await press.thinking()
        await absence.come_back(press.ctx, press.user.id, game_id=press.ref.game)
        await deliver(
            press.interaction, await moves.play_pressed(press.ctx, press.user.id, press.ref, press.admitted)
        )


class OpenPanel(Component, kind=ids.PANEL):
    """🎲 on a turn post: a new private panel of the presser's pending decision."""

    async def act(self, press: Press) -> None:
        await press.thinking()
        await absence.come_back(press.ctx, press.user.id, game_id=press.ref.game)
        await answer(press.interaction, await panel.panel(press.ctx, press.user.id, press.ref.game))


class Close(Component, kind=ids.CLOSE):
    async def act(self, press: Press) -> None:
        await press.interaction.response.edit_message(content=_(CLOSED), view=None)


async def _step(press: Press, path: Sequence[str], page: int) -> None:
    """The panel at ``path`` (or a fresh one, saying why, if the game moved on), in place."""
    await press.update()
    try:
        msg = await panel.panel(
            press.ctx,
            press.user.id,
            press.ref.game,
            based_on=press.ref.version,
            seat=press.ref.seat,
            path=path,
            page=page,
        )
    except CittaError as e:
        msg = Message(f"⚠️ {e}", ephemeral=True)
    await press.edit(msg)


class Step(Component, kind=ids.STEP):
    """A panel button: back, another page."""

    async def act(self, press: Press) -> None:
        await _step(press, press.ref.path, press.ref.page)


class Choose(Component, kind=ids.CHOOSE):
    """A panel select menu: the option picked is the next word of the move."""

    async def act(self, press: Press) -> None:
        if len(self.values) != 1:
            raise CittaError(_("This menu is no longer used."))
        await _step(press, (*press.ref.path, self.values[0]), 0)


class Confirm(Component, kind=ids.CONFIRM):
    """The panel's Confirm: the move is played, and the panel shows what happened and the next
    decision, if the player has one."""

    async def act(self, press: Press) -> None:
        await press.update()
        try:
            outcome = await moves.play_pressed(press.ctx, press.user.id, press.ref, press.admitted)
        except CittaError as e:
            await press.edit(await panel.panel_or(press.ctx, press.user.id, press.ref.game, f"⚠️ {e}"))
            return
        done = outcome.reply.text or _("You played `{move}`.", move=press.ref.move)
        await press.edit(await panel.panel_or(press.ctx, press.user.id, press.ref.game, f"✅ {done}"))
        await announce(press.interaction, outcome)


class MyGames(Component, kind=ids.MINE):
    """``/citta-my-games``' menu: the panel of the game picked, privately, wherever the player is."""

    async def act(self, press: Press) -> None:
        if len(self.values) != 1:
            raise CittaError(_("This menu is no longer used."))
        await press.thinking()
        reply = await mine.open_panel(press.ctx, press.user.id, self.values[0])
        await absence.come_back(press.ctx, press.user.id, game_id=int(self.values[0]))
        await answer(press.interaction, reply)


async def _review(press: Press, position: int) -> None:
    """A review's step: refused at once when the presser may not review the game, else its message
    edited to the position (drawn meanwhile)."""
    admitted, seen_by = press.admitted, viewer(press.interaction)
    assert admitted.row is not None
    await review.may_review(seen_by, admitted.row, admitted.seats, guild=press.interaction.guild_id)
    await press.update()
    shown = await review.step(
        press.ctx, seen_by, admitted.row, admitted.seats, guild=press.interaction.guild_id, position=position
    )
    await press.edit(shown)


class ReviewStep(Component, kind=ids.REVIEW):
    """⏮ ◀ ▶ ⏭ of a review: the review's message shows the position its id names."""

    async def act(self, press: Press) -> None:
        await _review(press, press.ref.page)


class ReviewMenu(Component, kind=ids.REVIEW_MENU):
    """A review's menu: the position picked."""

    async def act(self, press: Press) -> None:
        if len(self.values) != 1 or not self.values[0].isdigit() or len(self.values[0]) > 9:
            raise CittaError(_("This menu is no longer used."))
        await _review(press, int(self.values[0]))


ReviewAsk = Callable[..., Awaitable[Message]]
"""A use case asked with the context, the presser (`bot.service.visible.Viewer`), the game and its seats."""


async def _asked(press: Press, ask: ReviewAsk) -> None:
    """A question about the pressed component's game (a review, the computer's view of a move), answered
    privately in a message of its own ("thinking…" first: it may take a moment)."""
    admitted = press.admitted
    assert admitted.row is not None
    await press.thinking()
    shown = await ask(press.ctx, viewer(press.interaction), admitted.row, admitted.seats)
    await answer(press.interaction, shown)


class Why(Component, kind=ids.WHY):
    """🤔 of a finished game's review: the computer's view of the move."""

    async def act(self, press: Press) -> None:
        guild, position = press.interaction.guild_id, press.ref.page
        await _asked(press, partial(review_why.why, guild=guild, position=position))


class Decisive(Component, kind=ids.DECISIVE):
    """⚡ of a finished game's review: its decisive moments."""

    async def act(self, press: Press) -> None:
        await _asked(press, partial(review_why.decisive, guild=press.interaction.guild_id))


class ReviewAt(Component, kind=ids.REVIEW_AT):
    """🔎 on a post: the presser's review of the game at that post's position."""

    async def act(self, press: Press) -> None:
        await _asked(press, partial(review.step, guild=press.interaction.guild_id, position=press.ref.page))


class ReviewGame(Component, kind=ids.REVIEW_GAME):
    """``/citta games``' menu: the review of the game picked, privately, from its start."""

    async def act(self, press: Press) -> None:
        if len(self.values) != 1 or not self.values[0].isdigit() or len(self.values[0]) > mine.MAX_ID_DIGITS:
            raise CittaError(_("This menu is no longer used."))
        await press.thinking()
        shown = await review.review(
            press.ctx, viewer(press.interaction), guild=press.interaction.guild_id, channel=press.channel,
            game_id=int(self.values[0]), move=0,
        )  # fmt: skip
        await answer(press.interaction, shown)


class SignUp(Component, kind=ids.SIGN_UP):
    """A tournament's Sign up (its id in the custom id's ``page``)."""

    async def act(self, press: Press) -> None:
        await press.thinking()
        done = await tournaments.sign_up(press.ctx, press.ref.page, guild=press.guild, user=press.user.id,
                                         name=press.user.name)  # fmt: skip
        await answer(press.interaction, done)


class Withdraw(Component, kind=ids.WITHDRAW):
    """A tournament's Withdraw."""

    async def act(self, press: Press) -> None:
        await press.thinking()
        done = await tournaments.withdraw(press.ctx, press.ref.page, guild=press.guild, user=press.user.id)
        await answer(press.interaction, done)


REGISTERED = (
    Component,
    Join,
    Leave,
    Start,
    Peek,
    Abandon,
    Forget,
    Here,
    Move,
    OpenPanel,
    Close,
    Step,
    Choose,
    Confirm,
    MyGames,
    ReviewStep,
    ReviewMenu,
    ReviewAt,
    ReviewGame,
    Why,
    Decisive,
    SignUp,
    Withdraw,
)
"""Every component class, for ``Client.add_dynamic_items``: one per kind of `bot.ids`, and the base
for the ids no kind has (`Component`)."""
assert {c.kind for c in REGISTERED} == {*ids.KINDS, ids.UNKNOWN}, "a kind without its class"
