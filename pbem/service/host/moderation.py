"""What a host may do to a running game: hand a seat to someone else, renew or resend a seat's link,
correct an address, roll back, end or abandon the game, and (only in a game where the host holds no seat)
reveal it.

Each action is one transaction: the change, the HostAction audit row, a system line telling the table
(`pbem/service/talk/chat.py`), and the emails it causes, so all of it exists exactly when the change commits.
The table learns only what changed hands or state, never anything hidden: a new player's private
knowledge goes to that player alone, in the handover email, and the table is told that it went.

A host stays blind even when they play. A seat's knowledge never goes to one of the host's addresses (their
sign-in address and the game's `host_email`, compared as mailboxes: `pbem/addresses.py`) nor to the mailbox of
another seat; a correction of an address waits until the old address confirms it (`address_changes`); and
a game records at its creation whether the host holds a seat (`games.host_plays`): then no reveal, ever.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

import engine
from pbem.addresses import address_key, mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, GameFinished, NotAllowed, NotYourGame, RateLimited, SeatNotFound, ValidationError
from pbem.i18n import gettext, in_language, ngettext
from pbem.mail.outbox import Outbox
from pbem.models import AddressChange, Game, GameStatus, Seat
from pbem.models.games import RUNNING_STATUSES
from pbem.models.row_writes import rows_changed
from pbem.service.emails import ADDRESS_CHANGE, GAME_CLOSED, HANDOVER, ROLLED_BACK, SEAT_LINK, SEAT_REPLACED
from pbem.service.history.holders import record_handover
from pbem.service.host.host_access import HostSession
from pbem.service.notices.addresses import note_new_holder
from pbem.service.notices.queue import queue_table_line
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.rows import lock_game
from pbem.service.seats.address_changes import INVALID, MAX_AGE, AddressChangeLinks
from pbem.service.snapshots import seat_view, state_at
from pbem.service.talk.chat import post_system_line
from pbem.service.talk.system_lines import system_line
from pbem.service.text import clean_email, clean_name, visible_text
from pbem.service.turns.games import GameService
from pbem.service.turns.turn_controls import hand_over
from pbem.service.turns.values import MAX_NAME
from pbem.words.events import describe_event
from pbem.words.roles import role_name
from pbem.words.table import N_

MAX_REASON = 500
# How often one seat's address may be asked to confirm a correction.
ADDRESS_CHANGES_PER_SEAT = Limit("address_change_seat", count=3, window=timedelta(days=1))
CONFIRMATION_USED = N_("This change was confirmed already: the seat's links now go to the new address.")
NO_LONGER_APPLIES = N_("This seat's address has changed since the request, so it no longer applies. Nothing was "
                       "changed.")


@dataclass(frozen=True)
class Revealed:
    """Everything about a running game, for a host who does not play in it (an emergency reveal)."""

    game_id: str
    title: str
    view: engine.View


def may_host(game: Game, host: HostSession) -> bool:
    return host.is_admin or address_key(game.host_email) == address_key(host.email)


@dataclass(frozen=True)
class AddressChangeRequest:
    """A correction waiting for the old address, as its confirmation page shows it."""

    game_title: str
    seat_name: str
    old_email: str
    new_email: str


def host_plays(game: Game, host: HostSession) -> bool:
    """Whether the game's host held a seat when it was created, or the signed-in host holds one now."""
    mine = mailbox_key(host.email)
    return game.host_plays or any(seat.email is not None and mailbox_key(seat.email) == mine for seat in game.seats)


def host_mailboxes(game: Game, host_email: str) -> set[str]:
    """The mailboxes known to be the host's: the game's host address and the address acting as host now."""
    return {mailbox_key(game.host_email), mailbox_key(host_email)}


