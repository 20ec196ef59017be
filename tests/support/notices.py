"""Notifications as tests arrange and read them: a game's channel and players' addresses written straight into their
tables (as if accepted earlier: the tests that use these send nothing, so no URL is checked or reached), the
notification outbox read back, and what no notification may hold."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, GameChannel, Notice, NotificationAddress, RoundCommitment, Snapshot
from pbem.runtime import Runtime
from pbem.service.letters import contents
from pbem.service.letters.game_mail import turn_deadline
from pbem.service.notices.queue import queue_after_move

CHANNEL_URL = "json://hooks.example/table-secret-hook-7f3a"
ADDRESS_URL = "ntfy://ntfy.example/phone-secret-topic-9c1d"
# A seat link, a signed token, or anything long enough to be one.
TOKEN = re.compile(r"/play/|/watch/|token|[A-Za-z0-9_-]{40,}")
# The only first lines a notification has (pbem/service/notices/words.py), each from public facts or the owner's
# own turn; the second line is the table page's address and nothing else.
LINES = re.compile(
    r"[^\n]+'s turn\.|Your turn(: play by [^\n]+)?|Round \d+ is over: [^\n]+|Game over: [^\n]+"
    r"|The host paused the game\.|Seat \d+ changed hands: [^\n]+"
)


@dataclass(frozen=True)
class Queued:
    """One notification as a reader of its address reads it."""

    kind: str
    to: str  # "channel", or the mailbox of the address it goes to
    about: str  # what it announces (a turn's seq, a round), as its dedupe key names it
    title: str
    body: str


def give_channel(runtime: Runtime, game_id: str, url: str = CHANNEL_URL, *, at: datetime | None = None) -> None:
    with runtime.db.write() as session:
        game = _game(session, game_id)
        session.add(GameChannel(game_id=game.id, url=url, shown_as=url[:12], failures=0,
                                created_at=at or runtime.clock.now()))
        game.notices_wanted = True


def give_addresses(runtime: Runtime, mailboxes: Iterable[str], url: str = ADDRESS_URL) -> None:
    """Each mailbox one address that takes turns and results."""
    with runtime.db.write() as session:
        for mailbox in mailboxes:
            session.add(NotificationAddress(mailbox=mailbox, url=f"{url}-{mailbox}", shown_as=url[:12], turns=True,
                                            results=True, failures=0, created_at=runtime.clock.now()))
        session.execute(update(Game).values(notices_wanted=True))


def queued(runtime: Runtime, game_id: str) -> list[Queued]:
    """Every notification of the game ever queued (sent, dropped or waiting), in order, the game's id set aside."""
    with runtime.db.read() as session:
        game = _game(session, game_id)
        mailboxes = dict(session.execute(select(NotificationAddress.id, NotificationAddress.mailbox)).tuples().all())
        rows = session.scalars(select(Notice).where(Notice.game_id == game.id).order_by(Notice.id))
        return [
            Queued(row.kind, "channel" if row.address_id is None else mailboxes[row.address_id],
                   row.dedupe_key.rsplit(":", 1)[1], row.title, row.body.replace(game_id, "GAME"))
            for row in rows
        ]


def read_by(notices: list[Queued], mailbox: str) -> list[Queued]:
    """What a player reads of them: the table's channel and their own addresses."""
    return [notice for notice in notices if notice.to in ("channel", mailbox)]


def never_told(runtime: Runtime, game_id: str) -> list[str]:
    """What must reach no notification: every round's salt and record (revealed or not), the seats' links, the
    addresses themselves."""
    with runtime.db.read() as session:
        game = _game(session, game_id)
        seals = session.scalars(select(RoundCommitment).where(RoundCommitment.game_id == game.id)).all()
        urls = list(session.scalars(select(NotificationAddress.url))) + list(session.scalars(select(GameChannel.url)))
    return [seal.salt for seal in seals] + [str(seal.record)[:60] for seal in seals if seal.record] + [
        invite.link for invite in runtime.games.invites(game_id)
    ] + urls


def queue_for_twin(runtime: Runtime, real_id: str, twin_id: str, after: int) -> None:
    """What the move path would have queued for the twin's snapshots after seq `after` (their states and events,
    scrambled for the twin's seat), with the real game's deadline: the twin's notifications, to compare."""
    with runtime.db.write() as session:
        real, twin = _game(session, real_id), _game(session, twin_id)
        snapshots = session.scalars(select(Snapshot).where(Snapshot.game_id == twin.id, Snapshot.seq > after)
                                    .order_by(Snapshot.seq)).all()
        latest = twin.current_seq
        for snapshot in snapshots:
            twin.current_seq = snapshot.seq
            queue_after_move(session, twin, engine.Game.from_dict(snapshot.state), list(snapshot.events),
                             base_url=runtime.config.base_url, now=snapshot.created_at,
                             deadline=lambda: turn_deadline(real), headline=contents.round_headline)
        twin.current_seq = latest


def _game(session: Session, game_id: str) -> Game:
    game = session.scalar(select(Game).where(Game.public_id == game_id))
    assert game is not None
    return game
