"""The app's addresses are built once and remembered: always the address Flask would build, under any root."""

from __future__ import annotations

import flask
from flask import Flask

from pbem.web.urls import EXTENSION_KEY, LIMIT, url_for


def test_a_remembered_address_is_the_one_flask_builds(app: Flask) -> None:
    with app.test_request_context("/"):
        first = url_for("player.table", game_id="abc")
        again = url_for("player.table", game_id="abc")
        assert first == again == flask.url_for("player.table", game_id="abc") == "/table/abc"
        assert url_for("static", filename="play.css") == flask.url_for("static", filename="play.css")


def test_each_root_and_host_gets_its_own_address(app: Flask) -> None:
    with app.test_request_context("/"):
        plain = url_for("player.table", game_id="abc")
    with app.test_request_context("/", base_url="http://example.org/saboteur"):
        mounted = url_for("player.table", game_id="abc")
        external = url_for("player.table", game_id="abc", _external=True)
    with app.test_request_context("/", base_url="https://other.example/"):
        elsewhere = url_for("player.table", game_id="abc", _external=True)

    assert (plain, mounted) == ("/table/abc", "/saboteur/table/abc")
    assert (external, elsewhere) == ("http://example.org/saboteur/table/abc", "https://other.example/table/abc")


def test_values_that_cannot_be_remembered_are_built_each_time(app: Flask) -> None:
    with app.test_request_context("/"):
        assert url_for("player.table", game_id="abc", tag=["a", "b"]) == "/table/abc?tag=a&tag=b"


def test_the_table_of_addresses_stays_bounded(app: Flask) -> None:
    with app.test_request_context("/"):
        for number in range(LIMIT + 10):
            url_for("player.table", game_id=f"g{number}")
        assert len(app.extensions[EXTENSION_KEY]) <= LIMIT
        assert url_for("player.table", game_id="g3") == "/table/g3"