def check_receiver(game: Game, row: Seat, address: str, host_email: str, *, newcomer: bool) -> None:
    """May `address` receive this seat's private knowledge? Never one of the host's mailboxes, unless a
    correction keeps the host's own seat with the host; never a mailbox that holds another seat of the game.
    A correction never moves a seat into or out of the host's mailboxes, so the host's seat stays known."""
    receiver = mailbox_key(address)
    hosts = host_mailboxes(game, host_email)
    seat_is_hosts = not newcomer and row.email is not None and mailbox_key(row.email) in hosts
    if receiver in hosts and not seat_is_hosts:
        raise ValidationError(gettext("That is the host's address: a seat's role, hand and map results never go to "
                                      "the host. Give the seat to another person's address."))
    if seat_is_hosts and receiver not in hosts:
        raise ValidationError(gettext("This is the host's own seat: its address can only change to another of the "
                                      "host's addresses. To hand the seat to someone else, replace the player."))
    for other in game.seats:
        if other is not row and other.email is not None and mailbox_key(other.email) == receiver:
            raise ValidationError(gettext("That address already receives %(name)s's seat; one person may hold one "
                                          "seat only.", name=other.display_name))


def clean_reason(reason: object) -> str:
    reason = " ".join(visible_text(reason).split()) if isinstance(reason, str) else ""
    if not reason:
        raise ValidationError(gettext("Please give a reason: the table will read it."))
    if len(reason) > MAX_REASON:
        raise ValidationError(gettext("A reason may have at most %(max)d characters.", max=MAX_REASON))
    return reason


