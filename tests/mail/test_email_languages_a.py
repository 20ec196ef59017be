"""A table whose seats read different languages: each seat's round digest is written in its own, its subject, inbox
line, text and HTML parts and its sender's name alike, while the conversation's headers are those of any language.
Read from the outbox rows and from the bytes the deliverer would send."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage
from email.parser import BytesParser
from types import SimpleNamespace

import pytest

import engine
from pbem.i18n import in_language
from pbem.mail.message import build_message, outgoing_mail, sender, wire_bytes
from pbem.mail.outbox import email_templates, inbox_line
from pbem.models import OutboxMessage
from pbem.runtime import Runtime
from pbem.service.emails import PLAYER_DAILY, SPECTATOR_ROUND_END
from tests.support.games import Arranged, play, play_until_turn_of
from tests.support.mail import flat, mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

FROM = "Saboteur <game@pbem.test>"


def round_one_ends(runtime: Runtime, arranged_game: Arranged, languages: dict[int, str]) -> str:
    """Ann lays the last card to the gold in round 1 and the gold cards are picked; the seats in `languages` chose
    theirs before."""
    state = arrange(4, board=TO_THE_GOALS, hands={0: ["straight_ew"]}, gold=(8, 0), turn=0,
                    roles=["digger", "digger", "saboteur", "digger"])
    game_id = arranged_game(state)
    for seat, language in languages.items():
        runtime.seat_languages.choose(game_id, seat, language)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})
    while (current := runtime.games.engine_state(game_id)[0]).phase == engine.GOLD_PICK:
        picker = engine.to_act(current)
        assert picker is not None
        play(runtime, game_id, picker, {"type": "pick_gold", "value": max(current.offer)})
    return game_id


def digest_to(runtime: Runtime, address: str) -> OutboxMessage:
    [row] = mailbox(runtime, "round_digest", to=address)
    return row


def as_sent(row: OutboxMessage) -> EmailMessage:
    """The row as the deliverer's bytes carry it, parsed back as a mail client would."""
    message = BytesParser(policy=email.policy.default).parsebytes(wire_bytes(build_message(outgoing_mail(row), FROM)))
    assert isinstance(message, EmailMessage)
    return message


@pytest.fixture
def digests(runtime: Runtime, arranged_game: Arranged) -> dict[str, OutboxMessage]:
    """Ann reads German, Bo Korean, Cy and Di English (Di, unlike the others, never chose)."""
    round_one_ends(runtime, arranged_game, {0: "de", 1: "ko", 2: "en"})
    return {name: digest_to(runtime, f"{name}@example.org") for name in ("ann", "bo", "cy", "di")}


def test_the_german_seats_round_digest_is_german(digests: dict[str, OutboxMessage]) -> None:
    row = digests["ann"]
    text, html = flat(row.body_text), row.body_html or ""

    assert row.headers["Content-Language"] == "de"
    assert "Runde 1: " in text and "<strong>Runde 1:</strong>" in html  # the round's result
    assert "Ann (du): Goldsucher" in text and "<strong>Ann</strong> (du)" in html
    assert ">Spieler</th>" in html and ">Rolle</th>" in html and ">Goldkarten</th>" in html
    assert "WAS IN RUNDE 1 WIRKLICH GESCHAH" in text  # the fairness part, its heading as the text part writes it
    assert "<strong>Rollen:</strong> Ann: Goldsucher; Bo: Goldsucher; Cy: Saboteur; Di: Goldsucher." in html
    assert "Runde 2 ist versiegelt" in html and "Bewahre diese E-Mail auf." in text
    for english in ("Round 1:", "(you)", "What really happened", "The round's page", "Keep this email", ">Player<"):
        assert english not in text and english not in html, english


def test_the_korean_seats_round_digest_is_korean(digests: dict[str, OutboxMessage]) -> None:
    row = digests["bo"]
    text, html = flat(row.body_text), row.body_html or ""

    assert row.headers["Content-Language"] == "ko"
    assert "1라운드: " in text and "<strong>1라운드:</strong>" in html
    assert "Bo (나): 광부" in text and "<strong>Bo</strong> (나)" in html
    assert ">플레이어</th>" in html and ">역할</th>" in html and ">금 카드</th>" in html
    assert "1라운드에 실제로 일어난 일" in text and "<strong>역할:</strong> Ann: 광부; Bo: 광부;" in html
    assert "2라운드가 봉인됐어요" in html and "이 메일을 보관해 두세요." in text
    for english in ("Round 1:", "(you)", "What really happened", "The round's page", "Keep this email", ">Player<"):
        assert english not in text and english not in html, english


def test_each_inbox_line_is_its_text_parts_first_paragraph_in_its_language(digests: dict[str, OutboxMessage]) -> None:
    for name, row in digests.items():
        line = inbox_line(row.body_text or "")
        hidden = (row.body_html or "").split('<div style="display:none;', 1)[1].split("</div>", 1)[0]

        assert line and line in hidden, name
    assert inbox_line(digests["ann"].body_text or "").startswith("Runde 1")
    assert inbox_line(digests["bo"].body_text or "").startswith("1라운드")


def test_the_english_seats_read_english_as_before(digests: dict[str, OutboxMessage]) -> None:
    for name in ("cy", "di"):
        row = digests[name]
        text = flat(row.body_text)

        assert row.headers["Content-Language"] == "en"
        assert "Round 1: " in text and f"{name.capitalize()} (you): " in text
        assert "WHAT REALLY HAPPENED IN ROUND 1" in text and "Keep this email." in text


