"""Spectators: a host's link that shows one game exactly as an onlooker may see it, and nothing more.

A spectator link is a random token (`spectator_links`); revoking it ends it for good. What it shows is the engine's
public view (`engine.view(game, None)`: the board, the seats without hands or roles), the public log, the table talk
if the host allows it, and, for each round that is over, what every player is then shown: its result with the roles
and its recap (`pbem/service/history/disclosure.py` says when). Never a hand, a role before its round ends, a
map's result or the draw pile.

A spectator may ask to be emailed at each round end: the address is sent one confirmation link (rate limited per
client and per mailbox, as the sign-in links are) and is emailed only once it has confirmed. Each round-end email
carries a signed link that stops that subscription (`pbem/tokens.py`): knowing someone's address stops nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from pbem.addresses import address_mistake, mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, RateLimited
from pbem.i18n import gettext
from pbem.mail.outbox import Outbox
from pbem.models import Game, HostAction, SpectatorLink, SpectatorSubscription
from pbem.models.row_writes import rows_changed
from pbem.results_text import outcome
from pbem.service.emails import SPECTATOR_CONFIRM
from pbem.service.history.chronicle import Chronicle, RoundStory
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.rows import find_game
from pbem.service.talk.chat import ChatService
from pbem.service.talk.chat_lines import ChatLine
from pbem.service.turns.games import GameService
from pbem.service.turns.values import GameState, HistoryEntry
from pbem.tokens import SpectatorConfirmation, SpectatorLinkSigner, SpectatorStop
from pbem.words.roles import role_name
from pbem.words.table import N_

PER_MAILBOX = Limit("spectator_confirm_mailbox", count=3, window=timedelta(days=1))
PER_CLIENT = Limit("spectator_confirm_client", count=10, window=timedelta(hours=1))
TOO_MANY = N_("Too many emails were asked for from here. Please wait an hour and try again.")
REVOKED = N_("This spectator link has been withdrawn by the host (or never existed).")


@dataclass(frozen=True)
class LinkRow:
    """A spectator link as the host's page lists it."""

    id: int
    url: str
    created_at: datetime
    show_chat: bool
    revoked_at: datetime | None
    subscribers: int


@dataclass(frozen=True)
class RoundOver:
    """A finished round as every player is shown it once it is over."""

    round: int
    outcome: str
    roles: list[tuple[str, str]]  # (name, the dwarf card held at the round's end, in words)
    story: RoundStory | None


@dataclass(frozen=True)
class SpectatorView:
    game_id: str
    title: str
    variant: str
    status: str
    state: GameState  # the public view (seat None)
    history: list[HistoryEntry]
    chat: list[ChatLine] | None  # None: the host keeps the table talk to the players
    rounds_over: list[RoundOver]


