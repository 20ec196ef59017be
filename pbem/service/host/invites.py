"""Games that players join by themselves: the host shares one link, each person gives a name, an address and a
time zone, confirms the address through an emailed link, and the game starts when the host says so (or by itself
once every place is confirmed, if the host chose that).

- The shared link (`/join/<token>`) is signed (salt `pbem.invite.join`) and names the invite and its version:
  rotating the link bumps the version, so the old one stops working. It expires (`INVITE_DAYS`, renewed by a
  rotation); the host may close it. A full or started game says so.
- Nothing but the confirmation is ever sent to an address that joined, and only confirmed joiners take seats.
  The confirmation link (`/join/confirm/<token>`, salt `pbem.invite.confirm`, `CONFIRM_MAX_AGE`) names a random
  nonce kept only hashed; its GET shows a button, only the POST behind it confirms (mail scanners open links).
- Joining is rate limited per client; one mailbox gets at most `JOINS_PER_MAILBOX` confirmation emails a day,
  whatever the invites and clients asking, counted before the invite's daily joins and the server's budget, so
  joins aimed at one stranger neither flood them nor use up what real joiners need (past it, nothing is sent
  and the joiner is told so). Every confirmation email to a mailbox that never confirmed counts against the
  daily invitation limits (`pbem/service/host/invitations.py`), so a shared link cannot make the server mail a
  list of strangers. Confirming counts as the mailbox's confirmation.
- One seat per mailbox (`pbem.addresses.mailbox_key`); a confirmed one refuses a second join. A second join from
  a mailbox still waiting changes nothing of its place, since anyone may type an address: its first link keeps
  working, and its name and time zone stay. The email it sends (the first one was lost) carries another link
  to the same place, naming its stored digest, signed, so only the server can make one.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from pbem.addresses import address_key, address_mistake, mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, GameAlreadyStarted, InviteUnavailable, NotYourGame, RateLimited, ValidationError
from pbem.i18n import gettext, ngettext
from pbem.mail.outbox import Outbox
from pbem.models import Game, Invite, Joiner, RematchPermission
from pbem.service.confirmed_mailboxes import confirm_mailbox
from pbem.service.emails import JOIN_CONFIRM
from pbem.service.host.host_access import HostSession
from pbem.service.host.invitations import InvitationLimits
from pbem.service.host.invite_links import CONFIRM_INVALID, CONFIRM_MAX_AGE, InviteLinks, nonce_hash
from pbem.service.host.invite_views import (
    Confirmation,
    InviteDetail,
    InviteSettings,
    Joined,
    JoinPage,
    check_settings,
    invite_detail,
    variant_title,
)
from pbem.service.host.moderation import may_host
from pbem.service.notices.channels import TableChannels
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.text import reserved_name_problem, visible_text
from pbem.service.turns.games import GameService
from pbem.service.turns.values import MAX_NAME, PlayerSpec
from pbem.times import zone
from pbem.variants import variant_choices
from pbem.words.table import N_

INVITE_DAYS = 7
JOINS_PER_CLIENT = Limit("invite_join_client", count=10, window=timedelta(hours=1))
JOINS_PER_INVITE = Limit("invite_join_invite", count=60, window=timedelta(days=1))
JOINS_PER_MAILBOX = Limit("invite_join_mailbox", count=3, window=timedelta(days=1))
PER_HOST_INVITES = Limit("host_create_invite", count=10, window=timedelta(days=1))

CLOSED = N_("The host has closed this invite link: the game takes no more players. Ask the host if you expected a "
            "place.")
REPLACED = N_("This invite link was replaced by a newer one. Ask the host for the current link.")
EXPIRED = N_("This invite link has expired. Ask the host for a new one.")
STARTED = N_("This game has started already, so it takes no more players.")
FULL = N_("Every place in this game is taken. Ask the host whether another game is planned.")
NO_SUCH_GAME = N_("There is no such game to join. Check that the link was copied whole.")


class Invites:
    def __init__(
        self, db: Database, clock: Clock, games: GameService, outbox: Outbox, limiter: RateLimiter,
        invitations: InvitationLimits, links: InviteLinks, channels: TableChannels,
    ) -> None:
        self._db = db
        self._channels = channels
        self._clock = clock
        self._games = games
        self._outbox = outbox
        self._limiter = limiter
        self._invitations = invitations
        self.links = links

    # -- the host ---------------------------------------------------------------------------------

    def create(self, host: HostSession, settings: InviteSettings) -> str:
        """A game waiting for players, with the table's channel it will start with; its public id. ValidationError
        for settings the engine refuses or a refused channel, RateLimited past the host's daily number of new games."""
        check_settings(settings)
        channel = self._channels.check(settings.channel) if settings.channel else None
        now = self._clock.now()
        with self._db.write() as session:
            if not self._limiter.allow(session, PER_HOST_INVITES, mailbox_key(host.email)):
                raise RateLimited(gettext("You have created many games today. Please wait a day before creating more."))
            invite = Invite(
                host_email=host.email, title=settings.title, variant=settings.variant,
                options=settings.options or {}, policies=settings.policies, places=settings.places,
                bots=settings.bots, seat_order=settings.seat_order, auto_start=settings.auto_start,
                players_may_rematch=settings.players_may_rematch, version=1, created_at=now,
                expires_at=now + timedelta(days=INVITE_DAYS),
            )
            if channel is not None:
                invite.channel_url, invite.channel_shown_as = channel.url, channel.masked
            elif settings.channel_of:  # one of this host's games: its channel, kept
                source = session.scalar(select(Game).where(Game.public_id == settings.channel_of))
                kept = self._channels.kept(session, source) if source and may_host(source, host) else None
                if kept is not None:
                    invite.channel_url, invite.channel_shown_as = kept.url, kept.shown_as
            if settings.host_name:
                # The host's own place, confirmed by signing in: their mailbox can then take no second seat.
                invite.joiners.append(Joiner(
                    name=settings.host_name, email=host.email, mailbox=mailbox_key(host.email),
                    timezone=_zone_name(settings.host_timezone), nonce_hash=nonce_hash(secrets.token_urlsafe(24)),
                    joined_at=now, confirmed_at=now,
                ))
            session.add(invite)
            session.flush()
            return invite.public_id

    def for_host(self, host: HostSession) -> list[InviteDetail]:
        """The host's invites still waiting for players (an admin: every one), newest first."""
        with self._db.read() as session:
            query = (
                select(Invite).where(Invite.game_id.is_(None)).options(selectinload(Invite.joiners))
                .order_by(Invite.created_at.desc(), Invite.id.desc())
            )
            if not host.is_admin:
                query = query.where(func.lower(Invite.host_email) == address_key(host.email))
            return [self._detail(invite) for invite in session.scalars(query)]

    def detail(self, invite_id: str, host: HostSession) -> InviteDetail:
        with self._db.read() as session:
            invite = self._owned(session, invite_id, host)
            started = (
                session.scalar(select(Game.public_id).where(Game.id == invite.game_id)) if invite.game_id else None
            )
            return dataclasses.replace(self._detail(invite), started_game=started)

    def remove(self, invite_id: str, joiner_id: int, host: HostSession) -> str:
        """Take a joiner off the list (their confirmation link stops working); their name."""
        with self._db.write() as session:
            invite = self._owned(session, invite_id, host, lock=True)
            _not_started(invite)
            joiner = next((row for row in invite.joiners if row.id == joiner_id), None)
            if joiner is None:
                raise ValidationError(gettext("That person is not on this game's list (any more)."))
            invite.joiners.remove(joiner)
            return joiner.name

    def close(self, invite_id: str, host: HostSession, *, closed: bool = True) -> None:
        with self._db.write() as session:
            invite = self._owned(session, invite_id, host, lock=True)
            _not_started(invite)
            invite.closed_at = self._clock.now() if closed else None

    def rotate(self, invite_id: str, host: HostSession) -> None:
        """A new shared link (the old one stops working) that runs for INVITE_DAYS from now; it opens the link."""
        with self._db.write() as session:
            invite = self._owned(session, invite_id, host, lock=True)
            _not_started(invite)
            now = self._clock.now()
            invite.version += 1
            invite.expires_at = now + timedelta(days=INVITE_DAYS)
            invite.closed_at = None

    def start(self, invite_id: str, host: HostSession) -> str:
        """Deal the game with the confirmed joiners (and the computer players); the game's public id."""
        with self._db.write() as session:
            invite = self._owned(session, invite_id, host, lock=True)
            return self._start_in(session, invite, actor_email=host.email).public_id

    # -- a person with the shared link ----------------------------------------------------------------

    def opened(self, token: str) -> JoinPage:
        """The join page of a shared link; InviteUnavailable (with the reason) when it takes nobody now."""
        with self._db.read() as session:
            invite = self._from_link(session, token)
            confirmed = [joiner for joiner in invite.joiners if joiner.confirmed_at is not None]
            return JoinPage(
                token=token,
                title=invite.title,
                variant_title=variant_title(invite.variant),
                host_name=_host_name(invite),
                places=invite.places,
                bots=invite.bots,
                names=[joiner.name for joiner in confirmed],
                open_places=invite.places - len(confirmed),
            )

    def join(self, token: str, name: object, email: object, timezone_name: object, client: str) -> Joined:
        """Put a person on the list and email their address a confirmation link; nothing else is sent to it.
        A mailbox already waiting keeps its place as it is and is sent another link to it. Past the mailbox's
        confirmation emails for the day nothing changes and nothing is sent (`Joined.sent`)."""
        clean_name = _clean_name(name)
        address = _clean_address(email)
        tz = _zone_name(timezone_name)
        now = self._clock.now()
        with self._db.write() as session:
            if not self._limiter.allow(session, JOINS_PER_CLIENT, client):
                raise RateLimited(gettext("Many people have joined games from here in the last hour. Please wait a "
                                          "little."))
            invite = self._from_link(session, token, lock=True)
            mailbox = mailbox_key(address)
            waiting = _place_of(invite, mailbox, clean_name)
            if not self._limiter.allow(session, JOINS_PER_MAILBOX, mailbox):
                return Joined(address, invite.title, sent=False)
            if not self._limiter.allow(session, JOINS_PER_INVITE, invite.public_id):
                raise RateLimited(gettext("This game's link has been used very often today. Please try again "
                                          "tomorrow."))
            self._invitations.count(session, [address], client)
            if waiting is None:
                nonce = secrets.token_urlsafe(24)
                waiting = Joiner(mailbox=mailbox, name=clean_name, email=address, timezone=tz,
                                 nonce_hash=nonce_hash(nonce), joined_at=now)
                invite.joiners.append(waiting)
                link = self.links.confirm_url(nonce)
            else:
                link = self.links.confirm_again_url(waiting.nonce_hash)
            self._outbox.enqueue_standalone(
                session,
                to_address=waiting.email,
                kind=JOIN_CONFIRM.kind,
                dedupe_key=JOIN_CONFIRM.key(secrets.token_hex(16)),
                subject=JOIN_CONFIRM.subject(invite.title),
                context={
                    "name": waiting.name,
                    "title": invite.title,
                    "host_name": _host_name(invite),
                    "link": link,
                    "confirm_days": CONFIRM_MAX_AGE.days,
                },
            )
            return Joined(address, invite.title)

    def confirmation(self, token: str) -> Confirmation:
        """What a confirmation link would confirm, changing nothing (the GET behind the email's button)."""
        nonce_hash = self.links.read_confirm(token)
        with self._db.read() as session:
            joiner = _joiner(session, nonce_hash)
            if joiner.confirmed_at is not None:
                return Confirmation(joiner.invite.title, joiner.name, joiner.email, already=True,
                                    game_running=joiner.invite.started_at is not None)
            _still_open_for(joiner.invite)
            return Confirmation(joiner.invite.title, joiner.name, joiner.email)

    def confirm(self, token: str) -> Confirmation:
        """The address is the joiner's: their place counts. When it fills the game and the host chose so, the game
        starts at once, in the same transaction (everyone is emailed their link).

        The invite is locked before anything of it is read, so a start by the host that commits first is seen:
        the joiner is told the game started without them, never that their place is confirmed."""
        nonce_hash = self.links.read_confirm(token)
        with self._db.write() as session:
            invite = _lock(session, _invite_of(session, nonce_hash))
            joiner = next((row for row in invite.joiners if row.nonce_hash == nonce_hash), None)
            if joiner is None:  # the host took the place off the list meanwhile
                raise BadLink(gettext(CONFIRM_INVALID))
            if joiner.confirmed_at is None:
                _still_open_for(invite)
                joiner.confirmed_at = self._clock.now()
                confirm_mailbox(session, joiner.email, self._clock.now())
            result = Confirmation(invite.title, joiner.name, joiner.email)
            full = sum(row.confirmed_at is not None for row in invite.joiners) >= invite.places
            if not (full and invite.auto_start and invite.started_at is None):
                return result
            try:
                with session.begin_nested():  # a start refused leaves the confirmation standing
                    game = self._start_in(session, invite, actor_email=None)
            except ValidationError:
                return result  # the host must settle something (the start page says what)
            return dataclasses.replace(result, started_game=game.public_id)

    # -- helpers ---------------------------------------------------------------------------------------

    def _start_in(self, session: Session, invite: Invite, *, actor_email: str | None) -> Game:
        """The game made from the locked invite and dealt, all in the caller's transaction: the seats of the
        confirmed joiners (with their time zones) and the computer players; the invite then leads to it."""
        _not_started(invite)
        confirmed = [row for row in invite.joiners if row.confirmed_at is not None]
        total = len(confirmed) + invite.bots
        choice = next(c for c in variant_choices() if c.name == invite.variant)
        if not choice.min_players <= total <= choice.max_players:
            raise ValidationError(ngettext(
                "%(game)s takes %(min)d to %(max)d players; %(confirmed)d confirmed and %(num)d computer player make "
                "%(total)d. Wait for more people to confirm, or change the computer players in a new game.",
                "%(game)s takes %(min)d to %(max)d players; %(confirmed)d confirmed and %(num)d computer players make "
                "%(total)d. Wait for more people to confirm, or change the computer players in a new game.",
                invite.bots, game=choice.title, min=choice.min_players, max=choice.max_players,
                confirmed=len(confirmed), total=total,
            ))
        if invite.seat_order == "shuffled":
            confirmed = self._games.chance.shuffled(confirmed)
        players = [PlayerSpec(row.name, row.email) for row in confirmed]
        players += [PlayerSpec(f"Bot {number}", None, is_bot=True) for number in range(1, invite.bots + 1)]
        game = self._games.create_game_in(
            session,
            title=invite.title,
            players=players,
            host_email=invite.host_email,
            variant=invite.variant,
            options=invite.options or None,
            policies=dict(invite.policies),
        )
        for seat, joiner in zip(game.seats, confirmed, strict=False):
            seat.timezone = joiner.timezone
        now = self._clock.now()
        invite.started_at, invite.game_id = now, game.id
        if invite.players_may_rematch:
            session.add(RematchPermission(game_id=game.id, granted_at=now))
        if invite.channel_url:  # before the deal, so the first turn is told; the URL then lives in one place
            self._channels.adopt_in(session, game, invite.channel_url, invite.channel_shown_as or "", now)
            invite.channel_url = None
        self._games.start_game_in(session, game, actor_email=actor_email or invite.host_email)
        return game

    def _from_link(self, session: Session, token: str, *, lock: bool = False) -> Invite:
        public_id, version = self.links.read_invite(token)
        invite = _lock(session, public_id) if lock else _find(session, public_id)
        if invite.version != version:
            raise InviteUnavailable(gettext(REPLACED))
        _still_open_for(invite, shared_link=True, now=self._clock.now())
        return invite

    def _detail(self, invite: Invite) -> InviteDetail:
        return invite_detail(invite, self.links.invite_url(invite), self._clock.now())

    def _owned(self, session: Session, invite_id: str, host: HostSession, *, lock: bool = False) -> Invite:
        invite = _lock(session, invite_id) if lock else _find(session, invite_id)
        if not (host.is_admin or address_key(invite.host_email) == address_key(host.email)):
            raise NotYourGame()
        return invite



