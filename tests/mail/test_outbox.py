"""Queueing email: a rendered row per recipient, in the caller's transaction, at most once per dedupe key,
threaded into one conversation per game and mailbox, with one-click unsubscribe on turn notifications."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from pbem.clock import SettableClock
from pbem.db import Database
from pbem.mail.outbox import Outbox
from pbem.mail.threads import conversation_root
from pbem.mail.unsubscribe import UnsubscribeLinks
from pbem.models import Game, MailThread, OutboxMessage, Seat
from tests.support.database import BASE_URL, TEST_SECRET

LINK = "https://pbem.test/play/token-for-ann"
TURN = {"lines": [], "round": 1, "gold_pick": False, "offer": [], "deadline": None, "link": LINK,
        "link_max_age_days": 30}


def started_context(**overrides: object) -> dict[str, object]:
    context: dict[str, object] = {
        "seat_number": 1,
        "players": [
            {"name": "Ann & <Co>", "is_bot": False, "is_you": True},
            {"name": "Bot 1", "is_bot": True, "is_you": False},
        ],
        "first_player": "Ann & <Co>",
        "your_turn": True,
        "deadline_hours": 72,
        "link": LINK,
        "link_max_age_days": 30,
    }
    context.update(overrides)
    return context


@pytest.fixture
def outbox(clock: SettableClock) -> Outbox:
    return Outbox(message_domain="pbem.test", clock=clock, unsubscribe=UnsubscribeLinks((TEST_SECRET,), BASE_URL))


@pytest.fixture
def game(database: Database, clock: SettableClock) -> int:
    with database.write() as session:
        game = Game(title="Friday mine", variant="base", host_email="h@example.org",
                    created_at=clock.now(), updated_at=clock.now())
        game.seats = [
            Seat(seat_index=0, display_name="Ann & <Co>", email="ann@example.org"),
            Seat(seat_index=1, display_name="Bot 1", is_bot=True),
            Seat(seat_index=2, display_name="Ben", email="ben@example.org"),
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
    assert message.subject == "Friday mine - Saboteur"  # the first email to this mailbox starts the thread
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
        outbox.enqueue(session, game=row, seat=row.seats[0], kind="your_turn", dedupe_key="turn:0:1", context=TURN)
        raise RuntimeError("the move failed after the email was composed")

    with database.read() as session:
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) == 0


def test_your_turn_lists_what_happened(database, outbox, game) -> None:
    lines = ["Bot 1 played a path card.", "Bot 1 drew a card."]

    message = enqueue(database, outbox, game, 0, "your_turn", "turn:0:2", {**TURN, "lines": lines})

    assert message is not None
    assert all(line in message.body_text and line in message.body_html for line in lines)
    assert "It is your turn" in message.body_text


def test_a_missing_template_variable_is_an_error_not_a_blank(database, outbox, game) -> None:
    with pytest.raises(Exception, match="lines"):
        enqueue(database, outbox, game, 0, "your_turn", "turn:0:3",
                {key: v for key, v in TURN.items() if key != "lines"})


def test_a_seat_without_an_address_cannot_be_mailed(database, outbox, game) -> None:
    with pytest.raises(ValueError, match="no email address"):
        enqueue(database, outbox, game, 1, "your_turn", "turn:1:1", TURN)


# -- one conversation per game and mailbox ---------------------------------------------------------


def test_the_first_email_starts_the_conversation_and_every_later_one_replies_to_it(database, outbox, game) -> None:
    first = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())
    second = enqueue(database, outbox, game, 0, "your_turn", "turn:0:1", TURN)
    third = enqueue(database, outbox, game, 0, "your_turn", "turn:0:2", TURN)

    assert first is not None and second is not None and third is not None
    assert "In-Reply-To" not in first.headers and "References" not in first.headers
    for later in (second, third):
        assert later.subject == "Re: Friday mine - Saboteur"
        assert later.headers["In-Reply-To"] == later.headers["References"] == first.message_id
    assert {m.headers["Thread-Topic"] for m in (first, second, third)} == {"Friday mine - Saboteur"}
    assert len({first.message_id, second.message_id, third.message_id}) == 3


def test_each_player_has_a_conversation_of_their_own(database, outbox, game) -> None:
    ann = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())
    ben = enqueue(database, outbox, game, 2, "game_started", "started:2", started_context())
    ben_later = enqueue(database, outbox, game, 2, "your_turn", "turn:2:1", TURN)

    assert ann is not None and ben is not None and ben_later is not None
    assert ben.subject == "Friday mine - Saboteur" and "In-Reply-To" not in ben.headers
    assert ben_later.headers["In-Reply-To"] == ben.message_id != ann.message_id


def test_a_new_address_for_a_seat_starts_a_new_conversation(database, outbox, game) -> None:
    old = enqueue(database, outbox, game, 0, "game_started", "started:0", started_context())
    with database.write() as session:
        session.get_one(Game, game).seats[0].email = "ann@elsewhere.example"

    new = enqueue(database, outbox, game, 0, "your_turn", "turn:0:1", TURN)

    assert old is not None and new is not None
    assert new.to_address == "ann@elsewhere.example"
    assert new.subject == "Friday mine - Saboteur" and "In-Reply-To" not in new.headers
    with database.read() as session:
        assert session.scalar(select(func.count()).select_from(MailThread)) == 2


def test_host_notices_form_the_hosts_own_conversation(database, outbox, game) -> None:
    context = {"seat_name": "Ann", "address": "ann@example.org", "error": "550 5.1.1 No such user",
               "failed_count": 1, "failed_at": "Mon 5 Jan 2026, 09:00 UTC"}
    with database.write() as session:
        row = session.get_one(Game, game)
        first = outbox.enqueue_to_host(session, game=row, kind="host_mail_failing", dedupe_key="h:1", context=context)
        second = outbox.enqueue_to_host(session, game=row, kind="host_mail_failing", dedupe_key="h:2", context=context)

    assert first is not None and second is not None
    assert (first.to_address, first.seat_id) == ("h@example.org", None)
    assert first.subject == "Host: Friday mine - Saboteur"
    assert second.subject == "Re: Host: Friday mine - Saboteur" and second.headers["References"] == first.message_id
    assert "List-Unsubscribe" not in first.headers


# -- one-click unsubscribe ---------------------------------------------------------------------------


def test_turn_notifications_carry_one_click_unsubscribe_headers_and_a_visible_link(database, outbox, game) -> None:
    message = enqueue(database, outbox, game, 0, "your_turn", "turn:0:1", TURN)

    assert message is not None
    url = message.headers["List-Unsubscribe"].strip("<>")
    assert url.startswith(f"{BASE_URL}/mail/unsubscribe/")
    assert message.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in message.body_text and f'href="{url}"' in message.body_html
    assert message.headers["Auto-Submitted"] == "auto-generated"


def test_mail_that_is_always_sent_offers_no_unsubscribe(database, outbox, game) -> None:
    context = {"result": {"round": 1, "outcome": "Ann reached the gold, so the gold-diggers win.", "seats": [],
                          "spare_roles": [], "saboteur_pay": []},
               "your_values": [3], "your_gold": [3], "your_total": 3, "standings": [],
               "next_line": "Round 2 begins.", "headline": "the gold-diggers won", "link": LINK,
               "link_max_age_days": 30}

    message = enqueue(database, outbox, game, 0, "round_digest", "digest:0:1", context)

    assert message is not None
    assert "List-Unsubscribe" not in message.headers and "unsubscribe" not in message.body_text


def test_two_transactions_starting_one_conversation_at_once_agree_on_its_root(database, game, clock) -> None:
    if database.is_sqlite:
        pytest.skip("SQLite's write lock lets one transaction at a time start a conversation")
    first, second = Session(database.engine), Session(database.engine)
    start = {"recipient": "seat:0", "address": "ann@example.org", "now": clock.now()}
    assert conversation_root(first, game=first.get(Game, game), message_id="<one@pbem.test>", **start) is None

    def first_commits_just_before_the_second_inserts(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if statement.startswith("INSERT INTO mail_threads") and first.in_transaction():
            first.commit()

    event.listen(database.engine, "before_cursor_execute", first_commits_just_before_the_second_inserts)
    try:
        root = conversation_root(second, game=second.get(Game, game), message_id="<two@pbem.test>", **start)
        second.commit()
    finally:
        event.remove(database.engine, "before_cursor_execute", first_commits_just_before_the_second_inserts)
        first.close()
        second.close()

    assert root == "<one@pbem.test>"  # the second email replies to the first instead of starting a thread
    with database.read() as session:
        assert session.scalars(select(MailThread.root_message_id)).all() == ["<one@pbem.test>"]
