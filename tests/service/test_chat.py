"""Table talk on the turn page and in the chat service: posting, reading, limits, escaping, system lines, paging.

Through the Flask test client (forms as a browser posts them, JSON as the page's script asks for it) and
through `ChatService` directly, as other services (the scheduler's sweep, the host's page) call it.
"""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.clock import SettableClock
from pbem.errors import RateLimited, ValidationError
from pbem.models import ChatMessage, Game, Seat
from pbem.runtime import Runtime
from pbem.service.talk.chat import MAX_LENGTH, PER_MINUTE, clean_text, post_system_line
from tests.support.database import dump
from tests.support.games import seat_token, store_game
from tests.support.web import form_fields, open_table


@pytest.fixture
def game(runtime_of: Runtime) -> str:
    """Ann, Ben and Cat; Ann (seat 0) is to play."""
    return store_game(runtime_of, engine.new_game(["Ann", "Ben", "Cat"], seed=1))


def post(client: FlaskClient, game_id: str, page: str, text: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.post(
        f"/table/{game_id}/chat", data={"csrf_token": form_fields(page)["csrf_token"], "text": text}, headers=headers
    )


def chat_section(page: str) -> str:
    start = page.index('<section class="chat"')
    return page[start : page.index("</section>", start)]


def texts(runtime: Runtime, game_id: str) -> list[tuple[str | None, str]]:
    return [(line.name, line.text) for line in runtime.chat.messages(game_id).lines]


# -- posting from the page ------------------------------------------------------------------------------


def test_a_seat_that_is_not_to_play_posts_and_every_seat_reads_it_newest_last(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)

    first = post(client, game, ben, "Good luck, everyone.")
    second = post(client, game, ben, "Ann, why so quiet?")

    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == f"/table/{game}#chat"  # POST-redirect-GET, back to the chat
    cat_client = client.application.test_client()
    cat = chat_section(open_table(cat_client, runtime_of, game, 2))
    assert cat.index("Good luck, everyone.") < cat.index("Ann, why so quiet?")
    assert '<span class="chat-name">Ben</span>' in cat and "(you)" not in cat
    assert "Mon 5 Jan, 09:00 UTC" in cat  # sender name and local time
    assert texts(runtime_of, game) == [("Ben", "Good luck, everyone."), ("Ben", "Ann, why so quiet?")]


def test_text_is_escaped_and_links_are_not_made_into_links(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)
    hostile = '<script>alert("x")</script> <img src="https://evil.test/p.png"> https://evil.test/look'

    post(client, game, ben, hostile)

    section = chat_section(client.get(f"/table/{game}").get_data(as_text=True))
    assert html.escape(hostile, quote=False) in section.replace("&#34;", '"').replace("&quot;", '"')
    assert "<script>" not in section and "<img" not in section and "<a " not in section


def test_a_message_over_the_length_limit_is_refused_and_changes_nothing(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)
    before = dump(runtime_of.db)

    response = post(client, game, ben, "x" * (MAX_LENGTH + 1))

    assert response.status_code == 400
    assert f"at most {MAX_LENGTH:,} characters" in html.unescape(response.get_data(as_text=True))
    assert dump(runtime_of.db) == before


def test_exactly_the_limit_is_accepted(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)

    assert post(client, game, ben, "y" * MAX_LENGTH).status_code == 303


def test_an_empty_message_is_refused_and_changes_nothing(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)
    before = dump(runtime_of.db)

    response = post(client, game, ben, " \n\t \u200f ")

    assert response.status_code == 400
    assert "empty" in response.get_data(as_text=True)
    assert dump(runtime_of.db) == before


def test_a_post_without_the_forms_token_is_refused_and_changes_nothing(client, runtime_of, game) -> None:
    open_table(client, runtime_of, game, 1)
    before = dump(runtime_of.db)

    missing = client.post(f"/table/{game}/chat", data={"text": "hello"})
    wrong = client.post(f"/table/{game}/chat", data={"text": "hello", "csrf_token": "guessed"})

    assert missing.status_code == wrong.status_code == 400
    assert dump(runtime_of.db) == before


def test_a_browser_without_the_seats_link_can_neither_read_nor_post(client, runtime_of, game) -> None:
    runtime_of.chat.post(game, 0, "Only for the table.")
    stranger = client.application.test_client()
    with stranger.session_transaction() as session:
        session["csrf"] = "known"

    read = stranger.get(f"/table/{game}/chat.json")
    posted = stranger.post(f"/table/{game}/chat", data={"text": "hi", "csrf_token": "known"})

    assert read.status_code == posted.status_code == 403
    assert "Only for the table." not in read.get_data(as_text=True)
    assert texts(runtime_of, game) == [("Ann", "Only for the table.")]


def test_posting_too_fast_is_refused_until_the_window_has_passed(
    client, runtime_of, game, clock: SettableClock
) -> None:
    ben = open_table(client, runtime_of, game, 1)
    for n in range(PER_MINUTE.count):
        assert post(client, game, ben, f"message {n}").status_code == 303

    refused = post(client, game, ben, "one too many", Accept="application/json")
    clock.advance(PER_MINUTE.window)
    later = post(client, game, ben, "calmer now")

    assert refused.status_code == 429
    assert refused.get_json()["error"] == "rate_limited"
    assert later.status_code == 303
    assert texts(runtime_of, game)[-1] == ("Ben", "calmer now")
    assert ("Ben", "one too many") not in texts(runtime_of, game)


def test_each_seat_has_its_own_rate_limit(client, runtime_of, game) -> None:
    for n in range(PER_MINUTE.count):
        runtime_of.chat.post(game, 1, f"Ben {n}")
    with pytest.raises(RateLimited):
        runtime_of.chat.post(game, 1, "Ben again")

    runtime_of.chat.post(game, 2, "Cat may still talk")

    assert texts(runtime_of, game)[-1] == ("Cat", "Cat may still talk")


# -- the page's script -----------------------------------------------------------------------------------


def test_the_script_posts_and_gets_the_message_back_as_json(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)

    response = post(client, game, ben, "By script.", Accept="application/json")

    assert response.status_code == 201
    message = response.get_json()["message"]
    assert (message["name"], message["text"], message["kind"], message["is_you"]) == ("Ben", "By script.", "seat", True)
    assert message["when"] == "Mon 5 Jan, 09:00 UTC"


def test_chat_json_lists_what_came_after_an_id_and_changes_nothing(client, runtime_of, game) -> None:
    open_table(client, runtime_of, game, 1)
    for seat, text in ((0, "one"), (2, "two"), (1, "three")):
        runtime_of.chat.post(game, seat, text)
    first_id = runtime_of.chat.messages(game).lines[0].id
    before = dump(runtime_of.db)

    everything = client.get(f"/table/{game}/chat.json").get_json()
    newer = client.get(f"/table/{game}/chat.json?after={first_id}").get_json()
    head = client.head(f"/table/{game}/chat.json")

    assert [m["text"] for m in everything["messages"]] == ["one", "two", "three"]
    assert [(m["name"], m["is_you"]) for m in newer["messages"]] == [("Cat", False), ("Ben", True)]
    assert newer["last_id"] == everything["messages"][-1]["id"]
    assert head.status_code == 200
    assert dump(runtime_of.db) == before


def test_the_script_gets_each_time_to_the_second_as_the_page_gives_it(
    client: FlaskClient, runtime_of: Runtime, game: str, clock: SettableClock
) -> None:
    clock.advance(timedelta(seconds=1, microseconds=654_321))  # a real clock's moments have fractions of a second
    ben = open_table(client, runtime_of, game, 1)

    posted = post(client, game, ben, "By script.", Accept="application/json").get_json()["message"]
    listed = client.get(f"/table/{game}/chat.json").get_json()["messages"]
    page = client.get(f"/table/{game}").get_data(as_text=True)

    assert posted["at"] == listed[-1]["at"] == "2026-01-05T09:00:01+00:00"
    assert '<time class="chat-when" datetime="2026-01-05T09:00:01+00:00">' in chat_section(page)


def test_chat_json_refuses_a_malformed_position(client, runtime_of, game) -> None:
    open_table(client, runtime_of, game, 1)

    response = client.get(f"/table/{game}/chat.json?after=yesterday")

    assert response.status_code == 400
    assert response.get_json()["error"] == "invalid_input"


def test_the_page_reports_what_it_has_shown_never_beyond_the_newest_and_never_backwards(
    client, runtime_of, game
) -> None:
    ben = open_table(client, runtime_of, game, 1)
    token = form_fields(ben)["csrf_token"]
    runtime_of.chat.post(game, 0, "first")
    runtime_of.chat.post(game, 2, "second")
    first, second = (line.id for line in runtime_of.chat.messages(game).lines)

    client.post(f"/table/{game}/chat/read", data={"upto": str(second + 50), "csrf_token": token})
    capped = read_mark(runtime_of, game, 1)
    client.post(f"/table/{game}/chat/read", data={"upto": str(first), "csrf_token": token})

    assert capped == second
    assert read_mark(runtime_of, game, 1) == second
    assert client.post(f"/table/{game}/chat/read", data={"upto": "1"}).status_code == 400  # no token


def read_mark(runtime: Runtime, game_id: str, seat: int) -> int | None:
    with runtime.db.read() as session:
        return session.scalar(
            select(Seat.chat_read_upto).join(Game).where(Game.public_id == game_id, Seat.seat_index == seat)
        )


def test_posting_from_the_page_counts_as_having_read_the_chat(client, runtime_of, game) -> None:
    runtime_of.chat.post(game, 0, "Anyone?")
    ben = open_table(client, runtime_of, game, 1)

    post(client, game, ben, "Here.")

    assert read_mark(runtime_of, game, 1) == runtime_of.chat.messages(game).lines[-1].id


# -- settings, history, the link form of the address ------------------------------------------------------


def test_a_seat_switches_chat_emails_on_and_off_from_the_page(client, runtime_of, game) -> None:
    ben = open_table(client, runtime_of, game, 1)
    token = form_fields(ben)["csrf_token"]

    on = client.post(f"/table/{game}/chat/settings", data={"chat_emails": "yes", "csrf_token": token})
    page_on = client.get(f"/table/{game}").get_data(as_text=True)
    off = client.post(f"/table/{game}/chat/settings", data={"csrf_token": token})

    assert on.status_code == off.status_code == 303
    assert 'name="chat_emails" value="yes" checked' in page_on
    assert "Saved: an email when people write at the table" in page_on
    assert runtime_of.chat.seat_view(game, 1).chat_emails is False


def test_the_panel_shows_the_newest_messages_and_earlier_ones_page_by_page(client, runtime_of, game) -> None:
    with runtime_of.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game)).one()
        for n in range(150):
            post_system_line(session, row, f"line {n}", "test", now=runtime_of.clock.now())
    section = chat_section(open_table(client, runtime_of, game, 1))
    oldest_shown = runtime_of.chat.messages(game, limit=40).lines[0].id

    earlier = client.get(f"/table/{game}/chat/history?before={oldest_shown}").get_data(as_text=True)
    first_of_earlier = runtime_of.chat.messages(game, before=oldest_shown, limit=100).lines[0].id
    start = client.get(f"/table/{game}/chat/history?before={first_of_earlier}").get_data(as_text=True)

    assert ">line 149<" in section and ">line 110<" in section and ">line 109<" not in section
    assert f"/chat/history?before={oldest_shown}" in section
    assert ">line 109<" in earlier and ">line 10<" in earlier and ">line 9<" not in earlier
    assert f"/chat/history?before={first_of_earlier}" in earlier and "Earlier still" in earlier
    assert ">line 0<" in start and ">line 9<" in start and ">line 10<" not in start
    assert "Earlier still" not in start


