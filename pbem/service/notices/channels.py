"""A game's channel given with the game itself (the new-game form, a game joined by link, a rematch): checked by the
rules of the host page's (`pbem/notify/safety.py`) and set in the caller's transaction, so the game and its channel
are made together and the first turn is told. A refused URL raises ValidationError and the caller makes nothing."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.config import NotificationsConfig
from pbem.db import Database
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.models import Game, GameChannel
from pbem.notify.naming import place_of
from pbem.notify.safety import CheckedUrl, RefusedUrl, UrlRules, check_url
from pbem.service.notices import addresses
from pbem.service.notices.queue import channel_of


class TableChannels:
    def __init__(self, db: Database, config: NotificationsConfig) -> None:
        self._db = db
        self.config = config
        self.rules = UrlRules.from_config(config)

    def check(self, url: str) -> CheckedUrl:
        """The URL as a channel would take it; ValidationError with the reason, in words for beside its field."""
        if not self.config.enabled:
            raise ValidationError(gettext("Notifications are switched off on this server."))
        try:
            return check_url(url, self.rules)
        except RefusedUrl as exc:
            raise ValidationError(str(exc)) from None

    def set_in(self, session: Session, game: Game, url: str, now: datetime) -> str:
        """The new game's channel, checked again as it is stored; returns it masked."""
        self.check(url)
        try:
            return addresses.set_channel(session, game, url, self.rules, now).shown_as
        except RefusedUrl as exc:
            raise ValidationError(str(exc)) from None

    def kept(self, session: Session, source: Game) -> GameChannel | None:
        """The channel an earlier game passes on (while it is switched on), None when there is none to keep."""
        return channel_of(session, source) if self.config.enabled else None

    def copy_in(self, session: Session, source: Game, game: Game, now: datetime) -> str | None:
        """The earlier game's channel for the new one, as it was accepted then (each send checks its address again);
        returns it masked, None when there is none to keep."""
        kept = self.kept(session, source)
        if kept is None:
            return None
        self.adopt_in(session, game, kept.url, kept.shown_as, now)
        return kept.shown_as

    def adopt_in(self, session: Session, game: Game, url: str, shown_as: str, now: datetime) -> None:
        """A channel accepted earlier (a rematch's, an invite's) becomes the new game's."""
        session.add(GameChannel(game_id=game.id, url=url, shown_as=shown_as, failures=0, created_at=now))
        game.notices_wanted = True

    def place(self, game_id: str) -> str | None:
        """What the players are told of the game's channel while it posts: the kind of place ("a Discord channel"),
        never its address; None without one."""
        with self._db.read() as session:
            shown = shown_channel_of(session, game_id)
        return place_of(shown) if shown else None


def shown_channel_of(session: Session, game_id: str) -> str | None:
    """A game's channel as a page may name it (masked), while it is switched on; None without one."""
    return session.scalar(
        select(GameChannel.shown_as).join(Game, Game.id == GameChannel.game_id)
        .where(Game.public_id == game_id, GameChannel.switched_off_at.is_(None))
    )
