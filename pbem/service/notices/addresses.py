"""The addresses people set: a player's own (by mailbox) and a game's channel (by its host).

Each URL is checked (`pbem.notify.safety.check_url`) before anything is stored, so a refused one changes nothing;
it is kept as given and shown back only masked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.i18n import ngettext
from pbem.mail.outbox import Outbox
from pbem.models import Game, GameChannel, Notice, NotificationAddress
from pbem.notify.safety import RefusedUrl, UrlRules, check_url
from pbem.service.notices.queue import mark_wanted
from pbem.service.players.notices_instead import fall_back

MAX_ADDRESSES = 5


@dataclass(frozen=True)
class ShownAddress:
    """What a page may show of an address: never its URL."""

    id: int
    shown_as: str
    turns: bool
    results: bool
    failures: int
    last_error: str | None
    switched_off: bool


def set_channel(session: Session, game: Game, url: str, rules: UrlRules, now: datetime) -> GameChannel:
    """Give the game a channel (or a new URL for it), checked first: RefusedUrl leaves everything as it was."""
    checked = check_url(url, rules)
    channel = session.get(GameChannel, game.id)
    if channel is None:
        channel = GameChannel(game_id=game.id, url=checked.url, shown_as=checked.masked, failures=0, created_at=now)
        session.add(channel)
    else:
        channel.url, channel.shown_as, channel.failures = checked.url, checked.masked, 0
        channel.switched_off_at = channel.last_error = None
    game.notices_wanted = True
    return channel


def clear_channel(session: Session, game: Game) -> None:
    session.execute(delete(Notice).where(Notice.channel_game_id == game.id, Notice.status == "queued"))
    session.execute(delete(GameChannel).where(GameChannel.game_id == game.id))


def add_address(
    session: Session, email: str, url: str, rules: UrlRules, now: datetime, *, turns: bool = True,
    results: bool = False,
) -> NotificationAddress:
    """Add one of a player's own addresses, checked first: RefusedUrl leaves everything as it was."""
    checked = check_url(url, rules)
    mailbox = mailbox_key(email)
    existing = session.scalars(select(NotificationAddress).where(NotificationAddress.mailbox == mailbox)).all()
    if len(existing) >= MAX_ADDRESSES:
        raise RefusedUrl(ngettext("You have %(num)d notification address already; remove it first.",
                                  "You have %(num)d notification addresses already; remove one first.",
                                  MAX_ADDRESSES))
    address = NotificationAddress(
        mailbox=mailbox, url=checked.url, shown_as=checked.masked, turns=turns, results=results, failures=0,
        created_at=now,
    )
    session.add(address)
    session.flush()
    mark_wanted(session, mailbox)
    return address


def note_new_holder(session: Session, game: Game, email: str) -> None:
    """A seat has a new holder (a replacement, a corrected address): their game looks for notifications from now on
    if they have an address of their own."""
    if session.scalar(select(NotificationAddress.id).where(
        NotificationAddress.mailbox == mailbox_key(email)
    ).limit(1)) is not None:
        game.notices_wanted = True


def remove_address(session: Session, email: str, address_id: int, outbox: Outbox) -> list[str]:
    """Remove one of the player's addresses; the games that go back to turn emails for it (`notices_instead.fall_back`:
    it was their last address for turns), where a turn waiting for the player now is emailed at once."""
    mailbox = mailbox_key(email)
    session.execute(delete(NotificationAddress).where(
        NotificationAddress.id == address_id, NotificationAddress.mailbox == mailbox
    ))
    return fall_back(session, mailbox, outbox)


def shown_addresses(session: Session, email: str) -> list[ShownAddress]:
    rows = session.scalars(select(NotificationAddress).where(
        NotificationAddress.mailbox == mailbox_key(email)
    ).order_by(NotificationAddress.id))
    return [ShownAddress(row.id, row.shown_as, row.turns, row.results, row.failures, row.last_error,
                         row.switched_off_at is not None) for row in rows]
