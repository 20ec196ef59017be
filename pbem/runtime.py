"""Wiring: one configuration, one clock, one database, and the services and mail workers built on them.

The web app, the command line and the scheduler each build a Runtime here, so they share exactly one
way of reaching the database, one clock and one game service; the deliverer, the reply poller and
listener are built here too, the post office handed the game's parts it calls back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import getaddresses
from functools import lru_cache
from urllib.parse import urlsplit

from aiosmtpd.controller import Controller
from sqlalchemy.orm import Session

from pbem.chance import Chance, SecretChance
from pbem.clock import Clock, SystemClock
from pbem.config import Config
from pbem.db import Database
from pbem.drawing import STYLESHEET
from pbem.mail.backends import Backend
from pbem.mail.deliver import Deliverer, DeliverySettings, backend_for
from pbem.mail.imap_poll import ImapPoller
from pbem.mail.listener import listener
from pbem.mail.outbox import Outbox
from pbem.mail.reply_address import ReplyAddresses
from pbem.mail.unsubscribe import UnsubscribeLinks
from pbem.models import Game, Seat
from pbem.service.history.chronicle import Chronicle
from pbem.service.host.actions import HostActions
from pbem.service.host.host_access import HOST_LINK_MAX_AGE, HostAccess
from pbem.service.host.hosting import Hosting
from pbem.service.host.invitations import InvitationLimits
from pbem.service.host.invites import InviteLinks, Invites
from pbem.service.host.moderation import Moderation
from pbem.service.host.rematch import Rematches
from pbem.service.letters.board_picture import BoardPainter
from pbem.service.letters.host_notices import enqueue_mail_failing_notice
from pbem.service.notices.channels import TableChannels
from pbem.service.notices.sender import NoticeSender, tell_host_channel_off, tell_owner_switched_off
from pbem.service.notices.service import Notices
from pbem.service.players.access import SIGN_IN_MAX_AGE, PlayerAccess
from pbem.service.players.home import PlayerHome
from pbem.service.rate_limits import RateLimiter
from pbem.service.seats.address_changes import AddressChangeLinks
from pbem.service.seats.auto_pass_links import AutoPassLinks
from pbem.service.seats.fresh_links import FreshLinks
from pbem.service.seats.languages import SeatLanguageService
from pbem.service.seats.presence import Presence
from pbem.service.seats.seats import SeatService
from pbem.service.spectators import Spectators
from pbem.service.sweep import TurnSweep
from pbem.service.talk.chat import ChatService
from pbem.service.talk.replies import Inbound
from pbem.service.turns.games import GameService
from pbem.service.turns.timeouts import Timeouts
from pbem.service.turns.turn_controls import TurnControls
from pbem.tokens import HostLinkSigner, LinkSigner, PlayerLinkSigner, SpectatorLinkSigner
from pbem.words.board import drawn_board


@dataclass(frozen=True)
class Runtime:
    config: Config
    clock: Clock
    db: Database
    links: LinkSigner
    outbox: Outbox
    games: GameService
    limiter: RateLimiter
    seats: SeatService
    fresh_links: FreshLinks
    chat: ChatService
    chronicle: Chronicle
    auto_pass_links: AutoPassLinks
    sweep: TurnSweep
    turn_controls: TurnControls
    presence: Presence
    host_access: HostAccess
    hosting: Hosting
    moderation: Moderation
    invites: Invites
    rematches: Rematches
    player_access: PlayerAccess
    player_home: PlayerHome
    spectators: Spectators
    host_actions: HostActions
    notices: Notices
    seat_languages: SeatLanguageService  # which language each seat reads (pbem/i18n/)
    channels: TableChannels  # a game's channel given with the game; what its players are told of it

    def notice_sender(self) -> NoticeSender:
        """The notification worker: sends what is due; an address switched off is told to its owner by email, a
        table's channel switched off to the game's host."""
        return self.notices.sender(
            tell_owner_switched_off(self.outbox, f"{self.config.base_url}/my-games"),
            tell_host_channel_off(self.outbox, f"{self.config.base_url}/host/games"),
        )

    def close(self) -> None:
        self.db.dispose()

    def deliverer(self, backend: Backend | None = None) -> Deliverer:
        """The deliverer of this configuration (SMTP or the catcher, unless `backend` is given)."""
        mail, outbox = self.config.mail, self.outbox

        def notify_failure(session: Session, game: Game, seat: Seat, error: str, failed_at: datetime) -> None:
            enqueue_mail_failing_notice(session, outbox, game=game, seat=seat, error=error, failed_at=failed_at)

        return Deliverer(
            self.db, self.clock, backend or backend_for(mail), DeliverySettings.from_config(mail),
            self.games.mail.compose, notify_failure, pictures=board_painter().pictures,
        )

    def inbound(self) -> Inbound:
        """What becomes of each reply to the reply address (for the poller and the listener)."""
        replies = self.outbox.replies
        if replies is None:
            raise ValueError("mail.reply_address is not configured: there is nothing to receive replies for")
        mail = self.config.mail
        return Inbound(
            self.db, self.clock, replies, self.chat, self.outbox, self.limiter,
            max_bytes=mail.inbound_max_kb * 1024,
            reply_max_age_days=mail.reply_max_age_days,
            own_addresses=[address for _, address in getaddresses([mail.from_address, mail.reply_address])],
            bounces_per_day=mail.bounces_per_day,
        )

    def poller(self) -> ImapPoller:
        """The poller of the reply mailbox (`mail.imap`), for the scheduler and `pbem mail receive`."""
        if not self.config.mail.imap.host:
            raise ValueError("mail.imap.host is not configured: there is no mailbox to poll")
        return ImapPoller(self.config.mail.imap, self.inbound())

    def listener(self, host: str, port: int) -> Controller:
        """An SMTP listener for replies on host:port (not yet started), for `pbem mail listen`."""
        replies = self.outbox.replies
        if replies is None:
            raise ValueError("mail.reply_address is not configured: there is nothing to listen for")
        return listener(self.inbound(), replies, host, port)


def build_runtime(config: Config, *, clock: Clock | None = None, chance: Chance | None = None) -> Runtime:
    clock = clock or SystemClock()
    db = Database(config.database_url)
    links = LinkSigner(
        config.secret_keys, config.base_url, timedelta(days=config.link_max_age_days), clock
    )
    outbox = Outbox(
        message_domain=urlsplit(config.base_url).hostname or "localhost",
        clock=clock,
        unsubscribe=UnsubscribeLinks(config.secret_keys, config.base_url),
        replies=reply_addresses(config, clock),
        language=config.language,
    )
    spectator_links = SpectatorLinkSigner(config.secret_keys, config.base_url, clock)
    games = GameService(
        db, clock, links, outbox, config.policies, config.link_max_age_days, spectator_links, chance or SecretChance(),
        notices_enabled=config.notifications.enabled,
    )
    seats = SeatService(db, clock, notices_enabled=config.notifications.enabled)
    limiter = RateLimiter(clock, config.secret_keys[0])
    fresh_links = FreshLinks(db, clock, links, outbox, limiter, config.link_max_age_days)
    auto_pass_links = AutoPassLinks(config.secret_keys, config.base_url, clock)
    timeouts = Timeouts(games, outbox, clock, auto_pass_links, config.base_url)
    turn_controls = TurnControls(db, clock, games.mail, timeouts)
    chat = ChatService(db, clock, limiter)
    channels = TableChannels(db, config.notifications)
    hosting = Hosting(
        db, clock, games, limiter, turn_controls.status, InvitationLimits(limiter, config.access), channels
    )
    rematches = Rematches(db, clock, games, channels)
    return Runtime(
        config=config, clock=clock, db=db, links=links, outbox=outbox, games=games,
        limiter=limiter, seats=seats, fresh_links=fresh_links,
        chat=chat,
        chronicle=Chronicle(db),
        auto_pass_links=auto_pass_links,
        sweep=TurnSweep(db, clock, games.mail, timeouts),
        turn_controls=turn_controls,
        presence=Presence(db, clock),
        host_access=HostAccess(
            db, clock, HostLinkSigner(config.secret_keys, config.base_url, HOST_LINK_MAX_AGE, clock), outbox, limiter,
            config.access, anyone_may_create=config.mail_stays_here,
        ),
        hosting=hosting,
        moderation=Moderation(
            db, clock, games, outbox, config.link_max_age_days,
            AddressChangeLinks(config.secret_keys, config.base_url, clock), limiter,
        ),
        invites=Invites(
            db, clock, games, outbox, limiter, InvitationLimits(limiter, config.access),
            InviteLinks(config.secret_keys, config.base_url, clock), channels,
        ),
        rematches=rematches,
        player_access=PlayerAccess(
            db, clock, PlayerLinkSigner(config.secret_keys, config.base_url, SIGN_IN_MAX_AGE, clock), outbox, limiter,
            config.access.player_session_days,
        ),
        player_home=PlayerHome(db, clock, links, notices_enabled=config.notifications.enabled),
        spectators=Spectators(
            db, clock, games, Chronicle(db), chat, outbox, limiter, spectator_links,
        ),
        host_actions=HostActions(hosting, games, turn_controls, rematches, chat),
        notices=Notices(db, clock, config.notifications, limiter, outbox),
        seat_languages=SeatLanguageService(db),
        channels=channels,
    )


def reply_addresses(config: Config, clock: Clock) -> ReplyAddresses | None:
    """Signed per-seat reply addresses, when the operator has configured a reply mailbox (else None)."""
    if not config.mail.reply_address:
        return None
    return ReplyAddresses(
        config.secret_keys, config.mail.reply_address, timedelta(days=config.mail.reply_max_age_days), clock
    )


@lru_cache(maxsize=1)
def board_painter() -> BoardPainter:
    """The turn emails' board picture: the page's drawing and its stylesheet, rasterized (read once per process)."""
    return BoardPainter(drawn_board, STYLESHEET.read_text())