def test_the_chat_works_through_the_link_address_too(client, runtime_of, game) -> None:
    token = seat_token(runtime_of, game, 2)
    page = client.get(f"/play/{token}", follow_redirects=True).get_data(as_text=True)

    response = client.post(
        f"/play/{token}/chat", data={"text": "via the link", "csrf_token": form_fields(page)["csrf_token"]}
    )

    assert response.status_code == 303 and response.headers["Location"] == f"/play/{token}#chat"
    assert texts(runtime_of, game) == [("Cat", "via the link")]


# -- the service: cleaning, system lines, the host ------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("  hello  ", "hello"),
        ("line one  \r\nline two\rline three", "line one\nline two\nline three"),
        ("a\n\n\n\n\nb", "a\n\nb"),
        ("tab\there", "tab here"),
        ("bell\x07 and null\x00 gone", "bell and null gone"),
        ("abc\u202edcba", "abcdcba"),  # a direction override cannot make text read backwards
        ("\ufeffBOM", "BOM"),
        ("cafe\u0301", "café"),  # NFC
        ("emoji 👍🏽 and 👨‍👩‍👧 stay", "emoji 👍🏽 and 👨‍👩‍👧 stay"),
    ],
)
def test_text_is_cleaned_of_control_characters_and_extra_blank_lines(raw: str, cleaned: str) -> None:
    assert clean_text(raw) == cleaned


