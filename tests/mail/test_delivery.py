"""Delivering the outbox to a real SMTP server (aiosmtpd on loopback): what arrives, retries, failures, crashes."""

from __future__ import annotations

import dataclasses
import logging
import random
import re
from datetime import timedelta

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from sqlalchemy import event, select

from pbem.clock import SettableClock
from pbem.config import Config
from pbem.mail.deliver import (
    BATCH,
    STALE_REASON,
    UNWANTED_REASON,
    Deliverer,
    DeliveryReport,
    DeliverySettings,
)
from pbem.mail.smtp import SmtpBackend
from pbem.mail.status import seat_mail_status
from pbem.models import Game, OutboxMessage
from pbem.runtime import Runtime, build_runtime
from pbem.service.turns.values import PlayerSpec
from tests.support.games import PEOPLE, NewGame, link_token, play_moves
from tests.support.mail import (
    ReceivedMail,
    SelfSignedCertificate,
    SmtpServer,
    flat,
    free_port,
    mailbox,
    smtp_config,
    smtp_server_running,
)

ANN_ALONE = [PEOPLE[0], PlayerSpec("Bot 1", is_bot=True), PlayerSpec("Bot 2", is_bot=True)]
LINK = re.compile(r"https://pbem\.test/play/[^\s\"<>]+")


def by_message_id(received: list[ReceivedMail]) -> dict[str, ReceivedMail]:
    ids = [mail.message["Message-ID"] for mail in received]
    assert len(ids) == len(set(ids)), "a message arrived twice"
    return {mail.message["Message-ID"]: mail for mail in received}


def deliverer_to(runtime: Runtime, server: SmtpServer, **mail: object) -> Deliverer:
    return dataclasses.replace(runtime, config=smtp_config(runtime.config, server, **mail)).deliverer()


def nowhere(runtime: Runtime) -> Deliverer:
    """A deliverer whose relay does not answer: nothing listens on its port."""
    mail = dataclasses.replace(runtime.config.mail, backend="smtp", host="127.0.0.1", port=free_port())
    return dataclasses.replace(runtime, config=dataclasses.replace(runtime.config, mail=mail)).deliverer()


# -- what arrives ----------------------------------------------------------------------------------


