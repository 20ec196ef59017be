"""Composing email into the outbox, inside the caller's transaction.

Nothing is sent here: a row is rendered from `templates/email/<kind>.txt` and `.html` and added to the
session of the change that caused it, so an email exists if and only if that change commits. The
deliverer (issue 5) sends due rows later. One row, one recipient.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.clock import Clock
from pbem.models import Game, OutboxMessage, Seat
from pbem.paths import TEMPLATES_DIR

EMAIL_TEMPLATE_DIR = "email"


@lru_cache(maxsize=1)
def email_templates() -> Environment:
    """Jinja2 for emails: HTML parts autoescaped, text parts not; a missing variable is an error, not a blank."""
    return Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def game_subject(game: Game) -> str:
    """One stable subject per game, so a player's mail client keeps the game in one conversation."""
    return f"{game.title} - Saboteur"


class Outbox:
    def __init__(self, message_domain: str, clock: Clock) -> None:
        self._domain = message_domain
        self._clock = clock

    def enqueue(
        self,
        session: Session,
        *,
        game: Game,
        seat: Seat,
        kind: str,
        dedupe_key: str,
        context: dict[str, Any],
    ) -> OutboxMessage | None:
        """Queue one email to one seat; None if an email with this dedupe key was queued before."""
        if seat.email is None:
            raise ValueError(f"seat {seat.seat_index} ({seat.display_name}) has no email address")
        if session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == dedupe_key)) is not None:
            return None
        variables = {"game_title": game.title, "recipient_name": seat.display_name, **context}
        templates = email_templates()
        now = self._clock.now()
        message = OutboxMessage(
            game_id=game.id,
            seat_id=seat.id,
            to_address=seat.email,
            kind=kind,
            dedupe_key=dedupe_key,
            message_id=f"<{secrets.token_hex(16)}@{self._domain}>",
            subject=game_subject(game),
            body_text=templates.get_template(f"{EMAIL_TEMPLATE_DIR}/{kind}.txt").render(variables),
            body_html=templates.get_template(f"{EMAIL_TEMPLATE_DIR}/{kind}.html").render(variables),
            headers={},
            status="queued",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
        session.add(message)
        return message
