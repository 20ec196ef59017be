"""The game's language, chosen on the host's new-game form (each language named in itself, the host's page's own
language chosen to begin with): its seats read it until each chooses, and their first emails are written in it."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.models import Game
from tests.support.mail import mailbox
from tests.support.web import app_runtime, post, redirected_id
from tests.web.host.test_games import form

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def game_language(app: Flask, game_id: str) -> str | None:
    with app_runtime(app).db.read() as session:
        return session.scalar(select(Game.language).where(Game.public_id == game_id))


def test_the_form_offers_each_language_named_in_itself_the_pages_own_first(host: FlaskClient) -> None:
    page = host.get("/host/new", headers={"Accept-Language": "ko"}).get_data(as_text=True)

    field = page.split('<select id="language" name="language"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r'<option value="([a-z]+)" lang="[a-z]+"( selected)?>([^<]+)<', field) == [
        ("de", "", "Deutsch"), ("en", "", "English"), ("ko", " selected", "한국어"),
    ]


def test_the_games_language_is_its_seats_and_their_first_emails_are_in_it(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form(language="de"))

    game_id = redirected_id(response)
    assert game_language(app, game_id) == "de"
    started = mailbox(app_runtime(app), "game_started")
    assert {message.headers["Content-Language"] for message in started} == {"de"}
    assert all("Dieser Link gehört nur dir" in (message.body_text or "").replace("\n", " ") for message in started)


def test_a_language_the_server_does_not_speak_creates_nothing(host: FlaskClient, app: Flask) -> None:
    response = post(host, "/host/new", **form(language="fr"))

    assert response.status_code == 422
    assert mailbox(app_runtime(app), "game_started") == []
