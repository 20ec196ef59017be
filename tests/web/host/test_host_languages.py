"""The host's pages follow the host's browser (Accept-Language, or the switch's cookie): the dashboard, the new-game
form and its checks, the game's page, its questions and what each action answers, the invite page, rollback and
reveal, in German or Korean; English stays as it was. The host's table-talk lines are stored in English and read
back in each reader's language; a rematch keeps its game's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.i18n import in_language
from pbem.models import Game
from pbem.service.talk.system_lines import SYSTEM_LINES, read_system_line, system_line
from tests.support.invites import create_invite
from tests.support.mail import mailbox
from tests.support.web import app_runtime, post, redirected_id, system_lines
from tests.web.host.test_games import form

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

# Sentences of the host's pages that must not be left in English on a German or Korean page.
ENGLISH = ("Table talk", "Whose turn", "Reminders sent", "Replace player", "Links and address", "Host actions",
           "What happened (public)", "Spectators may read", "The table's channel", "Emergency reveal", "Seats",
           "Sign out everywhere", "New game", "Waiting since", "Mail problems", "Copy settings", "days", "hours",
           "ago", "just now")
WORDS = {
    "de": {"talk": "Tischgespräch", "pause?": "Spiel pausieren?", "paused": "Das Spiel ist pausiert",
           "status": "läuft", "title": "Gib dem Spiel einen Titel.", "renewed": "Die Spielleitung hat den Link von "
           "Ben erneuert.", "share": "Der Link zum Teilen", "copied": 'data-copied="Kopiert"',
           "bound": "Zeit pro Zug (Stunden) muss mindestens 1 sein, nicht 0."},
    "ko": {"talk": "테이블 채팅", "pause?": "게임을 일시 정지할까요?", "paused": "게임을 일시 정지했어요",
           "status": "진행 중", "title": "게임 제목을 정하세요.", "renewed": "방장이 Ben 님의 링크를 새로 만들었어요.",
           "share": "공유할 링크", "copied": 'data-copied="복사했어요"',
           "bound": "차례마다 주어지는 시간 (시간): 0이 아니라 1 이상이어야 해요."},
}


def visible_text(html: str) -> str:
    """The words a reader sees in a page's main part (no markup, scripts or drawings), spaces collapsed."""
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    main = re.sub(r"<script.*?</script>|<svg.*?</svg>", " ", main, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", main).replace("&#39;", "'").split())


def started(host: FlaskClient, **fields: Any) -> str:
    response = post(host, "/host/new", **form(**fields))
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return redirected_id(response)


def reading(host: FlaskClient, language: str) -> FlaskClient:
    """The host's browser, switched to `language` (the visible switch's cookie)."""
    host.set_cookie("pbem_language", language)
    return host


def page_text(response: Any) -> str:
    return visible_text(response.get_data(as_text=True))


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_game_page_is_all_in_the_hosts_browser_language(host: FlaskClient, language: str) -> None:
    game_id = started(host, bots="1", name_3=None, email_3=None)

    response = host.get(f"/host/games/{game_id}", headers={"Accept-Language": f"{language},en;q=0.5"})

    html = response.get_data(as_text=True)
    text = visible_text(html)
    assert f'<html lang="{language}">' in html
    assert WORDS[language]["talk"] in text and WORDS[language]["status"] in text
    assert [sentence for sentence in ENGLISH if sentence in text] == []


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_dashboard_and_the_new_game_form_follow_the_switch(host: FlaskClient, language: str) -> None:
    started(host)
    reading(host, language)

    dashboard = page_text(host.get("/host"))
    blank = post(host, "/host/new", **form(title="", policy_deadline_hours="0"))

    assert [sentence for sentence in ENGLISH if sentence in dashboard] == []
    assert blank.status_code == 422
    assert WORDS[language]["title"] in page_text(blank) and WORDS[language]["bound"] in page_text(blank)


@pytest.mark.parametrize("language", ["de", "ko"])
def test_a_question_and_the_answer_to_it_are_in_the_hosts_language(host: FlaskClient, language: str) -> None:
    game_id = started(host)
    reading(host, language)

    asked = post(host, f"/host/games/{game_id}/pause")
    done = post(host, f"/host/games/{game_id}/pause", confirm="yes")

    assert WORDS[language]["pause?"] in page_text(asked)
    assert done.status_code == 303
    assert WORDS[language]["paused"] in page_text(host.get(f"/host/games/{game_id}"))


def test_english_stays_as_it_was(host: FlaskClient) -> None:
    game_id = started(host)

    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    asked = post(host, f"/host/games/{game_id}/extend", hours="5").get_data(as_text=True)

    assert '<html lang="en">' in page
    assert "<h2>Table talk</h2>" in page and "0 timeouts in a row" in page and "(just now)" in page
    assert "The turn&#39;s deadline moves 5 hours later." in asked
    assert "<label for=\"channel-url\">The channel&#39;s address</label>" in page


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_hosts_lines_in_table_talk_are_stored_in_english_and_read_in_the_readers_language(
    app: Flask, host: FlaskClient, language: str
) -> None:
    game_id = started(host)
    reading(host, language)

    assert post(host, f"/host/games/{game_id}/seats/1/rotate", confirm="yes").status_code == 303

    assert system_lines(app_runtime(app), game_id)[-1] == "The host renewed Ben's link."
    assert WORDS[language]["renewed"] in page_text(host.get(f"/host/games/{game_id}"))


HOST_LINES = ("seat_handover", "link_rotated", "link_resent", "email_corrected", "rolled_back", "game_ended",
              "game_abandoned", "host_revealed")


@pytest.mark.parametrize("language", ["de", "ko"])
def test_every_table_line_reads_back_with_its_values(language: str) -> None:
    values = {"seat": 2, "new_name": "Eve takes over", "old_name": "Ben", "name": "Ann's", "to_seq": 4,
              "reason": "A slip: Ann's card", "standings": "Ann 3, Ben 0"}
    for kind in HOST_LINES:
        message = SYSTEM_LINES[kind]
        assert isinstance(message, str)
        named = {name: values[name] for name in re.findall(r"%\((\w+)\)s", message)}
        stored = system_line(kind, **named)
        with in_language(language):
            read = read_system_line(stored)
            assert read != stored, kind
            for value in named.values():
                assert str(value) in read, (kind, read)
        with in_language("en"):
            assert read_system_line(stored) == stored
    assert read_system_line("Somebody else's line.") == "Somebody else's line."


@pytest.mark.parametrize("language", ["de", "ko"])
def test_the_invite_page_and_its_script_words(host: FlaskClient, language: str) -> None:
    invite_id = create_invite(host)
    reading(host, language)

    html = host.get(f"/host/invites/{invite_id}").get_data(as_text=True)

    assert WORDS[language]["share"] in visible_text(html) and WORDS[language]["copied"] in html


def test_a_rematch_keeps_its_games_language(app: Flask, host: FlaskClient) -> None:
    game_id = started(host, language="ko")
    assert post(host, f"/host/games/{game_id}/end", confirm="yes").status_code == 303

    rematch = redirected_id(post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated"))

    with app_runtime(app).db.read() as session:
        assert session.scalar(select(Game.language).where(Game.public_id == rematch)) == "ko"
    assert {message.headers["Content-Language"] for message in mailbox(app_runtime(app), "game_started")} == {"ko"}