def _find(session: Session, public_id: str) -> Invite:
    invite = session.scalar(select(Invite).where(Invite.public_id == public_id).options(selectinload(Invite.joiners)))
    if invite is None:
        raise InviteUnavailable(gettext(NO_SUCH_GAME))
    return invite


def _lock(session: Session, public_id: str) -> Invite:
    """The invite row, locked against other writers (PostgreSQL; SQLite already holds its write lock), and its
    joiners, as committed once the lock is held (whatever this session read of them before)."""
    invite = session.scalar(
        select(Invite).where(Invite.public_id == public_id).with_for_update().options(selectinload(Invite.joiners))
        .execution_options(populate_existing=True)
    )
    if invite is None:
        raise InviteUnavailable(gettext(NO_SUCH_GAME))
    return invite


def _invite_of(session: Session, nonce_hash: str) -> str:
    """The public id of the invite a confirmation link's place belongs to (reading nothing else of it)."""
    public_id = session.scalar(
        select(Invite.public_id).join(Joiner, Joiner.invite_id == Invite.id).where(Joiner.nonce_hash == nonce_hash)
    )
    if public_id is None:
        raise BadLink(gettext(CONFIRM_INVALID))
    return public_id


def _joiner(session: Session, nonce_hash: str) -> Joiner:
    joiner = session.scalar(select(Joiner).where(Joiner.nonce_hash == nonce_hash))
    if joiner is None:
        raise BadLink(gettext(CONFIRM_INVALID))
    return joiner


