"""Queueing email: a rendered row per recipient, in the caller's transaction, at most once per dedupe key."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from pbem.clock import SettableClock
from pbem.db import Database
from pbem.mail.outbox import Outbox
from pbem.models import Game, OutboxMessage, Seat

LINK = "https://pbem.test/play/token-for-ann"


def started_context(**overrides: object) -> dict[str, object]:
    context: dict[str, object] = {
        "seat_number": 1,
        "players": [
            {"name": "Ann & <Co>", "is_bot": False, "is_you": True},
            {"name": "Bot 1", "is_bot": True, "is_you": False},
        ],
        "first_player": "Ann & <Co>",
        "your_turn": True,
        "link": LINK,
        "link_max_age_days": 30,
    }
    context.update(overrides)
    return context


@pytest.fixture
def outbox(clock: SettableClock) -> Outbox:
    return Outbox(message_domain="pbem.test", clock=clock)


@pytest.fixture
def game(database: Database, clock: SettableClock) -> int:
    with database.write() as session:
        game = Game(title="Friday mine", variant="base", host_email="h@example.org",
                    created_at=clock.now(), updated_at=clock.now())
        game.seats = [
            Seat(seat_index=0, display_name="Ann & <Co>", email="ann@example.org"),
            Seat(seat_index=1, display_name="Bot 1", is_bot=True),
        ]
        session.add(game)
        session.flush()
        return game.id


def enqueue(database: Database, outbox: Outbox, game_id: int, seat_index: int, kind: str, key: str,
            context: dict[str, object]) -> OutboxMessage | None:
    with database.write() as session:
        game = session.get_one(Game, game_id)
        return outbox.enqueue(session, game=game, seat=game.seats[seat_index], kind=kind, dedupe_key=key,
                              context=context)


def test_an_email_is_rendered_into_one_row_for_one_recipient(database, outbox, game, clock) -> None:
    message = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())

    assert message is not None
    assert message.to_address == "ann@example.org"
    assert message.subject == "Friday mine - Saboteur"
    assert re.fullmatch(r"<[0-9a-f]{32}@pbem\.test>", message.message_id)
    assert (message.status, message.attempts, message.next_attempt_at) == ("queued", 0, clock.now())
    assert LINK in message.body_text and f'href="{LINK}"' in message.body_html
    assert "You play first" in message.body_text and "You play first" in message.body_html


def test_names_are_escaped_in_html_and_plain_in_text(database, outbox, game) -> None:
    message = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())

    assert message is not None
    assert "Ann & <Co> (you)" in message.body_text
    assert "Ann &amp; &lt;Co&gt;" in message.body_html and "<Co>" not in message.body_html


def test_the_same_dedupe_key_is_queued_once(database, outbox, game) -> None:
    first = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())
    second = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())

    assert first is not None and second is None
    with database.read() as session:
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) == 1


def test_nothing_is_queued_when_the_causing_change_rolls_back(database, outbox, game) -> None:
    with pytest.raises(RuntimeError), database.write() as session:
        row = session.get_one(Game, game)
        outbox.enqueue(session, game=row, seat=row.seats[0], kind="your_turn", dedupe_key="turn:0:1",
                       context={"lines": [], "link": LINK, "link_max_age_days": 30})
        raise RuntimeError("the move failed after the email was composed")

    with database.read() as session:
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) == 0


def test_your_turn_lists_what_happened(database, outbox, game) -> None:
    lines = ["Bot 1 played a path card.", "Bot 1 drew a card."]

    message = enqueue(database, outbox, game, 0, "your_turn", "turn:0:2",
                      {"lines": lines, "link": LINK, "link_max_age_days": 30})

    assert message is not None
    assert all(line in message.body_text and line in message.body_html for line in lines)
    assert "It is your turn" in message.body_text


def test_a_missing_template_variable_is_an_error_not_a_blank(database, outbox, game) -> None:
    with pytest.raises(Exception, match="lines"):
        enqueue(database, outbox, game, 0, "your_turn", "turn:0:3", {"link": LINK, "link_max_age_days": 30})


def test_a_seat_without_an_address_cannot_be_mailed(database, outbox, game) -> None:
    with pytest.raises(ValueError, match="no email address"):
        enqueue(database, outbox, game, 1, "your_turn", "turn:1:1",
                {"lines": [], "link": LINK, "link_max_age_days": 30})
