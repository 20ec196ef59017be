"""Helpers shared by the host page tests: signing a test client in through the emailed host link."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from pbem.runtime import Runtime
from tests.conftest import mailbox

CSRF = "host-test-csrf-token"
HOST = "host@example.org"  # the host of the games `new_game` makes
LINK = re.compile(r"https?://\S+/host/sign-in/\S+")


def with_csrf(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session["csrf"] = CSRF


def post(client: FlaskClient, path: str, **fields: Any) -> Any:
    """A POST with the session's CSRF token (and whatever fields the form sends)."""
    return client.post(path, data={"csrf_token": CSRF, **fields})


def host_link(runtime: Runtime, email: str) -> str:
    message = mailbox(runtime, "host_link", to=email)[-1]
    found = LINK.search(message.body_text)
    assert found, message.body_text
    return found.group(0)


def sign_in(client: FlaskClient, runtime: Runtime, email: str = HOST) -> None:
    with_csrf(client)
    assert post(client, "/host", email=email).status_code == 200
    path = "/host/" + host_link(runtime, email).split("/host/", 1)[1]
    assert client.get(path).status_code == 200
    assert post(client, path).status_code == 303
