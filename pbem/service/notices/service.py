"""Notifications as the web, the CLI and the scheduler reach them (built once in `pbem/runtime.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.config import NotificationsConfig
from pbem.db import Database
from pbem.errors import RateLimited, ValidationError
from pbem.i18n import gettext
from pbem.mail.outbox import Outbox
from pbem.models import Game, GameChannel, Notice, NotificationAddress
from pbem.notify.safety import RefusedUrl, UrlRules, check_url
from pbem.notify.transport import Notification, Outcome, send
from pbem.service.emails import APP_NAME
from pbem.service.notices import addresses
from pbem.service.notices.addresses import ShownAddress
from pbem.service.notices.sender import ChannelOff, NoticeSender, SwitchedOff
from pbem.service.rate_limits import Limit, RateLimiter


@dataclass(frozen=True)
class ShownChannel:
    """What a page may show of a game's channel: never its URL."""

    shown_as: str
    failures: int
    last_error: str | None
    switched_off: bool


# "Send a test", per player: enough to set a phone up, too few to make this server someone's relay.
TEST_LIMIT = Limit("notification_test", 5, timedelta(hours=1))


class Notices:
    def __init__(
        self, db: Database, clock: Clock, config: NotificationsConfig, limiter: RateLimiter, outbox: Outbox
    ) -> None:
        self._db, self._clock, self.config = db, clock, config
        self._limiter = limiter
        self._outbox = outbox  # a turn waiting at a seat that goes back to turn emails is emailed at once
        self.rules = UrlRules.from_config(config)

    def _game(self, session: Session, game_id: str) -> Game:
        game = session.scalar(select(Game).where(Game.public_id == game_id))
        if game is None:
            raise ValidationError(gettext("There is no game %(game)s.", game=game_id))
        return game

    def _refusing(self, url: str) -> None:
        if not self.config.enabled:
            raise ValidationError(gettext("Notifications are switched off on this server."))

    def check(self, url: str) -> None:
        """Refuse (ValidationError) a URL that would be refused as a channel or an address; stores nothing."""
        self._refusing(url)
        try:
            check_url(url, self.rules)
        except RefusedUrl as exc:
            raise ValidationError(str(exc)) from None

    def set_channel(self, game_id: str, url: str) -> str:
        """The game's channel from now on; returns it masked. A refused URL raises ValidationError, storing nothing."""
        self._refusing(url)
        with self._db.write() as session:
            try:
                return addresses.set_channel(session, self._game(session, game_id), url, self.rules,
                                             self._clock.now()).shown_as
            except RefusedUrl as exc:
                raise ValidationError(str(exc)) from None

    def clear_channel(self, game_id: str) -> None:
        with self._db.write() as session:
            addresses.clear_channel(session, self._game(session, game_id))

    def channel(self, game_id: str) -> ShownChannel | None:
        """The channel as its host may see it: masked, its failures in a row, the last error, whether switched off."""
        with self._db.read() as session:
            row = session.scalar(select(GameChannel).join(Game, Game.id == GameChannel.game_id)
                                 .where(Game.public_id == game_id))
            if row is None:
                return None
            return ShownChannel(row.shown_as, row.failures, row.last_error, row.switched_off_at is not None)

    def add_address(self, email: str, url: str, *, turns: bool = True, results: bool = False) -> str:
        self._refusing(url)
        with self._db.write() as session:
            try:
                return addresses.add_address(session, email, url, self.rules, self._clock.now(), turns=turns,
                                             results=results).shown_as
            except RefusedUrl as exc:
                raise ValidationError(str(exc)) from None

    def remove_address(self, email: str, address_id: int) -> list[str]:
        """Remove one of the player's addresses; the games that go back to turn emails for it."""
        with self._db.write() as session:
            return addresses.remove_address(session, email, address_id, self._outbox)

    def send_test(self, email: str, address_id: int) -> str:
        """Send a test notification to one of the player's addresses now; returns what became of it, in words."""
        with self._db.write() as session:
            address = session.scalar(select(NotificationAddress).where(
                NotificationAddress.id == address_id, NotificationAddress.mailbox == mailbox_key(email)
            ))
            if address is None:
                raise ValidationError(gettext("There is no such notification address among yours."))
            if not self._limiter.allow(session, TEST_LIMIT, address.mailbox):
                raise RateLimited(gettext("Five tests an hour are enough: try again later."))
            url, shown = address.url, address.shown_as
        # In the language of the page that asked (My games): its reader set the address up.
        result = send(url, Notification(title=_own(gettext("A test notification")),
                                        body=gettext("Notifications from your Saboteur games will look like this.")),
                      self.rules)
        if result.outcome is Outcome.SENT:
            return gettext("A test went to %(address)s.", address=shown)
        return gettext("The test to %(address)s did not go: %(error)s.", address=shown, error=result.error)

    def addresses(self, email: str) -> list[ShownAddress]:
        with self._db.read() as session:
            return addresses.shown_addresses(session, email)

    def counts(self) -> dict[str, int]:
        """How many notifications are in each status (for tests and the operator)."""
        with self._db.read() as session:
            rows = session.execute(select(Notice.status, func.count()).group_by(Notice.status)).tuples()
            return dict(rows.all())

    def sender(self, switched_off: SwitchedOff, channel_off: ChannelOff) -> NoticeSender:
        return NoticeSender(self._db, self._clock, self.config, switched_off, channel_off)


def _own(words: str) -> str:
    return f"{words} - {APP_NAME}"


__all__ = ["Notices", "NotificationAddress"]
