"""Queueing the daily emails that are due: one per day for each seat that asked for a game's digest, and one per
day across all games for each player who chose the daily email on "My games".

The scheduler's sweep calls `queue_due_daily_digests` and `queue_due_player_dailies` as often as it likes: an
email is due once the recipient's local clock has passed `send_at` (and, for the email across games, once their
quiet hours are over), and its dedupe key (game, seat, local date; or mailbox, local date) queues it at most once
that day, however many sweeps or schedulers run. A player who chose the email across games gets no digest per game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, selectinload

import engine
from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.i18n import current_language, in_language
from pbem.models import Game, GameStatus, OutboxMessage, PlayerPreferences, Seat, Snapshot
from pbem.quiet_hours import parse_quiet_hours
from pbem.service.emails import DAILY_DIGEST, PLAYER_DAILY
from pbem.service.letters import contents
from pbem.service.letters.game_mail import GameMail
from pbem.service.players.mailboxes import seats_of
from pbem.service.snapshots import latest_state
from pbem.service.talk.chat_lines import mark_shown, unread_excerpt
from pbem.service.timing.deadlines import is_quiet
from pbem.service.timing.turn_clock import current_clock, deadline_moved_from
from pbem.times import format_duration, format_when, zone

DIGEST_TIME = time(8, 0)


def queue_due_daily_digests(db: Database, clock: Clock, mail: GameMail, *, send_at: time = DIGEST_TIME) -> int:
    """Queue every digest that is due now; returns how many were queued."""
    now = clock.now()
    due: list[tuple[int, int, date]] = []  # (game row id, seat index, local date)
    with db.read() as session:
        seats = session.execute(
            select(Game.id, Game.public_id, Seat.seat_index, Seat.timezone, Seat.email)
            .join(Seat)
            .where(Game.status == GameStatus.ACTIVE, Seat.notify_mode == "digest", Seat.is_bot.is_(False))
            .order_by(Game.id, Seat.seat_index)
        ).all()
        across_games = daily_mailboxes(session)
        for game_pk, public_id, seat_index, zone_name, email in seats:
            if email is not None and mailbox_key(email) in across_games:
                continue  # their one email across games tells of this game
            local = now.astimezone(zone(zone_name))
            if local.time() < send_at:
                continue
            key = DAILY_DIGEST.key(public_id, seat_index, local.date().isoformat())
            if session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == key)) is None:
                due.append((game_pk, seat_index, local.date()))
    queued = 0
    for game_pk, seat_index, day in due:
        with db.write() as session:
            # The game row locked, as a move locks it: the digest describes one consistent snapshot.
            game = session.scalar(
                select(Game)
                .where(Game.id == game_pk)
                .options(selectinload(Game.seats))
                .with_for_update(of=Game, key_share=True)
            )
            if game is None or game.status != GameStatus.ACTIVE or game.current_seq is None:
                continue
            seat = game.seats[seat_index]
            if seat.notify_mode != "digest":
                continue
            state = latest_state(session, game)
            message = mail.daily_digest(session, game, seat, state, day)
            queued += message is not None
    return queued


def daily_mailboxes(session: Session) -> set[str]:
    """The mailboxes of the players who chose one daily email across all their games."""
    return set(session.scalars(select(PlayerPreferences.mailbox).where(PlayerPreferences.notify_mode == "daily")))


# -- one email a day across games --------------------------------------------------------------------

ACROSS_GAMES = PLAYER_DAILY.kind


def across_games_key(mailbox: str, day: date | None) -> str:
    """The dedupe key of a mailbox's email across games on `day` (None: the prefix of all its days)."""
    digest = hashlib.sha256(mailbox.encode()).hexdigest()[:32]
    return PLAYER_DAILY.key(digest, day.isoformat() if day is not None else "")


def queue_due_player_dailies(db: Database, clock: Clock, mail: GameMail, *, send_at: time = DIGEST_TIME) -> int:
    """Queue each email across games that is due now: past `send_at` in the player's zone and outside their quiet
    hours, once a local day; returns how many were queued (none for a player with nothing to tell)."""
    now = clock.now()
    due: list[tuple[str, date]] = []
    with db.read() as session:
        for row in session.scalars(select(PlayerPreferences).where(PlayerPreferences.notify_mode == "daily")):
            local = now.astimezone(zone(row.timezone))
            if local.time() < send_at or is_quiet(now, row.timezone, parse_quiet_hours(row.quiet_hours)):
                continue
            if not _queued(session, across_games_key(row.mailbox, local.date())):
                due.append((row.mailbox, local.date()))
    queued = 0
    for mailbox, day in due:
        with db.write() as session:
            locked = session.scalar(
                select(PlayerPreferences).where(PlayerPreferences.mailbox == mailbox).with_for_update()
            )
            if locked is None or locked.notify_mode != "daily" or _queued(session, across_games_key(mailbox, day)):
                continue
            queued += queue_across_games(session, mail, locked, day, now)
    return queued