@pytest.mark.parametrize("raw", ["", "   ", "\n\n", "\x00\x01", None, 42])
def test_nothing_to_say_is_a_validation_error(raw: object) -> None:
    with pytest.raises(ValidationError):
        clean_text(raw)


def test_a_system_line_is_written_in_the_callers_transaction_and_only_if_it_commits(runtime, new_game) -> None:
    game_id = new_game()

    with pytest.raises(RuntimeError), runtime.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        runtime.chat.post_system_line(session, row, "Ben timed out.", "timeout")
        raise RuntimeError("the sweep failed after writing the line")
    with runtime.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        runtime.chat.post_system_line(session, row, "Ben timed out; a card was discarded for him.", "timeout")

    [line] = runtime.chat.messages(game_id).lines
    assert (line.kind, line.name, line.seat, line.source, line.is_system) == ("system", None, None, "system", True)
    assert line.text == "Ben timed out; a card was discarded for him."
    with runtime.db.read() as session:
        assert session.scalars(select(ChatMessage.system_kind)).one() == "timeout"


def test_a_system_line_kind_must_be_a_short_word(runtime, new_game) -> None:
    game_id = new_game()
    with pytest.raises(ValueError), runtime.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        runtime.chat.post_system_line(session, row, "text", "Not A Kind!")


