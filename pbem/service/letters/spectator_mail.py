"""The round-end email of a spectator who asked for it: what every player is told once a round is over (the result
and the roles, from the public view), with the spectator link and a signed link that stops them
(`pbem/service/spectators.py`)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.i18n import in_language
from pbem.mail.outbox import Outbox
from pbem.models import Game, SpectatorLink, SpectatorSubscription
from pbem.results_text import outcome
from pbem.service.emails import SPECTATOR_ROUND_END
from pbem.tokens import SpectatorLinkSigner, SpectatorStop
from pbem.words.roles import role_name


def queue_round_end_emails(
    session: Session, outbox: Outbox, game: Game, view: engine.View, round_number: int,
    signer: SpectatorLinkSigner,
) -> int:
    """Email each confirmed spectator of `game` that round `round_number` is over, as every player is told it
    (`view` is the public view after it); once per round and address. How many were queued."""
    result = next((r for r in view.get("results", []) if r["round"] == round_number), None)
    if result is None:
        return 0
    names = game.names
    language = outbox.language_of(game, None)  # a spectator chose no language: the game's
    with in_language(language):
        told = outcome(result, names)
        roles = [{"name": names[seat], "role": role_name(role)} for seat, role in enumerate(result.get("roles", []))]
    rows = session.execute(
        select(SpectatorSubscription, SpectatorLink.token)
        .join(SpectatorLink, SpectatorSubscription.link_id == SpectatorLink.id)
        .where(SpectatorLink.game_id == game.id, SpectatorLink.revoked_at.is_(None),
               SpectatorSubscription.ended_at.is_(None))
    ).all()
    queued = 0
    for subscription, token in rows:
        watch = f"{signer.base_url}/watch/{token}"
        message = outbox.enqueue_standalone(
            session, to_address=subscription.email, kind=SPECTATOR_ROUND_END.kind,
            dedupe_key=SPECTATOR_ROUND_END.key(game.public_id, subscription.id, round_number),
            subject=SPECTATOR_ROUND_END.subject(round_number, game.title),
            context={
                "title": game.title, "round": round_number, "rounds": view.get("rounds"), "outcome": told,
                "roles": roles, "over": bool(view.get("final")), "link": watch,
                "stop_url": signer.stop_url(SpectatorStop(subscription.id, SpectatorStop.digest(subscription.mailbox))),
            },
            language=language,
        )
        queued += message is not None
    return queued