class Moderation:
    def __init__(
        self, db: Database, clock: Clock, games: GameService, outbox: Outbox, link_max_age_days: int,
        address_links: AddressChangeLinks, limiter: RateLimiter,
    ) -> None:
        self._db = db
        self._clock = clock
        self._games = games
        self._outbox = outbox
        self._link_max_age_days = link_max_age_days
        self._address_links = address_links
        self._limiter = limiter

    # -- seats -------------------------------------------------------------------------------------

    def replace_player(self, game_id: str, seat: int, name: str, email: str, *, host: HostSession) -> None:
        """A new person takes the seat: old links die, the newcomer gets the seat's private knowledge."""
        new_name = clean_name("new player's name", name, MAX_NAME)
        new_email = clean_email("new player's email", email)
        with self._db.write() as session:
            game, row = self._running_seat(session, game_id, seat, host)
            others = [other for other in game.seats if other is not row]
            if any(other.display_name.casefold() == new_name.casefold() for other in others):
                raise ValidationError(gettext("Another seat is already called %(name)s; choose a different name.",
                                              name=new_name))
            check_receiver(game, row, new_email, host.email, newcomer=True)
            old_name, was_bot, old_email = row.display_name, row.is_bot, row.email
            record_handover(game, seat, old_name)  # the moves so far stay theirs in every history
            row.display_name, row.email, row.is_bot = new_name, new_email, False
            row.token_version += 1
            row.notify_mode, row.last_seen_at, row.chat_emails = "turn", None, False
            row.language = row.browser_language = None  # the newcomer's language is theirs to choose (pbem/i18n/)
            hand_over(session, row, self._clock.now())  # the old player's timeouts, absence and away time end
            note_new_holder(session, game, new_email)
            self._games.log_host_action(session, game, host.email, "replace_player", {
                "seat": seat, "old_name": old_name, "new_name": new_name, "was_bot": was_bot,
            })
            line = system_line("seat_handover", seat=seat + 1, new_name=new_name, old_name=old_name)
            self._tell_table(session, game, line, "seat_handover")
            queue_table_line(session, game, "replaced", f"{seat}:{row.token_version}", line,
                             base_url=self._games.mail.page_url(""), now=self._clock.now())
            with in_language(self._outbox.language_of(game, row)):  # its words are the newcomer's email's
                knowledge = handover_knowledge(session, game, seat)
            self._outbox.enqueue(
                session, game=game, seat=row, kind=HANDOVER.kind,
                dedupe_key=HANDOVER.key(game.public_id, seat, row.token_version),
                context={
                    "old_name": old_name,
                    **knowledge,
                    **self._games.mail.link_context(game, row),
                },
            )
            if old_email is not None and not was_bot:
                self._tell_replaced(session, game, old_name, old_email, row.token_version)

    def rotate_link(self, game_id: str, seat: int, *, host: HostSession) -> None:
        """Revoke every link of the seat (e.g. it was forwarded) and email the player a new one."""
        with self._db.write() as session:
            game, row = self._person_seat(session, game_id, seat, host)
            row.token_version += 1
            self._games.log_host_action(session, game, host.email, "rotate_link", {"seat": seat})
            self._tell_table(session, game, system_line("link_rotated", name=row.display_name), "link_rotated")
            self._send_link(session, game, row, "rotated")

    def resend_link(self, game_id: str, seat: int, *, host: HostSession) -> None:
        """Email the seat its current link again (nothing is revoked)."""
        with self._db.write() as session:
            game, row = self._person_seat(session, game_id, seat, host)
            self._games.log_host_action(session, game, host.email, "resend_link", {"seat": seat})
            self._tell_table(session, game, system_line("link_resent", name=row.display_name), "link_resent")
            self._send_link(session, game, row, "resent")

    def correct_email(self, game_id: str, seat: int, email: str, *, host: HostSession) -> None:
        """Ask the seat's current address to confirm a new one; nothing changes until it does
        (`confirm_address_change`). A newer request replaces one still waiting."""
        address = clean_email("corrected email", email)
        with self._db.write() as session:
            game, row = self._person_seat(session, game_id, seat, host)
            old = row.email or ""
            if address_key(old) == address_key(address):
                raise ValidationError(gettext("That is already this seat's address."))
            check_receiver(game, row, address, host.email, newcomer=False)
            if not self._limiter.allow(session, ADDRESS_CHANGES_PER_SEAT, f"{game.public_id}:{seat}"):
                raise RateLimited(gettext("This seat's address has been asked to confirm a change three times today. "
                                          "Please wait a day, or replace the player instead."))
            session.execute(delete(AddressChange).where(
                AddressChange.game_id == game.id, AddressChange.seat_index == seat, AddressChange.confirmed_at.is_(None)
            ))
            nonce = secrets.token_urlsafe(24)
            session.add(AddressChange(nonce_hash=_hash(nonce), game_id=game.id, seat_index=seat, old_email=old,
                                      new_email=address, requested_by=host.email, created_at=self._clock.now()))
            self._games.log_host_action(session, game, host.email, "request_email_correction", {"seat": seat})
            self._outbox.enqueue(
                session, game=game, seat=row, kind=ADDRESS_CHANGE.kind,
                dedupe_key=ADDRESS_CHANGE.key(game.public_id, seat, _hash(nonce)[:16]),
                context={"new_email": address, "confirm_url": self._address_links.url(nonce),
                         "confirm_days": MAX_AGE.days},
            )

    def address_change(self, token: str) -> AddressChangeRequest:
        """What a confirmation link would change, without changing it (the GET behind the email's button)."""
        nonce = self._address_links.verify(token)
        with self._db.read() as session:
            change = session.scalar(select(AddressChange).where(AddressChange.nonce_hash == _hash(nonce)))
            if change is None:
                raise BadLink(gettext(INVALID))
            if change.confirmed_at is not None:
                raise BadLink(gettext(CONFIRMATION_USED))
            game = session.get(Game, change.game_id)
            assert game is not None
            row = game.seats[change.seat_index]
            if row.email != change.old_email:
                raise BadLink(gettext(NO_LONGER_APPLIES))
            return AddressChangeRequest(game.title, row.display_name, change.old_email, change.new_email)

    def confirm_address_change(self, token: str) -> AddressChangeRequest:
        """The old address agrees: the seat moves to the new one, its old links die, the table is told."""
        nonce = self._address_links.verify(token)
        with self._db.write() as session:
            change = session.scalar(select(AddressChange).where(AddressChange.nonce_hash == _hash(nonce)))
            if change is None:
                raise BadLink(gettext(INVALID))
            public_id = session.scalar(select(Game.public_id).where(Game.id == change.game_id))
            game = lock_game(session, str(public_id))
            if game.status not in RUNNING_STATUSES:
                raise GameFinished()
            row = game.seats[change.seat_index]
            if row.is_bot or row.email != change.old_email:
                raise BadLink(gettext(NO_LONGER_APPLIES))
            check_receiver(game, row, change.new_email, change.requested_by, newcomer=False)
            spent = rows_changed(
                session,
                update(AddressChange)
                .where(AddressChange.id == change.id, AddressChange.confirmed_at.is_(None))
                .values(confirmed_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )
            if spent != 1:
                raise BadLink(gettext(CONFIRMATION_USED))
            row.email = change.new_email
            row.token_version += 1
            note_new_holder(session, game, change.new_email)
            self._games.log_host_action(session, game, change.requested_by, "correct_email",
                                        {"seat": row.seat_index, "confirmed_by_old_address": True})
            name = row.display_name
            self._tell_table(session, game, system_line("email_corrected", name=name), "email_corrected")
            self._send_link(session, game, row, "corrected")
            return AddressChangeRequest(game.title, name, change.old_email, change.new_email)

    # -- the game as a whole -----------------------------------------------------------------------

    def rollback(self, game_id: str, to_seq: int, reason: object, *, host: HostSession) -> int:
        cleaned = clean_reason(reason)
        with self._db.write() as session:
            game = self._own(session, game_id, host)
            # Told first, so the turn email the rollback queues carries the line too.
            self._tell_table(session, game, system_line("rolled_back", to_seq=to_seq, reason=cleaned), "rolled_back")
            seq = self._games.rollback_in(session, game, to_seq, reason=cleaned, actor_email=host.email)
            self._tell_rollback(session, game, to_seq, cleaned)
            return seq

    def end_game(self, game_id: str, *, host: HostSession) -> None:
        """Finish the game now, with the standings as they are; everything opens, as for any finished game."""
        with self._db.write() as session:
            game = self._own(session, game_id, host)
            if game.status != GameStatus.ACTIVE or game.current_seq is None:
                raise ValidationError(gettext("Only a running game can be ended early."))
            state = state_at(session, game, game.current_seq)
            scores = engine.scores(state)
            game.status, game.to_act_seat, game.updated_at = GameStatus.FINISHED, None, self._clock.now()
            standings = ", ".join(f"{name} {score}" for name, score in zip(game.names, scores, strict=True))
            self._games.log_host_action(session, game, host.email, "end_game", {"scores": scores})
            self._tell_table(session, game, system_line("game_ended", standings=standings), "game_ended")
            self._tell_everyone(session, game, "ended", standings)

    def abandon_game(self, game_id: str, *, host: HostSession) -> None:
        with self._db.write() as session:
            game = self._own(session, game_id, host)
            if game.status not in RUNNING_STATUSES:
                raise GameFinished()
            game.status, game.to_act_seat, game.updated_at = GameStatus.ABANDONED, None, self._clock.now()
            self._games.log_host_action(session, game, host.email, "abandon_game", {})
            self._tell_table(session, game, system_line("game_abandoned"), "game_abandoned")
            self._tell_everyone(session, game, "abandoned", "")

    def reveal(self, game_id: str, reason: object, *, host: HostSession) -> Revealed:
        """Everything, for a dispute, for a host who holds no seat; written down and told to the table."""
        cleaned = clean_reason(reason)
        with self._db.write() as session:
            game = self._own(session, game_id, host)
            if host_plays(game, host):
                raise NotAllowed(gettext("The host plays in this game, so its secrets stay closed until it ends."))
            if game.current_seq is None:
                raise ValidationError(gettext("This game has not started: there is nothing to reveal."))
            state = state_at(session, game, game.current_seq)
            self._games.log_host_action(session, game, host.email, "reveal", {"reason": cleaned})
            self._tell_table(session, game, system_line("host_revealed", reason=cleaned), "host_revealed")
            return Revealed(game.public_id, game.title, engine.open_view(state))

    # -- helpers -------------------------------------------------------------------------------------

    def _own(self, session: Session, game_id: str, host: HostSession) -> Game:
        game = lock_game(session, game_id)
        if not may_host(game, host):
            raise NotYourGame()
        return game

    def _running_seat(self, session: Session, game_id: str, seat: int, host: HostSession) -> tuple[Game, Seat]:
        game = self._own(session, game_id, host)
        if game.status not in RUNNING_STATUSES:
            raise GameFinished()
        if type(seat) is not int or not 0 <= seat < len(game.seats):
            raise SeatNotFound()
        return game, game.seats[seat]

    def _person_seat(self, session: Session, game_id: str, seat: int, host: HostSession) -> tuple[Game, Seat]:
        game, row = self._running_seat(session, game_id, seat, host)
        if row.is_bot or row.email is None:
            raise ValidationError(gettext("A computer player has no link or address; replace it with a person "
                                          "instead."))
        return game, row

    def _send_link(self, session: Session, game: Game, row: Seat, why: str) -> None:
        self._outbox.enqueue(
            session, game=game, seat=row, kind=SEAT_LINK.kind,
            dedupe_key=SEAT_LINK.key(game.public_id, row.seat_index, row.token_version, secrets.token_hex(6)),
            context={"why": why, **self._games.mail.link_context(game, row)},
        )

    def _tell_table(self, session: Session, game: Game, text: str, kind: str) -> None:
        post_system_line(session, game, text, kind, now=self._clock.now())

    def _tell_replaced(self, session: Session, game: Game, old_name: str, old_email: str, version: int) -> None:
        """A kind word to the player whose seat went to someone else: it is over for them, their link is dead.
        Only to the seat's previous address, and nothing of the seat's knowledge."""
        self._outbox.enqueue_standalone(
            session, to_address=old_email, kind=SEAT_REPLACED.kind,
            dedupe_key=SEAT_REPLACED.key(game.public_id, mailbox_key(old_email), version),
            subject=SEAT_REPLACED.subject(game.title),
            context={"old_name": old_name, "title": game.title, "host_email": game.host_email},
        )

    def _tell_rollback(self, session: Session, game: Game, to_seq: int, reason: str) -> None:
        """Every person at the table learns, in words, that the game went back and why."""
        to_act = game.names[game.to_act_seat] if game.to_act_seat is not None else ""
        for row in game.seats:
            if row.is_bot or row.email is None:
                continue
            self._outbox.enqueue(
                session, game=game, seat=row, kind=ROLLED_BACK.kind,
                dedupe_key=ROLLED_BACK.key(game.public_id, row.seat_index, game.current_seq),
                context={"to_seq": to_seq, "reason": reason, "to_act": to_act,
                         "your_turn": game.to_act_seat == row.seat_index, **self._games.mail.link_context(game, row)},
            )

    def _tell_everyone(self, session: Session, game: Game, how: str, standings: str) -> None:
        """An email to every person at the table: no move will follow to bring them the news."""
        for row in game.seats:
            if row.is_bot or row.email is None:
                continue
            self._outbox.enqueue(
                session, game=game, seat=row, kind=GAME_CLOSED.kind,
                dedupe_key=GAME_CLOSED.key(game.public_id, row.seat_index),
                context={"how": how, "standings": standings, **self._games.mail.link_context(game, row)},
            )


def _hash(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()


def handover_knowledge(session: Session, game: Game, seat: int) -> dict[str, Any]:
    """What the seat knows now, from its view only (`seat_view`): role, hand, map peeks this round, gold."""
    if game.current_seq is None:
        return {"started": False, "role": "", "hand": [], "peeks": [], "gold": "", "round": 0}
    view = seat_view(state_at(session, game, game.current_seq), seat, game.names)
    you: Mapping[str, Any] = view.get("you") or {}
    peeks = [
        describe_event({"type": "map_peek", "audience": [seat], **peek}, view["players"])
        for peek in you.get("peeks", [])
    ]
    if view.get("variant") == "saboteur2":
        gold = ngettext("%(num)d gold piece", "%(num)d gold pieces", you.get("gold_pieces", 0))
    else:
        values = you.get("gold") or []
        gold = ngettext("%(num)d nugget", "%(num)d nuggets", you.get("gold_total", 0))
        if values:
            gold = gettext("%(gold)s (%(values)s)", gold=gold, values=" + ".join(map(str, values)))
    return {
        "started": True,
        "round": view.get("round", 0),
        "role": role_name(you.get("role", "")) if you.get("role") else "",
        "hand": [card.get("label", card.get("name", "")) for card in you.get("hand", [])],
        "peeks": peeks,
        "gold": gold,
    }
