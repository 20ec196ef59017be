"""One conversation per game and mailbox, in Gmail, Outlook and Apple Mail alike.

The first email a mailbox receives about a game is the root of the conversation: its Message-ID is
stored in `mail_threads`. Every later email carries `In-Reply-To` and `References` naming that root
(what Apple Mail and Gmail follow), a stable subject "Re: <subject>" (Gmail also wants the subject to
match; Outlook groups by the subject without its "Re:"), and `Thread-Topic` (Outlook's own header).
Headers are computed once, when the email is queued, and stored with it: retries resend them unchanged.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pbem.addresses import address_key
from pbem.memo import recalled, remember_when_committed
from pbem.models import Game, MailThread


def conversation_root(
    session: Session, *, game: Game, recipient: str, address: str, message_id: str, now: datetime
) -> str | None:
    """The root Message-ID this email replies to, or None when this email starts the conversation.

    Two transactions queuing the first emails of one conversation at once cannot both become the root:
    the unique key decides, and the loser (inside a savepoint, so its caller's transaction goes on)
    replies to the winner's email instead. A root never changes once committed, so the process remembers it
    (pbem/memo.py) and a conversation's later emails need no query for it.
    """
    key = address_key(address)
    remembered_as = ("thread", game.public_id, recipient, key)
    existing = recalled(session, "thread", remembered_as) or _root(session, game.id, recipient, key)
    if existing is not None:
        remember_when_committed(session, "thread", remembered_as, existing)
        return existing
    try:
        with session.begin_nested():
            session.add(
                MailThread(
                    game_id=game.id, recipient=recipient, address=key, root_message_id=message_id, created_at=now
                )
            )
    except IntegrityError:
        return _root(session, game.id, recipient, key)
    remember_when_committed(session, "thread", remembered_as, message_id)
    return None


def threading_headers(subject: str, root: str | None) -> tuple[str, dict[str, str]]:
    """The subject and headers of one email of a conversation (root: None for the first email)."""
    headers = {"Thread-Topic": subject}
    if root is None:
        return subject, headers
    return f"Re: {subject}", {**headers, "In-Reply-To": root, "References": root}


def _root(session: Session, game_id: int, recipient: str, address: str) -> str | None:
    return session.scalar(
        select(MailThread.root_message_id).where(
            MailThread.game_id == game_id, MailThread.recipient == recipient, MailThread.address == address
        )
    )
