"""Notifications queued in the transaction of the change that causes them, like the emails beside them.

A game's channel hears the public events (whose turn, a round's result once revealed, game over, a pause, a
replacement), at once: its quiet hours are the group's choice. A player's own addresses hear of their own turn and
its reminders (if they asked for turns) and of results (if they asked for results), held until their quiet hours
end. A turn's notification, and a reminder of it, is dropped unsent once that turn is played (`drop_when_stale`).
Each is written in its reader's language (`language_of`): a player's own address in the seat's, as its emails are, the
channel in the game's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

import engine
from pbem.addresses import mailbox_key
from pbem.i18n import in_language, reading_language
from pbem.models import Game, GameChannel, Notice, NotificationAddress, Seat
from pbem.notify.transport import Notification
from pbem.service.emails import Letter
from pbem.service.notices import words
from pbem.service.timing.deadlines import out_of_quiet_hours
from pbem.service.timing.turn_clock import quiet_hours_of
from pbem.times import format_when
from pbem.words.counting import and_list

# The language a seat reads (`Outbox.language_of`); for None, the game's own (its host's, its channel's).
LanguageOf = Callable[[Game, Seat | None], str]


def reading_of(game: Game, seat: Seat | None) -> str:
    """A seat's language (its choice, its browser's, its game's), the game's for None; English where none is set
    (a caller that knows the server's language passes `Outbox.language_of` instead)."""
    if seat is None:
        return reading_language(game.language)
    return reading_language(seat.language, seat.browser_language, game.language)


def channel_of(session: Session, game: Game) -> GameChannel | None:
    """The game's channel while it is switched on."""
    channel = session.get(GameChannel, game.id)
    return channel if channel is not None and channel.switched_off_at is None else None


def _addresses(session: Session, seats: Sequence[Seat]) -> dict[str, list[NotificationAddress]]:
    mailboxes = {mailbox_key(seat.email) for seat in seats if seat.email and not seat.is_bot}
    if not mailboxes:
        return {}
    found: dict[str, list[NotificationAddress]] = {}
    rows = session.scalars(select(NotificationAddress).where(
        NotificationAddress.mailbox.in_(mailboxes), NotificationAddress.switched_off_at.is_(None)
    ).order_by(NotificationAddress.id))
    for address in rows:
        found.setdefault(address.mailbox, []).append(address)
    return found


def _queue(
    session: Session, game: Game, kind: str, about: object, notification: Notification, now: datetime, *,
    address: NotificationAddress | None = None, channel: GameChannel | None = None, stale: bool = False,
) -> None:
    target = f"address{address.id}" if address is not None else "channel"
    session.add(Notice(
        game_id=game.id, address_id=address.id if address is not None else None,
        channel_game_id=channel.game_id if channel is not None else None,
        kind=kind, dedupe_key=f"{kind}:{game.public_id}:{target}:{about}",
        title=notification.title, body=notification.body, status="queued", attempts=0,
        next_attempt_at=now, game_seq=game.current_seq, drop_when_stale=stale, created_at=now,
    ))


def _to_owner(
    session: Session, game: Game, seat: Seat, address: NotificationAddress, kind: str, about: object,
    notification: Notification, now: datetime, *, stale: bool = False,
) -> None:
    """A player's own address, held until their quiet hours end."""
    _queue(session, game, kind, about, notification, out_of_quiet_hours(now, seat.timezone, quiet_hours_of(game, seat)),
           address=address, stale=stale)


def _once_per_language(write: Callable[[str], Notification]) -> Callable[[str], Notification]:
    """`write`, called once for each language its readers read."""
    written: dict[str, Notification] = {}

    def said_in(language: str) -> Notification:
        if language not in written:
            written[language] = write(language)
        return written[language]

    return said_in


def queue_after_move(
    session: Session, game: Game, state: engine.Game, events: list[engine.Event], *, base_url: str,
    now: datetime, deadline: Callable[[], datetime | None], headline: Callable[[engine.RoundResult], str],
    first_deal: bool = False, language_of: LanguageOf = reading_of,
) -> None:
    """The notifications of one move: a round's or the game's end (public once it happened), then whose turn.

    `headline`: a finished round's result in the round digest's words (the letters' `round_headline`), written in
    each reader's language. A game that wants none (`games.notices_wanted`) costs its moves nothing; its
    `first_deal` (the start) looks once."""
    if not game.notices_wanted and not first_deal:
        return
    channel = channel_of(session, game)
    people = [seat for seat in game.seats if not seat.is_bot and seat.email]
    addresses = _addresses(session, people)
    if channel is None and not addresses:
        return
    game.notices_wanted = True
    # Each end as its readers' languages write it, once per language.
    ends: list[tuple[str, object, Callable[[str], Notification]]] = []
    public = engine.view(state, None)
    if any(event.get("type") == "game_over" for event in events):
        winners = [game.names[s] for s in public["final"]["winners"]]  # the holders now, as the email
        ends.append(("game_over", "end", partial(words.game_over, game, partial(and_list, winners), base_url)))
    for event in events:
        if event.get("type") == "round_started" and event.get("round", 1) > 1:
            finished = event["round"] - 1
            result = next((r for r in public["results"] if r["round"] == finished), None)
            if result is not None:
                ends.append(("round_over", finished,
                             partial(words.round_over, game, finished, partial(headline, result), base_url)))
    for kind, about, write in ends:
        said_in = _once_per_language(write)
        if channel is not None:
            _queue(session, game, kind, about, said_in(language_of(game, None)), now, channel=channel)
        for seat in people:
            for address in addresses.get(mailbox_key(seat.email or ""), []):
                if address.results:
                    _to_owner(session, game, seat, address, kind, about, said_in(language_of(game, seat)), now)
    to_act = engine.to_act(state)
    if to_act is None:
        return
    seat = game.seats[to_act]
    if channel is not None:
        _queue(session, game, "whose_turn", game.current_seq,
               words.whose_turn(game, seat.display_name, base_url, language_of(game, None)), now, channel=channel,
               stale=True)
    if seat.is_bot or not seat.email:
        return
    for address in addresses.get(mailbox_key(seat.email), []):
        if address.turns:
            due = deadline()
            with in_language(language_of(game, seat)) as language:
                when = format_when(due, seat.timezone) if due is not None else None
                notice = words.your_turn(game, public["round"], when, base_url, language)
            _to_owner(session, game, seat, address, "your_turn", game.current_seq, notice, now, stale=True)


def queue_reminder(
    session: Session, game: Game, seat: Seat, letter: Letter, context: dict[str, Any], about: tuple[object, ...], *,
    base_url: str, now: datetime, language_of: LanguageOf = reading_of,
) -> None:
    """A reminder of the seat's pending turn (the ladder's, the host's nudge, the warning before the deadline) to
    its player's own addresses that take turns, in the email's words: once per address and reminder, held until
    the seat's quiet hours end, dropped once the turn is played."""
    if not game.notices_wanted or seat.is_bot or not seat.email:
        return
    notification = words.reminder(game, letter, context, base_url, language_of(game, seat))
    about_key = ":".join(str(part) for part in about)
    for address in _addresses(session, [seat]).get(mailbox_key(seat.email), []):
        if not address.turns:
            continue
        key = f"{letter.kind}:{game.public_id}:address{address.id}:{about_key}"
        if session.scalar(select(Notice.id).where(Notice.dedupe_key == key)) is None:
            _to_owner(session, game, seat, address, letter.kind, about_key, notification, now, stale=True)


def mark_wanted(session: Session, mailbox: str) -> None:
    """A player added an address: the games they sit in look for notifications from now on."""
    games = session.execute(select(Seat.game_id, Seat.email).where(Seat.email.is_not(None))).tuples()
    ids = {game_id for game_id, email in games if email and mailbox_key(email) == mailbox}
    if ids:
        session.execute(update(Game).where(Game.id.in_(ids)).values(notices_wanted=True))


def queue_table_line(session: Session, game: Game, kind: str, about: object, line: words.Line, *, base_url: str,
                     now: datetime, language_of: LanguageOf = reading_of) -> None:
    """A public line of the table (a pause, a replacement) to the game's channel, in the game's language (`line`
    written by a callable is written in it; words alone are sent as they are)."""
    channel = channel_of(session, game)
    if channel is not None:
        notice = words.table_line(game, line, base_url, language_of(game, None))
        _queue(session, game, kind, about, notice, now, channel=channel)