class Spectators:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        games: GameService,
        chronicle: Chronicle,
        chat: ChatService,
        outbox: Outbox,
        limiter: RateLimiter,
        signer: SpectatorLinkSigner,
    ) -> None:
        self._db = db
        self._clock = clock
        self._games = games
        self._chronicle = chronicle
        self._chat = chat
        self._outbox = outbox
        self._limiter = limiter
        self._signer = signer

    # -- the host's side --------------------------------------------------------------------------

    def create(self, game_id: str, *, show_chat: bool, actor_email: str) -> str:
        """A new spectator link for the game (the caller checked that `actor_email` hosts it): its address."""
        token = secrets.token_urlsafe(24)
        now = self._clock.now()
        with self._db.write() as session:
            game = find_game(session, game_id)
            link = SpectatorLink(
                game_id=game.id, token=token, show_chat=show_chat, created_by=actor_email, created_at=now
            )
            session.add(link)
            session.flush()
            session.add(
                HostAction(
                    game_id=game.id,
                    actor_email=actor_email,
                    action="spectator_link",
                    details={"link": link.id, "show_chat": show_chat},
                    created_at=now,
                )
            )
        return self.url(token)

    def links(self, game_id: str) -> list[LinkRow]:
        with self._db.read() as session:
            game = find_game(session, game_id)
            rows = session.scalars(
                select(SpectatorLink).where(SpectatorLink.game_id == game.id).order_by(SpectatorLink.id)
            ).all()
            subscribers = dict(
                session.execute(
                    select(SpectatorSubscription.link_id, func.count())
                    .where(
                        SpectatorSubscription.link_id.in_([row.id for row in rows]),
                        SpectatorSubscription.ended_at.is_(None),
                    )
                    .group_by(SpectatorSubscription.link_id)
                )
                .tuples()
                .all()
            )
            return [
                LinkRow(
                    row.id,
                    self.url(row.token),
                    row.created_at,
                    row.show_chat,
                    row.revoked_at,
                    subscribers.get(row.id, 0),
                )
                for row in rows
            ]

    def revoke(self, game_id: str, link_id: int, *, actor_email: str) -> bool:
        """End a spectator link of this game (and its round-end emails); False if it was not live."""
        now = self._clock.now()
        with self._db.write() as session:
            game = find_game(session, game_id)
            ended = rows_changed(
                session,
                update(SpectatorLink)
                .where(
                    SpectatorLink.id == link_id, SpectatorLink.game_id == game.id, SpectatorLink.revoked_at.is_(None)
                )
                .values(revoked_at=now)
                .execution_options(synchronize_session=False)
            )
            if ended != 1:
                return False
            session.execute(
                update(SpectatorSubscription)
                .where(SpectatorSubscription.link_id == link_id, SpectatorSubscription.ended_at.is_(None))
                .values(ended_at=now)
                .execution_options(synchronize_session=False)
            )
            session.add(
                HostAction(
                    game_id=game.id,
                    actor_email=actor_email,
                    action="spectator_link_revoked",
                    details={"link": link_id},
                    created_at=now,
                )
            )
        return True

    # -- the spectator's side ---------------------------------------------------------------------

    def url(self, token: str) -> str:
        return f"{self._signer.base_url}/watch/{token}"

    def view(self, token: str) -> SpectatorView:
        """What the link shows now; BadLink once revoked."""
        with self._db.read() as session:
            link, game = self._live(session, token)
            game_id, title, variant, status, show_chat = (
                game.public_id,
                game.title,
                game.variant,
                game.status,
                link.show_chat,
            )
        state = self._games.current_state(game_id, None)
        names = state.players
        rounds_over = []
        for result in state.view["results"] if state.view else []:
            told = outcome(result, names)
            rounds_over.append(
                RoundOver(
                    round=result["round"],
                    outcome=told,
                    roles=[(names[seat], role_name(role)) for seat, role in enumerate(result.get("roles", []))],
                    story=self._chronicle.round_story(game_id, result["round"]),
                )
            )
        return SpectatorView(
            game_id=game_id,
            title=title,
            variant=variant,
            status=status,
            state=state,
            history=self._games.history(game_id, None),
            chat=self._chat.messages(game_id).lines if show_chat else None,
            rounds_over=rounds_over,
        )

    def ask_for_round_emails(self, token: str, email: str, client: str) -> None:
        """Send `email` one link to confirm round-end emails; RateLimited for a noisy client, silence otherwise."""
        address = (email or "").strip()
        with self._db.write() as session:
            link, game = self._live(session, token)
            if not self._limiter.allow(session, PER_CLIENT, client):
                raise RateLimited(gettext(TOO_MANY))
            if address_mistake(address):
                return
            if not self._limiter.allow(session, PER_MAILBOX, mailbox_key(address)):
                return
            confirm = self._signer.confirm_url(SpectatorConfirmation(link.id, address, token))
            self._outbox.enqueue_standalone(
                session,
                to_address=address,
                kind=SPECTATOR_CONFIRM.kind,
                dedupe_key=SPECTATOR_CONFIRM.key(_hash(confirm)[:32]),
                subject=SPECTATOR_CONFIRM.subject(game.title),
                context={"title": game.title, "link": confirm},
            )

    def check_confirmation(self, confirmation: str) -> tuple[str, str]:
        """(address, game title) a confirmation link names, changing nothing (the GET behind its button)."""
        link_id, address, token = self._read_confirmation(confirmation)
        with self._db.read() as session:
            link, game = self._live(session, token)
            if link.id != link_id:
                raise BadLink()
            return address, game.title

    def confirm_round_emails(self, confirmation: str) -> str:
        """Start round-end emails for the address the link names (once; again is harmless); the spectator URL."""
        link_id, address, token = self._read_confirmation(confirmation)
        with self._db.write() as session:
            link, _game = self._live(session, token)
            if link.id != link_id:
                raise BadLink()
            mailbox = mailbox_key(address)
            row = session.scalar(
                select(SpectatorSubscription).where(
                    SpectatorSubscription.link_id == link.id, SpectatorSubscription.mailbox == mailbox
                )
            )
            if row is None:
                session.add(
                    SpectatorSubscription(link_id=link.id, email=address, mailbox=mailbox, created_at=self._clock.now())
                )
            else:
                row.email, row.ended_at = address, None
        return self.url(token)

    def check_stop(self, stop: str) -> tuple[str, str, str | None]:
        """(address, game title, spectator URL or None once revoked) a stop link names, changing nothing (the GET
        behind its button); BadLink for a forged or damaged link, or one naming no such subscription."""
        with self._db.read() as session:
            subscription, link = self._subscription(session, stop)
            game = session.get(Game, link.game_id)
            title = game.title if game is not None else ""
            return subscription.email, title, None if link.revoked_at is not None else self.url(link.token)

    def stop_round_emails(self, stop: str) -> None:
        """No more round-end emails for the subscription a signed stop link names (again is harmless)."""
        with self._db.write() as session:
            subscription, _link = self._subscription(session, stop)
            if subscription.ended_at is None:
                subscription.ended_at = self._clock.now()

    def _subscription(self, session: Session, stop: str) -> tuple[SpectatorSubscription, SpectatorLink]:
        claim = self._signer.read_stop(stop)
        subscription = session.get(SpectatorSubscription, claim.subscription_id)
        if subscription is None or SpectatorStop.digest(subscription.mailbox) != claim.mailbox_digest:
            raise BadLink()
        link = session.get(SpectatorLink, subscription.link_id)
        if link is None:
            raise BadLink()
        return subscription, link

    def _live(self, session: Session, token: str) -> tuple[SpectatorLink, Game]:
        link = session.scalar(select(SpectatorLink).where(SpectatorLink.token == token))
        if link is None or link.revoked_at is not None:
            raise BadLink(gettext(REVOKED))
        game = session.get(Game, link.game_id)
        if game is None:
            raise BadLink(gettext(REVOKED))
        return link, game

    def _read_confirmation(self, confirmation: str) -> tuple[int, str, str]:
        claim = self._signer.read_confirmation(confirmation)
        return claim.link_id, claim.email, claim.token


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