def _place_of(invite: Invite, mailbox: str, name: str) -> Joiner | None:
    """The place this mailbox is waiting to confirm, if any; ValidationError when it has one confirmed already or
    someone confirmed is called `name`."""
    same = next((row for row in invite.joiners if row.mailbox == mailbox), None)
    if same is not None and same.confirmed_at is not None:
        raise ValidationError(gettext("This address already has a place in this game: one place per person."))
    for other in invite.joiners:
        if other is not same and other.confirmed_at is not None and other.name.casefold() == name.casefold():
            raise ValidationError(gettext(
                "Someone in this game is already called %(name)s: please add an initial or choose another name.",
                name=other.name,
            ))
    return same


def _not_started(invite: Invite) -> None:
    if invite.started_at is not None:
        raise GameAlreadyStarted(gettext("This game has started: its players are set."))


def _still_open_for(invite: Invite, *, shared_link: bool = False, now: datetime | None = None) -> None:
    """InviteUnavailable, with the reason, when the game takes nobody more. A closed or expired shared link stops
    new joins; a confirmation already on its way still counts while a place is free."""
    if invite.started_at is not None:
        raise InviteUnavailable(gettext(STARTED))
    if shared_link and invite.closed_at is not None:
        raise InviteUnavailable(gettext(CLOSED))
    if shared_link and now is not None and now >= invite.expires_at:
        raise InviteUnavailable(gettext(EXPIRED))
    if sum(row.confirmed_at is not None for row in invite.joiners) >= invite.places:
        raise InviteUnavailable(gettext(FULL))


def _clean_name(raw: object) -> str:
    name = " ".join(visible_text(raw).split()) if isinstance(raw, str) else ""
    if not name:
        raise ValidationError(gettext("Please give the name the other players will see."))
    if len(name) > MAX_NAME:
        raise ValidationError(gettext("A name may have at most %(max)d characters.", max=MAX_NAME))
    if name.casefold().startswith("bot ") or name.casefold() == "host":
        raise ValidationError(gettext("'Bot ...' and 'Host' are names the game uses itself: please choose "
                                      "another."))
    problem = reserved_name_problem(name)
    if problem:
        raise ValidationError(problem)
    return name


def _clean_address(raw: object) -> str:
    address = raw.strip() if isinstance(raw, str) else ""
    mistake = address_mistake(address, gettext)
    if mistake:
        raise ValidationError(mistake)
    return address


def _zone_name(raw: object) -> str:
    """An IANA time zone name the server knows; UTC for anything else."""
    name = raw.strip() if isinstance(raw, str) else ""
    return name if name and zone(name).key == name else "UTC"


def _host_name(invite: Invite) -> str:
    mine = mailbox_key(invite.host_email)
    return next((row.name for row in invite.joiners if row.mailbox == mine and row.confirmed_at is not None), "")