def test_the_sender_says_what_the_email_wants_in_its_language(digests: dict[str, OutboxMessage]) -> None:
    said = {name: as_sent(row) for name, row in digests.items()}

    assert said["ann"]["From"].addresses[0].display_name == "Runde vorbei - Saboteur"
    assert said["bo"]["From"].addresses[0].display_name == "라운드 종료 - Saboteur"
    assert str(said["cy"]["From"]) == str(said["di"]["From"]) == "Round over - Saboteur <game@pbem.test>"
    assert {message["From"].addresses[0].addr_spec for message in said.values()} == {"game@pbem.test"}
    # on the wire: English stays plain words; German and Korean are encoded as any word outside ASCII
    assert b"From: Round over - Saboteur <game@pbem.test>\r\n" in wire_bytes(build_message(
        outgoing_mail(digests["cy"]), FROM))
    assert b"From: =?utf-8?" in wire_bytes(build_message(outgoing_mail(digests["bo"]), FROM))


def test_subject_and_conversation_headers_are_those_of_any_language(digests: dict[str, OutboxMessage]) -> None:
    rows = digests.values()

    assert {row.subject for row in rows} == {"Test mine - Saboteur"}
    assert {row.headers["Thread-Topic"] for row in rows} == {"Test mine - Saboteur"}
    assert {frozenset(row.headers) - {"Content-Language"} for row in rows} == {
        frozenset({"Thread-Topic", "Auto-Submitted"})
    }  # the table's first email to each: the root of its conversation, no unsubscribe header for a digest
    for row in rows:
        message = as_sent(row)
        assert message["Message-ID"] == row.message_id and message["Subject"] == "Test mine - Saboteur"
        assert message["List-Unsubscribe"] is None and message["In-Reply-To"] is None


def test_every_email_of_a_conversation_replies_to_its_root_whatever_the_language(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    game_id = round_one_ends(runtime, arranged_game, {0: "de", 1: "ko"})
    runtime.seat_languages.choose(game_id, 0, "ko")  # Ann changes her mind: her next email is Korean
    play_until_turn_of(runtime, game_id, 0)  # and Ann is emailed her turn
    rows = {name: [row for row in mailbox(runtime, to=f"{name}@example.org") if row.body_text is not None]
            for name in ("ann", "bo", "cy", "di")}  # the emails written (a turn email played before it went is not)

    for name, written in rows.items():
        [root] = [row for row in written if "In-Reply-To" not in row.headers]  # its conversation's first
        later = [row for row in written if row is not root]
        for row in later:
            assert row.headers["In-Reply-To"] == root.message_id == row.headers["References"], (name, row.kind)
            assert row.subject == "Re: Test mine - Saboteur" and row.headers["Thread-Topic"] == "Test mine - Saboteur"
    assert [(row.kind, row.headers["Content-Language"]) for row in rows["ann"]] == [
        ("round_digest", "de"), ("your_turn", "ko")
    ]
    assert {row.headers["Content-Language"] for row in rows["bo"]} == {"ko"}


def test_a_subject_of_its_own_is_written_in_the_language_the_email_is() -> None:
    subjects = {language: (PLAYER_DAILY.subject(2), SPECTATOR_ROUND_END.subject(1, "Friday mine"))
                for language in ("de", "ko")}
    for language, (daily, round_end) in subjects.items():
        with in_language(language):
            written = (str(daily), str(round_end))
        with in_language("en"):
            english = (str(daily), str(round_end))

        assert english == ("Your turn in 2 games - Saboteur", "Round 1 of Friday mine is over - Saboteur")
        assert written != english and all(words.endswith(" - Saboteur") for words in written), language
    with in_language("de"):
        assert str(subjects["de"][0]) == "Du bist in 2 Spielen am Zug - Saboteur"
    with in_language("ko"):
        assert "1라운드가 끝났어요" in str(subjects["ko"][1])


@pytest.mark.parametrize(("language", "said"), [
    ("de", ("Das Geben von Runde 1, offengelegt", '<a href="https://pbem.test/play/x/rounds/1" style="color:#7a4b1e;">'
            "Die Seite der Runde</a> veröffentlicht jetzt", "von Hand mit <code>sha256sum</code>.")),
    ("ko", ("1라운드에 나눈 패 공개", '이제 <a href="https://pbem.test/play/x/rounds/1" style="color:#7a4b1e;">'
            "라운드 페이지</a>에서", "<code>sha256sum</code>을 쓰세요.")),
    ("en", ("Round 1's deal, opened", '<a href="https://pbem.test/play/x/rounds/1" style="color:#7a4b1e;">'
            "The round's page</a> now publishes", "by hand with <code>sha256sum</code>.")),
])
def test_an_opened_deal_is_told_in_the_readers_language(language: str, said: tuple[str, ...]) -> None:
    opened = SimpleNamespace(round=1, commitment="ab" * 32)
    with in_language(language):
        html = email_templates().get_template("email/_trust.html").render(opened=opened, link="https://pbem.test/play/x")
        text = email_templates().get_template("email/_trust.txt").render(opened=opened, link="https://pbem.test/play/x")

    assert all(words in html for words in said), html
    assert "<" not in text and "ab" * 32 in text and "https://pbem.test/play/x/rounds/1" in text


def test_a_sender_label_of_no_language_is_english() -> None:
    assert sender(FROM, "game_over") == "Game over - Saboteur <game@pbem.test>"
    assert sender(FROM, "game_over", "de") == "Spiel vorbei - Saboteur <game@pbem.test>"
    assert sender(FROM, "host_link", "ko") == FROM  # an email with a subject of its own keeps the configured name
