"""Each email is written in its recipient's language and says so in `Content-Language`, read from the bytes an SMTP
server received: at one table one seat's mail is German and another's Korean, while the subject, the conversation
and the one-click unsubscribe headers are those of any language."""

from __future__ import annotations

import email.policy
import random
from collections.abc import Iterator
from email.message import EmailMessage
from email.parser import BytesParser

import pytest

from pbem.runtime import Runtime
from tests.support.games import PEOPLE, play_moves, play_until_turn_of
from tests.support.mail import ReceivedMail, SmtpServer

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

LINK_WARNING = {
    "de": "Dieser Link gehört nur dir",
    "en": "This link is yours alone",
    "ko": "이 링크는 나만 써야 해요",
}


def as_sent(received: ReceivedMail) -> EmailMessage:
    message = BytesParser(policy=email.policy.default).parsebytes(received.data)
    assert isinstance(message, EmailMessage)
    return message


def text_part(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def html_part(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


@pytest.fixture
def table_in_three_languages(smtp_runtime: Runtime, smtp_server: SmtpServer) -> Iterator[dict[str, EmailMessage]]:
    """A German game where Ben chose Korean and Cat chose English before it started: each seat's first email."""
    runtime = smtp_runtime
    game_id = runtime.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org",
                                        language="de")
    runtime.seat_languages.choose(game_id, 1, "ko")
    runtime.seat_languages.choose(game_id, 2, "en")
    runtime.games.start_game(game_id)
    runtime.deliverer().run()
    yield {received.rcpt_tos[0]: as_sent(received) for received in smtp_server.received}


@pytest.mark.parametrize(("address", "language"), [
    ("ann@example.org", "de"), ("ben@example.org", "ko"), ("cat@example.org", "en"),
])
def test_each_seats_email_is_in_its_language_and_says_so(
    table_in_three_languages: dict[str, EmailMessage], address: str, language: str
) -> None:
    message = table_in_three_languages[address]

    assert message["Content-Language"] == language
    assert LINK_WARNING[language] in " ".join(text_part(message).split())
    assert LINK_WARNING[language] in html_part(message)
    assert f'<html lang="{language}">' in html_part(message)


def test_the_subject_and_the_conversation_headers_do_not_change_with_the_language(
    table_in_three_languages: dict[str, EmailMessage],
) -> None:
    messages = table_in_three_languages.values()

    assert {message["Subject"] for message in messages} == {"Test mine - Saboteur"}
    assert all(message["Message-ID"] and message["Auto-Submitted"] == "auto-generated" for message in messages)
    assert {message["List-Unsubscribe-Post"] for message in messages} == {"List-Unsubscribe=One-Click"}
    assert all(message["List-Unsubscribe"].startswith("<https://") for message in messages)


def test_a_seats_later_email_follows_its_new_choice(smtp_runtime: Runtime, smtp_server: SmtpServer) -> None:
    runtime = smtp_runtime
    game_id = runtime.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    runtime.games.start_game(game_id)
    runtime.deliverer().run()
    first = [as_sent(received) for received in smtp_server.received if received.rcpt_tos == ["ann@example.org"]]

    runtime.seat_languages.choose(game_id, 0, "ko")
    play_moves(runtime, game_id, 1, random.Random(1))
    play_until_turn_of(runtime, game_id, 0)  # Ann's next turn: an email composed after her choice
    runtime.deliverer().run()
    later = [as_sent(received) for received in smtp_server.received if received.rcpt_tos == ["ann@example.org"]]

    assert [message["Content-Language"] for message in first] == ["en"]
    assert later[-1]["Content-Language"] == "ko"
    assert LINK_WARNING["ko"] in html_part(later[-1])
