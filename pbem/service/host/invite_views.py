"""What the pages of a game joined by link are given: the host's settings as read from the form, the invite as
its host sees it, the join page a person opening the link sees, and the answers to a join and a confirmation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import engine
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.models import Invite
from pbem.models.invites import SEAT_ORDERS
from pbem.service.host.local_times import LocalTime, local_time_of
from pbem.service.turns.values import MAX_TITLE
from pbem.variants import variant_choices
from pbem.words.refusals import engine_words
from pbem.words.table import N_, Words

# The games as the host's pages name them, in the reader's language (pbem.variants gives them in English).
VARIANT_TITLES = Words({"base": N_("Saboteur"), "saboteur2": N_("Saboteur 2")})


@dataclass(frozen=True)
class InviteSettings:
    """What the host chose on the form for a game joined by link."""

    title: str
    variant: str
    options: dict[str, Any] | None
    policies: dict[str, Any]
    places: int  # people's seats, the host's own included when they play
    bots: int
    seat_order: str  # "joined" or "shuffled"
    auto_start: bool
    players_may_rematch: bool
    host_name: str | None  # the host's name at the table; None when the host does not play
    host_timezone: str = "UTC"
    channel: str | None = None  # the table's channel: a URL (a secret), or the one of the host's game `channel_of`
    channel_of: str | None = None


@dataclass(frozen=True)
class JoinerRow:
    id: int
    name: str
    email: str
    confirmed: bool
    joined_at: datetime
    local: LocalTime


@dataclass(frozen=True)
class InviteDetail:
    """An invite as its host sees it (and, without addresses, as a person opening the link sees it)."""

    invite_id: str
    title: str
    variant: str
    variant_title: str
    places: int
    bots: int
    seat_order: str
    auto_start: bool
    players_may_rematch: bool
    host_email: str
    created_at: datetime
    expires_at: datetime
    closed: bool
    started_game: str | None
    joiners: list[JoinerRow]
    link: str
    min_players: int
    max_players: int
    channel: str | None = None  # the table's channel, masked (the host's page only)

    @property
    def confirmed(self) -> list[JoinerRow]:
        return [joiner for joiner in self.joiners if joiner.confirmed]

    @property
    def waiting(self) -> list[JoinerRow]:
        return [joiner for joiner in self.joiners if not joiner.confirmed]

    @property
    def open_places(self) -> int:
        return max(self.places - len(self.confirmed), 0)

    @property
    def may_start(self) -> bool:
        return self.min_players <= len(self.confirmed) + self.bots <= self.max_players


@dataclass(frozen=True)
class JoinPage:
    """What a person opening the shared link may see: the game, who has confirmed (names only), what is open."""

    token: str
    title: str
    variant_title: str
    host_name: str
    places: int
    bots: int
    names: list[str]
    open_places: int


@dataclass(frozen=True)
class Joined:
    email: str
    title: str
    sent: bool = True  # False: the mailbox has had its confirmation emails for the day, none was sent now


@dataclass(frozen=True)
class Confirmation:
    title: str
    name: str
    email: str
    started_game: str | None = None  # the game, when this confirmation filled it and it started by itself
    already: bool = False  # confirmed before: the link only says so
    game_running: bool = False  # (with `already`) the game has started since


def check_settings(settings: InviteSettings) -> None:
    """The engine's word on the variant, options and the largest table (every place taken)."""
    if settings.seat_order not in SEAT_ORDERS:
        raise ValidationError(gettext("Choose the seat order: as people join, or shuffled at the start."))
    if not settings.title or len(settings.title) > MAX_TITLE:
        raise ValidationError(gettext("Give the game a title."))
    try:
        engine.new_game(
            [f"Player {n}" for n in range(settings.places + settings.bots)],
            seed=0,
            variant=settings.variant,
            options=settings.options,
        )
    except ValueError as exc:
        raise ValidationError(engine_words(exc)) from None


def invite_detail(invite: Invite, link: str, now: datetime) -> InviteDetail:
    """An invite as its host sees it, its shared link `link`."""
    choice = next((c for c in variant_choices() if c.name == invite.variant), None)
    policies = invite.policies or {}
    return InviteDetail(
        invite_id=invite.public_id,
        title=invite.title,
        variant=invite.variant,
        variant_title=variant_title(invite.variant),
        places=invite.places,
        bots=invite.bots,
        seat_order=invite.seat_order,
        auto_start=invite.auto_start,
        players_may_rematch=invite.players_may_rematch,
        host_email=invite.host_email,
        created_at=invite.created_at,
        expires_at=invite.expires_at,
        closed=invite.closed_at is not None,
        started_game=None,
        joiners=[
            JoinerRow(
                row.id,
                row.name,
                row.email,
                row.confirmed_at is not None,
                row.joined_at,
                local_time_of(now, row.timezone, None, policies),
            )
            for row in invite.joiners
        ],
        link=link,
        min_players=choice.min_players if choice else 0,
        max_players=choice.max_players if choice else 0,
        channel=invite.channel_shown_as,
    )


def variant_title(variant: str) -> str:
    """The game's name in the reader's language ("Saboteur", "사보추어 2")."""
    if variant in VARIANT_TITLES:
        return VARIANT_TITLES[variant]
    return next((choice.title for choice in variant_choices() if choice.name == variant), variant)


def seat_order_label(order: str) -> str:
    if order == "joined":
        return gettext("in the order people joined")
    if order == "shuffled":
        return gettext("shuffled when the game starts")
    return order
