"""The emails a game sends its players (game_started, your_turn, round_digest, game_over, daily_digest,
chat_messages), queued by the game service inside the transaction of the change.

Content comes from the seat's view and the events it may see (`contents.py`); a turn email is composed when
the deliverer takes it. When each kind is sent and what it says: docs/email.md and docs/architecture.md ("Mail").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session, object_session

import engine
from pbem.addresses import mailbox_key
from pbem.i18n import current_language, gettext, in_language
from pbem.mail.outbox import Outbox
from pbem.models import Game, OutboxMessage, Rematch, Seat, Snapshot
from pbem.seat_link import SeatLink
from pbem.service.emails import (
    CHAT_MESSAGES,
    DAILY_DIGEST,
    DEADLINE_PASSED,
    DEADLINE_WARNING,
    GAME_OVER,
    GAME_STARTED,
    NUDGE,
    ROUND_DIGEST,
    TURN_REMINDER,
    YOUR_TURN,
    Letter,
)
from pbem.service.events import visible_events
from pbem.service.history.holders import lines_at
from pbem.service.letters import contents, trust_context
from pbem.service.letters.board_picture import board_content_id
from pbem.service.letters.spectator_mail import queue_round_end_emails
from pbem.service.notices.queue import queue_after_move, queue_reminder
from pbem.service.players.notices_instead import NOTICES_MODE
from pbem.service.players.preferences import apply_preferences
from pbem.service.rows import SEATS_AND_CLOCK
from pbem.service.snapshots import latest_state, seat_view
from pbem.service.talk.chat_lines import ChatExcerpt, mark_shown, unread_excerpt
from pbem.service.timing.deadlines import policy
from pbem.service.timing.deadlines import turn_deadline as policy_deadline
from pbem.service.timing.turn_clock import current_clock, deadline_moved_from
from pbem.times import format_duration, format_when, since_day
from pbem.tokens import LinkSigner, SpectatorLinkSigner
from pbem.words.events import describe_event
from pbem.words.table import N_

# Snapshots read at a time when looking back for the start of a round's payouts (a round's gold picks
# are a handful of snapshots, so one page is nearly always enough).
LOOKBACK_PAGE = 16
# Lines of "what happened" in a daily digest; the rest are on the turn page.
DIGEST_LINES = 40


def moved_deadline(game: Game) -> datetime | None:
    """The deadline the pending turn began with, when the one in force now differs from it."""
    if game.to_act_seat is None or game.paused:
        return None
    session = object_session(game)
    return deadline_moved_from(current_clock(session, game)) if session is not None else None


def turn_deadline(game: Game) -> datetime | None:
    """When the pending decision times out (None: no deadline, nothing pending, or the game is paused).

    The turn's clock (`pbem/service/timing/turn_clock.py`) holds it, with quiet hours, away time and extensions.
    """
    if game.to_act_seat is None or game.paused:
        return None
    session = object_session(game)
    clock = current_clock(session, game) if session is not None else None
    if clock is None:
        return policy_deadline(game.turn_started_at, game.policies or {})
    return clock.deadline_at


# What happens at the deadline, translated where a seat's email is written (`gettext(AT_DEADLINE[key])`).
AT_DEADLINE = {
    "auto-pass": N_("If you have not played by then, the game discards a card from your hand face down for you "
                    "(the one you marked on your turn page, if you did) and moves on."),
    "bot": N_("If you have not played by then, a computer player takes your turn."),
    "notify-host": N_("If you have not played by then, the host decides what happens."),
    "gold": N_("If you have not chosen by then, you get the highest gold card on offer."),
    "steal": N_("If you have not decided by then, your Theft is let go."),
}


def decision_words(view: engine.View) -> tuple[str, str | None]:
    """What the seat is to decide, read from its view, and the at-deadline key for it (None: by the game's
    policy). The decision stays an English key: each template writes a whole sentence for each one."""
    if view["phase"] == engine.GOLD_PICK:
        return "gold pick", "gold"
    if view["phase"] == engine.STEAL:
        return "decision about your Theft", "steal"
    return "turn", None


class GameMail:
    def __init__(
        self, outbox: Outbox, links: LinkSigner, link_max_age_days: int, spectator_links: SpectatorLinkSigner, *,
        notices_enabled: bool,
    ) -> None:
        self._outbox = outbox
        # Whether this server sends notifications: a seat that chose them instead of turn emails is emailed while
        # it does not (chosen before the operator switched them off, it would otherwise hear of its turns nowhere).
        self._notices_enabled = notices_enabled
        self._links = links
        self._spectator_links = spectator_links
        self._link_max_age_days = link_max_age_days

    @property
    def outbox(self) -> Outbox:
        """Where these letters are queued (the email across games is queued there too: `letters/daily.py`)."""
        return self._outbox

    def writing_to(self, game: Game, seat: Seat) -> AbstractContextManager[str]:
        """Inside it, words are the seat's language (its email's: `Outbox.language_of`): what a letter's context
        says (lines, outcomes, roles, times) is written there, as its templates are."""
        return in_language(self._outbox.language_of(game, seat))

    def page_url(self, path: str) -> str:
        """The address of one of the server's pages, e.g. "/my-games" (for emails that point there)."""
        return f"{self._links.base_url}{path}"

    def link_context(self, game: Game, seat: Seat) -> dict[str, Any]:
        link = SeatLink(game_id=game.public_id, seat=seat.seat_index, version=seat.token_version)
        return {
            "link": self._links.url(link),
            "link_max_age_days": self._link_max_age_days,
            "rules_url": f"{self._links.base_url}/rules",
        }

    # -- queued by the game service ----------------------------------------------------------------

    def game_started(self, session: Session, game: Game, state: engine.Game) -> None:
        # Each player's preferences for all games (time zone, quiet hours, daily email) reach their new seat first:
        # a player who chose the daily email gets no turn emails here either.
        apply_preferences(session, _people(game))
        first = engine.to_act(state)
        sealed = trust_context.sealed_context(session, game, state.round)
        previous = session.scalar(select(Game).join(Rematch, Rematch.previous_game_id == Game.id).where(
            Rematch.game_id == game.id
        ))
        for seat in _people(game):
            players = [
                {"name": other.display_name, "is_bot": other.is_bot, "is_you": other is seat} for other in game.seats
            ]
            self._to_seat(session, game, seat, GAME_STARTED, (), {
                "seat_number": seat.seat_index + 1,
                "players": players,
                "first_player": game.names[first] if first is not None else "",
                "your_turn": first == seat.seat_index,
                "deadline_hours": (game.policies or {}).get("deadline_hours"),
                "variant": game.variant,
                "own_deck": "deck" in (game.options or {}),
                "rematch_of": self._rematch_of(previous, seat),
                **sealed,
            })
        queue_after_move(session, game, state, [], base_url=self._links.base_url, now=game.updated_at,
                         deadline=lambda: turn_deadline(game), headline=contents.round_headline, first_deal=True)

    def _rematch_of(self, previous: Game | None, seat: Seat) -> dict[str, Any] | None:
        """The game this one plays again: its title, and a link to its final page when this person sat in it."""
        if previous is None:
            return None
        mailbox = mailbox_key(seat.email or "")
        former = [old for old in _people(previous) if old.email and mailbox_key(old.email) == mailbox]
        return {
            "title": previous.title,
            "link": self.link_context(previous, former[0])["link"] if former else None,
        }

    def after_move(self, session: Session, game: Game, state: engine.Game, events: list[engine.Event]) -> None:
        """Round digests or game-over mail first (they explain the turn email that may follow), then the turn."""
        types = {event.get("type") for event in events}
        if "game_over" in types:
            self._game_over(session, game, state)
            self._tell_spectators(session, game, state, state.round)
        else:
            for event in events:
                if event.get("type") == "round_started":
                    self._round_digests(session, game, state, event)
                    self._tell_spectators(session, game, state, event["round"] - 1)
        self._your_turn(session, game, state)
        queue_after_move(session, game, state, events, base_url=self._links.base_url, now=game.updated_at,
                         deadline=lambda: turn_deadline(game), headline=contents.round_headline)

    def _tell_spectators(self, session: Session, game: Game, state: engine.Game, finished: int) -> None:
        """Spectators who asked hear of each round's end, from the public view only."""
        queue_round_end_emails(session, self._outbox, game, engine.view(state, None), finished, self._spectator_links)

    def _your_turn(self, session: Session, game: Game, state: engine.Game) -> None:
        """Queue the turn email; its content is composed when the deliverer takes it (`compose`)."""
        to_act = engine.to_act(state)
        if to_act is None:
            return
        seat = game.seats[to_act]
        if not self._takes_turn_mail(seat):
            return
        self._outbox.reserve(
            session, game=game, seat=seat, kind=YOUR_TURN.kind,
            dedupe_key=YOUR_TURN.key(game.public_id, seat.seat_index, game.current_seq), drop_when_stale=True,
        )

    def _takes_turn_mail(self, seat: Seat) -> bool:
        """A person who asked for an email at each turn (the others hear of it in their daily digest, or on their own
        notification addresses instead, while this server sends notifications)."""
        wants = seat.notify_mode == "turn" or (seat.notify_mode == NOTICES_MODE and not self._notices_enabled)
        return not seat.is_bot and seat.email is not None and wants

    def _told_elsewhere(self, seat: Seat) -> bool:
        """The seat hears of its turns on its own notification addresses instead of by email."""
        return seat.notify_mode == NOTICES_MODE and self._notices_enabled

    # -- composed when sent (the deliverer, pbem/mail/deliver.py) --------------------------------------

    def compose(self, session: Session, message: OutboxMessage) -> bool:
        """Write the content of a row queued without it; False if it should not be sent after all.

        The deliverer calls this once it holds the row and has checked that the decision it announces is still
        pending, so the content is what was true when the row was queued, with the newest table talk.
        """
        if message.kind != "your_turn" or message.game_id is None or message.seat_id is None:
            raise ValueError(f"no way to compose a {message.kind} email when it is sent")
        game = session.get_one(Game, message.game_id, options=SEATS_AND_CLOCK)
        seat = next((seat for seat in game.seats if seat.id == message.seat_id), None)
        if seat is None:
            raise ValueError(f"seat {message.seat_id} is not a seat of game {game.public_id}")
        if not self._takes_turn_mail(seat):
            return False
        self._compose_your_turn(session, message, game, seat, latest_state(session, game))
        return True

    def _compose_your_turn(
        self, session: Session, message: OutboxMessage, game: Game, seat: Seat, state: engine.Game
    ) -> None:
        # What happened since this seat's own last move (or since the start), in one statement.
        last_own = (
            select(func.coalesce(func.max(Snapshot.seq), 0))
            .where(Snapshot.game_id == game.id, Snapshot.actor_seat == seat.seat_index, Snapshot.seq < game.current_seq)
            .scalar_subquery()
        )
        with self.writing_to(game, seat):
            self._compose_your_turn_in(session, message, game, seat, state, last_own)

    def _compose_your_turn_in(
        self, session: Session, message: OutboxMessage, game: Game, seat: Seat, state: engine.Game,
        last_own: ColumnElement[int],
    ) -> None:
        lines = _lines_since(session, game, seat.seat_index, last_own)
        deadline = turn_deadline(game)
        context = contents.your_turn(
            seat_view(state, seat.seat_index, game.names),
            lines,
            format_when(deadline, seat.timezone) if deadline is not None else None,
        )
        context["waiting_since"] = format_when(game.turn_started_at, seat.timezone) if game.turn_started_at else None
        context["deadline_in"] = (
            format_duration(deadline - game.turn_started_at) if deadline is not None and game.turn_started_at else None
        )
        # The board as a picture (drawn from the public view when the message is built: board_picture.py), and the
        # seat's own hand only if it asked for it in its turn emails.
        context["board"] = contents.board_picture(engine.view(state, None), board_content_id(message.message_id))
        context["hand"] = contents.hand(seat_view(state, seat.seat_index, game.names)) if seat.hand_in_email else None
        chat = unread_excerpt(session, game, seat)
        context = {**context, **contents.chat(chat.lines, chat.more, seat.timezone), **self.link_context(game, seat)}
        self._outbox.compose(session, message, game=game, seat=seat, context=context)
        mark_shown(seat, chat.upto)

    # -- reminders (the scheduler's sweep, pbem/service/sweep.py) ------------------------------------

    def turn_reminder(
        self, session: Session, game: Game, seat: Seat, state: engine.Game, *, started_at: datetime,
        deadline: datetime | None, now: datetime, number: int | None, key: str, note: str = "",
    ) -> OutboxMessage | None:
        """A reminder of the pending decision (`number` of the ladder, None for the host's nudge, which says the host
        sent it and carries the host's `note`), once per key; the player's own addresses that take turns hear of it
        too (without the note).

        A seat that chose the daily digest hears of its turn there, and one that chose notifications instead of
        turn emails on its addresses, so the ladder's email passes them by; the host's nudge and the warning
        before the deadline still reach them.
        """
        with self.writing_to(game, seat):
            context = self._reminder_context(game, seat, state, started_at, deadline, now)
        context.update(reminder_number=number, reminder_count=policy(game.policies, "reminder_count"), note=note)
        letter = TURN_REMINDER if number is not None else NUDGE
        queue_reminder(session, game, seat, letter, {**context, "note": ""}, (game.current_seq, key),
                       base_url=self._links.base_url, now=now)
        if number is not None and (seat.notify_mode == "digest" or self._told_elsewhere(seat)):
            return None
        return self._to_seat(session, game, seat, letter, (game.current_seq, key), context, drop_when_stale=True)

    def deadline_warning(
        self, session: Session, game: Game, seat: Seat, state: engine.Game, *, started_at: datetime,
        deadline: datetime, now: datetime,
    ) -> OutboxMessage | None:
        """The last warning before the deadline, once per decision."""
        with self.writing_to(game, seat):
            context = self._reminder_context(game, seat, state, started_at, deadline, now)
            context["left"] = format_duration(deadline - now)
        queue_reminder(session, game, seat, DEADLINE_WARNING, context, (game.current_seq,),
                       base_url=self._links.base_url, now=now)
        return self._to_seat(
            session, game, seat, DEADLINE_WARNING, (game.current_seq,), context, drop_when_stale=True
        )

    def deadline_passed(
        self,
        session: Session,
        game: Game,
        seat: Seat,
        *,
        started_at: datetime,
        now: datetime,
        lines: list[str] | Callable[[], list[str]],
        host_decides: bool = False,
        by_host: bool = False,
    ) -> OutboxMessage | None:
        """What the game did when `seat`'s time ran out (or that the host decides, or that the host skipped the
        turn), once per decision. `lines`: what the game did, or how to write it (in the seat's language)."""
        if seat.is_bot or seat.email is None:
            return None

        def context() -> dict[str, Any]:
            return {
                "waited": format_duration(now - started_at),
                "waiting_since": format_when(started_at, seat.timezone),
                "lines": lines() if callable(lines) else lines,
                "host_decides": host_decides,
                "by_host": by_host,
            }

        return self._to_seat(session, game, seat, DEADLINE_PASSED, (game.current_seq, host_decides), context)

    def _reminder_context(
        self, game: Game, seat: Seat, state: engine.Game, started_at: datetime, deadline: datetime | None, now: datetime
    ) -> dict[str, Any]:
        decision, at_key = decision_words(engine.view(state, seat.seat_index))
        at_deadline = gettext(AT_DEADLINE[
            at_key or ("auto-pass" if seat.auto_pass else policy(game.policies, "timeout_policy"))
        ])
        return {
            "decision": decision,
            "waited": format_duration(now - started_at),
            "waiting_since": format_when(started_at, seat.timezone),
            "since": since_day(started_at, now, seat.timezone),
            "deadline": format_when(deadline, seat.timezone) if deadline is not None else None,
            "deadline_moved_from": _when_moved(game, seat) if deadline is not None else None,
            "at_deadline": at_deadline,
        }

    def _round_digests(self, session: Session, game: Game, state: engine.Game, started: engine.Event) -> None:
        finished = started["round"] - 1
        round_events = _payout_events(session, game, finished)
        trusts: dict[str, dict[str, Any]] = {}  # what every seat is told of the deal, once a language

        def trust() -> dict[str, Any]:
            if current_language() not in trusts:
                trusts[current_language()] = {
                    **trust_context.round_over_context(session, game, finished),
                    **trust_context.sealed_context(session, game, started["round"]),
                }
            return trusts[current_language()]

        for seat in _people(game):
            values = [
                value
                for event in visible_events(round_events, seat.seat_index)
                if event.get("type") == "gold_kept"
                for value in event["values"]
            ]
            view = seat_view(state, seat.seat_index, game.names)

            def context(
                view: engine.View = view, values: list[int] = values, you: int = seat.seat_index
            ) -> dict[str, Any]:
                next_line = describe_event(started, game.names, you)  # "you play first" to its reader
                return {**contents.round_digest(view, finished, values, next_line), **trust()}

            self._to_seat(session, game, seat, ROUND_DIGEST, (finished,), context)

    def _game_over(self, session: Session, game: Game, state: engine.Game) -> None:
        trusts: dict[str, dict[str, Any]] = {}  # what every seat is told of the deal, once a language
        for seat in _people(game):

            def context(seat: Seat = seat) -> dict[str, Any]:
                if current_language() not in trusts:
                    trusts[current_language()] = trust_context.round_over_context(session, game, state.round)
                told = contents.game_over(seat_view(state, seat.seat_index, game.names))
                return {**told, **trusts[current_language()]}

            self._to_seat(session, game, seat, GAME_OVER, (), context)

    # -- the daily digest --------------------------------------------------------------------------

    def daily_digest(
        self, session: Session, game: Game, seat: Seat, state: engine.Game, day: date
    ) -> OutboxMessage | None:
        """Queue `seat`'s digest for `day` (its local date); None if that day's digest was queued already."""
        previous = session.scalar(
            select(OutboxMessage.game_seq)
            .where(OutboxMessage.seat_id == seat.id, OutboxMessage.kind == "daily_digest")
            .order_by(OutboxMessage.id.desc())
            .limit(1)
        )

        def context() -> dict[str, Any]:
            lines = _lines_since(session, game, seat.seat_index, previous if previous is not None else 0)
            deadline = turn_deadline(game)
            written = contents.daily_digest(
                seat_view(state, seat.seat_index, game.names),
                lines[-DIGEST_LINES:],
                max(len(lines) - DIGEST_LINES, 0),
                format_when(game.turn_started_at, seat.timezone) if game.turn_started_at else None,
                format_when(deadline, seat.timezone) if deadline is not None else None,
            )
            written.update(day=contents.day_words(day), paused=game.paused,
                           deadline_moved_from=_when_moved(game, seat) if deadline is not None else None)
            return written

        return self._to_seat(
            session, game, seat, DAILY_DIGEST, (day.isoformat(),), context, chat=unread_excerpt(session, game, seat)
        )

    # -- table talk --------------------------------------------------------------------------------

    def chat_messages(self, session: Session, game: Game, seat: Seat) -> OutboxMessage | None:
        """Queue an email of the chat messages `seat` has not been shown; None when there are none."""
        excerpt = unread_excerpt(session, game, seat)
        if not excerpt:
            return None
        return self._to_seat(session, game, seat, CHAT_MESSAGES, (excerpt.upto,), {}, chat=excerpt)

    def _to_seat(
        self,
        session: Session,
        game: Game,
        seat: Seat,
        letter: Letter,
        about: tuple[object, ...],
        context: dict[str, Any] | Callable[[], dict[str, Any]],
        *,
        drop_when_stale: bool = False,
        chat: ChatExcerpt | None = None,
    ) -> OutboxMessage | None:
        """Queue one `letter` to `seat` with the seat's fresh link, once per (kind, game, seat, *about).

        `context`: what the letter says, or how to write it, called in the seat's language (`writing_to`).
        `chat`: the table talk to quote (what the seat has not been shown), counted as shown once queued.
        """
        with self.writing_to(game, seat):
            context = context() if callable(context) else context
            if chat is not None:
                context = {**context, **contents.chat(chat.lines, chat.more, seat.timezone)}
        message = self._outbox.enqueue(
            session,
            game=game,
            seat=seat,
            kind=letter.kind,
            dedupe_key=letter.key(game.public_id, seat.seat_index, *about),
            context={**context, **self.link_context(game, seat)},
            drop_when_stale=drop_when_stale,
        )
        if message is not None and chat is not None:
            mark_shown(seat, chat.upto)
        return message


