"""Table talk reaching the inbox: excerpts in turn emails and daily digests, batched chat emails, Reply-To.

Every email to a seat quotes the messages that seat has not been shown (on its page or in an earlier
email), its own left out, the newest few with "and N more on the page". Seats that asked get a chat email,
at most one per 15 minutes (the injected clock moves, nobody sleeps).
"""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from sqlalchemy import select, update

import engine
from pbem.clock import SettableClock
from pbem.mail.reply_address import TOKEN_LENGTH
from pbem.models import Game, OutboxMessage, Seat
from pbem.runtime import Runtime
from pbem.service.letters.chat_mail import CHAT_EMAIL_GAP, queue_due_chat_emails
from pbem.service.letters.daily import queue_due_daily_digests
from pbem.service.letters.host_notices import enqueue_stalling_notice
from pbem.service.talk.chat_lines import EMAIL_EXCERPT
from tests.support.games import PEOPLE, NewGame, random_move
from tests.support.imap import REPLY_ADDRESS
from tests.support.mail import flat, mailbox

ADDRESS = {0: "ann@example.org", 1: "ben@example.org", 2: "cat@example.org"}


def play_until_seat_is_to_act(runtime: Runtime, game_id: str, seat: int, rng: random.Random) -> None:
    """Moves by others until `seat`'s turn comes (its your_turn email is then queued)."""
    while True:
        state, _ = runtime.games.engine_state(game_id)
        if engine.to_act(state) == seat:
            return
        mover, move, seq = random_move(runtime, game_id, rng)
        runtime.games.submit_move(game_id, mover, move, seq, f"m-{seq}")


def newest(runtime: Runtime, kind: str, seat: int) -> OutboxMessage:
    return mailbox(runtime, kind, ADDRESS[seat])[-1]


def first_to_act(runtime: Runtime, game_id: str) -> int:
    seat = engine.to_act(runtime.games.engine_state(game_id)[0])
    assert seat is not None
    return seat


def system_line(runtime: Runtime, game_id: str, text: str) -> None:
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        runtime.chat.post_system_line(session, game, text, "test")


# -- turn emails and daily digests ---------------------------------------------------------------------------


