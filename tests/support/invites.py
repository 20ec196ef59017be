"""A game players join by link, driven through the pages as a host and the people joining would: the new game
form with open seats, the shared link, a joiner's request and the confirmation link that reaches their inbox."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from pbem.runtime import Runtime
from pbem.web.host.forms import policy_fields
from tests.support.mail import mailbox
from tests.support.web import app_runtime, post, redirected_id, with_csrf

CONFIRM_LINK = re.compile(r"https?://\S+/join/confirm/[\w.-]+")


def invite_form(**fields: Any) -> dict[str, Any]:
    policies = {f"policy_{p.name}": p.shown(p.default) for p in policy_fields() if p.kind != "flag" or p.default}
    base = {"title": "Open mine", "join": "link", "variant": "base", "places": "3", "bots": "0", "order": "in_order",
            "host_timezone": "Europe/Berlin", **policies}
    base.update(fields)
    return {key: value for key, value in base.items() if value is not None}


def create_invite(host: FlaskClient, **fields: Any) -> str:
    response = post(host, "/host/new", **invite_form(**fields))
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return redirected_id(response)


def share_link(host: FlaskClient, invite_id: str) -> str:
    page = host.get(f"/host/invites/{invite_id}").get_data(as_text=True)
    found = re.search(r'id="invite-link" value="[^"]*(/join/[^"]+)"', page)
    assert found, page[:3000]
    return found.group(1)


def person(app: Flask, address: str = "198.51.100.7") -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    with_csrf(client)
    return client


def join(app: Flask, link: str, name: str, email: str, timezone: str = "America/New_York", **kw: Any) -> Any:
    return post(person(app, **kw), link, name=name, email=email, timezone=timezone)


def confirm_path(runtime: Runtime, email: str) -> str:
    message = mailbox(runtime, "join_confirm", to=email)[-1]
    found = CONFIRM_LINK.search(message.body_text)
    assert found, message.body_text
    return "/join/" + found.group(0).split("/join/", 1)[1]


def joined_and_confirmed(app: Flask, link: str, name: str, email: str, **kw: Any) -> None:
    assert join(app, link, name, email, **kw).status_code == 200
    client = person(app)
    path = confirm_path(app_runtime(app), email)
    assert client.get(path).status_code == 200
    assert post(client, path).status_code == 200