def test_each_email_arrives_once_for_one_recipient_as_text_and_html_with_its_conversation_headers(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    game_id = new_game()
    rng = random.Random(1)
    sent = smtp_deliverer.run().sent
    for _ in range(2):
        play_moves(runtime, game_id, 1, rng)
        sent += smtp_deliverer.run().sent

    rows = mailbox(runtime)
    assert [row.kind for row in rows] == ["game_started"] * 3 + ["your_turn"] * 2
    assert sent == 5 and [row.status for row in rows] == ["sent"] * 5
    arrived = by_message_id(smtp_server.received)
    assert set(arrived) == {row.message_id for row in rows}
    roots = {row.to_address: row.message_id for row in rows if row.kind == "game_started"}
    for row in rows:
        mail = arrived[row.message_id]
        message = mail.message
        assert mail.rcpt_tos == [row.to_address] and message.get_all("To") == [row.to_address]
        assert message["Cc"] is None and message["Bcc"] is None
        [sender] = message["From"].addresses
        assert sender.addr_spec == mail.mail_from == "saboteur@localhost" and sender.display_name.endswith("Saboteur")
        assert message.get_content_type() == "multipart/alternative"
        html = "multipart/related" if row.kind == "your_turn" else "text/html"  # the turn email's board picture
        assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", html]
        assert message["Subject"] == row.subject
        assert message["Auto-Submitted"] == "auto-generated"
        assert message["List-Unsubscribe"] == row.headers["List-Unsubscribe"]
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        if row.kind == "game_started":
            assert message["In-Reply-To"] is None and message["Subject"] == "Test mine - Saboteur"
        else:
            assert message["In-Reply-To"] == message["References"] == roots[row.to_address]
            assert message["Subject"] == "Re: Test mine - Saboteur"


def test_the_link_in_each_email_opens_the_recipients_own_seat(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    game_id = new_game()
    rng = random.Random(2)
    smtp_deliverer.run()
    for _ in range(3):
        play_moves(runtime, game_id, 1, rng)
        smtp_deliverer.run()

    seats = {person.email: index for index, person in enumerate(PEOPLE)}
    assert len(smtp_server.received) == 6
    for mail in smtp_server.received:
        text = mail.message.get_body(("plain",)).get_content()
        html = mail.message.get_body(("html",)).get_content()
        [link] = set(LINK.findall(text))
        assert f'href="{link}"' in html
        opened = runtime.games.resolve_link(link_token(link))
        assert (opened.game_id, opened.seat) == (game_id, seats[mail.rcpt_tos[0]])


def test_the_catcher_marks_mail_delivered_and_keeps_it_in_the_database(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    new_game()

    report = runtime.deliverer().run()

    rows = mailbox(runtime)
    assert report.sent == 3 and len(rows) == 3
    assert all(row.status == "sent" and row.sent_at == clock.now() and row.body_html for row in rows)


# -- turn emails, written as they go out -------------------------------------------------------------


def waiting_turn_email(runtime: Runtime) -> OutboxMessage:
    """The newest turn email as the outbox holds it (not written for the look, as `mailbox` would)."""
    with runtime.db.read() as session:
        return session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind == "your_turn").order_by(OutboxMessage.id.desc()).limit(1)
        ).one()


def a_turn_email_waiting(runtime: Runtime, new_game: NewGame, deliverer: Deliverer) -> tuple[str, OutboxMessage]:
    """A game one move in, its welcome emails sent: the next player's turn email waits, not written yet."""
    game_id = new_game()
    deliverer.run()
    play_moves(runtime, game_id, 1, random.Random(3))
    return game_id, waiting_turn_email(runtime)


def test_a_move_queues_its_turn_email_unwritten_and_the_deliverer_writes_it_as_it_sends_it(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    _, queued = a_turn_email_waiting(runtime, new_game, smtp_deliverer)
    assert (queued.status, queued.composed, queued.subject) == ("queued", False, None)

    report = smtp_deliverer.run()

    sent = waiting_turn_email(runtime)
    assert report.sent == 1 and sent.status == "sent" and sent.composed
    [mail] = [mail for mail in smtp_server.received if mail.message["Message-ID"] == queued.message_id]
    text = mail.message.get_body(("plain",)).get_content()
    assert mail.rcpt_tos == [queued.to_address] and "It is your turn" in text
    assert sent.body_text is not None and LINK.search(sent.body_text) and LINK.search(text)


def test_a_turn_email_to_a_seat_that_chose_the_daily_digest_before_it_went_is_dropped_unwritten(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    game_id, queued = a_turn_email_waiting(runtime, new_game, smtp_deliverer)
    seat = runtime.games.current_state(game_id).to_act
    assert seat is not None
    runtime.seats.set_notify_mode(game_id, seat, "digest")

    report = smtp_deliverer.run()

    dropped = waiting_turn_email(runtime)
    assert (report.sent, report.dropped) == (0, 1)
    assert (dropped.status, dropped.last_error, dropped.composed) == ("dropped", UNWANTED_REASON, False)
    assert queued.message_id not in {mail.message["Message-ID"] for mail in smtp_server.received}


def test_a_row_that_cannot_be_written_fails_the_host_hears_of_it_and_the_run_goes_on(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id = new_game()
    smtp_deliverer.run()
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        # Only turn emails are written when they go out: any other kind queued unwritten cannot be.
        broken = runtime.outbox.reserve(session, game=game, seat=game.seats[2], kind="daily_digest", dedupe_key="odd")
        assert broken is not None
    play_moves(runtime, game_id, 1, random.Random(3))

    with caplog.at_level(logging.ERROR, logger="pbem.mail.deliver"):
        report = smtp_deliverer.run()

    [failed] = [row for row in mailbox(runtime) if row.dedupe_key == "odd"]
    assert failed.status == "failed" and failed.last_error is not None
    assert failed.last_error.startswith("could not be composed: no way to compose a daily_digest email")
    assert "could not be composed" in caplog.text
    assert waiting_turn_email(runtime).status == "sent"  # the run went on
    [notice] = mailbox(runtime, "host_mail_failing")
    assert notice.to_address == "host@example.org"
    assert report.failed == 1 and report.sent >= 1


# -- temporary failures --------------------------------------------------------------------------


def test_a_temporary_failure_is_retried_after_the_backoff_and_delivered_once_with_the_same_message_id(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer, clock: SettableClock
) -> None:
    new_game(ANN_ALONE)
    smtp_server.handler.answer_next_data("451 4.3.0 Try again later")
    base = timedelta(seconds=runtime.config.mail.retry_base_seconds)

    first = smtp_deliverer.run()
    [row] = mailbox(runtime)
    assert (first.sent, first.retrying) == (0, 1)
    assert (row.status, row.attempts, row.next_attempt_at) == ("queued", 1, clock.now() + base)
    assert row.last_error == "451 4.3.0 Try again later"

    clock.advance(base - timedelta(seconds=1))
    assert smtp_deliverer.run().handled == 0
    clock.advance(timedelta(seconds=1))
    assert smtp_deliverer.run().sent == 1

    [row] = mailbox(runtime)
    assert (row.status, row.attempts, row.last_error) == ("sent", 2, None)
    assert [mail.message["Message-ID"] for mail in smtp_server.received] == [row.message_id]


def test_the_backoff_doubles_from_the_base_and_stops_growing_at_the_cap() -> None:
    settings = DeliverySettings("s@x", timedelta(minutes=10), timedelta(seconds=60), timedelta(seconds=600), 48)

    waits = [settings.backoff(attempt).total_seconds() for attempt in range(1, 8)]

    assert waits == [60, 120, 240, 480, 600, 600, 600]
    assert settings.backoff(10_000) == timedelta(seconds=600)


def test_a_message_that_keeps_failing_temporarily_fails_for_good_after_max_attempts(
    runtime: Runtime, new_game: NewGame, smtp_server: SmtpServer, clock: SettableClock
) -> None:
    new_game(ANN_ALONE)
    deliverer = deliverer_to(runtime, smtp_server, max_attempts=3, retry_base_seconds=10, retry_cap_seconds=15)
    smtp_server.handler.answer_next_data(*["452 4.2.2 Mailbox full"] * 3)

    waits = []
    for _ in range(3):
        before = clock.now()
        deliverer.run()
        [row] = mailbox(runtime, "game_started")
        waits.append(row.next_attempt_at - before)
        clock.advance(timedelta(seconds=15))

    assert waits[:2] == [timedelta(seconds=10), timedelta(seconds=15)]
    assert (row.status, row.attempts) == ("failed", 3)
    assert row.last_error == "452 4.2.2 Mailbox full (given up after 3 attempts)"
    [notice] = mailbox(runtime, "host_mail_failing")
    assert notice.to_address == "host@example.org" and "452 4.2.2 Mailbox full" in flat(notice.body_text)
    assert [mail.rcpt_tos for mail in smtp_server.received] == [["host@example.org"]]  # Ann's never arrived


def test_an_unreachable_relay_delays_one_message_and_ends_the_run_without_touching_the_rest(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    new_game()

    report = nowhere(runtime).run()

    first, *rest = mailbox(runtime)
    assert report.relay_unavailable and (report.sent, report.retrying) == (0, 1)
    assert first.status == "queued" and first.attempts == 1 and "ConnectionRefusedError" in (first.last_error or "")
    assert [(row.status, row.attempts) for row in rest] == [("queued", 0), ("queued", 0)]


def test_a_relay_that_goes_away_halfway_through_a_batch_keeps_what_it_took_and_the_rest_waits_untouched(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    new_game()  # three game_started emails: one batch
    smtp_server.handler.answer_next_data("250 2.0.0 Accepted", "421 4.3.2 Shutting down")

    report = smtp_deliverer.run()

    first, second, third = mailbox(runtime)
    assert report.relay_unavailable and (report.sent, report.retrying) == (1, 1)
    assert (first.status, first.attempts) == ("sent", 1)
    assert (second.status, second.attempts, second.last_error) == ("queued", 1, "421 4.3.2 Shutting down")
    assert (third.status, third.attempts, third.claim_token) == ("queued", 0, None)  # claimed, never tried, given back
    assert [mail.rcpt_tos for mail in smtp_server.received] == [[first.to_address]]


# -- permanent failures --------------------------------------------------------------------------


def test_a_permanent_failure_stops_at_once_and_is_reported_to_the_host_in_logs_and_in_the_seat_status(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id = new_game()
    smtp_server.handler.refuse_recipient("ben@example.org", "550 5.1.1 No such user here")

    with caplog.at_level(logging.WARNING, logger="pbem.mail.deliver"):
        report = smtp_deliverer.run()

    assert (report.sent, report.failed) == (3, 1)  # Ann, Cat and then the host's notice; Ben's failed
    ben = mailbox(runtime, to="ben@example.org")[0]
    assert (ben.kind, ben.status, ben.attempts) == ("game_started", "failed", 1)
    assert ben.last_error == "550 5.1.1 No such user here"
    assert {mail.rcpt_tos[0] for mail in smtp_server.received} == {
        "ann@example.org", "cat@example.org", "host@example.org"}
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "ben@example.org" in record.getMessage() and "550 5.1.1" in record.getMessage()

    [notice] = mailbox(runtime, "host_mail_failing")
    assert notice.to_address == "host@example.org" and notice.status == "sent"
    assert "Ben" in notice.body_text and "ben@example.org" in notice.body_text and "550 5.1.1" in notice.body_text

    statuses = {status.name: status for status in seat_mail_status(runtime.db, game_id)}
    assert statuses["Ben"].in_trouble and (statuses["Ben"].failed, statuses["Ben"].sent) == (1, 0)
    assert statuses["Ben"].last_error == "550 5.1.1 No such user here"
    assert not statuses["Ann"].in_trouble and statuses["Ann"].sent == 1


def test_the_host_hears_once_per_run_of_failures_to_a_seat(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    game_id = new_game(ANN_ALONE)
    rng = random.Random(3)

    def next_email_to_ann(refused: bool) -> None:
        """Ann's mailbox refuses or accepts; the table plays round until Ann's next turn email; it is sent."""
        if refused:
            smtp_server.handler.refuse_recipient("ann@example.org", "550 5.1.1 Mailbox disabled")
        else:
            smtp_server.handler.accept_recipient("ann@example.org")
        smtp_deliverer.run(limit=None)
        play_moves(runtime, game_id, 1, rng)
        while runtime.games.current_state(game_id).to_act != 0:
            play_moves(runtime, game_id, 1, rng)

    for refused in (True, True, False, True):
        next_email_to_ann(refused)

    statuses = [row.status for row in mailbox(runtime, to="ann@example.org")]
    assert statuses == ["failed", "failed", "sent", "failed", "queued"]
    notices = mailbox(runtime, "host_mail_failing")
    assert len(notices) == 2 and {notice.status for notice in notices} == {"sent"}
    assert "2 emails have failed so far" not in notices[0].body_text  # the first notice came at the first failure


# -- crashes and concurrency -----------------------------------------------------------------------


def test_a_deliverer_that_dies_between_claim_and_send_loses_nothing(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer, clock: SettableClock
) -> None:
    new_game(ANN_ALONE)
    [claim] = smtp_deliverer.claim(DeliveryReport(), up_to=1)  # ... and the process dies here
    assert mailbox(runtime)[0].status == "sending"

    assert smtp_deliverer.run().handled == 0  # another deliverer leaves a row under lease alone
    clock.advance(timedelta(seconds=runtime.config.mail.lease_seconds))
    assert smtp_deliverer.run().sent == 1

    [row] = mailbox(runtime)
    assert (row.status, row.attempts) == ("sent", 2)
    assert [mail.message["Message-ID"] for mail in smtp_server.received] == [claim.mail.message_id]


def test_a_turn_email_left_sending_by_a_dead_deliverer_is_dropped_when_its_lease_runs_out_if_the_turn_was_played(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer, clock: SettableClock
) -> None:
    game_id = new_game()
    smtp_deliverer.run()  # the game_started emails
    play_moves(runtime, game_id, 1, random.Random(3))  # the next seat's turn email is queued
    [claim] = smtp_deliverer.claim(DeliveryReport(), up_to=1)  # ... and the process dies here
    play_moves(runtime, game_id, 1, random.Random(4))  # meanwhile that turn is played from the page
    clock.advance(timedelta(seconds=runtime.config.mail.lease_seconds))

    report = smtp_deliverer.run()

    [row] = [row for row in mailbox(runtime, "your_turn") if row.message_id == claim.mail.message_id]
    assert (row.status, row.last_error) == ("dropped", STALE_REASON)
    assert report.dropped == 1 and report.sent == 1  # the turn email that is current now
    assert claim.mail.message_id not in {mail.message["Message-ID"] for mail in smtp_server.received}


def test_a_message_whose_deliverers_keep_dying_is_given_up_after_max_attempts(
    runtime: Runtime, new_game: NewGame, smtp_server: SmtpServer, clock: SettableClock
) -> None:
    new_game(ANN_ALONE)
    deliverer = deliverer_to(runtime, smtp_server, max_attempts=2)
    lease = timedelta(seconds=runtime.config.mail.lease_seconds)
    for _ in range(2):
        assert len(deliverer.claim(DeliveryReport(), up_to=1)) == 1  # ... and dies
        clock.advance(lease)

    report = deliverer.run()

    game_started = mailbox(runtime, "game_started")[0]
    assert (game_started.status, game_started.last_error) == ("failed", "given up after 2 attempts that never finished")
    assert report.failed == 1 and [mail.rcpt_tos for mail in smtp_server.received] == [["host@example.org"]]


def test_a_row_that_cannot_become_an_email_fails_for_good_instead_of_blocking_the_queue(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    new_game()
    first = mailbox(runtime)[0]
    with runtime.db.write() as session:
        session.get_one(OutboxMessage, first.id).headers = {"X-Broken": "line\nInjected: header"}

    report = smtp_deliverer.run()

    assert (report.failed, report.sent) == (1, 3)  # the two other players and the host's notice
    assert mailbox(runtime)[0].last_error.startswith("the message cannot be built")
    assert all("Injected" not in str(mail.message) for mail in smtp_server.received)


def deliver_in_process(config: Config, when: object, results: object) -> None:
    runtime = build_runtime(config, clock=SettableClock(when))  # type: ignore[arg-type]
    try:
        results.put(runtime.deliverer().run(limit=None).message_ids)  # type: ignore[attr-defined]
    finally:
        runtime.close()


@pytest.mark.parametrize("workers_are", ["threads", "processes"])
def test_deliverers_running_at_once_never_send_a_message_twice(
    runtime: Runtime, new_game: NewGame, smtp_runtime: Runtime, smtp_server: SmtpServer, clock: SettableClock,
    workers_are: str,
) -> None:
    for _ in range(8):
        new_game()
    queued = {row.message_id for row in mailbox(runtime)}
    workers = 4

    if workers_are == "threads":
        import threading

        barrier = threading.Barrier(workers)
        sent: list[list[str]] = []

        def work() -> None:
            deliverer = smtp_runtime.deliverer()
            barrier.wait(30)
            sent.append(deliverer.run(limit=None).message_ids)

        threads = [threading.Thread(target=work) for _ in range(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        processes = [
            context.Process(target=deliver_in_process, args=(smtp_runtime.config, clock.now(), results))
            for _ in range(workers)
        ]
        for process in processes:
            process.start()
        sent = [results.get(timeout=120) for _ in processes]
        for process in processes:
            process.join()
            assert process.exitcode == 0

    assert sorted(mid for ids in sent for mid in ids) == sorted(queued)
    assert set(by_message_id(smtp_server.received)) == queued
    assert {row.status for row in mailbox(runtime)} == {"sent"}


# -- after an outage ---------------------------------------------------------------------------------


def test_after_an_outage_stale_turn_mail_is_dropped_and_digests_and_game_over_mail_still_go(
    runtime: Runtime, new_game: NewGame, smtp_deliverer: Deliverer, smtp_server: SmtpServer, clock: SettableClock
) -> None:
    finished = new_game()
    rng = random.Random(5)
    while runtime.games.current_state(finished).status == "active":
        play_moves(runtime, finished, 1, rng)
    running = new_game()
    play_moves(runtime, running, 12, rng)
    during = nowhere(runtime).run()
    assert during.relay_unavailable  # the relay is down...

    clock.advance(timedelta(hours=9))  # ... for hours, while nobody notices
    report = smtp_deliverer.run(limit=None)

    rows = mailbox(runtime)
    now = runtime.games.current_state(running)
    pending_key = f"your_turn:{running}:{now.to_act}:{now.seq}"
    [pending] = [row for row in rows if row.dedupe_key == pending_key]
    stale = [row for row in rows if row.kind == "your_turn" and row is not pending]
    always = [row for row in rows if row.kind in ("game_started", "round_digest", "game_over")]
    assert pending.status == "sent"
    assert {(row.status, row.attempts) for row in stale} == {("dropped", 0)}
    assert during.dropped + report.dropped == len(stale) > 100  # stale mail needs no relay to be dropped
    assert {row.kind for row in always} == {"game_started", "round_digest", "game_over"}
    assert {row.status for row in always} == {"sent"}
    assert ({mail.message["Message-ID"] for mail in smtp_server.received}
            == {row.message_id for row in [*always, pending]})


def test_stale_turn_mail_is_dropped_in_one_statement_however_much_there_is(
    runtime: Runtime, new_game: NewGame, smtp_runtime: Runtime, smtp_deliverer: Deliverer, smtp_server: SmtpServer
) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 40, random.Random(6))  # 40 turn emails queued, 39 of them stale now
    updates: list[str] = []

    def count_updates(_conn, _cursor, statement, *_args) -> None:  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("UPDATE OUTBOX"):
            updates.append(statement)

    event.listen(smtp_runtime.db.engine, "before_cursor_execute", count_updates)
    try:
        report = smtp_deliverer.run()
    finally:
        event.remove(smtp_runtime.db.engine, "before_cursor_execute", count_updates)

    stale = [row for row in mailbox(runtime, "your_turn") if row.status == "dropped"]
    assert report.dropped == len(stale) >= 35  # a random game's turns: mostly the next seat's, some repeat a seat
    assert {row.last_error for row in stale} == {STALE_REASON}
    sent = report.sent  # game_started to each seat and the one turn email still current
    # One for every stale row at once; one claim for the emails sent, a batch's worth, and one record of each as the
    # relay takes it; the current turn email's content, written as it is claimed (the stale ones were never written).
    assert 0 < sent <= BATCH and len(updates) == 1 + 1 + sent + 1
    assert sum(row.composed for row in stale) == 0


# -- TLS and login -----------------------------------------------------------------------------------


class Accounts:
    """An aiosmtpd authenticator that knows one login and remembers who signed in."""

    def __init__(self, user: str, password: str) -> None:
        self._user, self._password = user.encode(), password.encode()
        self.logins: list[str] = []

    def __call__(self, server: object, session: object, envelope: object, mechanism: str, data: object) -> AuthResult:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (self._user, self._password)
        if ok:
            self.logins.append(self._user.decode())
        return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535 itself


def tls_deliverer(
    runtime: Runtime, server: SmtpServer, certificate: SelfSignedCertificate, **mail: object
) -> Deliverer:
    configured = dataclasses.replace(runtime, config=smtp_config(runtime.config, server, **mail))
    return configured.deliverer(SmtpBackend(configured.config.mail, ssl_context=certificate.client_context()))


def test_starttls_with_login_delivers(
    runtime: Runtime, new_game: NewGame, tls_certificate: SelfSignedCertificate
) -> None:
    new_game(ANN_ALONE)
    accounts = Accounts("pbem", "s3cret-pass")
    options = {"tls_context": tls_certificate.server_context(), "require_starttls": True,
               "authenticator": accounts, "auth_required": True}
    with smtp_server_running(**options) as server:
        report = tls_deliverer(
            runtime, server, tls_certificate, tls="starttls", user="pbem", password="s3cret-pass"
        ).run()

        assert report.sent == 1 and len(server.received) == 1
    assert accounts.logins == ["pbem"]


def test_implicit_tls_delivers(runtime: Runtime, new_game: NewGame, tls_certificate: SelfSignedCertificate) -> None:
    new_game(ANN_ALONE)
    with smtp_server_running(ssl_context=tls_certificate.server_context()) as server:
        report = tls_deliverer(runtime, server, tls_certificate, tls="tls").run()

        assert report.sent == 1 and [m.rcpt_tos for m in server.received] == [["ann@example.org"]]


def test_a_refused_login_is_a_relay_problem_retried_later_not_a_lost_message(
    runtime: Runtime, new_game: NewGame, tls_certificate: SelfSignedCertificate
) -> None:
    new_game(ANN_ALONE)
    options = {"tls_context": tls_certificate.server_context(), "require_starttls": True,
               "authenticator": Accounts("pbem", "right"), "auth_required": True}
    with smtp_server_running(**options) as server:
        report = tls_deliverer(runtime, server, tls_certificate, tls="starttls", user="pbem", password="wrong").run()

        assert report.relay_unavailable and server.received == []
    [row] = mailbox(runtime)
    assert row.status == "queued" and "535" in (row.last_error or "")


def test_starttls_that_the_relay_does_not_offer_never_falls_back_to_plain_text(
    runtime: Runtime, new_game: NewGame, smtp_server: SmtpServer, tls_certificate: SelfSignedCertificate
) -> None:
    new_game(ANN_ALONE)

    report = tls_deliverer(runtime, smtp_server, tls_certificate, tls="starttls").run()

    assert report.relay_unavailable and smtp_server.received == []
    assert mailbox(runtime)[0].status == "queued"