def test_a_turn_email_quotes_what_others_said_since_the_recipient_last_looked(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    first = first_to_act(runtime, game_id)
    recipient = (first + 1) % 3
    other = (first + 2) % 3
    runtime.chat.post(game_id, recipient, "My own words need no email.")
    runtime.chat.post(game_id, other, "I have my eye on you.")
    system_line(runtime, game_id, "The host paused the game.")

    play_until_seat_is_to_act(runtime, game_id, recipient, random.Random(1))

    email = newest(runtime, "your_turn", recipient)
    names = ["Ann", "Ben", "Cat"]
    assert "Table talk since you last looked (times in UTC):" in email.body_text
    assert f"[Mon 5 Jan, 09:00] {names[other]}: I have my eye on you." in email.body_text
    assert "[Mon 5 Jan, 09:00] * The host paused the game." in email.body_text
    assert "My own words" not in email.body_text and "My own words" not in email.body_html
    assert f"<strong>{names[other]}</strong>: I have my eye on you." in email.body_html
    assert "more on the page" not in email.body_text


def test_a_long_chat_is_capped_with_and_n_more_on_the_page(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    recipient = (first_to_act(runtime, game_id) + 1) % 3
    for n in range(EMAIL_EXCERPT + 3):
        system_line(runtime, game_id, f"Line number {n}.")

    play_until_seat_is_to_act(runtime, game_id, recipient, random.Random(2))

    email = newest(runtime, "your_turn", recipient)
    assert "Line number 2." not in email.body_text  # the oldest three are left to the page
    assert all(f"Line number {n}." in email.body_text for n in range(3, EMAIL_EXCERPT + 3))
    assert email.body_text.index("Line number 3.") < email.body_text.index(f"Line number {EMAIL_EXCERPT + 2}.")
    assert "... and 3 more on the page" in email.body_text and "... and 3 more on the page" in email.body_html


def test_what_one_email_quoted_the_next_does_not_repeat(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    recipient = (first_to_act(runtime, game_id) + 1) % 3
    system_line(runtime, game_id, "Said once.")
    rng = random.Random(3)
    play_until_seat_is_to_act(runtime, game_id, recipient, rng)
    first = newest(runtime, "your_turn", recipient)  # composed as it goes out, before the recipient plays
    seat, move, seq = random_move(runtime, game_id, rng)
    runtime.games.submit_move(game_id, seat, move, seq, f"m-{seq}")

    play_until_seat_is_to_act(runtime, game_id, recipient, rng)

    second = newest(runtime, "your_turn", recipient)
    assert "Said once." in first.body_text
    assert "Said once." not in second.body_text and "Table talk" not in second.body_text


def test_messages_the_page_has_shown_are_not_emailed(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    first = first_to_act(runtime, game_id)
    recipient = (first + 1) % 3
    runtime.chat.post(game_id, first, "Seen on the page.")
    runtime.chat.mark_read(game_id, recipient, runtime.chat.messages(game_id).lines[-1].id)
    runtime.chat.post(game_id, first, "Not seen yet.")

    play_until_seat_is_to_act(runtime, game_id, recipient, random.Random(4))

    email = newest(runtime, "your_turn", recipient)
    assert "Seen on the page." not in email.body_text and "Not seen yet." in email.body_text


def test_the_html_part_shows_chat_text_escaped_and_without_links(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    first = first_to_act(runtime, game_id)
    recipient = (first + 1) % 3
    runtime.chat.post(game_id, first, '<a href="https://evil.test">click</a> & <img src=x>\nsecond line')

    play_until_seat_is_to_act(runtime, game_id, recipient, random.Random(5))

    email = newest(runtime, "your_turn", recipient)
    escaped = "&lt;a href=&#34;https://evil.test&#34;&gt;click&lt;/a&gt; &amp; &lt;img src=x&gt;<br>second line"
    assert escaped in email.body_html
    assert '<a href="https://evil.test"' not in email.body_html and "<img src=x>" not in email.body_html
    assert '<a href="https://evil.test">click</a> & <img src=x> second line' in flat(email.body_text)


def test_a_daily_digest_quotes_the_days_table_talk(runtime: Runtime, new_game: NewGame, clock: SettableClock) -> None:
    game_id = new_game()
    with runtime.db.write() as session:
        session.execute(update(Seat).where(Seat.seat_index == 2).values(notify_mode="digest"))
    runtime.chat.post(game_id, 2, "Cat's own message.")
    runtime.chat.post(game_id, 0, "Cat, are you there?")

    clock.advance(timedelta(days=1))
    assert queue_due_daily_digests(runtime.db, clock, runtime.games.mail) == 1

    digest = newest(runtime, "daily_digest", 2)
    assert "[Mon 5 Jan, 09:00] Ann: Cat, are you there?" in digest.body_text
    assert "Cat's own message." not in digest.body_text
    assert "Cat, are you there?" in digest.body_html


# -- chat emails, batched ------------------------------------------------------------------------------------


def chat_emails_of(runtime: Runtime, seat: int) -> list[OutboxMessage]:
    return mailbox(runtime, "chat_messages", ADDRESS[seat])


def queue(runtime: Runtime) -> int:
    return queue_due_chat_emails(runtime.db, runtime.clock, runtime.games.mail)


def test_chat_emails_go_out_at_once_then_at_most_one_every_15_minutes(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    runtime.chat.set_chat_emails(game_id, 1, True)
    assert queue(runtime) == 0  # nothing said yet

    runtime.chat.post(game_id, 0, "First accusation.")
    assert queue(runtime) == 1
    clock.advance(timedelta(minutes=1))
    runtime.chat.post(game_id, 2, "Second accusation.")
    runtime.chat.post(game_id, 0, "Third accusation.")
    assert queue(runtime) == 0
    clock.advance(CHAT_EMAIL_GAP - timedelta(minutes=1, seconds=1))
    assert queue(runtime) == 0
    clock.advance(timedelta(seconds=1))
    assert queue(runtime) == 1
    assert queue(runtime) == 0

    first, second = chat_emails_of(runtime, 1)
    assert "Ann: First accusation." in first.body_text and "Second" not in first.body_text
    assert "Cat: Second accusation." in second.body_text and "Ann: Third accusation." in second.body_text
    assert "First accusation." not in second.body_text
    assert first.created_at == second.created_at - CHAT_EMAIL_GAP
    assert "untick \"Email me new messages\"" in first.body_text
    assert chat_emails_of(runtime, 0) == chat_emails_of(runtime, 2) == []  # they did not ask


def test_no_chat_email_for_what_the_seat_read_on_the_page_or_wrote_itself(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    runtime.chat.set_chat_emails(game_id, 1, True)
    runtime.chat.post(game_id, 1, "Ben's own words.")
    assert queue(runtime) == 0
    runtime.chat.post(game_id, 0, "Read on the page.")
    runtime.chat.mark_read(game_id, 1, runtime.chat.messages(game_id).lines[-1].id)

    assert queue(runtime) == 0
    assert chat_emails_of(runtime, 1) == []


def test_a_turn_email_that_quoted_the_chat_leaves_nothing_for_a_chat_email(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    first = first_to_act(runtime, game_id)
    recipient = (first + 1) % 3
    runtime.chat.set_chat_emails(game_id, recipient, True)
    runtime.chat.post(game_id, first, "Quoted in the turn email.")

    play_until_seat_is_to_act(runtime, game_id, recipient, random.Random(6))

    assert queue(runtime) == 0  # the turn email waiting to go out will quote it
    assert "Quoted in the turn email." in newest(runtime, "your_turn", recipient).body_text
    assert queue(runtime) == 0


def test_chat_left_to_a_turn_email_that_was_dropped_unsent_gets_its_chat_email(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    first = first_to_act(runtime, game_id)
    recipient = (first + 1) % 3
    runtime.chat.set_chat_emails(game_id, recipient, True)
    runtime.chat.post(game_id, first, "Did you see my tunnel?")
    rng = random.Random(6)
    play_until_seat_is_to_act(runtime, game_id, recipient, rng)
    assert queue(runtime) == 0
    seat, move, seq = random_move(runtime, game_id, rng)
    runtime.games.submit_move(game_id, seat, move, seq, f"m-{seq}")  # played from the page before the email went
    runtime.deliverer().run()  # the turn email is dropped, never written

    assert queue(runtime) == 1
    [chat_email] = chat_emails_of(runtime, recipient)
    assert "Did you see my tunnel?" in (chat_email.body_text or "")


def test_schedulers_racing_for_the_same_chat_email_send_it_once(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    for seat in (0, 1, 2):
        runtime.chat.set_chat_emails(game_id, seat, True)
    system_line(runtime, game_id, "Everyone should hear this once.")

    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(lambda _: queue(runtime), range(4)))

    assert sum(counts) == 3
    assert [len(chat_emails_of(runtime, seat)) for seat in (0, 1, 2)] == [1, 1, 1]


def test_turning_chat_emails_off_stops_them(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    runtime.chat.set_chat_emails(game_id, 1, True)
    runtime.chat.set_chat_emails(game_id, 1, False)
    runtime.chat.post(game_id, 0, "Anyone?")

    assert queue(runtime) == 0


# -- Reply-To --------------------------------------------------------------------------------------------------


def test_every_player_email_carries_a_reply_address_signed_for_its_seat(reply_runtime: Runtime) -> None:
    runtime = reply_runtime
    game_id = runtime.games.create_game(
        title="Friday mine", players=PEOPLE,
        host_email="host@example.org",
    )
    runtime.games.start_game(game_id)

    welcomes = mailbox(runtime, "game_started")
    replies = runtime.outbox.replies
    assert replies is not None
    tokens = []
    for seat, email in enumerate(welcomes):
        reply_to = email.headers["Reply-To"]
        assert reply_to.startswith('"Friday mine (table talk)" <play+') and reply_to.endswith('@replies.pbem.test>')
        address = reply_to.split("<")[1].rstrip(">")
        token = replies.token_in(address)
        assert token is not None and len(token) == TOKEN_LENGTH and len(address.split("@")[0]) <= 64
        with runtime.db.read() as session:
            seat_row = session.get_one(Seat, replies.verify(token).seat_pk)
            assert (seat_row.seat_index, seat_row.email) == (seat, email.to_address)
        tokens.append(token)
        assert "Reply to this email to talk to the table" in email.body_text
        assert "Reply to this email to talk to the table" in email.body_html
    assert len(set(tokens)) == 3


def test_without_a_reply_address_there_is_no_reply_to(runtime: Runtime, new_game: NewGame) -> None:
    new_game()

    for email in mailbox(runtime, "game_started"):
        assert "Reply-To" not in email.headers
        assert "Reply to this email" not in email.body_text


def test_host_notices_carry_no_reply_address(reply_runtime: Runtime, clock: SettableClock) -> None:
    runtime = reply_runtime
    game_id = runtime.games.create_game(
        title="Friday mine", players=PEOPLE,
        host_email="host@example.org",
    )
    runtime.games.start_game(game_id)
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        seat = game.seats[game.to_act_seat or 0]
        enqueue_stalling_notice(session, runtime.outbox, game=game, seat=seat, now=clock.now(), reminders_sent=3)

    [notice] = mailbox(runtime, "host_player_stalling")
    assert "Reply-To" not in notice.headers
    assert REPLY_ADDRESS.split("@")[1] not in notice.body_text
