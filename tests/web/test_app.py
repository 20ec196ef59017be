"""The web layer: home page, health check, errors as pages or JSON, security headers, side-effect-free GETs."""

from __future__ import annotations

import dataclasses

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import InvalidMove, PbemError, StaleTurn
from pbem.service.turns.values import PlayerSpec
from tests.support.database import dump
from tests.support.games import PEOPLE
from tests.support.web import app_runtime
from tests.support.web import built_app as build

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def raise_on_request(app: Flask, error: Exception) -> str:
    """A route that fails the way a real view would, to exercise the error handlers."""

    def view() -> str:
        raise error

    path = f"/test-raise-{type(error).__name__.lower()}"
    app.add_url_rule(path, endpoint=path, view_func=view)
    return path


def test_healthz_reports_a_reachable_database(client: FlaskClient) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "database": "reachable"}


def test_healthz_reports_an_unreachable_database_with_503(
    config: Config, clock: SettableClock, chance: SeededChance, tmp_path
) -> None:
    broken = dataclasses.replace(config, database_url=f"sqlite:///{tmp_path / 'missing' / 'dir' / 'db.sqlite3'}")
    for app in build(broken, clock, chance):
        response = app.test_client().get("/healthz")

        assert response.status_code == 503
        assert response.get_json() == {"status": "unavailable", "database": "unreachable"}


def test_the_home_page_says_what_this_is(client: FlaskClient) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert b"Saboteur" in response.data and b"email" in response.data
    assert b'href="/host"' in response.data  # where a host starts


def test_the_rules_page_explains_both_readings_of_the_geologists_share(client: FlaskClient) -> None:
    """Rulebook: both teams win "along with all other 'non-Saboteurs'" when the Boss, a Geologist or the Profiteer
    connects; whether Geologists are among them is the host's option, and the rules page says both readings."""
    page = " ".join(client.get("/rules").get_data(as_text=True).split())

    assert "By default they are not among the winners: they take their crystals and nothing more." in page
    assert '("Geologists share gold" on the new-game form): then the Geologists also count as winners' in page


def test_in_development_the_home_page_lists_demo_links_for_people_only(app: Flask, client: FlaskClient) -> None:
    games = app_runtime(app).games
    game_id = games.create_game(title="Demo game", players=[PEOPLE[0], PlayerSpec("Bot 1", is_bot=True),
                                PlayerSpec("Bot 2", is_bot=True)], host_email="ann@example.org", is_demo=True)
    games.start_game(game_id)
    [ann, *_] = games.invites(game_id)

    page = client.get("/").get_data(as_text=True)

    assert f'href="{ann.link}"' in page
    assert "Bot 1" not in page


def test_in_production_the_home_page_lists_no_links(config: Config, clock: SettableClock, chance: SeededChance) -> None:
    for app in build(dataclasses.replace(config, mode="production"), clock, chance):
        games = app_runtime(app).games
        game_id = games.create_game(title="Demo game", players=PEOPLE, host_email="ann@example.org", is_demo=True)
        games.start_game(game_id)

        page = app.test_client().get("/").get_data(as_text=True)

        assert "/play/" not in page


@pytest.mark.parametrize("error", [StaleTurn(), InvalidMove("You cannot build there: the paths do not fit.")])
def test_service_errors_become_json_with_their_status(app: Flask, client: FlaskClient, error: PbemError) -> None:
    path = raise_on_request(app, error)

    response = client.get(path, headers={"Accept": "application/json"})

    assert response.status_code == error.status
    assert response.get_json() == {"error": error.code, "message": error.message}


def test_service_errors_become_a_page_for_people(app: Flask, client: FlaskClient) -> None:
    path = raise_on_request(app, InvalidMove("You cannot build there: the paths do not fit."))

    response = client.get(path, headers={"Accept": "text/html"})

    assert response.status_code == 422
    assert response.mimetype == "text/html"
    assert "You cannot build there: the paths do not fit." in response.get_data(as_text=True)


def test_unknown_pages_and_methods_get_their_status(client: FlaskClient) -> None:
    assert client.get("/no-such-page").status_code == 404
    assert client.get("/no-such-page.json").get_json()["error"] == "not_found"
    assert client.post("/healthz").status_code == 405


def test_an_unexpected_error_is_a_plain_500_without_details(app: Flask, client: FlaskClient) -> None:
    app.testing = False  # as in production: the handler answers instead of the test client re-raising
    path = raise_on_request(app, RuntimeError("secret internals"))

    response = client.get(path)

    assert response.status_code == 500
    assert "secret internals" not in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/healthz", "/no-such-page", "/static/site.css"])
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)

    for header, value in SECURITY_HEADERS.items():
        assert response.headers[header] == value
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_pages_use_no_inline_script_or_style(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)

    assert "<script>" not in page and "style=" not in page and "<style" not in page


def test_get_and_head_change_nothing(app: Flask, client: FlaskClient) -> None:
    games = app_runtime(app).games
    game_id = games.create_game(title="Demo game", players=PEOPLE, host_email="ann@example.org", is_demo=True)
    games.start_game(game_id)
    before = dump(app_runtime(app).db)
    routes = [rule for rule in app.url_map.iter_rules() if "GET" in rule.methods and not rule.arguments]
    assert {rule.rule for rule in routes} >= {"/", "/healthz"}

    for rule in routes:
        client.get(rule.rule)
        client.head(rule.rule)

    assert dump(app_runtime(app).db) == before
