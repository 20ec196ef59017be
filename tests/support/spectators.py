"""Spectator links as a host makes them and round-end subscriptions as a spectator confirms them."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from pbem.runtime import Runtime
from tests.support.mail import mailbox
from tests.support.web import post

WATCH = re.compile(r'href="https?://[^"]+(/watch/[^"]+)"')


def spectator_path(client: FlaskClient, game_id: str, **fields: str) -> str:
    """The host makes a spectator link on the game's page; its path."""
    assert post(client, f"/host/games/{game_id}/spectators", **fields).status_code == 303
    found = WATCH.findall(client.get(f"/host/games/{game_id}").get_data(as_text=True))
    assert found
    return found[-1]


def confirmation_path(runtime: Runtime, email: str) -> str:
    """The path of the newest spectator confirmation link emailed to `email`."""
    body = mailbox(runtime, "spectator_confirm", to=email)[-1].body_text
    found = re.search(r"/watch/confirm/(\S+)", body)
    assert found, body
    return "/watch/confirm/" + found.group(1)