def test_system_lines_are_styled_apart_on_the_page(client, runtime_of, game) -> None:
    with runtime_of.db.write() as session:
        row = session.scalars(select(Game).where(Game.public_id == game)).one()
        runtime_of.chat.post_system_line(session, row, "Cat's seat changed hands: Dan plays it now.", "hand_change")

    section = chat_section(open_table(client, runtime_of, game, 1))

    assert '<li class="chat-line chat-system"' in section
    assert "Cat&#39;s seat changed hands: Dan plays it now." in section


def test_the_host_reads_the_whole_chat_and_may_speak(runtime, new_game) -> None:
    game_id = new_game()
    runtime.chat.post(game_id, 1, "Hello host.")

    line = runtime.chat.post_as_host(game_id, "Play nicely, miners.")
    lines = runtime.chat.messages(game_id).lines

    assert [(entry.kind, entry.name, entry.text) for entry in lines] == [
        ("seat", "Ben", "Hello host."), ("host", "Host", "Play nicely, miners."),
    ]
    assert line == lines[-1]


def test_a_message_keeps_the_name_it_was_written_under(runtime, new_game) -> None:
    game_id = new_game()
    runtime.chat.post(game_id, 2, "I am Cat.")
    with runtime.db.write() as session:
        seat = session.scalars(select(Seat).join(Game).where(Game.public_id == game_id, Seat.seat_index == 2)).one()
        seat.display_name = "Dan"

    runtime.chat.post(game_id, 2, "And I am Dan.")

    assert [(line.name, line.seat) for line in runtime.chat.messages(game_id).lines] == [("Cat", 2), ("Dan", 2)]


def test_the_listing_pages_backwards_and_forwards(runtime, new_game) -> None:
    game_id = new_game()
    for n in range(7):
        runtime.chat.post(game_id, n % 3, f"m{n}")
    ids = [line.id for line in runtime.chat.messages(game_id).lines]

    newest = runtime.chat.messages(game_id, limit=3)
    older = runtime.chat.messages(game_id, before=newest.lines[0].id, limit=3)
    oldest = runtime.chat.messages(game_id, before=older.lines[0].id, limit=3)
    after = runtime.chat.messages(game_id, after=ids[1], limit=2)

    assert [line.text for line in newest.lines] == ["m4", "m5", "m6"] and newest.has_earlier
    assert [line.text for line in older.lines] == ["m1", "m2", "m3"] and older.has_earlier
    assert [line.text for line in oldest.lines] == ["m0"] and not oldest.has_earlier
    assert [line.text for line in after.lines] == ["m2", "m3"]


def test_games_do_not_share_their_chat(runtime, new_game) -> None:
    first, second = new_game(), new_game()
    runtime.chat.post(first, 0, "in the first mine")

    assert runtime.chat.messages(second).lines == []
    assert len(runtime.chat.messages(first).lines) == 1


def test_rate_limit_windows_are_counted_per_minute_and_per_hour(runtime, new_game, clock: SettableClock) -> None:
    game_id = new_game()
    sent = 0
    for _ in range(12):
        for _ in range(PER_MINUTE.count):
            try:
                runtime.chat.post(game_id, 0, f"message {sent}")
                sent += 1
            except RateLimited:
                pass
        clock.advance(timedelta(minutes=1))

    assert sent == 80  # the hourly limit stops a steady stream of 8 a minute after ten minutes
