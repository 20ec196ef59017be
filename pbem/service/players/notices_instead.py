"""Notifications instead of turn emails: a seat's `notify_mode` 'notices' (a player's 'notices' for all games).

Such a seat gets no turn email and no reminder of the ladder; its turn goes to its player's own addresses that take
turns (`pbem/service/notices/queue.py`), like every player's. Round digests, game over, the deadline's warning and
the host's nudge still come by email. It may be chosen only while the player has a working address that takes
turns; once none is left (the player removed it, or the worker switched it off), every such seat falls back to
turn emails (`fall_back`).
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.mail.outbox import Outbox
from pbem.models import Game, GameStatus, NotificationAddress, OutboxMessage, PlayerPreferences, Seat
from pbem.service.emails import YOUR_TURN
from pbem.service.players.mailboxes import seats_of
from pbem.words.table import N_

NOTICES_MODE = "notices"
NEEDS_AN_ADDRESS = N_(
    "Notifications instead of turn emails need an address of yours that gets your turns: add one under "
    "\"Also tell me on my phone or in a chat\" first (and send it a test), then choose this."
)

def takes_turns(session: Session, mailbox: str) -> bool:
    """Whether the mailbox has an address, switched on, that gets its turns."""
    return session.scalar(select(NotificationAddress.id).where(
        NotificationAddress.mailbox == mailbox, NotificationAddress.turns,
        NotificationAddress.switched_off_at.is_(None),
    ).limit(1)) is not None


NOTICES_OFF_HERE = N_("This server sends no notifications, so they cannot replace your turn emails.")


def require_turn_address(session: Session, email: str, *, enabled: bool = True) -> None:
    """ValidationError (the reason, what to do) unless the player of `email` has a working address for turns and
    this server sends notifications (`enabled`: `notifications.enabled`)."""
    if not enabled:
        raise ValidationError(gettext(NOTICES_OFF_HERE))
    if not takes_turns(session, mailbox_key(email)):
        raise ValidationError(gettext(NEEDS_AN_ADDRESS))


def fall_back(session: Session, mailbox: str, outbox: Outbox | None = None) -> list[str]:
    """With no working address for turns left, every seat of the mailbox in 'notices' goes back to turn emails (and
    the player's choice for all games too); the titles of those games, [] when nothing changed. With `outbox`, a
    turn pending at such a seat, whose notification will not come, is emailed now."""
    if takes_turns(session, mailbox):
        return []
    session.execute(update(PlayerPreferences).where(
        PlayerPreferences.mailbox == mailbox, PlayerPreferences.notify_mode == NOTICES_MODE,
    ).values(notify_mode="turn").execution_options(synchronize_session=False))
    titles: list[str] = []
    for seat in seats_of(session, mailbox):
        if seat.notify_mode != NOTICES_MODE:
            continue
        seat.notify_mode = "turn"
        game = seat.game
        if game.status in (GameStatus.CREATED, GameStatus.ACTIVE):
            titles.append(game.title)
        if outbox is not None and game.status == GameStatus.ACTIVE and game.to_act_seat == seat.seat_index:
            turn_email_later(outbox, session, game, seat)
    return sorted(titles)


def turn_email_later(outbox: Outbox, session: Session, game: Game, seat: Seat) -> None:
    """The pending turn's email, queued after its move as the move would have queued it (`GameMail.after_move`),
    at most once (its dedupe key); composed when sent, like any turn email."""
    key = YOUR_TURN.key(game.public_id, seat.seat_index, game.current_seq)
    if seat.is_bot or seat.email is None or session.scalar(select(OutboxMessage.id).where(
        OutboxMessage.dedupe_key == key
    )) is not None:
        return
    outbox.reserve(session, game=game, seat=seat, kind=YOUR_TURN.kind, dedupe_key=key, drop_when_stale=True)
