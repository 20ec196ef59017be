"""Wiring: one configuration, one clock, one database, and the services built on them.

The web app, the command line and the scheduler each build a Runtime here, so they share exactly one
way of reaching the database, one clock and one game service.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from pbem.clock import Clock, SystemClock
from pbem.config import Config
from pbem.db import Database
from pbem.mail.outbox import Outbox
from pbem.mail.reply_address import ReplyAddresses
from pbem.mail.unsubscribe import UnsubscribeLinks
from pbem.service.chat import ChatService
from pbem.service.chronicle import Chronicle
from pbem.service.fresh_links import FreshLinks
from pbem.service.games import GameService
from pbem.service.host_access import HOST_LINK_MAX_AGE, HostAccess
from pbem.service.hosting import Hosting
from pbem.service.invitations import InvitationLimits
from pbem.service.moderation import Moderation
from pbem.service.rate_limits import RateLimiter
from pbem.service.seats import SeatService
from pbem.service.address_changes import AddressChangeLinks
from pbem.service.auto_pass_links import AutoPassLinks
from pbem.service.presence import Presence
from pbem.service.sweep import TurnSweep
from pbem.service.timeouts import Timeouts
from pbem.service.turn_controls import TurnControls
from pbem.tokens import HostLinkSigner, LinkSigner


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

    def close(self) -> None:
        self.db.dispose()


def build_runtime(config: Config, *, clock: Clock | None = None) -> Runtime:
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
    )
    games = GameService(db, clock, links, outbox, config.policies, config.link_max_age_days)
    seats = SeatService(db, clock)
    limiter = RateLimiter(clock, config.secret_keys[0])
    fresh_links = FreshLinks(db, clock, links, outbox, limiter, config.link_max_age_days)
    auto_pass_links = AutoPassLinks(config.secret_keys, config.base_url, clock)
    timeouts = Timeouts(games, outbox, clock, auto_pass_links, config.base_url)
    turn_controls = TurnControls(db, clock, games.mail, timeouts)
    return Runtime(
        config=config, clock=clock, db=db, links=links, outbox=outbox, games=games,
        limiter=limiter, seats=seats, fresh_links=fresh_links,
        chat=ChatService(db, clock, limiter),
        chronicle=Chronicle(db),
        auto_pass_links=auto_pass_links,
        sweep=TurnSweep(db, clock, games.mail, timeouts),
        turn_controls=turn_controls,
        presence=Presence(db, clock),
        host_access=HostAccess(
            db, clock, HostLinkSigner(config.secret_keys, config.base_url, HOST_LINK_MAX_AGE, clock), outbox, limiter,
            config.access,
        ),
        hosting=Hosting(db, clock, games, limiter, turn_controls.status, InvitationLimits(limiter, config.access)),
        moderation=Moderation(
            db, clock, games, outbox, config.link_max_age_days,
            AddressChangeLinks(config.secret_keys, config.base_url, clock), limiter,
        ),
    )


def reply_addresses(config: Config, clock: Clock) -> ReplyAddresses | None:
    """Signed per-seat reply addresses, when the operator has configured a reply mailbox (else None)."""
    if not config.mail.reply_address:
        return None
    return ReplyAddresses(
        config.secret_keys, config.mail.reply_address, timedelta(days=config.mail.reply_max_age_days), clock
    )