@dataclass(frozen=True)
class GameNews:
    """One game in the email across games; `seat` is counted as having been shown its table talk once queued."""

    seat: Seat
    deadline: datetime | None
    context: dict[str, Any]
    chat_upto: int | None


def queue_across_games(session: Session, mail: GameMail, row: PlayerPreferences, day: date, now: datetime) -> bool:
    """Queue `row`'s email for `day`: the games where it is their turn (least time left first), then the others
    where something happened since the last one; nothing when no game has news. True if one was queued."""
    since = session.scalar(
        select(OutboxMessage.created_at)
        .where(
            OutboxMessage.kind == ACROSS_GAMES, OutboxMessage.dedupe_key.like(across_games_key(row.mailbox, None) + "%")
        )
        .order_by(OutboxMessage.id.desc())
        .limit(1)
    )
    seats = seats_of(session, row.mailbox)
    news = [item for seat in seats if (item := game_news(session, mail, seat, since, now, row.timezone)) is not None]
    if not news:
        return False
    yours, others = _in_order(news, now)
    first = (yours or others)[0]  # its seats may read different languages: the one of the game listed first
    language = mail.outbox.language_of(first.seat.game, first.seat)
    if language != current_language():  # each game's news written again, in the email's language
        with in_language(language):
            news = [item for seat in seats if (item := game_news(session, mail, seat, since, now, row.timezone))]
        yours, others = _in_order(news, now)
    with in_language(language):
        day_words = contents.day_words(day)
    message = mail.outbox.enqueue_standalone(
        session,
        to_address=row.email,
        kind=ACROSS_GAMES,
        dedupe_key=across_games_key(row.mailbox, day),
        subject=PLAYER_DAILY.subject(len(yours)),
        context={
            "day": day_words,
            "yours": [n.context for n in yours],
            "others": [n.context for n in others],
            "zone": row.timezone,
            "my_games_url": mail.page_url("/my-games"),
            "preferences_url": mail.page_url("/my-games/preferences"),
        },
        language=language,
    )
    if message is None:
        return False
    for item in news:
        mark_shown(item.seat, item.chat_upto)
    return True


def _in_order(news: list[GameNews], now: datetime) -> tuple[list[GameNews], list[GameNews]]:
    """The games where it is their turn (least time left first), then the others, by title."""
    yours = sorted(
        (n for n in news if n.context["your_turn"]),
        key=lambda n: (n.deadline is None, n.deadline or now, n.context["title"]),
    )
    others = sorted((n for n in news if not n.context["your_turn"]), key=lambda n: n.context["title"])
    return yours, others


def game_news(
    session: Session, mail: GameMail, seat: Seat, since: datetime | None, now: datetime, zone_name: str
) -> GameNews | None:
    """What the email across games says of one seat's game; None when the seat hears of it otherwise (turn emails,
    a game not running) or nothing happened there since the last email and it is not their turn."""
    game = seat.game
    if game.status != GameStatus.ACTIVE or game.current_seq is None or seat.notify_mode != "digest":
        return None
    your_turn = game.to_act_seat == seat.seat_index
    moves = (
        session.scalar(
            select(func.count())
            .select_from(Snapshot)
            .where(
                Snapshot.game_id == game.id,
                Snapshot.seq > 0,
                or_(Snapshot.actor_seat.is_(None), Snapshot.actor_seat != seat.seat_index),
                *([Snapshot.created_at > since] if since is not None else []),
            )
        )
        or 0
    )
    chat = unread_excerpt(session, game, seat)
    if not (your_turn or moves or chat):
        return None
    clock = current_clock(session, game) if your_turn and not game.paused else None
    deadline = clock.deadline_at if clock is not None else None
    view = engine.view(latest_state(session, game), seat.seat_index)
    context = {
        "title": game.title,
        "round": view["round"],
        "rounds": view["rounds"],
        "your_turn": your_turn,
        "gold_pick": your_turn and view["you"].get("offer") is not None,
        "to_act_name": game.names[game.to_act_seat] if game.to_act_seat is not None else None,
        "paused": game.paused,
        "deadline": format_when(deadline, zone_name) if deadline is not None else None,
        "left": format_duration(deadline - now) if deadline is not None else None,
        "deadline_moved_from": format_when(moved, zone_name) if (moved := deadline_moved_from(clock)) else None,
        "moves": moves,
        "first_email": since is None,
        **contents.chat(chat.lines, chat.more, zone_name),
        **mail.link_context(game, seat),
    }
    return GameNews(seat=seat, deadline=deadline, context=context, chat_upto=chat.upto)


def _queued(session: Session, key: str) -> bool:
    return session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == key)) is not None