def _people(game: Game) -> list[Seat]:
    return [seat for seat in game.seats if not seat.is_bot]




def _when_moved(game: Game, seat: Seat) -> str | None:
    moved = moved_deadline(game)
    return format_when(moved, seat.timezone) if moved is not None else None


def _lines_since(
    session: Session, game: Game, seat: int, after_seq: int | ColumnElement[int]
) -> list[str]:
    """The lines `seat` may read of the moves after snapshot `after_seq`, each named as at the time, in order."""
    rows = session.execute(
        select(Snapshot.seq, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq > after_seq)
        .order_by(Snapshot.seq)
    )
    return [line for seq, events in rows.tuples() for line in lines_at(game, seq, events, seat)]


def _payout_events(session: Session, game: Game, round_number: int) -> list[engine.Event]:
    """Every event from the end of round `round_number` (its `round_ended`) up to now, all audiences."""
    collected: list[list[engine.Event]] = []
    for events in _newest_first(session, game):
        ended = [
            index
            for index, event in enumerate(events)
            if event.get("type") == "round_ended" and event.get("round") == round_number
        ]
        if ended:
            collected.append(events[ended[0] :])
            break
        collected.append(events)
    return [event for events in reversed(collected) for event in events]


def _newest_first(session: Session, game: Game) -> Iterator[list[engine.Event]]:
    before: int | None = None
    while True:
        query = select(Snapshot.seq, Snapshot.events).where(Snapshot.game_id == game.id)
        if before is not None:
            query = query.where(Snapshot.seq < before)
        page = session.execute(query.order_by(Snapshot.seq.desc()).limit(LOOKBACK_PAGE)).all()
        if not page:
            return
        for seq, events in page:
            yield events
            before = seq
